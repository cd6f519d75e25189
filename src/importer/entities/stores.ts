/**
 * Websites, store groups and store views (ids and codes kept; Magento's admin scope 0 is not a store view here)
 * and the configuration values this server reads.
 */
import { sql } from 'drizzle-orm';
import { rows } from '../../platform/db.js';
import { declaredPaths } from '../../platform/settings.js';
import { configValues, storeGroups, stores, websites } from '../../modules/stores/tables.js';
import { count, imported, recordKeptIds, upsert, type EntityImporter } from '../context.js';
import { bool, int, str, text } from '../source.js';

export const websitesImporter: EntityImporter = {
  name: 'websites',
  group: 'stores',
  count: (ctx) => ctx.source.count('core_website', 'website_id > 0'),
  async run(ctx, stats, tick) {
    const all = await ctx.source.query('SELECT * FROM core_website WHERE website_id > 0 ORDER BY website_id');
    stats.found = all.length;
    const values = all.map((w) => ({
      id: Number(w.website_id),
      code: String(w.code),
      name: text(w.name) ?? String(w.code),
      sortOrder: int(w.sort_order) ?? 0,
      defaultGroupId: int(w.default_group_id) || null,
      isDefault: bool(w.is_default),
    }));
    // the install's default website gives way to the source's
    if (values.some((v) => v.isDefault))
      await ctx.db
        .update(websites)
        .set({ isDefault: false })
        .where(
          sql`${websites.id} <> ALL(${`{${values
            .filter((v) => v.isDefault)
            .map((v) => v.id)
            .join(',')}}`}::int[])`,
        );
    count(stats, await upsert(ctx.db, websites, values, [websites.id]));
    await recordKeptIds(
      ctx.db,
      'websites',
      values.map((v) => v.id as number),
    );
    ctx.sequences.add('websites');
    tick(all.length);
  },
  async verify(ctx) {
    const [{ n }] = await rows<{ n: number }>(
      ctx.db,
      sql`SELECT count(*)::int AS n FROM websites w WHERE ${imported('websites', sql`w.id`)}`,
    );
    ctx.report.check('websites', await ctx.source.count('core_website', 'website_id > 0'), n);
  },
};

export const storeGroupsImporter: EntityImporter = {
  name: 'store groups',
  group: 'stores',
  count: (ctx) => ctx.source.count('core_store_group', 'group_id > 0'),
  async run(ctx, stats, tick) {
    const all = await ctx.source.query('SELECT * FROM core_store_group WHERE group_id > 0 ORDER BY group_id');
    stats.found = all.length;
    const values = all.map((g) => ({
      id: Number(g.group_id),
      websiteId: Number(g.website_id),
      name: text(g.name) ?? `Store ${g.group_id}`,
      rootCategoryId: int(g.root_category_id) ?? 2,
      defaultStoreId: int(g.default_store_id) || null,
    }));
    count(stats, await upsert(ctx.db, storeGroups, values, [storeGroups.id]));
    await recordKeptIds(
      ctx.db,
      'store groups',
      values.map((v) => v.id as number),
    );
    ctx.sequences.add('store_groups');
    tick(all.length);
  },
};

export const storeViewsImporter: EntityImporter = {
  name: 'store views',
  group: 'stores',
  count: (ctx) => ctx.source.count('core_store', 'store_id > 0'),
  async run(ctx, stats, tick) {
    const all = await ctx.source.query('SELECT * FROM core_store WHERE store_id > 0 ORDER BY store_id');
    stats.found = all.length;
    const values = all.map((s) => ({
      id: Number(s.store_id),
      code: String(s.code),
      websiteId: Number(s.website_id),
      groupId: Number(s.group_id),
      name: text(s.name) ?? String(s.code),
      sortOrder: int(s.sort_order) ?? 0,
      isActive: bool(s.is_active),
    }));
    // a store view of the install whose code the source gives another id is renamed out of the way
    for (const v of values) {
      await ctx.db.execute(sql`UPDATE stores SET code = code || '_' || id WHERE code = ${v.code} AND id <> ${v.id}`);
    }
    count(stats, await upsert(ctx.db, stores, values, [stores.id]));
    await recordKeptIds(
      ctx.db,
      'store views',
      values.map((v) => v.id as number),
    );
    ctx.sequences.add('stores');
    tick(all.length);
    const storeIds = new Map(values.map((v) => [v.id, v.websiteId]));
    ctx.memo.set('storeWebsites', storeIds);
  },
  async verify(ctx) {
    const [{ n }] = await rows<{ n: number }>(
      ctx.db,
      sql`SELECT count(*)::int AS n FROM stores s WHERE ${imported('store views', sql`s.id`)}`,
    );
    ctx.report.check('store views', await ctx.source.count('core_store', 'store_id > 0'), n);
  },
};

/** Configuration sections this server reads, besides every path a module declares a default for. */
const SECTIONS = [
  'currency/',
  'general/locale/',
  'general/country/',
  'general/store_information/',
  'tax/',
  'shipping/',
  'carriers/',
  'payment/',
  'contacts/',
  'newsletter/',
  'customer/',
  'checkout/',
  'sales/',
  'cataloginventory/',
  'catalog/',
];

/** Paths holding secrets Magento stores encrypted with its own key: useless here, and not to be copied. */
const ENCRYPTED = /(password|passwd|secret|api_key|signature|private_key)$/;

export const configImporter: EntityImporter = {
  name: 'config values',
  group: 'config',
  count: (ctx) => ctx.source.count('core_config_data'),
  async run(ctx, stats, tick) {
    const declared = new Set(declaredPaths());
    const storeIds = new Set((await rows<{ id: number }>(ctx.db, sql`SELECT id FROM stores`)).map((r) => r.id));
    const websiteIds = new Set((await rows<{ id: number }>(ctx.db, sql`SELECT id FROM websites`)).map((r) => r.id));
    for await (const batch of ctx.source.batches({ from: 'core_config_data', key: 'config_id' })) {
      stats.found += batch.length;
      const values: (typeof configValues.$inferInsert)[] = [];
      for (const r of batch) {
        const path = String(r.path);
        const scope = String(r.scope);
        const scopeId = Number(r.scope_id);
        if (!declared.has(path) && !SECTIONS.some((s) => path.startsWith(s))) ctx.report.skip(stats, r.config_id, 'setting not used here');
        else if (ENCRYPTED.test(path)) ctx.report.skip(stats, r.config_id, 'encrypted with the source shop\u2019s key');
        else if (!/^[a-z0-9_]+\/[a-z0-9_]+\/[a-z0-9_]+$/.test(path)) ctx.report.skip(stats, r.config_id, 'not a three-part path');
        else if (
          scope === 'default'
            ? scopeId !== 0
            : scope === 'websites'
              ? !websiteIds.has(scopeId)
              : scope === 'stores'
                ? !storeIds.has(scopeId)
                : true
        ) {
          ctx.report.skip(stats, r.config_id, 'scope not imported');
        } else values.push({ scope, scopeId, path, value: str(r.value) });
      }
      count(stats, await upsert(ctx.db, configValues, values, [configValues.scope, configValues.scopeId, configValues.path]));
      tick(stats.found);
    }
  },
};
