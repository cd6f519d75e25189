-- Versions of cached reads: a process keeps answers of expensive public reads (product pages and listings) in
-- memory and drops them when the version named for them changes. Triggers bump the version at the commit of
-- every transaction that wrote to a table those reads depend on, so the bump is visible exactly when the data is.
CREATE TABLE "read_cache_versions" (
	"name" text PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO "read_cache_versions" ("name") VALUES ('catalog');
--> statement-breakpoint
CREATE FUNCTION "bump_catalog_read_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "read_cache_versions" SET "version" = "version" + 1 WHERE "name" = 'catalog';
	RETURN NULL;
END
$$;
--> statement-breakpoint
DO $$
DECLARE t text;
BEGIN
	FOREACH t IN ARRAY ARRAY['products', 'product_media', 'product_tier_prices', 'product_custom_options',
		'product_custom_option_values', 'product_bundle_options', 'product_bundle_selections',
		'product_configurable_attributes', 'product_configurable_children', 'product_downloadable_links',
		'product_grouped_children', 'product_links', 'product_attributes', 'product_attribute_options',
		'attribute_sets', 'attribute_set_attributes', 'categories', 'category_products', 'stock_items',
		'reviews', 'review_votes', 'ratings']
	LOOP
		-- deferred: the version row is locked only while the writing transaction commits
		EXECUTE format('CREATE CONSTRAINT TRIGGER catalog_read_version AFTER INSERT OR UPDATE OR DELETE ON %I
			DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalog_read_version()', t);
	END LOOP;
END
$$;
