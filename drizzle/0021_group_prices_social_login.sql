ALTER TABLE "product_tier_prices" ADD COLUMN "is_group_price" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
CREATE TABLE "customer_social_logins" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"subject" text NOT NULL,
	"website_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "customer_social_logins" ADD CONSTRAINT "customer_social_logins_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "customer_social_logins" ADD CONSTRAINT "customer_social_logins_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "customer_social_logins_identity_uq" ON "customer_social_logins" USING btree ("provider","subject","website_id");
--> statement-breakpoint
CREATE INDEX "customer_social_logins_customer_idx" ON "customer_social_logins" USING btree ("customer_id");
