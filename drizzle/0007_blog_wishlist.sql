CREATE TABLE "blog_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"url_key" text NOT NULL,
	"parent_id" integer,
	"path" text DEFAULT '' NOT NULL,
	"level" integer DEFAULT 1 NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"meta_title" text,
	"meta_description" text,
	"meta_keywords" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blog_category_stores" (
	"category_id" integer NOT NULL,
	"store_id" integer NOT NULL,
	CONSTRAINT "blog_category_stores_category_id_store_id_pk" PRIMARY KEY("category_id","store_id")
);
--> statement-breakpoint
CREATE TABLE "blog_post_categories" (
	"post_id" integer NOT NULL,
	"category_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "blog_post_categories_post_id_category_id_pk" PRIMARY KEY("post_id","category_id")
);
--> statement-breakpoint
CREATE TABLE "blog_post_stores" (
	"post_id" integer NOT NULL,
	"store_id" integer NOT NULL,
	CONSTRAINT "blog_post_stores_post_id_store_id_pk" PRIMARY KEY("post_id","store_id")
);
--> statement-breakpoint
CREATE TABLE "blog_posts" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"url_key" text NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"short_content" text,
	"image" text,
	"publish_date" timestamp with time zone,
	"meta_title" text,
	"meta_description" text,
	"meta_keywords" text,
	"meta_robots" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wishlist_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"store_id" integer NOT NULL,
	"qty" integer DEFAULT 1 NOT NULL,
	"description" text,
	"buy_request" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "blog_category_stores" ADD CONSTRAINT "blog_category_stores_category_id_blog_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."blog_categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blog_post_categories" ADD CONSTRAINT "blog_post_categories_post_id_blog_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."blog_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blog_post_categories" ADD CONSTRAINT "blog_post_categories_category_id_blog_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."blog_categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blog_post_stores" ADD CONSTRAINT "blog_post_stores_post_id_blog_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."blog_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "blog_categories_parent_idx" ON "blog_categories" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "blog_categories_url_key_idx" ON "blog_categories" USING btree (lower("url_key"));--> statement-breakpoint
CREATE INDEX "blog_post_categories_category_idx" ON "blog_post_categories" USING btree ("category_id");--> statement-breakpoint
CREATE INDEX "blog_posts_url_key_idx" ON "blog_posts" USING btree (lower("url_key"));--> statement-breakpoint
CREATE INDEX "blog_posts_publish_idx" ON "blog_posts" USING btree ("publish_date");--> statement-breakpoint
CREATE UNIQUE INDEX "wishlist_items_customer_product_uq" ON "wishlist_items" USING btree ("customer_id","product_id");--> statement-breakpoint
CREATE INDEX "wishlist_items_customer_idx" ON "wishlist_items" USING btree ("customer_id");