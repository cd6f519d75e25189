CREATE TABLE "soap_sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"api_user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "soap_sessions" ADD CONSTRAINT "soap_sessions_api_user_id_api_users_id_fk" FOREIGN KEY ("api_user_id") REFERENCES "public"."api_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "soap_sessions_user_idx" ON "soap_sessions" USING btree ("api_user_id","last_used_at");