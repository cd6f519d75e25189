-- Carts price from cached catalog reads and cached tax rates: tax classes, rates, rules and customer groups
-- (whose tax class picks the rates) bump the same 'catalog' version, at commit, as the catalog tables do.
DO $$
DECLARE t text;
BEGIN
	FOREACH t IN ARRAY ARRAY['tax_classes', 'tax_rates', 'tax_rules', 'customer_groups']
	LOOP
		EXECUTE format('CREATE CONSTRAINT TRIGGER catalog_read_version AFTER INSERT OR UPDATE OR DELETE ON %I
			DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalog_read_version()', t);
	END LOOP;
END
$$;
