/**
 * The catalog's structure: product attributes (matched by code: ours keep their ids, the source's new ones
 * get ours), their options (ids kept, so product values need no translation), attribute sets (matched by name)
 * and categories (ids kept). Products and what hangs off them are in products.ts, URL rewrites in urls.ts.
 */
import { sql } from 'drizzle-orm';
import { rows } from '../../platform/db.js';
import { attributeOptions, attributeSetAttributes, attributeSets, categories, productAttributes } from '../../modules/catalog/tables.js';
import {
  assertImportable,
  count,
  groupBy,
  imported,
  recordIds,
  recordKeptIds,
  sinceWhere,
  upsert,
  type EntityImporter,
} from '../context.js';
import { attributesOf, eavValues, storesWithValues, valuesIn } from '../eav.js';
import { bool, date, decimal, int, str, text, trimmed } from '../source.js';
import { attributeIdMap, forgetAttributeIds } from './attribute-ids.js';
import { PRODUCT_IMPORTERS } from './products.js';
import { urlRewritesImporter } from './urls.js';

/** Magento frontend inputs → ours (the rest keep their name). */
const INPUTS: Record<string, string> = {
  price: 'price',
  weight: 'weight',
  media_image: 'media_image',
  gallery: 'gallery',
  boolean: 'boolean',
  date: 'date',
  datetime: 'date',
};

export const attributesImporter: EntityImporter = {
  name: 'product attributes',
  group: 'catalog',
  count: (ctx) =>
    ctx.source.count(
      'eav_attribute a JOIN eav_entity_type t ON t.entity_type_id = a.entity_type_id',
      "t.entity_type_code = 'catalog_product'",
    ),
  async run(ctx, stats, tick) {
    const all = await ctx.source.query(
      `SELECT a.*, c.* FROM eav_attribute a JOIN eav_entity_type t ON t.entity_type_id = a.entity_type_id
         LEFT JOIN catalog_eav_attribute c ON c.attribute_id = a.attribute_id
        WHERE t.entity_type_code = 'catalog_product' ORDER BY a.attribute_id`,
    );
    stats.found = all.length;
    const ours = new Map(
      (
        await ctx.db
          .select({ id: productAttributes.id, code: productAttributes.code, isSystem: productAttributes.isSystem })
          .from(productAttributes)
      ).map((a) => [a.code, a]),
    );
    const values: (typeof productAttributes.$inferInsert)[] = [];
    for (const a of all) {
      const code = String(a.attribute_code);
      const mine = ours.get(code);
      // ours describe the columns they stand for; only the source's own attributes are written
      if (mine && !bool(a.is_user_defined)) continue;
      if (!mine && !bool(a.is_user_defined)) {
        ctx.report.skip(stats, a.attribute_id, 'a Magento system attribute with no counterpart here');
        continue;
      }
      const input = String(a.frontend_input ?? 'text');
      values.push({
        code,
        label: text(a.frontend_label) ?? code,
        frontendInput: INPUTS[input] ?? input,
        backendType: String(a.backend_type),
        scope: Number(a.is_global) === 1 ? 'global' : Number(a.is_global) === 2 ? 'website' : 'store',
        isSystem: false,
        isRequired: bool(a.is_required),
        isUserDefined: true,
        isUnique: bool(a.is_unique),
        isSearchable: bool(a.is_searchable),
        isFilterable: int(a.is_filterable) ?? 0,
        isFilterableInSearch: bool(a.is_filterable_in_search),
        isComparable: bool(a.is_comparable),
        isVisibleOnFront: bool(a.is_visible_on_front),
        isHtmlAllowedOnFront: bool(a.is_html_allowed_on_front),
        isUsedForPriceRules: bool(a.is_used_for_price_rules),
        usedInProductListing: bool(a.used_in_product_listing),
        usedForSortBy: bool(a.used_for_sort_by),
        isVisibleInAdvancedSearch: bool(a.is_visible_in_advanced_search),
        isWysiwygEnabled: bool(a.is_wysiwyg_enabled),
        isConfigurable: bool(a.is_configurable) && Number(a.is_global) === 1 && input === 'select',
        defaultValue: text(a.default_value),
        applyTo: (trimmed(a.apply_to) ?? '').split(',').filter(Boolean),
        frontendClass: trimmed(a.frontend_class),
        note: text(a.note),
        position: int(a.position) ?? 0,
      });
    }
    count(stats, await upsert(ctx.db, productAttributes, values, [productAttributes.code]));
    stats.unchanged += all.length - values.length - stats.skipped;
    const ids = new Map(
      (await ctx.db.select({ id: productAttributes.id, code: productAttributes.code }).from(productAttributes)).map((a) => [a.code, a.id]),
    );
    await recordIds(
      ctx.db,
      'product attributes',
      all.filter((a) => ids.has(String(a.attribute_code))).map((a) => [a.attribute_id, ids.get(String(a.attribute_code))!]),
    );
    forgetAttributeIds(ctx);
    if (ctx.source.hasTable('eav_attribute_label')) {
      const labels = await ctx.source.query(
        `SELECT l.attribute_label_id FROM eav_attribute_label l JOIN eav_attribute a ON a.attribute_id = l.attribute_id
           JOIN eav_entity_type t ON t.entity_type_id = a.entity_type_id WHERE t.entity_type_code = 'catalog_product'`,
      );
      // an attribute has one label here (its options have one per store view)
      for (const l of labels)
        ctx.report.skip(stats, `label ${l.attribute_label_id}`, 'store-view label of an attribute (the admin label is kept)');
    }
    tick(all.length);
  },
};

