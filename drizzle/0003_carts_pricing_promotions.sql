CREATE TABLE "cart_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"cart_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"child_product_id" integer,
	"qty" numeric(12, 4) NOT NULL,
	"buy_request" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"line_key" text,
	"custom_price" numeric(20, 4),
	"gift_message" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "carts" (
	"id" serial PRIMARY KEY NOT NULL,
	"masked_id" text,
	"customer_id" integer,
	"customer_email" text,
	"customer_group_id" integer DEFAULT 0 NOT NULL,
	"store_id" integer NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"currency" text NOT NULL,
	"customer_note" text,
	"reserved_order_id" text,
	"coupon_code" text,
	"giftcard_codes" text[] DEFAULT '{}'::text[] NOT NULL,
	"shipping_address" jsonb,
	"billing_address" jsonb,
	"shipping_method" text,
	"payment_method" text,
	"payment_data" jsonb,
	"gift_message" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "coupon_usages" (
	"coupon_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"times_used" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "coupon_usages_coupon_id_customer_id_pk" PRIMARY KEY("coupon_id","customer_id"),
	CONSTRAINT "coupon_usages_times_used_ck" CHECK ("coupon_usages"."times_used" >= 0)
);
--> statement-breakpoint
CREATE TABLE "coupons" (
	"id" serial PRIMARY KEY NOT NULL,
	"rule_id" integer NOT NULL,
	"code" text NOT NULL,
	"usage_limit" integer,
	"usage_per_customer" integer,
	"times_used" integer DEFAULT 0 NOT NULL,
	"expiration_date" timestamp with time zone,
	"type" integer DEFAULT 0 NOT NULL,
	"is_primary" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coupons_times_used_ck" CHECK ("coupons"."times_used" >= 0 AND ("coupons"."usage_limit" IS NULL OR "coupons"."times_used" <= "coupons"."usage_limit"))
);
--> statement-breakpoint
CREATE TABLE "sales_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"from_date" date,
	"to_date" date,
	"website_ids" integer[] DEFAULT '{1}'::int[] NOT NULL,
	"customer_group_ids" integer[] DEFAULT '{}'::int[] NOT NULL,
	"action" text NOT NULL,
	"discount_amount" numeric(20, 4) NOT NULL,
	"discount_qty" numeric(12, 4),
	"discount_step" integer DEFAULT 0 NOT NULL,
	"minimum_subtotal" numeric(20, 4),
	"sort_order" integer DEFAULT 0 NOT NULL,
	"stop_rules_processing" boolean DEFAULT false NOT NULL,
	"simple_free_shipping" integer DEFAULT 0 NOT NULL,
	"apply_to_shipping" boolean DEFAULT false NOT NULL,
	"times_used" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "giftcard_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"giftcard_id" integer NOT NULL,
	"action" text NOT NULL,
	"amount" numeric(20, 4) NOT NULL,
	"balance_before" numeric(20, 4) NOT NULL,
	"balance_after" numeric(20, 4) NOT NULL,
	"order_id" integer,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "giftcards" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"balance" numeric(20, 4) NOT NULL,
	"initial_balance" numeric(20, 4) NOT NULL,
	"currency_code" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"expires_at" timestamp with time zone,
	"website_ids" integer[] DEFAULT '{1}'::int[] NOT NULL,
	"recipient_name" text,
	"recipient_email" text,
	"sender_name" text,
	"sender_email" text,
	"message" text,
	"purchase_order_id" integer,
	"purchase_order_item_id" integer,
	"email_scheduled_at" timestamp with time zone,
	"email_sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "giftcards_balance_ck" CHECK ("giftcards"."balance" >= 0)
);
--> statement-breakpoint
CREATE TABLE "shipping_table_rates" (
	"id" serial PRIMARY KEY NOT NULL,
	"website_id" integer NOT NULL,
	"dest_country_id" text DEFAULT '*' NOT NULL,
	"dest_region_id" integer DEFAULT 0 NOT NULL,
	"dest_zip" text DEFAULT '*' NOT NULL,
	"condition_name" text NOT NULL,
	"condition_value" numeric(12, 4) DEFAULT '0' NOT NULL,
	"price" numeric(20, 4) NOT NULL,
	"cost" numeric(20, 4) DEFAULT '0' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tax_rates" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"tax_country_id" text NOT NULL,
	"tax_region_id" integer,
	"tax_postcode" text DEFAULT '*' NOT NULL,
	"rate" numeric(12, 4) NOT NULL,
	"zip_is_range" boolean DEFAULT false NOT NULL,
	"zip_from" text,
	"zip_to" text,
	"titles" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tax_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"priority" integer DEFAULT 0 NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"calculate_subtotal" boolean DEFAULT false NOT NULL,
	"customer_tax_class_ids" integer[] DEFAULT '{}'::int[] NOT NULL,
	"product_tax_class_ids" integer[] DEFAULT '{}'::int[] NOT NULL,
	"tax_rate_ids" integer[] DEFAULT '{}'::int[] NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cart_items" ADD CONSTRAINT "cart_items_cart_id_carts_id_fk" FOREIGN KEY ("cart_id") REFERENCES "public"."carts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupon_usages" ADD CONSTRAINT "coupon_usages_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupons" ADD CONSTRAINT "coupons_rule_id_sales_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."sales_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "giftcard_history" ADD CONSTRAINT "giftcard_history_giftcard_id_giftcards_id_fk" FOREIGN KEY ("giftcard_id") REFERENCES "public"."giftcards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cart_items_line_uq" ON "cart_items" USING btree ("cart_id","line_key");--> statement-breakpoint
CREATE UNIQUE INDEX "carts_masked_id_uq" ON "carts" USING btree ("masked_id");--> statement-breakpoint
CREATE INDEX "carts_customer_idx" ON "carts" USING btree ("customer_id","is_active");--> statement-breakpoint
CREATE UNIQUE INDEX "coupons_code_uq" ON "coupons" USING btree (lower("code"));--> statement-breakpoint
CREATE INDEX "coupons_rule_idx" ON "coupons" USING btree ("rule_id");--> statement-breakpoint
CREATE INDEX "giftcard_history_card_idx" ON "giftcard_history" USING btree ("giftcard_id");--> statement-breakpoint
CREATE UNIQUE INDEX "giftcards_code_uq" ON "giftcards" USING btree (upper("code"));--> statement-breakpoint
CREATE INDEX "shipping_table_rates_lookup_idx" ON "shipping_table_rates" USING btree ("website_id","condition_name","dest_country_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tax_rates_code_uq" ON "tax_rates" USING btree (lower("code"));--> statement-breakpoint
CREATE INDEX "tax_rates_country_idx" ON "tax_rates" USING btree ("tax_country_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tax_rules_code_uq" ON "tax_rules" USING btree (lower("code"));