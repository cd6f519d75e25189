CREATE TABLE "tags" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"first_customer_id" integer,
	"first_store_id" integer
);
--> statement-breakpoint
CREATE TABLE "tag_relations" (
	"id" serial PRIMARY KEY NOT NULL,
	"tag_id" integer NOT NULL,
	"customer_id" integer,
	"product_id" integer NOT NULL,
	"store_id" integer NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tag_relations_uq" UNIQUE NULLS NOT DISTINCT("tag_id","customer_id","product_id","store_id")
);
--> statement-breakpoint
CREATE TABLE "tag_summaries" (
	"tag_id" integer NOT NULL,
	"store_id" integer NOT NULL,
	"customers" integer DEFAULT 0 NOT NULL,
	"products" integer DEFAULT 0 NOT NULL,
	"popularity" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "tag_summaries_tag_id_store_id_pk" PRIMARY KEY("tag_id","store_id")
);
--> statement-breakpoint
CREATE TABLE "tag_properties" (
	"tag_id" integer NOT NULL,
	"store_id" integer NOT NULL,
	"base_popularity" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "tag_properties_tag_id_store_id_pk" PRIMARY KEY("tag_id","store_id")
);
--> statement-breakpoint
ALTER TABLE "tags" ADD CONSTRAINT "tags_first_customer_id_customers_id_fk" FOREIGN KEY ("first_customer_id") REFERENCES "public"."customers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tags" ADD CONSTRAINT "tags_first_store_id_stores_id_fk" FOREIGN KEY ("first_store_id") REFERENCES "public"."stores"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_relations" ADD CONSTRAINT "tag_relations_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_relations" ADD CONSTRAINT "tag_relations_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_relations" ADD CONSTRAINT "tag_relations_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_relations" ADD CONSTRAINT "tag_relations_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_summaries" ADD CONSTRAINT "tag_summaries_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_properties" ADD CONSTRAINT "tag_properties_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_properties" ADD CONSTRAINT "tag_properties_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tags_name_uq" ON "tags" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "tags_status_idx" ON "tags" USING btree ("status");--> statement-breakpoint
CREATE INDEX "tag_relations_product_idx" ON "tag_relations" USING btree ("product_id","store_id");--> statement-breakpoint
CREATE INDEX "tag_relations_customer_idx" ON "tag_relations" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "tag_relations_store_idx" ON "tag_relations" USING btree ("store_id");--> statement-breakpoint
CREATE INDEX "tag_summaries_store_idx" ON "tag_summaries" USING btree ("store_id","popularity");
