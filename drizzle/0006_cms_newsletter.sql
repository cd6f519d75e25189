CREATE TABLE "cms_block_stores" (
	"block_id" integer NOT NULL,
	"store_id" integer NOT NULL,
	CONSTRAINT "cms_block_stores_block_id_store_id_pk" PRIMARY KEY("block_id","store_id")
);
--> statement-breakpoint
CREATE TABLE "cms_blocks" (
	"id" serial PRIMARY KEY NOT NULL,
	"identifier" text NOT NULL,
	"title" text NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cms_page_stores" (
	"page_id" integer NOT NULL,
	"store_id" integer NOT NULL,
	CONSTRAINT "cms_page_stores_page_id_store_id_pk" PRIMARY KEY("page_id","store_id")
);
--> statement-breakpoint
CREATE TABLE "cms_pages" (
	"id" serial PRIMARY KEY NOT NULL,
	"identifier" text NOT NULL,
	"title" text NOT NULL,
	"content_heading" text,
	"content" text DEFAULT '' NOT NULL,
	"meta_keywords" text,
	"meta_description" text,
	"meta_robots" text,
	"page_layout" text,
	"sort_order" integer,
	"layout_update_xml" text,
	"custom_theme" text,
	"custom_root_template" text,
	"custom_layout_update_xml" text,
	"custom_theme_from" date,
	"custom_theme_to" date,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "newsletter_subscribers" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"customer_id" integer,
	"store_id" integer NOT NULL,
	"status" text NOT NULL,
	"confirm_code_hash" text,
	"change_status_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cms_block_stores" ADD CONSTRAINT "cms_block_stores_block_id_cms_blocks_id_fk" FOREIGN KEY ("block_id") REFERENCES "public"."cms_blocks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cms_page_stores" ADD CONSTRAINT "cms_page_stores_page_id_cms_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."cms_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cms_blocks_identifier_idx" ON "cms_blocks" USING btree (lower("identifier"));--> statement-breakpoint
CREATE INDEX "cms_pages_identifier_idx" ON "cms_pages" USING btree (lower("identifier"));--> statement-breakpoint
CREATE UNIQUE INDEX "newsletter_subscribers_email_store_uq" ON "newsletter_subscribers" USING btree (lower("email"),"store_id");--> statement-breakpoint
CREATE INDEX "newsletter_subscribers_customer_idx" ON "newsletter_subscribers" USING btree ("customer_id");