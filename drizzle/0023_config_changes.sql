CREATE TABLE "config_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_id" integer,
	"actor_username" text,
	"scope" text NOT NULL,
	"scope_id" integer DEFAULT 0 NOT NULL,
	"path" text NOT NULL,
	"old_value" text,
	"new_value" text
);
--> statement-breakpoint
CREATE INDEX "config_changes_path_idx" ON "config_changes" USING btree ("path","id");
--> statement-breakpoint
CREATE INDEX "config_changes_changed_at_idx" ON "config_changes" USING btree ("changed_at");
--> statement-breakpoint
-- The store registry (websites, store views, config values, currency rates) is held in memory by every process.
-- Each process reads this one row every second and reloads only when it moved: any statement that writes one of
-- those tables bumps it, whoever wrote (the API, the CLI, the importer, SQL by hand). Writes there are rare, so
-- one row (no shards) and a statement-level trigger are enough.
INSERT INTO "read_cache_versions" ("name", "shard") VALUES ('store_config', 0);
--> statement-breakpoint
CREATE FUNCTION "bump_store_config_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "read_cache_versions" SET "version" = "version" + 1 WHERE "name" = 'store_config' AND "shard" = 0;
	RETURN NULL;
END
$$;
--> statement-breakpoint
DO $$
DECLARE t text;
BEGIN
	FOREACH t IN ARRAY ARRAY['config_values', 'currency_rates', 'stores', 'store_groups', 'websites'] LOOP
		EXECUTE format('CREATE TRIGGER "store_config_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION "bump_store_config_version"()', t);
	END LOOP;
END
$$;
