CREATE TABLE "search_terms" (
	"store_id" integer NOT NULL,
	"day" date NOT NULL,
	"term" text NOT NULL,
	"hits" integer DEFAULT 0 NOT NULL,
	"results" integer DEFAULT 0 NOT NULL,
	"last_searched_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "search_terms_day_store_id_term_pk" PRIMARY KEY("day","store_id","term")
);
--> statement-breakpoint
CREATE INDEX "orders_store_created_idx" ON "orders" USING btree ("store_id","created_at");
--> statement-breakpoint
CREATE INDEX "customers_created_idx" ON "customers" USING btree ("created_at");
--> statement-breakpoint
CREATE INDEX "carts_active_updated_idx" ON "carts" USING btree ("updated_at") WHERE is_active;
--> statement-breakpoint
DROP INDEX IF EXISTS "order_items_order_idx";
--> statement-breakpoint
CREATE INDEX "order_items_order_report_idx" ON "order_items" USING btree ("order_id","product_id","qty_ordered","base_row_total","base_discount_amount","tax_percent","base_tax_amount");
