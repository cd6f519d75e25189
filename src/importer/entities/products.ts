/**
 * Products of the six types (ids kept) with their store-view values, websites and attribute values, then what
 * hangs off them: stock, category positions, tier and group prices, images (files copied when a media folder is
 * given), custom options, configurable, grouped and bundle composition, related / up-sell / cross-sell links and
 * downloadable links. Each part reads the source a batch of products at a time.
 */
import { inArray, sql } from 'drizzle-orm';
import { rows, type Db } from '../../platform/db.js';
import type { Ctx } from '../../platform/context.js';
import { refreshPriceRanges } from '../../modules/catalog/products/price.js';
import {
  attributeOptions,
  bundleOptions,
  bundleSelections,
  categoryProducts,
  configurableAttributes,
  configurableChildren,
  customOptions,
  customOptionValues,
  downloadableLinks,
  groupedChildren,
  productAttributes,
  productLinks,
  productMedia,
  products,
  tierPrices,
} from '../../modules/catalog/tables.js';
import { stockItems } from '../../modules/inventory/tables.js';
import { assertImportable, count, existingIds, idMap, groupBy, recordKeptIds, sinceWhere, sync, upsert, type EntityImporter, type ImportContext } from '../context.js';
import { attributesOf, eavValues, storesWithValues, valuesIn, type EavAttribute } from '../eav.js';
import type { EntityStats } from '../report.js';
import { bool, date, day, decimal, int, str, text, trimmed, type SourceRow } from '../source.js';
import { copyMedia } from '../media.js';
import { attributeIdMap } from './catalog.js';

const TYPES = new Set(['simple', 'virtual', 'configurable', 'bundle', 'grouped', 'downloadable']);
const VISIBILITY: Record<number, string> = { 1: 'not_visible', 2: 'catalog', 3: 'search', 4: 'catalog_search' };

/** Magento codes of the values our products table keeps in columns. */
const COLUMN_CODES = [
  'name', 'description', 'short_description', 'url_key', 'status', 'visibility', 'price', 'special_price', 'special_from_date', 'special_to_date',
  'news_from_date', 'news_to_date', 'cost', 'msrp', 'weight', 'tax_class_id', 'meta_title', 'meta_description', 'meta_keyword', 'image', 'small_image',
  'thumbnail', 'price_type', 'sku_type', 'weight_type', 'price_view', 'shipment_type', 'links_title', 'links_purchased_separately', 'samples_title',
];

/** Store-view values: Magento code → our store_values key and conversion. */
const STORE_VALUES: [string, string, (v: unknown) => unknown][] = [
  ['name', 'name', text],
  ['description', 'description', str],
  ['short_description', 'shortDescription', str],
  ['url_key', 'urlKey', text],
  ['status', 'isActive', (v) => Number(v) === 1],
  ['meta_title', 'metaTitle', text],
  ['meta_description', 'metaDescription', text],
  ['meta_keyword', 'metaKeywords', text],
];

interface ProductPlan {
  attrs: Map<string, EavAttribute>;
  /** codes read from the value tables: the columns and every attribute we keep in products.attributes */
  codes: string[];
  /** codes kept in products.attributes, with our frontend input */
  custom: Map<string, string>;
  setIds: Map<number, number>;
  websiteIds: Set<number>;
  taxClasses: Set<number>;
  /** option labels, for the search text */
  optionLabels: Map<number, string>;
}

async function plan(ctx: ImportContext): Promise<ProductPlan> {
  const attrs = await attributesOf(ctx.source, 'catalog_product');
  const ours = await ctx.db.select({ code: productAttributes.code, input: productAttributes.frontendInput, isSystem: productAttributes.isSystem }).from(productAttributes);
  const custom = new Map(ours.filter((a) => !a.isSystem && attrs.has(a.code)).map((a) => [a.code, a.input]));
  const options = await ctx.db.select({ id: attributeOptions.id, label: attributeOptions.label }).from(attributeOptions);
  return {
    attrs,
    codes: [...COLUMN_CODES, ...custom.keys()],
    custom,
    setIds: await idMap(ctx.db, 'attribute sets'),
    websiteIds: new Set((await rows<{ id: number }>(ctx.db, sql`SELECT id FROM websites`)).map((r) => r.id)),
    taxClasses: new Set((await rows<{ id: number }>(ctx.db, sql`SELECT id FROM tax_classes WHERE class_type = 'PRODUCT'`)).map((r) => r.id)),
    optionLabels: new Map(options.map((o) => [o.id, o.label])),
  };
}

