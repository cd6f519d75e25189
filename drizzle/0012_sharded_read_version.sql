-- Each version is a sum over 32 rows instead of one row: a writing transaction bumps the row of its own
-- shard (by transaction id), so transactions that change stock (every order) no longer queue on one row's
-- lock through each other's commit. Readers add the shards up (one index range scan); every shard only grows,
-- so the sum moves exactly when some committed write moved one of them.
ALTER TABLE "read_cache_versions" ADD COLUMN "shard" smallint DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "read_cache_versions" DROP CONSTRAINT "read_cache_versions_pkey";
--> statement-breakpoint
ALTER TABLE "read_cache_versions" ADD PRIMARY KEY ("name", "shard");
--> statement-breakpoint
INSERT INTO "read_cache_versions" ("name", "shard") SELECT 'catalog', g FROM generate_series(1, 31) AS g;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "bump_catalog_read_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "read_cache_versions" SET "version" = "version" + 1
	 WHERE "name" = 'catalog' AND "shard" = (txid_current() % 32)::smallint;
	RETURN NULL;
END
$$;
--> statement-breakpoint
-- Stock is counted apart from the rest of the catalog: caches of what does not show stock (prices and product
-- data a cart is priced with, categories, tax rates) stay valid while orders move stock.
INSERT INTO "read_cache_versions" ("name", "shard") SELECT 'stock', g FROM generate_series(0, 31) AS g;
--> statement-breakpoint
CREATE FUNCTION "bump_stock_read_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "read_cache_versions" SET "version" = "version" + 1
	 WHERE "name" = 'stock' AND "shard" = (txid_current() % 32)::smallint;
	RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER "catalog_read_version" ON "stock_items";
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "stock_read_version" AFTER INSERT OR UPDATE OR DELETE ON "stock_items"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_stock_read_version"();