export const attributeOptionsImporter: EntityImporter = {
  name: 'attribute options',
  group: 'catalog',
  count: (ctx) => ctx.source.count('eav_attribute_option'),
  async run(ctx, stats, tick) {
    await assertImportable(ctx.db, 'products', 'products');
    const attrIds = await attributeIdMap(ctx);
    // the install's own options give way to the source's (no product uses them: products are checked above)
    await ctx.db.execute(sql`DELETE FROM product_attribute_options o WHERE NOT ${imported('attribute options', sql`o.id`)}`);
    const swatches = ctx.source.hasTable('eav_attribute_option_swatch');
    for await (const batch of ctx.source.batches({ from: 'eav_attribute_option', key: 'option_id' })) {
      stats.found += batch.length;
      const ids = batch.map((o) => o.option_id);
      const labels = groupBy(
        await ctx.source.query(
          `SELECT option_id, store_id, value FROM eav_attribute_option_value WHERE option_id IN (${ids.map(() => '?').join(',')})`,
          ids,
        ),
        'option_id',
      );
      const swatch = swatches
        ? new Map(
            (
              await ctx.source.query(
                `SELECT option_id, value FROM eav_attribute_option_swatch WHERE option_id IN (${ids.map(() => '?').join(',')})`,
                ids,
              )
            ).map((s) => [Number(s.option_id), trimmed(s.value)]),
          )
        : new Map<number, string | null>();
      const values: (typeof attributeOptions.$inferInsert)[] = [];
      for (const o of batch) {
        const attributeId = attrIds.get(Number(o.attribute_id));
        const ls = labels.get(Number(o.option_id)) ?? [];
        const admin = ls.find((l) => Number(l.store_id) === 0);
        if (!attributeId) ctx.report.skip(stats, o.option_id, 'its attribute was not imported');
        else if (!admin) ctx.report.skip(stats, o.option_id, 'no admin label');
        else {
          const sw = swatch.get(Number(o.option_id));
          values.push({
            id: Number(o.option_id),
            attributeId,
            label: String(admin.value),
            storeLabels: Object.fromEntries(ls.filter((l) => Number(l.store_id) !== 0).map((l) => [String(l.store_id), String(l.value)])),
            sortOrder: int(o.sort_order) ?? 0,
            swatchType: sw ? (/^#[0-9a-f]{6}$/i.test(sw) ? 'color' : 'text') : null,
            swatchValue: sw ?? null,
          });
        }
      }
      count(stats, await upsert(ctx.db, attributeOptions, values, [attributeOptions.id]));
      await recordKeptIds(
        ctx.db,
        'attribute options',
        values.map((v) => v.id as number),
      );
      tick(stats.found);
    }
    ctx.sequences.add('product_attribute_options');
  },
};

export const attributeSetsImporter: EntityImporter = {
  name: 'attribute sets',
  group: 'catalog',
  count: (ctx) =>
    ctx.source.count(
      'eav_attribute_set s JOIN eav_entity_type t ON t.entity_type_id = s.entity_type_id',
      "t.entity_type_code = 'catalog_product'",
    ),
  async run(ctx, stats, tick) {
    const sets = await ctx.source.query(
      `SELECT s.* FROM eav_attribute_set s JOIN eav_entity_type t ON t.entity_type_id = s.entity_type_id
        WHERE t.entity_type_code = 'catalog_product' ORDER BY s.attribute_set_id`,
    );
    stats.found = sets.length;
    const values = sets.map((s) => ({ name: String(s.attribute_set_name), sortOrder: int(s.sort_order) ?? 0 }));
    count(stats, await upsert(ctx.db, attributeSets, values, [attributeSets.name]));
    const ours = new Map(
      (await ctx.db.select({ id: attributeSets.id, name: attributeSets.name }).from(attributeSets)).map((s) => [s.name, s.id]),
    );
    const setIds = new Map(sets.map((s) => [Number(s.attribute_set_id), ours.get(String(s.attribute_set_name))!]));
    await recordIds(ctx.db, 'attribute sets', [...setIds]);
    // members, with their group names
    const attrIds = await attributeIdMap(ctx);
    const members = await ctx.source.query(
      `SELECT ea.attribute_set_id, ea.attribute_id, ea.sort_order, g.attribute_group_name, g.sort_order AS group_sort
         FROM eav_entity_attribute ea JOIN eav_attribute_group g ON g.attribute_group_id = ea.attribute_group_id
        WHERE ea.attribute_set_id IN (${sets.map(() => '?').join(',') || 'NULL'})`,
      sets.map((s) => s.attribute_set_id),
    );
    const links = [];
    for (const m of members) {
      const setId = setIds.get(Number(m.attribute_set_id));
      const attributeId = attrIds.get(Number(m.attribute_id));
      if (setId && attributeId) {
        links.push({
          setId,
          attributeId,
          groupName: text(m.attribute_group_name) ?? 'General',
          groupSortOrder: int(m.group_sort) ?? 0,
          sortOrder: int(m.sort_order) ?? 0,
        });
      }
    }
    await upsert(ctx.db, attributeSetAttributes, links, [attributeSetAttributes.setId, attributeSetAttributes.attributeId]);
    tick(sets.length);
  },
};

const CATEGORY_CODES = [
  'name',
  'url_key',
  'url_path',
  'is_active',
  'include_in_menu',
  'is_anchor',
  'description',
  'image',
  'display_mode',
  'landing_page',
  'available_sort_by',
  'default_sort_by',
  'meta_title',
  'meta_keywords',
  'meta_description',
  'page_layout',
  'filter_price_range',
];

/** Store-view values of a category, as our store_values keys. */
const CATEGORY_STORE: [string, string, (v: unknown) => unknown][] = [
  ['name', 'name', text],
  ['description', 'description', str],
  ['url_key', 'urlKey', text],
  ['is_active', 'isActive', bool],
  ['meta_title', 'metaTitle', text],
  ['meta_keywords', 'metaKeywords', text],
  ['meta_description', 'metaDescription', text],
];

/**
 * Parent and level of a category as Magento's tree has them: from its path of ids (`1/2/10/15`: parent 10,
 * level 3), not from parent_id, which a shop may have left behind after a move. Null when the path is not a
 * list of ids ending with the category's own.
 */
export function placeInTree(id: number, path: unknown): { parentId: number | null; level: number } | null {
  const ids = String(path ?? '').split('/');
  if (!ids.every((s) => /^\d{1,10}$/.test(s)) || Number(ids[ids.length - 1]) !== id) return null;
  return { parentId: ids.length > 1 ? Number(ids[ids.length - 2]) : null, level: ids.length - 1 };
}

export const categoriesImporter: EntityImporter = {
  name: 'categories',
  group: 'catalog',
  count: (ctx) => {
    const s = sinceWhere(ctx, 'catalog_category_entity');
    return ctx.source.count('catalog_category_entity', s.where, s.params);
  },
  async run(ctx, stats, tick) {
    await assertImportable(ctx.db, 'categories', 'categories', [1, 2]);
    const attrs = await attributesOf(ctx.source, 'catalog_category');
    const since = sinceWhere(ctx, 'catalog_category_entity');
    // parents before children: ordered by level, then id (a tree is small enough to read whole)
    const all = await ctx.source.query(
      `SELECT * FROM catalog_category_entity${since.where ? ` WHERE ${since.where}` : ''} ORDER BY level, entity_id`,
      since.params,
    );
    stats.found = all.length;
    for (let i = 0; i < all.length; i += 1000) {
      const batch = all.slice(i, i + 1000);
      const ids = batch.map((c) => Number(c.entity_id));
      const eav = await eavValues(ctx.source, 'catalog_category_entity', ids, attrs, CATEGORY_CODES);
      const values: (typeof categories.$inferInsert)[] = batch.map((c) => {
        const id = Number(c.entity_id);
        const v = valuesIn(eav, id);
        const storeValues: Record<string, Record<string, unknown>> = {};
        for (const storeId of storesWithValues(eav, id)) {
          const own = eav.get(id)!.get(storeId)!;
          const out: Record<string, unknown> = {};
          for (const [code, key, conv] of CATEGORY_STORE) if (code in own) out[key] = conv(own[code]);
          if (Object.keys(out).length) storeValues[String(storeId)] = out;
        }
        const sortBy = trimmed(v.available_sort_by);
        const stated = int(c.parent_id) || null;
        const place = placeInTree(id, c.path);
        if (!place)
          ctx.report.note(
            stats,
            id,
            `its path "${String(c.path ?? '')}" is not a path of ids ending with its own: placed under its parent_id ${stated}`,
          );
        else if (place.parentId !== stated)
          ctx.report.note(
            stats,
            id,
            `parent_id ${stated} but path ${String(c.path)}: placed under ${place.parentId}, as Magento's tree shows it`,
          );
        return {
          id,
          parentId: place ? place.parentId : stated,
          path: String(c.path),
          level: place ? place.level : (int(c.level) ?? 0),
          // Magento orders the children its tree finds by path by this position
          position: int(c.position) ?? 0,
          name: text(v.name) ?? (id === 1 ? 'Root Catalog' : `Category ${id}`),
          urlKey: trimmed(v.url_key),
          urlPath: trimmed(v.url_path)?.replace(/\.html$/, '') ?? null,
          isActive: v.is_active === undefined ? true : bool(v.is_active),
          includeInMenu: v.include_in_menu === undefined ? true : bool(v.include_in_menu),
          isAnchor: bool(v.is_anchor),
          description: str(v.description),
          image: text(v.image),
          displayMode: trimmed(v.display_mode),
          landingPageId: int(v.landing_page) || null,
          availableSortBy: sortBy ? sortBy.split(',') : null,
          defaultSortBy: trimmed(v.default_sort_by),
          metaTitle: text(v.meta_title),
          metaKeywords: text(v.meta_keywords),
          metaDescription: text(v.meta_description),
          pageLayout: trimmed(v.page_layout),
          filterPriceRange: decimal(v.filter_price_range),
          storeValues,
          createdAt: date(c.created_at) ?? new Date(0),
          updatedAt: date(c.updated_at) ?? date(c.created_at) ?? new Date(0),
        };
      });
      count(stats, await upsert(ctx.db, categories, values, [categories.id]));
      await recordKeptIds(
        ctx.db,
        'categories',
        values.map((v) => v.id as number),
      );
      tick(i + batch.length);
    }
    ctx.sequences.add('categories');
  },
  async verify(ctx) {
    const [{ n }] = await rows<{ n: number }>(
      ctx.db,
      sql`SELECT count(*)::int AS n FROM categories c WHERE ${imported('categories', sql`c.id`)}`,
    );
    ctx.report.check('categories', await ctx.source.count('catalog_category_entity'), n);
  },
};

/** Attributes, categories, products and everything hanging off them, then URL rewrites, in dependency order. */
export const CATALOG_IMPORTERS: EntityImporter[] = [
  attributesImporter,
  attributeOptionsImporter,
  attributeSetsImporter,
  categoriesImporter,
  ...PRODUCT_IMPORTERS,
  urlRewritesImporter,
];
