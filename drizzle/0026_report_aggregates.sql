CREATE TABLE "report_aggregate_state" (
	"id" integer PRIMARY KEY NOT NULL,
	"passes" bigint DEFAULT 0 NOT NULL,
	"passed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "report_bestseller_days" (
	"zone" text NOT NULL,
	"day" date NOT NULL,
	"store_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"qty" numeric NOT NULL,
	"revenue" numeric NOT NULL,
	"orders" integer NOT NULL,
	"last_item_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_bestseller_months" (
	"zone" text NOT NULL,
	"month" date NOT NULL,
	"store_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"qty" numeric NOT NULL,
	"revenue" numeric NOT NULL,
	"orders" integer NOT NULL,
	"last_item_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_coupon_days" (
	"zone" text NOT NULL,
	"day" date NOT NULL,
	"local_day" date NOT NULL,
	"store_id" integer NOT NULL,
	"code" text NOT NULL,
	"rule_name" text,
	"uses" integer NOT NULL,
	"discount" numeric NOT NULL,
	"revenue" numeric NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_days" (
	"zone" text NOT NULL,
	"day" date NOT NULL,
	CONSTRAINT "report_days_zone_day_pk" PRIMARY KEY("zone","day")
);
--> statement-breakpoint
CREATE TABLE "report_marks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_sales_days" (
	"zone" text NOT NULL,
	"day" date NOT NULL,
	"local_day" date NOT NULL,
	"store_id" integer NOT NULL,
	"orders" integer NOT NULL,
	"revenue" numeric NOT NULL,
	"subtotal" numeric NOT NULL,
	"tax" numeric NOT NULL,
	"shipping" numeric NOT NULL,
	"discounts" numeric NOT NULL,
	"refunds" numeric NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_tax_days" (
	"zone" text NOT NULL,
	"day" date NOT NULL,
	"local_day" date NOT NULL,
	"store_id" integer NOT NULL,
	"percent" numeric,
	"tax" numeric NOT NULL,
	"orders" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "report_bestseller_days_zone_day_idx" ON "report_bestseller_days" USING btree ("zone","day");--> statement-breakpoint
CREATE INDEX "report_bestseller_months_zone_month_idx" ON "report_bestseller_months" USING btree ("zone","month");--> statement-breakpoint
CREATE INDEX "report_coupon_days_zone_day_idx" ON "report_coupon_days" USING btree ("zone","day");--> statement-breakpoint
CREATE INDEX "report_sales_days_zone_day_idx" ON "report_sales_days" USING btree ("zone","day");--> statement-breakpoint
CREATE INDEX "report_tax_days_zone_day_idx" ON "report_tax_days" USING btree ("zone","day");--> statement-breakpoint
-- Written by hand from here on (drizzle-kit knows only the tables): the pass state's one row, and the statement
-- triggers that mark every change to what the sales reports read, by the order's creation instant
-- (src/modules/orders/report-aggregates.ts). The states that are not sales, ('canceled', 'pending_payment'),
-- are the reports' NOT_SALES (src/modules/orders/reports.ts).
INSERT INTO "report_aggregate_state" ("id") VALUES (1) ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE FUNCTION report_mark_orders_written() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO report_marks (created_at) SELECT DISTINCT n.created_at FROM new_rows n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO report_marks (created_at) SELECT DISTINCT o.created_at FROM old_rows o;
  ELSE
    -- only what the reports read: an order invoiced, shipped or completed changes none of it
    INSERT INTO report_marks (created_at)
    SELECT DISTINCT x.at
      FROM old_rows o FULL JOIN new_rows n ON n.id = o.id
      CROSS JOIN LATERAL (VALUES (o.created_at), (n.created_at)) x(at)
     WHERE x.at IS NOT NULL
       AND (o.id IS NULL OR n.id IS NULL
         OR (o.created_at, o.store_id, o.state IN ('canceled', 'pending_payment'), o.base_grand_total, o.base_total_canceled,
             o.base_subtotal, o.base_subtotal_canceled, o.base_tax_amount, o.base_shipping_amount, o.base_shipping_tax_amount,
             o.base_discount_amount, o.base_total_refunded, o.coupon_code, o.coupon_rule_name)
            IS DISTINCT FROM
            (n.created_at, n.store_id, n.state IN ('canceled', 'pending_payment'), n.base_grand_total, n.base_total_canceled,
             n.base_subtotal, n.base_subtotal_canceled, n.base_tax_amount, n.base_shipping_amount, n.base_shipping_tax_amount,
             n.base_discount_amount, n.base_total_refunded, n.coupon_code, n.coupon_rule_name));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION report_mark_order_items_written() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO report_marks (created_at)
    SELECT DISTINCT o.created_at FROM orders o WHERE o.id IN (SELECT n.order_id FROM new_rows n);
  ELSIF TG_OP = 'DELETE' THEN
    -- lines deleted with their order are marked by the order's own trigger (it is gone here)
    INSERT INTO report_marks (created_at)
    SELECT DISTINCT o.created_at FROM orders o WHERE o.id IN (SELECT d.order_id FROM old_rows d);
  ELSE
    INSERT INTO report_marks (created_at)
    SELECT DISTINCT o.created_at FROM orders o
     WHERE o.id IN (
       SELECT x.order_id
         FROM old_rows d FULL JOIN new_rows n ON n.id = d.id
         CROSS JOIN LATERAL (VALUES (d.order_id), (n.order_id)) x(order_id)
        WHERE x.order_id IS NOT NULL
          AND (d.id IS NULL OR n.id IS NULL
            OR (d.order_id, d.product_id, d.qty_ordered, d.base_row_total, d.base_discount_amount, d.tax_percent, d.base_tax_amount)
               IS DISTINCT FROM
               (n.order_id, n.product_id, n.qty_ordered, n.base_row_total, n.base_discount_amount, n.tax_percent, n.base_tax_amount)));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- a truncated table leaves no rows to mark: every built day is forgotten, and the pass builds them again
CREATE FUNCTION report_forget_built_days() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM report_days;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER report_marks_orders_insert AFTER INSERT ON orders REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_mark_orders_written();
--> statement-breakpoint
CREATE TRIGGER report_marks_orders_update AFTER UPDATE ON orders REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_mark_orders_written();
--> statement-breakpoint
CREATE TRIGGER report_marks_orders_delete AFTER DELETE ON orders REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_mark_orders_written();
--> statement-breakpoint
CREATE TRIGGER report_marks_order_items_insert AFTER INSERT ON order_items REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_mark_order_items_written();
--> statement-breakpoint
CREATE TRIGGER report_marks_order_items_update AFTER UPDATE ON order_items REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_mark_order_items_written();
--> statement-breakpoint
CREATE TRIGGER report_marks_order_items_delete AFTER DELETE ON order_items REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_mark_order_items_written();
--> statement-breakpoint
CREATE TRIGGER report_days_orders_truncate AFTER TRUNCATE ON orders
  FOR EACH STATEMENT EXECUTE FUNCTION report_forget_built_days();
--> statement-breakpoint
CREATE TRIGGER report_days_order_items_truncate AFTER TRUNCATE ON order_items
  FOR EACH STATEMENT EXECUTE FUNCTION report_forget_built_days();
