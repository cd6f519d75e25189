/**
 * Table rates: a price per destination and condition (package weight, value or item count), imported per
 * website. The most specific destination (country, region, postcode) with the highest condition value not
 * above the package's wins.
 */
import { index, integer, numeric, pgTable, serial, text } from 'drizzle-orm/pg-core';

export const tableRates = pgTable(
  'shipping_table_rates',
  {
    id: serial('id').primaryKey(),
    websiteId: integer('website_id').notNull(),
    /** ISO-2 code, or '*' for every country */
    destCountryId: text('dest_country_id').notNull().default('*'),
    /** 0: every region */
    destRegionId: integer('dest_region_id').notNull().default(0),
    /** exact postcode, a prefix ending in '*', or '*' */
    destZip: text('dest_zip').notNull().default('*'),
    /** package_weight, package_value, package_qty */
    conditionName: text('condition_name').notNull(),
    conditionValue: numeric('condition_value', { precision: 12, scale: 4 }).notNull().default('0'),
    price: numeric('price', { precision: 20, scale: 4 }).notNull(),
    cost: numeric('cost', { precision: 20, scale: 4 }).notNull().default('0'),
  },
  (t) => [index('shipping_table_rates_lookup_idx').on(t.websiteId, t.conditionName, t.destCountryId)],
);
