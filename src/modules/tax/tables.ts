import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, numeric, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';

export const taxClasses = pgTable('tax_classes', {
  id: serial('id').primaryKey(),
  className: text('class_name').notNull(),
  /** PRODUCT or CUSTOMER */
  classType: text('class_type').notNull(),
});

/**
 * A tax rate for a destination: a country, optionally a region, and a postcode pattern (`*` any, a prefix
 * ending in `*`, an exact code) or a numeric range (zipIsRange with zipFrom..zipTo).
 */
export const taxRates = pgTable(
  'tax_rates',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    taxCountryId: text('tax_country_id').notNull(),
    /** null: every region */
    taxRegionId: integer('tax_region_id'),
    taxPostcode: text('tax_postcode').notNull().default('*'),
    /** percent, e.g. 8.2500 */
    rate: numeric('rate', { precision: 12, scale: 4 }).notNull(),
    zipIsRange: boolean('zip_is_range').notNull().default(false),
    zipFrom: text('zip_from'),
    zipTo: text('zip_to'),
    /** per store view titles: [{storeId, title}] */
    titles: jsonb('titles').$type<{ storeId: number; title: string }[]>().notNull().default([]),
  },
  (t) => [uniqueIndex('tax_rates_code_uq').on(sql`lower(${t.code})`), index('tax_rates_country_idx').on(t.taxCountryId)],
);

/**
 * A tax rule applies its rates to every pair of (customer tax class, product tax class) it lists. Rules of the
 * same priority add their rates; a rule of a later priority is applied on top of the earlier ones (compounded).
 */
export const taxRules = pgTable(
  'tax_rules',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    priority: integer('priority').notNull().default(0),
    position: integer('position').notNull().default(0),
    calculateSubtotal: boolean('calculate_subtotal').notNull().default(false),
    customerTaxClassIds: integer('customer_tax_class_ids')
      .array()
      .notNull()
      .default(sql`'{}'::int[]`),
    productTaxClassIds: integer('product_tax_class_ids')
      .array()
      .notNull()
      .default(sql`'{}'::int[]`),
    taxRateIds: integer('tax_rate_ids')
      .array()
      .notNull()
      .default(sql`'{}'::int[]`),
  },
  (t) => [uniqueIndex('tax_rules_code_uq').on(sql`lower(${t.code})`)],
);
