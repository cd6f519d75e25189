/** Tax classes, rates (with their store-view titles) and rules (ids kept). */
import { sql } from 'drizzle-orm';
import { taxClasses, taxRates, taxRules } from '../../modules/tax/tables.js';
import { count, groupBy, recordKeptIds, upsert, type EntityImporter } from '../context.js';
import { bool, decimal, int, text, trimmed } from '../source.js';

export const taxClassesImporter: EntityImporter = {
  name: 'tax classes',
  group: 'config',
  count: (ctx) => ctx.source.count('tax_class'),
  async run(ctx, stats, tick) {
    const all = await ctx.source.query('SELECT * FROM tax_class ORDER BY class_id');
    stats.found = all.length;
    const values = all.map((c) => ({
      id: Number(c.class_id),
      className: text(c.class_name) ?? `Class ${c.class_id}`,
      classType: String(c.class_type).toUpperCase(),
    }));
    count(stats, await upsert(ctx.db, taxClasses, values, [taxClasses.id]));
    await recordKeptIds(
      ctx.db,
      'tax classes',
      values.map((v) => v.id as number),
    );
    ctx.sequences.add('tax_classes');
    tick(all.length);
  },
};

export const taxRatesImporter: EntityImporter = {
  name: 'tax rates',
  group: 'config',
  count: (ctx) => ctx.source.count('tax_calculation_rate'),
  async run(ctx, stats, tick) {
    const all = await ctx.source.query('SELECT * FROM tax_calculation_rate ORDER BY tax_calculation_rate_id');
    const titles = ctx.source.hasTable('tax_calculation_rate_title')
      ? groupBy(
          await ctx.source.query('SELECT * FROM tax_calculation_rate_title ORDER BY tax_calculation_rate_title_id'),
          'tax_calculation_rate_id',
        )
      : new Map();
    stats.found = all.length;
    const values = [];
    for (const r of all) {
      const rate = decimal(r.rate);
      const country = trimmed(r.tax_country_id);
      if (rate === null || !country) {
        ctx.report.skip(stats, r.tax_calculation_rate_id, 'no rate or country');
        continue;
      }
      const range = bool(r.zip_is_range);
      values.push({
        id: Number(r.tax_calculation_rate_id),
        code: text(r.code) ?? `rate-${r.tax_calculation_rate_id}`,
        taxCountryId: country,
        taxRegionId: int(r.tax_region_id) || null,
        taxPostcode: trimmed(r.tax_postcode) ?? '*',
        rate,
        zipIsRange: range,
        zipFrom: range ? trimmed(r.zip_from) : null,
        zipTo: range ? trimmed(r.zip_to) : null,
        titles: (titles.get(Number(r.tax_calculation_rate_id)) ?? []).map((t: Record<string, unknown>) => ({
          storeId: Number(t.store_id),
          title: String(t.value),
        })),
      });
    }
    for (const v of values)
      await ctx.db.execute(
        sql`UPDATE tax_rates SET code = code || ' (' || id || ')' WHERE lower(code) = lower(${v.code}) AND id <> ${v.id}`,
      );
    count(stats, await upsert(ctx.db, taxRates, values, [taxRates.id]));
    await recordKeptIds(
      ctx.db,
      'tax rates',
      values.map((v) => v.id as number),
    );
    ctx.sequences.add('tax_rates');
    tick(all.length);
  },
};

export const taxRulesImporter: EntityImporter = {
  name: 'tax rules',
  group: 'config',
  count: (ctx) => ctx.source.count('tax_calculation_rule'),
  async run(ctx, stats, tick) {
    const all = await ctx.source.query('SELECT * FROM tax_calculation_rule ORDER BY tax_calculation_rule_id');
    const links = groupBy(await ctx.source.query('SELECT * FROM tax_calculation ORDER BY tax_calculation_id'), 'tax_calculation_rule_id');
    stats.found = all.length;
    const uniq = (list: Record<string, unknown>[], key: string) => [...new Set(list.map((l) => Number(l[key])))].sort((a, b) => a - b);
    const values = all.map((r) => {
      const l = links.get(Number(r.tax_calculation_rule_id)) ?? [];
      return {
        id: Number(r.tax_calculation_rule_id),
        code: text(r.code) ?? `rule-${r.tax_calculation_rule_id}`,
        priority: int(r.priority) ?? 0,
        position: int(r.position) ?? 0,
        calculateSubtotal: bool(r.calculate_subtotal),
        customerTaxClassIds: uniq(l, 'customer_tax_class_id'),
        productTaxClassIds: uniq(l, 'product_tax_class_id'),
        taxRateIds: uniq(l, 'tax_calculation_rate_id'),
      };
    });
    for (const v of values)
      await ctx.db.execute(
        sql`UPDATE tax_rules SET code = code || ' (' || id || ')' WHERE lower(code) = lower(${v.code}) AND id <> ${v.id}`,
      );
    count(stats, await upsert(ctx.db, taxRules, values, [taxRules.id]));
    await recordKeptIds(
      ctx.db,
      'tax rules',
      values.map((v) => v.id as number),
    );
    ctx.sequences.add('tax_rules');
    tick(all.length);
  },
};
