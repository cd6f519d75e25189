-- Credential changes: every token and session of a subject issued before valid_after is refused.
CREATE TABLE "auth_subject_valid_after" (
	"subject" text PRIMARY KEY NOT NULL,
	"valid_after" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- A customer's revocation declarations are found by customer id, not by address.
CREATE INDEX "revocation_requests_customer_idx" ON "revocation_requests" USING btree ("customer_id");
