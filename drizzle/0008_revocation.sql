CREATE TABLE "revocation_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"order_reference" text NOT NULL,
	"reason" text,
	"customer_name" text NOT NULL,
	"email" text NOT NULL,
	"customer_id" integer,
	"verified" boolean DEFAULT false NOT NULL,
	"store_id" integer NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_status" text,
	"processed_at" timestamp with time zone,
	"admin_note" text,
	"suppressed_at" timestamp with time zone,
	"suppressed_reason" text,
	"ip" text,
	"user_agent" text,
	"channel" text DEFAULT 'api' NOT NULL
);
--> statement-breakpoint
CREATE INDEX "revocation_requests_email_idx" ON "revocation_requests" USING btree ("email");--> statement-breakpoint
CREATE INDEX "revocation_requests_order_idx" ON "revocation_requests" USING btree ("order_id");