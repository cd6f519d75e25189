/**
 * Products of the six types (ids kept) with their store-view values, websites and attribute values, then what
 * hangs off them: stock, category positions, tier and group prices, images (files copied when a media folder is
 * given), custom options, configurable, grouped and bundle composition, related / up-sell / cross-sell links and
 * downloadable links (product-parts.ts, product-composition.ts). Each part reads the source a batch of products at a
 * time.
 */
import { sql } from 'drizzle-orm';
import { rows, type Db } from '../../platform/db.js';
import type { Ctx } from '../../platform/context.js';
import { finalPrice, refreshPriceRanges } from '../../modules/catalog/products/price.js';
import { dec } from '../../platform/money.js';
import { attributeOptions, productAttributes, products } from '../../modules/catalog/tables.js';
import {
  assertImportable,
  groupBy,
  idMap,
  imported,
  sinceWhere,
  upsertKept,
  WriteBehind,
  type EntityImporter,
  type ImportContext,
} from '../context.js';
import { attributesOf, eavValues, valuesIn, type EavAttribute } from '../eav.js';
import { bool, date, day, decimal, int, readAhead, str, text, trimmed, type SourceRow } from '../source.js';
import { compositionImporter } from './product-composition.js';
import {
  categoryProductsImporter,
  customOptionsImporter,
  downloadableImporter,
  mediaImporter,
  stockImporter,
  tierPricesImporter,
} from './product-parts.js';

const TYPES = new Set(['simple', 'virtual', 'configurable', 'bundle', 'grouped', 'downloadable']);
const COMPOSITE = new Set(['configurable', 'grouped', 'bundle']);
const VISIBILITY: Record<number, string> = { 1: 'not_visible', 2: 'catalog', 3: 'search', 4: 'catalog_search' };

/** Magento codes of the values our products table keeps in columns. */
const COLUMN_CODES = [
  'name',
  'description',
  'short_description',
  'url_key',
  'status',
  'visibility',
  'price',
  'special_price',
  'special_from_date',
  'special_to_date',
  'news_from_date',
  'news_to_date',
  'cost',
  'msrp',
  'weight',
  'tax_class_id',
  'meta_title',
  'meta_description',
  'meta_keyword',
  'image',
  'small_image',
  'thumbnail',
  'price_type',
  'sku_type',
  'weight_type',
  'price_view',
  'shipment_type',
  'links_title',
  'links_purchased_separately',
  'samples_title',
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
  /** the day special prices are judged on (UTC) */
  today: string;
}

async function plan(ctx: ImportContext): Promise<ProductPlan> {
  const attrs = await attributesOf(ctx.source, 'catalog_product');
  const ours = await ctx.db
    .select({ code: productAttributes.code, input: productAttributes.frontendInput, isSystem: productAttributes.isSystem })
    .from(productAttributes);
  const custom = new Map(ours.filter((a) => !a.isSystem && attrs.has(a.code)).map((a) => [a.code, a.input]));
  const options = await ctx.db.select({ id: attributeOptions.id, label: attributeOptions.label }).from(attributeOptions);
  return {
    attrs,
    codes: [...COLUMN_CODES, ...custom.keys()],
    custom,
    setIds: await idMap(ctx.db, 'attribute sets'),
    websiteIds: new Set((await rows<{ id: number }>(ctx.db, sql`SELECT id FROM websites`)).map((r) => r.id)),
    taxClasses: new Set(
      (await rows<{ id: number }>(ctx.db, sql`SELECT id FROM tax_classes WHERE class_type = 'PRODUCT'`)).map((r) => r.id),
    ),
    optionLabels: new Map(options.map((o) => [o.id, o.label])),
    today: new Date().toISOString().slice(0, 10),
  };
}

