CREATE TABLE "product_attribute_options" (
	"id" serial PRIMARY KEY NOT NULL,
	"attribute_id" integer NOT NULL,
	"label" text NOT NULL,
	"store_labels" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"swatch_type" text,
	"swatch_value" text
);
--> statement-breakpoint
CREATE TABLE "attribute_set_attributes" (
	"set_id" integer NOT NULL,
	"attribute_id" integer NOT NULL,
	"group_name" text DEFAULT 'General' NOT NULL,
	"group_sort_order" integer DEFAULT 0 NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "attribute_set_attributes_set_id_attribute_id_pk" PRIMARY KEY("set_id","attribute_id")
);
--> statement-breakpoint
CREATE TABLE "attribute_sets" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "attribute_sets_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "product_bundle_options" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"title" text NOT NULL,
	"type" text NOT NULL,
	"required" boolean DEFAULT true NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_bundle_selections" (
	"id" serial PRIMARY KEY NOT NULL,
	"option_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"qty" numeric(12, 4) DEFAULT '1' NOT NULL,
	"can_change_qty" boolean DEFAULT false NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"price" numeric(20, 4),
	"price_type" text DEFAULT 'fixed' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"parent_id" integer,
	"path" text NOT NULL,
	"level" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"name" text NOT NULL,
	"url_key" text,
	"url_path" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"include_in_menu" boolean DEFAULT true NOT NULL,
	"is_anchor" boolean DEFAULT true NOT NULL,
	"description" text,
	"image" text,
	"display_mode" text,
	"landing_page_id" integer,
	"available_sort_by" text[],
	"default_sort_by" text,
	"meta_title" text,
	"meta_keywords" text,
	"meta_description" text,
	"page_layout" text,
	"filter_price_range" numeric(20, 4),
	"store_values" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "category_products" (
	"category_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "category_products_category_id_product_id_pk" PRIMARY KEY("category_id","product_id")
);
--> statement-breakpoint
CREATE TABLE "product_configurable_attributes" (
	"product_id" integer NOT NULL,
	"attribute_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "product_configurable_attributes_product_id_attribute_id_pk" PRIMARY KEY("product_id","attribute_id")
);
--> statement-breakpoint
CREATE TABLE "product_configurable_children" (
	"parent_id" integer NOT NULL,
	"child_id" integer NOT NULL,
	CONSTRAINT "product_configurable_children_parent_id_child_id_pk" PRIMARY KEY("parent_id","child_id")
);
--> statement-breakpoint
CREATE TABLE "product_custom_option_files" (
	"key" text PRIMARY KEY NOT NULL,
	"option_id" integer NOT NULL,
	"path" text NOT NULL,
	"original_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_custom_option_values" (
	"id" serial PRIMARY KEY NOT NULL,
	"option_id" integer NOT NULL,
	"title" text NOT NULL,
	"price" numeric(20, 4) DEFAULT '0' NOT NULL,
	"price_type" text DEFAULT 'fixed' NOT NULL,
	"sku" text,
	"sort_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_custom_options" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"title" text NOT NULL,
	"type" text NOT NULL,
	"required" boolean DEFAULT false NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"price" numeric(20, 4),
	"price_type" text DEFAULT 'fixed' NOT NULL,
	"sku" text,
	"max_characters" integer,
	"file_extensions" text,
	"image_size_x" integer,
	"image_size_y" integer
);
--> statement-breakpoint
CREATE TABLE "product_downloadable_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"title" text NOT NULL,
	"price" numeric(20, 4) DEFAULT '0' NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"number_of_downloads" integer DEFAULT 0 NOT NULL,
	"is_shareable" integer DEFAULT 2 NOT NULL,
	"link_type" text NOT NULL,
	"link_url" text,
	"link_file" text,
	"sample_type" text,
	"sample_url" text,
	"sample_file" text
);
--> statement-breakpoint
CREATE TABLE "product_grouped_children" (
	"parent_id" integer NOT NULL,
	"child_id" integer NOT NULL,
	"qty" numeric(12, 4) DEFAULT '0' NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "product_grouped_children_parent_id_child_id_pk" PRIMARY KEY("parent_id","child_id")
);
--> statement-breakpoint
CREATE TABLE "product_attributes" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"label" text NOT NULL,
	"frontend_input" text NOT NULL,
	"backend_type" text NOT NULL,
	"scope" text DEFAULT 'global' NOT NULL,
	"is_system" boolean DEFAULT false NOT NULL,
	"is_required" boolean DEFAULT false NOT NULL,
	"is_user_defined" boolean DEFAULT true NOT NULL,
	"is_unique" boolean DEFAULT false NOT NULL,
	"is_searchable" boolean DEFAULT false NOT NULL,
	"is_filterable" integer DEFAULT 0 NOT NULL,
	"is_filterable_in_search" boolean DEFAULT false NOT NULL,
	"is_comparable" boolean DEFAULT false NOT NULL,
	"is_visible_on_front" boolean DEFAULT false NOT NULL,
	"is_html_allowed_on_front" boolean DEFAULT false NOT NULL,
	"is_used_for_price_rules" boolean DEFAULT false NOT NULL,
	"used_in_product_listing" boolean DEFAULT false NOT NULL,
	"used_for_sort_by" boolean DEFAULT false NOT NULL,
	"is_visible_in_advanced_search" boolean DEFAULT false NOT NULL,
	"is_wysiwyg_enabled" boolean DEFAULT false NOT NULL,
	"is_configurable" boolean DEFAULT false NOT NULL,
	"default_value" text,
	"apply_to" text[] DEFAULT '{}'::text[] NOT NULL,
	"frontend_class" text,
	"note" text,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "product_attributes_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "product_links" (
	"product_id" integer NOT NULL,
	"type" text NOT NULL,
	"linked_product_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "product_links_product_id_type_linked_product_id_pk" PRIMARY KEY("product_id","type","linked_product_id")
);
--> statement-breakpoint
CREATE TABLE "product_media" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"file" text NOT NULL,
	"label" text,
	"position" integer DEFAULT 0 NOT NULL,
	"disabled" boolean DEFAULT false NOT NULL,
	"types" text[] DEFAULT '{}'::text[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" serial PRIMARY KEY NOT NULL,
	"sku" text NOT NULL,
	"type" text DEFAULT 'simple' NOT NULL,
	"attribute_set_id" integer NOT NULL,
	"tax_class_id" integer DEFAULT 0 NOT NULL,
	"name" text NOT NULL,
	"url_key" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"visibility" text DEFAULT 'catalog_search' NOT NULL,
	"description" text,
	"short_description" text,
	"meta_title" text,
	"meta_description" text,
	"meta_keywords" text,
	"store_values" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"website_ids" integer[] DEFAULT '{1}'::int[] NOT NULL,
	"price" numeric(20, 4),
	"special_price" numeric(20, 4),
	"special_from_date" date,
	"special_to_date" date,
	"news_from_date" date,
	"news_to_date" date,
	"cost" numeric(20, 4),
	"msrp" numeric(20, 4),
	"weight" numeric(12, 4),
	"min_price" numeric(20, 4),
	"max_price" numeric(20, 4),
	"has_required_options" boolean DEFAULT false NOT NULL,
	"sku_type" integer,
	"price_type" integer,
	"weight_type" integer,
	"price_view" integer,
	"shipment_type" integer,
	"links_title" text,
	"links_purchased_separately" boolean,
	"samples_title" text,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"search_text" text DEFAULT '' NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', search_text)) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_tier_prices" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"customer_group_id" integer,
	"website_id" integer DEFAULT 0 NOT NULL,
	"qty" numeric(12, 4) NOT NULL,
	"price" numeric(20, 4) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stock_items" (
	"product_id" integer PRIMARY KEY NOT NULL,
	"qty" integer DEFAULT 0 NOT NULL,
	"is_in_stock" boolean DEFAULT false NOT NULL,
	"manage_stock" boolean DEFAULT true NOT NULL,
	"min_qty" integer DEFAULT 0 NOT NULL,
	"min_sale_qty" integer DEFAULT 1 NOT NULL,
	"max_sale_qty" integer,
	"backorders" integer DEFAULT 0 NOT NULL,
	"notify_stock_qty" integer,
	"qty_increments" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ratings" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "ratings_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "review_votes" (
	"review_id" integer NOT NULL,
	"rating_id" integer NOT NULL,
	"value" integer NOT NULL,
	CONSTRAINT "review_votes_review_id_rating_id_pk" PRIMARY KEY("review_id","rating_id")
);
--> statement-breakpoint
CREATE TABLE "reviews" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"customer_id" integer,
	"status" text DEFAULT 'pending' NOT NULL,
	"nickname" text NOT NULL,
	"title" text NOT NULL,
	"detail" text NOT NULL,
	"store_ids" integer[] DEFAULT '{}'::int[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "url_rewrites" (
	"id" serial PRIMARY KEY NOT NULL,
	"store_id" integer NOT NULL,
	"request_path" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" integer,
	"target_path" text,
	"redirect_type" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "product_attribute_options" ADD CONSTRAINT "product_attribute_options_attribute_id_product_attributes_id_fk" FOREIGN KEY ("attribute_id") REFERENCES "public"."product_attributes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attribute_set_attributes" ADD CONSTRAINT "attribute_set_attributes_set_id_attribute_sets_id_fk" FOREIGN KEY ("set_id") REFERENCES "public"."attribute_sets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attribute_set_attributes" ADD CONSTRAINT "attribute_set_attributes_attribute_id_product_attributes_id_fk" FOREIGN KEY ("attribute_id") REFERENCES "public"."product_attributes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_bundle_options" ADD CONSTRAINT "product_bundle_options_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_bundle_selections" ADD CONSTRAINT "product_bundle_selections_option_id_product_bundle_options_id_fk" FOREIGN KEY ("option_id") REFERENCES "public"."product_bundle_options"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_bundle_selections" ADD CONSTRAINT "product_bundle_selections_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "category_products" ADD CONSTRAINT "category_products_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "category_products" ADD CONSTRAINT "category_products_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_configurable_attributes" ADD CONSTRAINT "product_configurable_attributes_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_configurable_attributes" ADD CONSTRAINT "product_configurable_attributes_attribute_id_product_attributes_id_fk" FOREIGN KEY ("attribute_id") REFERENCES "public"."product_attributes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_configurable_children" ADD CONSTRAINT "product_configurable_children_parent_id_products_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_configurable_children" ADD CONSTRAINT "product_configurable_children_child_id_products_id_fk" FOREIGN KEY ("child_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_custom_option_files" ADD CONSTRAINT "product_custom_option_files_option_id_product_custom_options_id_fk" FOREIGN KEY ("option_id") REFERENCES "public"."product_custom_options"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_custom_option_values" ADD CONSTRAINT "product_custom_option_values_option_id_product_custom_options_id_fk" FOREIGN KEY ("option_id") REFERENCES "public"."product_custom_options"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_custom_options" ADD CONSTRAINT "product_custom_options_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_downloadable_links" ADD CONSTRAINT "product_downloadable_links_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_grouped_children" ADD CONSTRAINT "product_grouped_children_parent_id_products_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_grouped_children" ADD CONSTRAINT "product_grouped_children_child_id_products_id_fk" FOREIGN KEY ("child_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_links" ADD CONSTRAINT "product_links_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_links" ADD CONSTRAINT "product_links_linked_product_id_products_id_fk" FOREIGN KEY ("linked_product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_media" ADD CONSTRAINT "product_media_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_attribute_set_id_attribute_sets_id_fk" FOREIGN KEY ("attribute_set_id") REFERENCES "public"."attribute_sets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_tier_prices" ADD CONSTRAINT "product_tier_prices_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_items" ADD CONSTRAINT "stock_items_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_votes" ADD CONSTRAINT "review_votes_review_id_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."reviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_votes" ADD CONSTRAINT "review_votes_rating_id_ratings_id_fk" FOREIGN KEY ("rating_id") REFERENCES "public"."ratings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_attribute_options_attribute_idx" ON "product_attribute_options" USING btree ("attribute_id");--> statement-breakpoint
CREATE INDEX "product_bundle_options_product_idx" ON "product_bundle_options" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "product_bundle_selections_option_idx" ON "product_bundle_selections" USING btree ("option_id");--> statement-breakpoint
CREATE INDEX "product_bundle_selections_product_idx" ON "product_bundle_selections" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "categories_parent_idx" ON "categories" USING btree ("parent_id","position");--> statement-breakpoint
CREATE INDEX "categories_path_idx" ON "categories" USING btree ("path");--> statement-breakpoint
CREATE INDEX "category_products_product_idx" ON "category_products" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "product_configurable_children_child_idx" ON "product_configurable_children" USING btree ("child_id");--> statement-breakpoint
CREATE INDEX "product_custom_option_values_option_idx" ON "product_custom_option_values" USING btree ("option_id");--> statement-breakpoint
CREATE INDEX "product_custom_options_product_idx" ON "product_custom_options" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "product_downloadable_links_product_idx" ON "product_downloadable_links" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "product_grouped_children_child_idx" ON "product_grouped_children" USING btree ("child_id");--> statement-breakpoint
CREATE INDEX "product_links_linked_idx" ON "product_links" USING btree ("linked_product_id");--> statement-breakpoint
CREATE INDEX "product_media_product_idx" ON "product_media" USING btree ("product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "products_sku_uq" ON "products" USING btree (lower("sku"));--> statement-breakpoint
CREATE INDEX "products_search_idx" ON "products" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "products_attributes_idx" ON "products" USING gin ("attributes");--> statement-breakpoint
CREATE INDEX "products_min_price_idx" ON "products" USING btree ("min_price");--> statement-breakpoint
CREATE INDEX "products_created_idx" ON "products" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "products_name_idx" ON "products" USING btree ("name");--> statement-breakpoint
CREATE INDEX "products_url_key_idx" ON "products" USING btree ("url_key");--> statement-breakpoint
CREATE INDEX "product_tier_prices_product_idx" ON "product_tier_prices" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "reviews_product_idx" ON "reviews" USING btree ("product_id","status");--> statement-breakpoint
CREATE INDEX "reviews_customer_idx" ON "reviews" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "url_rewrites_store_path_uq" ON "url_rewrites" USING btree ("store_id","request_path");--> statement-breakpoint
CREATE INDEX "url_rewrites_entity_idx" ON "url_rewrites" USING btree ("entity_type","entity_id");