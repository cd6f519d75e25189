-- A version for cached order lists, bumped at the commit of every transaction that wrote an order or its items
-- (summed over 32 shards like the catalog's, so that placements do not queue on one row).
INSERT INTO "read_cache_versions" ("name", "shard") SELECT 'orders', g FROM generate_series(0, 31) AS g;
--> statement-breakpoint
CREATE FUNCTION "bump_orders_read_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "read_cache_versions" SET "version" = "version" + 1
	 WHERE "name" = 'orders' AND "shard" = (txid_current() % 32)::smallint;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "orders_read_version" AFTER INSERT OR UPDATE OR DELETE ON "orders"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_orders_read_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "orders_read_version" AFTER INSERT OR UPDATE OR DELETE ON "order_items"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_orders_read_version"();
