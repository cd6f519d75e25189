CREATE TABLE "credit_memo_comments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"credit_memo_id" integer NOT NULL,
	"comment" text NOT NULL,
	"is_customer_notified" boolean DEFAULT false NOT NULL,
	"is_visible_on_front" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credit_memo_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"credit_memo_id" integer NOT NULL,
	"order_item_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"sku" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"qty" numeric(12, 4) NOT NULL,
	"back_to_stock" boolean DEFAULT false NOT NULL,
	"price" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_price" numeric(20, 4) DEFAULT '0' NOT NULL,
	"price_incl_tax" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_price_incl_tax" numeric(20, 4) DEFAULT '0' NOT NULL,
	"row_total" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_row_total" numeric(20, 4) DEFAULT '0' NOT NULL,
	"row_total_incl_tax" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_row_total_incl_tax" numeric(20, 4) DEFAULT '0' NOT NULL,
	"tax_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_tax_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"discount_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_discount_amount" numeric(20, 4) DEFAULT '0' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credit_memos" (
	"id" serial PRIMARY KEY NOT NULL,
	"increment_id" text NOT NULL,
	"order_id" integer NOT NULL,
	"invoice_id" integer,
	"store_id" integer NOT NULL,
	"state" integer NOT NULL,
	"currency" text NOT NULL,
	"base_currency" text NOT NULL,
	"offline" boolean DEFAULT true NOT NULL,
	"subtotal" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_subtotal" numeric(20, 4) DEFAULT '0' NOT NULL,
	"subtotal_incl_tax" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_subtotal_incl_tax" numeric(20, 4) DEFAULT '0' NOT NULL,
	"tax_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_tax_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"shipping_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_shipping_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"shipping_incl_tax" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_shipping_incl_tax" numeric(20, 4) DEFAULT '0' NOT NULL,
	"shipping_tax_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_shipping_tax_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"discount_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_discount_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"adjustment_positive" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_adjustment_positive" numeric(20, 4) DEFAULT '0' NOT NULL,
	"adjustment_negative" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_adjustment_negative" numeric(20, 4) DEFAULT '0' NOT NULL,
	"grand_total" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_grand_total" numeric(20, 4) DEFAULT '0' NOT NULL,
	"discount_description" text,
	"transaction_id" text,
	"creditmemo_status" integer,
	"email_sent" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_comments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"invoice_id" integer NOT NULL,
	"comment" text NOT NULL,
	"is_customer_notified" boolean DEFAULT false NOT NULL,
	"is_visible_on_front" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"invoice_id" integer NOT NULL,
	"order_item_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"sku" text NOT NULL,
	"name" text NOT NULL,
	"qty" numeric(12, 4) NOT NULL,
	"price" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_price" numeric(20, 4) DEFAULT '0' NOT NULL,
	"price_incl_tax" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_price_incl_tax" numeric(20, 4) DEFAULT '0' NOT NULL,
	"row_total" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_row_total" numeric(20, 4) DEFAULT '0' NOT NULL,
	"row_total_incl_tax" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_row_total_incl_tax" numeric(20, 4) DEFAULT '0' NOT NULL,
	"tax_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_tax_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"discount_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_discount_amount" numeric(20, 4) DEFAULT '0' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"increment_id" text NOT NULL,
	"order_id" integer NOT NULL,
	"store_id" integer NOT NULL,
	"state" integer NOT NULL,
	"currency" text NOT NULL,
	"base_currency" text NOT NULL,
	"total_qty" numeric(12, 4) DEFAULT '0' NOT NULL,
	"subtotal" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_subtotal" numeric(20, 4) DEFAULT '0' NOT NULL,
	"subtotal_incl_tax" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_subtotal_incl_tax" numeric(20, 4) DEFAULT '0' NOT NULL,
	"tax_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_tax_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"shipping_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_shipping_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"shipping_incl_tax" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_shipping_incl_tax" numeric(20, 4) DEFAULT '0' NOT NULL,
	"shipping_tax_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_shipping_tax_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"discount_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_discount_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"giftcard_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_giftcard_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"grand_total" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_grand_total" numeric(20, 4) DEFAULT '0' NOT NULL,
	"discount_description" text,
	"transaction_id" text,
	"email_sent" boolean DEFAULT false NOT NULL,
	"can_void_flag" boolean DEFAULT false NOT NULL,
	"is_used_for_refund" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"child_product_id" integer,
	"product_type" text NOT NULL,
	"sku" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"buy_request" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"product_options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"stock_parts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"gift_message" jsonb,
	"is_virtual" boolean DEFAULT false NOT NULL,
	"is_qty_decimal" boolean DEFAULT false NOT NULL,
	"free_shipping" boolean DEFAULT false NOT NULL,
	"no_discount" boolean DEFAULT false NOT NULL,
	"weight" numeric(12, 4),
	"row_weight" numeric(12, 4),
	"qty_ordered" numeric(12, 4) DEFAULT '0' NOT NULL,
	"qty_invoiced" numeric(12, 4) DEFAULT '0' NOT NULL,
	"qty_shipped" numeric(12, 4) DEFAULT '0' NOT NULL,
	"qty_refunded" numeric(12, 4) DEFAULT '0' NOT NULL,
	"qty_canceled" numeric(12, 4) DEFAULT '0' NOT NULL,
	"qty_backordered" numeric(12, 4),
	"price" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_price" numeric(20, 4) DEFAULT '0' NOT NULL,
	"original_price" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_original_price" numeric(20, 4) DEFAULT '0' NOT NULL,
	"price_incl_tax" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_price_incl_tax" numeric(20, 4) DEFAULT '0' NOT NULL,
	"row_total" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_row_total" numeric(20, 4) DEFAULT '0' NOT NULL,
	"row_total_incl_tax" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_row_total_incl_tax" numeric(20, 4) DEFAULT '0' NOT NULL,
	"tax_percent" numeric(20, 4) DEFAULT '0' NOT NULL,
	"tax_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_tax_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"discount_percent" numeric(20, 4) DEFAULT '0' NOT NULL,
	"discount_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_discount_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"tax_invoiced" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_tax_invoiced" numeric(20, 4) DEFAULT '0' NOT NULL,
	"discount_invoiced" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_discount_invoiced" numeric(20, 4) DEFAULT '0' NOT NULL,
	"row_invoiced" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_row_invoiced" numeric(20, 4) DEFAULT '0' NOT NULL,
	"tax_refunded" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_tax_refunded" numeric(20, 4) DEFAULT '0' NOT NULL,
	"discount_refunded" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_discount_refunded" numeric(20, 4) DEFAULT '0' NOT NULL,
	"amount_refunded" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_amount_refunded" numeric(20, 4) DEFAULT '0' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_status_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"comment" text,
	"status" text NOT NULL,
	"entity_name" text DEFAULT 'order' NOT NULL,
	"is_customer_notified" boolean DEFAULT false NOT NULL,
	"is_visible_on_front" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"increment_id" text NOT NULL,
	"store_id" integer NOT NULL,
	"quote_id" integer,
	"customer_id" integer,
	"customer_email" text NOT NULL,
	"customer_firstname" text,
	"customer_lastname" text,
	"customer_group_id" integer DEFAULT 0 NOT NULL,
	"customer_is_guest" boolean DEFAULT false NOT NULL,
	"customer_note" text,
	"state" text NOT NULL,
	"status" text NOT NULL,
	"hold_before_state" text,
	"hold_before_status" text,
	"currency" text NOT NULL,
	"base_currency" text NOT NULL,
	"base_to_order_rate" numeric(20, 8) DEFAULT '1' NOT NULL,
	"billing_address" jsonb,
	"shipping_address" jsonb,
	"shipping_method" text,
	"shipping_description" text,
	"payment_method" text NOT NULL,
	"payment_title" text NOT NULL,
	"payment_data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"coupon_code" text,
	"coupon_id" integer,
	"coupon_rule_name" text,
	"applied_rule_ids" integer[] DEFAULT '{}'::int[] NOT NULL,
	"giftcards" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"gift_message" jsonb,
	"is_virtual" boolean DEFAULT false NOT NULL,
	"weight" numeric(12, 4),
	"total_item_count" integer DEFAULT 0 NOT NULL,
	"total_qty_ordered" numeric(12, 4) DEFAULT '0' NOT NULL,
	"subtotal" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_subtotal" numeric(20, 4) DEFAULT '0' NOT NULL,
	"subtotal_incl_tax" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_subtotal_incl_tax" numeric(20, 4) DEFAULT '0' NOT NULL,
	"discount_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_discount_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"shipping_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_shipping_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"shipping_incl_tax" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_shipping_incl_tax" numeric(20, 4) DEFAULT '0' NOT NULL,
	"shipping_tax_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_shipping_tax_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"tax_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_tax_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"giftcard_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_giftcard_amount" numeric(20, 4) DEFAULT '0' NOT NULL,
	"grand_total" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_grand_total" numeric(20, 4) DEFAULT '0' NOT NULL,
	"subtotal_invoiced" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_subtotal_invoiced" numeric(20, 4) DEFAULT '0' NOT NULL,
	"total_invoiced" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_total_invoiced" numeric(20, 4) DEFAULT '0' NOT NULL,
	"total_paid" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_total_paid" numeric(20, 4) DEFAULT '0' NOT NULL,
	"subtotal_refunded" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_subtotal_refunded" numeric(20, 4) DEFAULT '0' NOT NULL,
	"total_refunded" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_total_refunded" numeric(20, 4) DEFAULT '0' NOT NULL,
	"subtotal_canceled" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_subtotal_canceled" numeric(20, 4) DEFAULT '0' NOT NULL,
	"total_canceled" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_total_canceled" numeric(20, 4) DEFAULT '0' NOT NULL,
	"tax_invoiced" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_tax_invoiced" numeric(20, 4) DEFAULT '0' NOT NULL,
	"tax_refunded" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_tax_refunded" numeric(20, 4) DEFAULT '0' NOT NULL,
	"shipping_invoiced" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_shipping_invoiced" numeric(20, 4) DEFAULT '0' NOT NULL,
	"shipping_refunded" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_shipping_refunded" numeric(20, 4) DEFAULT '0' NOT NULL,
	"discount_invoiced" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_discount_invoiced" numeric(20, 4) DEFAULT '0' NOT NULL,
	"discount_refunded" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_discount_refunded" numeric(20, 4) DEFAULT '0' NOT NULL,
	"adjustment_positive" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_adjustment_positive" numeric(20, 4) DEFAULT '0' NOT NULL,
	"adjustment_negative" numeric(20, 4) DEFAULT '0' NOT NULL,
	"base_adjustment_negative" numeric(20, 4) DEFAULT '0' NOT NULL,
	"reservations_released" boolean DEFAULT false NOT NULL,
	"access_token_hash" text,
	"email_sent" boolean DEFAULT false NOT NULL,
	"remote_ip" text,
	"x_forwarded_for" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sales_sequences" (
	"entity" text NOT NULL,
	"store_id" integer NOT NULL,
	"last_value" integer NOT NULL,
	CONSTRAINT "sales_sequences_entity_store_id_pk" PRIMARY KEY("entity","store_id")
);
--> statement-breakpoint
CREATE TABLE "shipment_comments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"shipment_id" integer NOT NULL,
	"comment" text NOT NULL,
	"is_customer_notified" boolean DEFAULT false NOT NULL,
	"is_visible_on_front" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shipment_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"shipment_id" integer NOT NULL,
	"order_item_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"sku" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"qty" numeric(12, 4) NOT NULL,
	"price" numeric(20, 4) DEFAULT '0' NOT NULL,
	"row_total" numeric(20, 4) DEFAULT '0' NOT NULL,
	"weight" numeric(12, 4)
);
--> statement-breakpoint
CREATE TABLE "shipment_tracks" (
	"id" serial PRIMARY KEY NOT NULL,
	"shipment_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"carrier_code" text NOT NULL,
	"title" text NOT NULL,
	"track_number" text NOT NULL,
	"description" text,
	"weight" numeric(12, 4),
	"qty" numeric(12, 4),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shipments" (
	"id" serial PRIMARY KEY NOT NULL,
	"increment_id" text NOT NULL,
	"order_id" integer NOT NULL,
	"store_id" integer NOT NULL,
	"total_qty" numeric(12, 4) DEFAULT '0' NOT NULL,
	"total_weight" numeric(12, 4),
	"shipment_status" integer,
	"packages" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"email_sent" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "credit_memo_comments" ADD CONSTRAINT "credit_memo_comments_credit_memo_id_credit_memos_id_fk" FOREIGN KEY ("credit_memo_id") REFERENCES "public"."credit_memos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_memo_items" ADD CONSTRAINT "credit_memo_items_credit_memo_id_credit_memos_id_fk" FOREIGN KEY ("credit_memo_id") REFERENCES "public"."credit_memos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_memo_items" ADD CONSTRAINT "credit_memo_items_order_item_id_order_items_id_fk" FOREIGN KEY ("order_item_id") REFERENCES "public"."order_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_memos" ADD CONSTRAINT "credit_memos_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_memos" ADD CONSTRAINT "credit_memos_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_comments" ADD CONSTRAINT "invoice_comments_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_items" ADD CONSTRAINT "invoice_items_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_items" ADD CONSTRAINT "invoice_items_order_item_id_order_items_id_fk" FOREIGN KEY ("order_item_id") REFERENCES "public"."order_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_status_history" ADD CONSTRAINT "order_status_history_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_comments" ADD CONSTRAINT "shipment_comments_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_items" ADD CONSTRAINT "shipment_items_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_items" ADD CONSTRAINT "shipment_items_order_item_id_order_items_id_fk" FOREIGN KEY ("order_item_id") REFERENCES "public"."order_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_tracks" ADD CONSTRAINT "shipment_tracks_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_memo_comments_memo_idx" ON "credit_memo_comments" USING btree ("credit_memo_id");--> statement-breakpoint
CREATE INDEX "credit_memo_items_memo_idx" ON "credit_memo_items" USING btree ("credit_memo_id");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_memos_increment_id_uq" ON "credit_memos" USING btree ("increment_id");--> statement-breakpoint
CREATE INDEX "credit_memos_order_idx" ON "credit_memos" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "invoice_comments_invoice_idx" ON "invoice_comments" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "invoice_items_invoice_idx" ON "invoice_items" USING btree ("invoice_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_increment_id_uq" ON "invoices" USING btree ("increment_id");--> statement-breakpoint
CREATE INDEX "invoices_order_idx" ON "invoices" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_items_order_idx" ON "order_items" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_status_history_order_idx" ON "order_status_history" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_increment_id_uq" ON "orders" USING btree ("increment_id");--> statement-breakpoint
CREATE INDEX "orders_customer_idx" ON "orders" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_created_idx" ON "orders" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "orders_email_idx" ON "orders" USING btree (lower("customer_email"));--> statement-breakpoint
CREATE INDEX "orders_status_idx" ON "orders" USING btree ("status");--> statement-breakpoint
CREATE INDEX "shipment_comments_shipment_idx" ON "shipment_comments" USING btree ("shipment_id");--> statement-breakpoint
CREATE INDEX "shipment_items_shipment_idx" ON "shipment_items" USING btree ("shipment_id");--> statement-breakpoint
CREATE INDEX "shipment_tracks_shipment_idx" ON "shipment_tracks" USING btree ("shipment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "shipments_increment_id_uq" ON "shipments" USING btree ("increment_id");--> statement-breakpoint
CREATE INDEX "shipments_order_idx" ON "shipments" USING btree ("order_id");