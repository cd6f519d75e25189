-- The read-cache versions move once per writing transaction instead of once per written row: the first of a
-- transaction's deferred row triggers bumps its shard and marks the transaction (a transaction-local setting),
-- the rest return at once. One bump is all a cache needs (the version only has to change), and a transaction
-- writing many rows (an import, a bulk update) no longer updates one version row thousands of times at commit.
CREATE OR REPLACE FUNCTION "bump_catalog_read_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF current_setting('commerce.bumped_catalog', true) = '1' THEN
		RETURN NULL;
	END IF;
	PERFORM set_config('commerce.bumped_catalog', '1', true);
	UPDATE "read_cache_versions" SET "version" = "version" + 1
	 WHERE "name" = 'catalog' AND "shard" = (txid_current() % 32)::smallint;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "bump_stock_read_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF current_setting('commerce.bumped_stock', true) = '1' THEN
		RETURN NULL;
	END IF;
	PERFORM set_config('commerce.bumped_stock', '1', true);
	UPDATE "read_cache_versions" SET "version" = "version" + 1
	 WHERE "name" = 'stock' AND "shard" = (txid_current() % 32)::smallint;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "bump_orders_read_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF current_setting('commerce.bumped_orders', true) = '1' THEN
		RETURN NULL;
	END IF;
	PERFORM set_config('commerce.bumped_orders', '1', true);
	UPDATE "read_cache_versions" SET "version" = "version" + 1
	 WHERE "name" = 'orders' AND "shard" = (txid_current() % 32)::smallint;
	RETURN NULL;
END
$$;