function slug(s: string): string {
  return s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

function customValue(input: string, v: unknown): unknown {
  if (v === null || v === undefined || v === '') return undefined;
  if (input === 'multiselect') return String(v).split(',').map(Number).filter(Number.isInteger);
  if (input === 'select' || input === 'boolean') return Number.isInteger(Number(v)) ? Number(v) : String(v);
  if (input === 'price' || input === 'weight') return decimal(v) ?? undefined;
  if (input === 'date') return day(v) ?? undefined;
  return String(v);
}

function productRow(p: ProductPlan, r: SourceRow, v: Record<string, unknown>, stores: Map<number, Record<string, unknown>>, websites: number[]): typeof products.$inferInsert {
  const id = Number(r.entity_id);
  const name = text(v.name) ?? String(r.sku);
  const storeValues: Record<string, Record<string, unknown>> = {};
  for (const [storeId, own] of stores) {
    if (storeId === 0) continue;
    const out: Record<string, unknown> = {};
    for (const [code, key, conv] of STORE_VALUES) if (code in own) out[key] = conv(own[code]);
    if (Object.keys(out).length) storeValues[String(storeId)] = out;
  }
  const attributes: Record<string, unknown> = {};
  for (const [code, input] of p.custom) {
    const value = customValue(input, v[code]);
    if (value !== undefined) attributes[code] = value;
  }
  const search = [String(r.sku), name, str(v.short_description) ?? '', str(v.description) ?? ''];
  for (const own of Object.values(storeValues)) for (const k of ['name', 'shortDescription', 'description']) if (typeof own[k] === 'string') search.push(own[k] as string);
  for (const value of Object.values(attributes)) for (const o of Array.isArray(value) ? value : [value]) if (typeof o === 'number' && p.optionLabels.has(o)) search.push(p.optionLabels.get(o)!);
  const taxClass = int(v.tax_class_id) ?? 0;
  return {
    id,
    sku: String(r.sku),
    type: String(r.type_id),
    attributeSetId: p.setIds.get(Number(r.attribute_set_id))!,
    taxClassId: p.taxClasses.has(taxClass) ? taxClass : 0,
    name,
    urlKey: trimmed(v.url_key) ?? (slug(name) || `product-${id}`),
    isActive: Number(v.status ?? 1) === 1,
    visibility: VISIBILITY[Number(v.visibility ?? 4)] ?? 'catalog_search',
    description: str(v.description),
    shortDescription: str(v.short_description),
    metaTitle: text(v.meta_title),
    metaDescription: text(v.meta_description),
    metaKeywords: text(v.meta_keyword),
    storeValues,
    websiteIds: websites,
    price: decimal(v.price),
    specialPrice: decimal(v.special_price),
    specialFromDate: day(v.special_from_date),
    specialToDate: day(v.special_to_date),
    newsFromDate: day(v.news_from_date),
    newsToDate: day(v.news_to_date),
    cost: decimal(v.cost),
    msrp: decimal(v.msrp),
    weight: decimal(v.weight),
    hasRequiredOptions: bool(r.required_options),
    skuType: int(v.sku_type),
    priceType: int(v.price_type),
    weightType: int(v.weight_type),
    priceView: int(v.price_view),
    shipmentType: int(v.shipment_type),
    linksTitle: text(v.links_title),
    linksPurchasedSeparately: v.links_purchased_separately === undefined ? null : bool(v.links_purchased_separately),
    samplesTitle: text(v.samples_title),
    attributes,
    searchText: search.filter(Boolean).join(' '),
    createdAt: date(r.created_at) ?? new Date(0),
    updatedAt: date(r.updated_at) ?? date(r.created_at) ?? new Date(0),
  };
}

/** Only what prices need: the importer has no request. */
const priceCtx = (db: Db) => ({ db, now: new Date() }) as unknown as Ctx;

export const productsImporter: EntityImporter = {
  name: 'products',
  group: 'catalog',
  count: (ctx) => {
    const s = sinceWhere(ctx, 'catalog_product_entity');
    return ctx.source.count('catalog_product_entity', s.where, s.params);
  },
  async run(ctx, stats, tick) {
    await assertImportable(ctx.db, 'products', 'products');
    const p = await plan(ctx);
    const seen = new Set<string>();
    const since = sinceWhere(ctx, 'catalog_product_entity');
    for await (const batch of ctx.source.batches({ from: 'catalog_product_entity', key: 'entity_id', where: since.where, params: since.params })) {
      stats.found += batch.length;
      const ids = batch.map((r) => Number(r.entity_id));
      const [eav, sites] = await Promise.all([
        eavValues(ctx.source, 'catalog_product_entity', ids, p.attrs, p.codes),
        ctx.source.query(`SELECT product_id, website_id FROM catalog_product_website WHERE product_id BETWEEN ? AND ?`, [Math.min(...ids), Math.max(...ids)]),
      ]);
      const websitesOf = groupBy(sites, 'product_id');
      const values: (typeof products.$inferInsert)[] = [];
      for (const r of batch) {
        const id = Number(r.entity_id);
        // kept as stored, spaces included: Magento does not trim a SKU on save
        const sku = text(r.sku);
        if (!sku) ctx.report.skip(stats, id, 'no SKU');
        else if (!TYPES.has(String(r.type_id))) ctx.report.skip(stats, id, `product type ${r.type_id} not supported`);
        else if (!p.setIds.has(Number(r.attribute_set_id))) ctx.report.skip(stats, id, 'attribute set not imported');
        else if (seen.has(sku.toLowerCase())) ctx.report.skip(stats, id, 'SKU used twice (SKUs are unique whatever their case here)');
        else {
          seen.add(sku.toLowerCase());
          const websites = (websitesOf.get(id) ?? []).map((w) => Number(w.website_id)).filter((w) => p.websiteIds.has(w)).sort((a, b) => a - b);
          values.push(productRow(p, r, valuesIn(eav, id), eav.get(id) ?? new Map(), websites));
        }
      }
      count(stats, await upsert(ctx.db, products, values, [products.id]));
      await recordKeptIds(ctx.db, 'products', values.map((v) => v.id as number));
      tick(stats.found);
    }
    ctx.sequences.add('products');
  },
  async verify(ctx) {
    const [{ n }] = await rows<{ n: number }>(ctx.db, sql`SELECT count(*)::int AS n FROM products p JOIN import_id_map m ON m.entity = 'products' AND m.target_id = p.id`);
    ctx.report.check('products (source rows less skipped)', (await ctx.source.count('catalog_product_entity')) - ctx.report.entity('products').skipped, n);
  },
};

/**
 * A part read per batch of imported products: `load` reads the source rows of the products between two ids,
 * `write` writes them (replacing what an earlier run wrote for these products).
 */
function productPart(
  name: string,
  sourceTable: string,
  write: (ctx: ImportContext, stats: EntityStats, productIds: number[], range: [number, number]) => Promise<void>,
): EntityImporter {
  return {
    name,
    group: 'catalog',
    count: (ctx) => (ctx.source.hasTable(sourceTable) ? ctx.source.count(sourceTable) : Promise.resolve(0)),
    async run(ctx, stats, tick) {
      if (!ctx.source.hasTable(sourceTable)) return;
      let after = 0;
      for (;;) {
        const ids = (await rows<{ id: number }>(ctx.db, sql`SELECT id FROM products WHERE id > ${after} AND EXISTS (SELECT 1 FROM import_id_map m WHERE m.entity = 'products' AND m.target_id = products.id) ORDER BY id LIMIT 1000`)).map((r) => r.id);
        if (!ids.length) break;
        await write(ctx, stats, ids, [ids[0], ids[ids.length - 1]]);
        tick(stats.found);
        after = ids[ids.length - 1];
      }
    },
  };
}

const between = (col: string) => `${col} BETWEEN ? AND ?`;

/** Rows of products in the batch only (ranges may hold products that were skipped). */
function ofBatch(list: SourceRow[], key: string, ids: number[]): SourceRow[] {
  const set = new Set(ids);
  return list.filter((r) => set.has(Number(r[key])));
}


export const stockImporter = productPart('stock items', 'cataloginventory_stock_item', async (ctx, stats, ids, [lo, hi]) => {
  const found = ofBatch(await ctx.source.query(`SELECT * FROM cataloginventory_stock_item WHERE ${between('product_id')} AND stock_id = 1`, [lo, hi]), 'product_id', ids);
  stats.found += found.length;
  const qty = (v: unknown) => Math.max(0, Math.min(99_999_999, Math.floor(Number(v) || 0)));
  const clampInt = (v: unknown) => Math.max(-99_999_999, Math.min(99_999_999, Math.floor(Number(v) || 0)));
  const values = found.map((s) => ({
    productId: Number(s.product_id),
    qty: qty(s.qty),
    isInStock: bool(s.is_in_stock),
    manageStock: bool(s.use_config_manage_stock) ? true : bool(s.manage_stock),
    minQty: bool(s.use_config_min_qty) ? 0 : clampInt(s.min_qty),
    minSaleQty: bool(s.use_config_min_sale_qty) ? 1 : Math.max(1, clampInt(s.min_sale_qty)),
    maxSaleQty: bool(s.use_config_max_sale_qty) || !Number(s.max_sale_qty) || Number(s.max_sale_qty) >= 10000 ? null : Math.max(1, clampInt(s.max_sale_qty)),
    backorders: bool(s.use_config_backorders) ? 0 : Math.max(0, Math.min(2, int(s.backorders) ?? 0)),
    notifyStockQty: bool(s.use_config_notify_stock_qty) ? null : clampInt(s.notify_stock_qty),
    qtyIncrements: s.enable_qty_increments !== undefined && bool(s.enable_qty_increments) && !bool(s.use_config_qty_increments) && Number(s.qty_increments) >= 1 ? clampInt(s.qty_increments) : null,
    updatedAt: date(s.low_stock_date) ?? new Date(0),
  }));
  for (const v of values) if (v.minQty < 0 && v.backorders === 0) v.minQty = 0;
  count(stats, await upsert(ctx.db, stockItems, values, [stockItems.productId]));
});
stockImporter.verify = async (ctx) => {
  const [src] = await ctx.source.query<{ n: string | null }>('SELECT SUM(LEAST(GREATEST(FLOOR(qty), 0), 99999999)) AS n FROM cataloginventory_stock_item WHERE stock_id = 1 AND product_id IN (SELECT entity_id FROM catalog_product_entity)');
  const [ours] = await rows<{ n: string }>(ctx.db, sql`SELECT COALESCE(sum(qty), 0)::text AS n FROM stock_items s JOIN import_id_map m ON m.entity = 'products' AND m.target_id = s.product_id`);
  ctx.report.check('stock qty (whole units)', Number(src?.n ?? 0), Number(ours.n));
};

export const categoryProductsImporter = productPart('category products', 'catalog_category_product', async (ctx, stats, ids, [lo, hi]) => {
  const found = ofBatch(await ctx.source.query(`SELECT * FROM catalog_category_product WHERE ${between('product_id')}`, [lo, hi]), 'product_id', ids);
  stats.found += found.length;
  const cats = await existingIds(ctx.db, 'categories', found.map((f) => Number(f.category_id)));
  const values = [];
  for (const f of found) {
    if (!cats.has(Number(f.category_id))) ctx.report.skip(stats, `${f.category_id}/${f.product_id}`, 'category not imported');
    else values.push({ categoryId: Number(f.category_id), productId: Number(f.product_id), position: int(f.position) ?? 0 });
  }
  count(stats, await sync(ctx.db, categoryProducts, categoryProducts.productId, ids, values, [categoryProducts.categoryId, categoryProducts.productId]));
});

export const tierPricesImporter = productPart('tier prices', 'catalog_product_entity_tier_price', async (ctx, stats, ids, [lo, hi]) => {
  const tiers = ofBatch(await ctx.source.query(`SELECT * FROM catalog_product_entity_tier_price WHERE ${between('entity_id')}`, [lo, hi]), 'entity_id', ids);
  const groups = ctx.source.hasTable('catalog_product_entity_group_price')
    ? ofBatch(await ctx.source.query(`SELECT * FROM catalog_product_entity_group_price WHERE ${between('entity_id')}`, [lo, hi]), 'entity_id', ids)
    : [];
  stats.found += tiers.length + groups.length;
  // group prices become tier prices for a qty of 1; ours are numbered anew on every run
  const values = ([...tiers, ...groups.map((g) => ({ ...g, qty: '1' }))] as SourceRow[]).map((t) => ({
    productId: Number(t.entity_id),
    customerGroupId: bool(t.all_groups) ? null : Number(t.customer_group_id),
    websiteId: Number(t.website_id ?? 0),
    qty: decimal(t.qty) ?? '1',
    price: decimal(t.value) ?? '0',
  }));
  // no stable id: rows are matched on all their values
  const keyOf = (t: { productId: number; customerGroupId: number | null; websiteId: number; qty: string; price: string }) =>
    JSON.stringify([t.productId, t.customerGroupId, t.websiteId, Number(t.qty), Number(t.price)]);
  const existing = await ctx.db.select().from(tierPrices).where(inArray(tierPrices.productId, ids));
  const have = new Map(existing.map((e) => [keyOf(e), e.id]));
  const incoming = new Set(values.map(keyOf));
  const gone = existing.filter((e) => !incoming.has(keyOf(e))).map((e) => e.id);
  if (gone.length) await ctx.db.delete(tierPrices).where(inArray(tierPrices.id, gone));
  const fresh = values.filter((v) => !have.has(keyOf(v)));
  if (fresh.length) await ctx.db.insert(tierPrices).values(fresh);
  stats.imported += fresh.length;
  stats.unchanged += values.length - fresh.length;
});

export const mediaImporter = productPart('product images', 'catalog_product_entity_media_gallery', async (ctx, stats, ids, [lo, hi]) => {
  const gallery = ofBatch(await ctx.source.query(`SELECT * FROM catalog_product_entity_media_gallery WHERE ${between('entity_id')}`, [lo, hi]), 'entity_id', ids);
  stats.found += gallery.length;
  if (!gallery.length) return;
  const valueIds = gallery.map((g) => g.value_id);
  const labels = groupBy(await ctx.source.query(`SELECT * FROM catalog_product_entity_media_gallery_value WHERE value_id IN (${valueIds.map(() => '?').join(',')})`, valueIds), 'value_id');
  const attrs = await attributesOf(ctx.source, 'catalog_product');
  const roles = await eavValues(ctx.source, 'catalog_product_entity', ids, attrs, ['image', 'small_image', 'thumbnail']);
  const values = gallery.map((g) => {
    const own = (labels.get(Number(g.value_id)) ?? []).find((l) => Number(l.store_id) === 0) ?? (labels.get(Number(g.value_id)) ?? [])[0] ?? {};
    const file = String(g.value).startsWith('/') ? String(g.value) : `/${g.value}`;
    const v = valuesIn(roles, Number(g.entity_id));
    return {
      id: Number(g.value_id),
      productId: Number(g.entity_id),
      file,
      label: text(own.label),
      position: int(own.position) ?? 0,
      disabled: bool(own.disabled),
      types: ['image', 'small_image', 'thumbnail'].filter((role) => v[role] === g.value || v[role] === file),
    };
  });
  count(stats, await sync(ctx.db, productMedia, productMedia.productId, ids, values, [productMedia.id]));
  ctx.sequences.add('product_media');
  for (const v of values) {
    const copy = await copyMedia(ctx, 'catalog/product', v.file, { replace: true });
    if (copy.ok) continue;
    if (copy.missing) ctx.report.skip(stats, v.id, 'image file not found under --media-dir (the row is imported)');
    else {
      ctx.report.skip(stats, v.id, 'image file refused, not copied (the row is imported)');
      ctx.report.note(stats, v.id, `catalog/product${v.file} not copied: ${copy.reason}`);
    }
  }
});

export const customOptionsImporter = productPart('custom options', 'catalog_product_option', async (ctx, stats, ids, [lo, hi]) => {
  const options = ofBatch(await ctx.source.query(`SELECT * FROM catalog_product_option WHERE ${between('product_id')}`, [lo, hi]), 'product_id', ids);
  stats.found += options.length;
  if (!options.length) {
    await sync(ctx.db, customOptions, customOptions.productId, ids, [], [customOptions.id]);
    return;
  }
  const oids = options.map((o) => o.option_id);
  const q = (table: string, key: string, list: unknown[]) =>
    ctx.source.hasTable(table) && list.length ? ctx.source.query(`SELECT * FROM ${table} WHERE store_id = 0 AND ${key} IN (${list.map(() => '?').join(',')})`, list) : Promise.resolve([]);
  const titles = new Map((await q('catalog_product_option_title', 'option_id', oids)).map((t) => [Number(t.option_id), text(t.title)]));
  const prices = new Map((await q('catalog_product_option_price', 'option_id', oids)).map((t) => [Number(t.option_id), t]));
  const typeValues = await ctx.source.query(`SELECT * FROM catalog_product_option_type_value WHERE option_id IN (${oids.map(() => '?').join(',')})`, oids);
  const tids = typeValues.map((t) => t.option_type_id);
  const typeTitles = new Map((await q('catalog_product_option_type_title', 'option_type_id', tids)).map((t) => [Number(t.option_type_id), text(t.title)]));
  const typePrices = new Map((await q('catalog_product_option_type_price', 'option_type_id', tids)).map((t) => [Number(t.option_type_id), t]));
  const values = options.map((o) => {
    const price = prices.get(Number(o.option_id));
    return {
      id: Number(o.option_id),
      productId: Number(o.product_id),
      title: titles.get(Number(o.option_id)) ?? `Option ${o.option_id}`,
      type: String(o.type),
      required: bool(o.is_require),
      sortOrder: int(o.sort_order) ?? 0,
      price: price ? decimal(price.price) : null,
      priceType: price?.price_type === 'percent' ? 'percent' : 'fixed',
      sku: text(o.sku),
      maxCharacters: int(o.max_characters) || null,
      fileExtensions: trimmed(o.file_extension),
      imageSizeX: int(o.image_size_x) || null,
      imageSizeY: int(o.image_size_y) || null,
    };
  });
  count(stats, await sync(ctx.db, customOptions, customOptions.productId, ids, values, [customOptions.id]));
  const rowsOfValues = typeValues.map((t) => {
    const price = typePrices.get(Number(t.option_type_id));
    return {
      id: Number(t.option_type_id),
      optionId: Number(t.option_id),
      title: typeTitles.get(Number(t.option_type_id)) ?? `Value ${t.option_type_id}`,
      price: price ? (decimal(price.price) ?? '0') : '0',
      priceType: price?.price_type === 'percent' ? 'percent' : 'fixed',
      sku: text(t.sku),
      sortOrder: int(t.sort_order) ?? 0,
    };
  });
  await sync(ctx.db, customOptionValues, customOptionValues.optionId, values.map((v) => v.id), rowsOfValues, [customOptionValues.id]);
  ctx.sequences.add('product_custom_options');
  ctx.sequences.add('product_custom_option_values');
});

export const compositionImporter = productPart('product composition', 'catalog_product_link', async (ctx, stats, ids, [lo, hi]) => {
  // configurable: super attributes and children
  const attrIds = await attributeIdMap(ctx);
  const supers = ofBatch(await ctx.source.query(`SELECT * FROM catalog_product_super_attribute WHERE ${between('product_id')}`, [lo, hi]), 'product_id', ids);
  const superLinks = ofBatch(await ctx.source.query(`SELECT * FROM catalog_product_super_link WHERE ${between('parent_id')}`, [lo, hi]), 'parent_id', ids);
  // links: related 1, super (grouped) 3, up-sell 4, cross-sell 5, with position and qty attributes
  const types = new Map((await ctx.source.query('SELECT link_type_id, code FROM catalog_product_link_type')).map((t) => [Number(t.link_type_id), String(t.code)]));
  const links = ofBatch(await ctx.source.query(`SELECT * FROM catalog_product_link WHERE ${between('product_id')}`, [lo, hi]), 'product_id', ids);
  const linkIds = links.map((l) => l.link_id);
  const linkAttr = async (table: string) =>
    linkIds.length && ctx.source.hasTable(table)
      ? await ctx.source.query(`SELECT v.link_id, a.product_link_attribute_code AS code, v.value FROM ${table} v JOIN catalog_product_link_attribute a ON a.product_link_attribute_id = v.product_link_attribute_id WHERE v.link_id IN (${linkIds.map(() => '?').join(',')})`, linkIds)
      : [];
  const extra = new Map<number, Record<string, unknown>>();
  for (const v of [...(await linkAttr('catalog_product_link_attribute_int')), ...(await linkAttr('catalog_product_link_attribute_decimal'))]) {
    const e = extra.get(Number(v.link_id)) ?? {};
    e[String(v.code)] = v.value;
    extra.set(Number(v.link_id), e);
  }
  // bundle options and selections
  const bOptions = ofBatch(await ctx.source.query(`SELECT * FROM catalog_product_bundle_option WHERE ${between('parent_id')}`, [lo, hi]), 'parent_id', ids);
  const bTitles = bOptions.length
    ? new Map((await ctx.source.query(`SELECT option_id, title FROM catalog_product_bundle_option_value WHERE store_id = 0 AND option_id IN (${bOptions.map(() => '?').join(',')})`, bOptions.map((o) => o.option_id))).map((t) => [Number(t.option_id), text(t.title)]))
    : new Map();
  const bSelections = ofBatch(await ctx.source.query(`SELECT * FROM catalog_product_bundle_selection WHERE ${between('parent_product_id')}`, [lo, hi]), 'parent_product_id', ids);
  stats.found += supers.length + superLinks.length + links.length + bOptions.length + bSelections.length;
  const present = await existingIds(ctx.db, 'products', [...superLinks.map((l) => Number(l.product_id)), ...links.map((l) => Number(l.linked_product_id)), ...bSelections.map((s) => Number(s.product_id))]);

  const conf = supers.filter((s) => attrIds.has(Number(s.attribute_id))).map((s) => ({ productId: Number(s.product_id), attributeId: attrIds.get(Number(s.attribute_id))!, position: int(s.position) ?? 0 }));
  const children = [];
  for (const l of superLinks) {
    if (present.has(Number(l.product_id))) children.push({ parentId: Number(l.parent_id), childId: Number(l.product_id) });
    else ctx.report.skip(stats, l.link_id, 'configurable child not imported');
  }
  const grouped = [];
  const related = [];
  const LINK_TYPES: Record<string, string> = { relation: 'related', up_sell: 'up_sell', cross_sell: 'cross_sell' };
  for (const l of links) {
    const code = types.get(Number(l.link_type_id));
    const e = extra.get(Number(l.link_id)) ?? {};
    if (!present.has(Number(l.linked_product_id))) ctx.report.skip(stats, l.link_id, 'linked product not imported');
    else if (code === 'super') grouped.push({ parentId: Number(l.product_id), childId: Number(l.linked_product_id), qty: decimal(e.qty) ?? '0', position: int(e.position) ?? 0 });
    else if (code && LINK_TYPES[code]) related.push({ productId: Number(l.product_id), type: LINK_TYPES[code], linkedProductId: Number(l.linked_product_id), position: int(e.position) ?? 0 });
    else ctx.report.skip(stats, l.link_id, `link type ${code ?? l.link_type_id} not supported`);
  }
  const bundle = bOptions.map((o) => ({
    id: Number(o.option_id),
    productId: Number(o.parent_id),
    title: bTitles.get(Number(o.option_id)) ?? `Option ${o.option_id}`,
    type: String(o.type ?? 'select'),
    required: bool(o.required),
    position: int(o.position) ?? 0,
  }));
  const selections = [];
  for (const s of bSelections) {
    if (!present.has(Number(s.product_id))) ctx.report.skip(stats, s.selection_id, 'bundle selection product not imported');
    else {
      selections.push({
        id: Number(s.selection_id),
        optionId: Number(s.option_id),
        productId: Number(s.product_id),
        qty: decimal(s.selection_qty) ?? '1',
        canChangeQty: bool(s.selection_can_change_qty),
        isDefault: bool(s.is_default),
        position: int(s.position) ?? 0,
        price: decimal(s.selection_price_value),
        priceType: Number(s.selection_price_type) === 1 ? 'percent' : 'fixed',
      });
    }
  }
  for (const r of [
    await sync(ctx.db, configurableAttributes, configurableAttributes.productId, ids, conf, [configurableAttributes.productId, configurableAttributes.attributeId]),
    await sync(ctx.db, configurableChildren, configurableChildren.parentId, ids, children, [configurableChildren.parentId, configurableChildren.childId]),
    await sync(ctx.db, groupedChildren, groupedChildren.parentId, ids, grouped, [groupedChildren.parentId, groupedChildren.childId]),
    await sync(ctx.db, productLinks, productLinks.productId, ids, related, [productLinks.productId, productLinks.type, productLinks.linkedProductId]),
    await sync(ctx.db, bundleOptions, bundleOptions.productId, ids, bundle, [bundleOptions.id]),
    await sync(ctx.db, bundleSelections, bundleSelections.optionId, bundle.map((b) => b.id), selections, [bundleSelections.id]),
  ]) {
    count(stats, r);
  }
  ctx.sequences.add('product_bundle_options');
  ctx.sequences.add('product_bundle_selections');
});

export const downloadableImporter = productPart('downloadable links', 'downloadable_link', async (ctx, stats, ids, [lo, hi]) => {
  const links = ofBatch(await ctx.source.query(`SELECT * FROM downloadable_link WHERE ${between('product_id')}`, [lo, hi]), 'product_id', ids);
  stats.found += links.length;
  if (ctx.source.hasTable('downloadable_sample')) {
    for (const s of ofBatch(await ctx.source.query(`SELECT sample_id, product_id FROM downloadable_sample WHERE ${between('product_id')}`, [lo, hi]), 'product_id', ids)) {
      ctx.report.skip(stats, `sample ${s.sample_id}`, 'product-level samples are not kept (samples belong to links here)');
    }
  }
  if (!links.length) {
    await sync(ctx.db, downloadableLinks, downloadableLinks.productId, ids, [], [downloadableLinks.id]);
    return;
  }
  const lids = links.map((l) => l.link_id);
  const titles = new Map((await ctx.source.query(`SELECT link_id, title FROM downloadable_link_title WHERE store_id = 0 AND link_id IN (${lids.map(() => '?').join(',')})`, lids)).map((t) => [Number(t.link_id), text(t.title)]));
  const prices = new Map((await ctx.source.query(`SELECT link_id, price FROM downloadable_link_price WHERE website_id = 0 AND link_id IN (${lids.map(() => '?').join(',')})`, lids)).map((t) => [Number(t.link_id), decimal(t.price)]));
  const values = links.map((l) => ({
    id: Number(l.link_id),
    productId: Number(l.product_id),
    title: titles.get(Number(l.link_id)) ?? `Link ${l.link_id}`,
    price: prices.get(Number(l.link_id)) ?? '0',
    sortOrder: int(l.sort_order) ?? 0,
    numberOfDownloads: int(l.number_of_downloads) ?? 0,
    isShareable: int(l.is_shareable) ?? 2,
    linkType: String(l.link_type ?? 'url'),
    linkUrl: trimmed(l.link_url),
    linkFile: text(l.link_file),
    sampleType: trimmed(l.sample_type),
    sampleUrl: trimmed(l.sample_url),
    sampleFile: text(l.sample_file),
  }));
  count(stats, await sync(ctx.db, downloadableLinks, downloadableLinks.productId, ids, values, [downloadableLinks.id]));
  ctx.sequences.add('product_downloadable_links');
});

export const priceRangesImporter: EntityImporter = {
  name: 'price ranges',
  group: 'catalog',
  count: () => Promise.resolve(0),
  async run(ctx, stats) {
    let after = 0;
    for (;;) {
      const ids = (await rows<{ id: number }>(ctx.db, sql`SELECT id FROM products WHERE id > ${after} ORDER BY id LIMIT 2000`)).map((r) => r.id);
      if (!ids.length) break;
      await refreshPriceRanges(priceCtx(ctx.db), ids);
      stats.found += ids.length;
      after = ids[ids.length - 1];
    }
  },
};

export const PRODUCT_IMPORTERS: EntityImporter[] = [
  productsImporter,
  stockImporter,
  categoryProductsImporter,
  tierPricesImporter,
  mediaImporter,
  customOptionsImporter,
  compositionImporter,
  downloadableImporter,
  priceRangesImporter,
];
