CREATE TABLE "activity_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"principal_type" text NOT NULL,
	"principal_id" integer NOT NULL,
	"username" text NOT NULL,
	"operation" text NOT NULL,
	"protocol" text NOT NULL,
	"method" text NOT NULL,
	"path" text,
	"resource" text,
	"resource_id" text,
	"store_id" integer,
	"ip" text,
	"fields" jsonb
);
--> statement-breakpoint
CREATE INDEX "activity_log_created_idx" ON "activity_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "activity_log_principal_idx" ON "activity_log" USING btree ("principal_type","principal_id","id");--> statement-breakpoint
CREATE INDEX "activity_log_operation_idx" ON "activity_log" USING btree ("operation","id");--> statement-breakpoint
CREATE INDEX "activity_log_resource_idx" ON "activity_log" USING btree ("resource","resource_id","id");--> statement-breakpoint
CREATE INDEX "activity_log_store_idx" ON "activity_log" USING btree ("store_id","id");