function slug(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function customValue(input: string, v: unknown): unknown {
  if (v === null || v === undefined || v === '') return undefined;
  if (input === 'multiselect') return String(v).split(',').map(Number).filter(Number.isInteger);
  if (input === 'select' || input === 'boolean') return Number.isInteger(Number(v)) ? Number(v) : String(v);
  if (input === 'price' || input === 'weight') return decimal(v) ?? undefined;
  if (input === 'date') return day(v) ?? undefined;
  return String(v);
}

function productRow(
  p: ProductPlan,
  r: SourceRow,
  v: Record<string, unknown>,
  stores: Map<number, Record<string, unknown>>,
  websites: number[],
): typeof products.$inferInsert {
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
  for (const own of Object.values(storeValues))
    for (const k of ['name', 'shortDescription', 'description']) if (typeof own[k] === 'string') search.push(own[k] as string);
  for (const value of Object.values(attributes))
    for (const o of Array.isArray(value) ? value : [value])
      if (typeof o === 'number' && p.optionLabels.has(o)) search.push(p.optionLabels.get(o)!);
  const taxClass = int(v.tax_class_id) ?? 0;
  const prices = {
    price: decimal(v.price),
    specialPrice: decimal(v.special_price),
    specialFromDate: day(v.special_from_date),
    specialToDate: day(v.special_to_date),
  };
  // the price range of a product without children is its final price, as the price ranges pass would set it (which
  // then only writes the configurable, grouped and bundle products); theirs comes from their children
  const final = COMPOSITE.has(String(r.type_id)) ? null : finalPrice(prices, p.today);
  const range = final === null ? null : dec(final).toFixed(4);
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
    // named rather than spread: V8 builds a literal with a spread in it slowly
    price: prices.price,
    specialPrice: prices.specialPrice,
    specialFromDate: prices.specialFromDate,
    specialToDate: prices.specialToDate,
    minPrice: range,
    maxPrice: range,
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

/** A configurable, grouped or bundle product keeps the range the price ranges pass gave it from its children. */
const COMPOSITE_TYPES = `t.type IN ('configurable', 'grouped', 'bundle') AND excluded.type = t.type`;
const KEEP_COMPOSITE_RANGE = {
  minPrice: `CASE WHEN ${COMPOSITE_TYPES} THEN t.min_price ELSE excluded.min_price END`,
  maxPrice: `CASE WHEN ${COMPOSITE_TYPES} THEN t.max_price ELSE excluded.max_price END`,
};

/** Only what prices need: the importer has no request. */
const priceCtx = (db: Db) => ({ db, now: new Date() }) as unknown as Ctx;

export const productsImporter: EntityImporter = {
  name: 'products',
  group: 'catalog',
  fills: ['products'],
  count: (ctx) => {
    const s = sinceWhere(ctx, 'catalog_product_entity');
    return ctx.source.count('catalog_product_entity', s.where, s.params);
  },
  async run(ctx, stats, tick) {
    await assertImportable(ctx.db, 'products', 'products');
    const p = await plan(ctx);
    const seen = new Set<string>();
    const since = sinceWhere(ctx, 'catalog_product_entity');
    const load = (batch: SourceRow[]) => {
      const ids = batch.map((r) => Number(r.entity_id));
      return Promise.all([
        eavValues(ctx.source, 'catalog_product_entity', ids, p.attrs, p.codes),
        ctx.source.query(`SELECT product_id, website_id FROM catalog_product_website WHERE product_id BETWEEN ? AND ?`, [
          Math.min(...ids),
          Math.max(...ids),
        ]),
      ]);
    };
    const behind = new WriteBehind();
    try {
      for await (const [batch, [eav, sites]] of readAhead(
        ctx.source.batches({
          from: 'catalog_product_entity',
          key: 'entity_id',
          where: since.where,
          params: since.params,
        }),
        load,
      )) {
        stats.found += batch.length;
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
            const websites = (websitesOf.get(id) ?? [])
              .map((w) => Number(w.website_id))
              .filter((w) => p.websiteIds.has(w))
              .sort((a, b) => a - b);
            values.push(productRow(p, r, valuesIn(eav, id), eav.get(id) ?? new Map(), websites));
          }
        }
        const found = stats.found;
        await behind.add(async () => {
          await upsertKept(ctx.db, stats, products, 'products', values, KEEP_COMPOSITE_RANGE);
          tick(found);
        });
      }
    } finally {
      await behind.flush();
    }
    ctx.sequences.add('products');
  },
  async verify(ctx) {
    const [{ n }] = await rows<{ n: number }>(
      ctx.db,
      sql`SELECT count(*)::int AS n FROM products p WHERE ${imported('products', sql`p.id`)}`,
    );
    ctx.report.check(
      'products (source rows less skipped)',
      (await ctx.source.count('catalog_product_entity')) - ctx.report.entity('products').skipped,
      n,
    );
  },
};

export const priceRangesImporter: EntityImporter = {
  name: 'price ranges',
  group: 'catalog',
  count: () => Promise.resolve(0),
  async run(ctx, stats) {
    let after = 0;
    for (;;) {
      const ids = (
        await rows<{ id: number }>(ctx.db, sql`SELECT id FROM products WHERE id > ${after} ORDER BY id LIMIT ${2 * ctx.source.batchSize}`)
      ).map((r) => r.id);
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
