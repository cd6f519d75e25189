/**
 * `catalog_product` (`product`) and `catalog_product_type` (`product_type`) of the Magento 1 API. Reads answer the
 * values as Magento stores them: prices and weights as decimal strings ("12.5000"), status 1/2, visibility 1 to 4,
 * dates as "YYYY-MM-DD 00:00:00", select values as option ids, in the store view named (its own values over the
 * defaults). `list` is one statement whatever the number of products, with Magento's filters over the product
 * columns and attributes; `info` answers the product's editable attributes (those of its set that apply to its
 * type), restricted by `attributes` (V1: a list of codes or ids; V2: {attributes, additional_attributes}). The
 * writes are in product-write.ts. `currentStore` (a store kept in the session) is not served: each call takes its
 * store view as an argument. Parameter names are those of Maho's V1 methods, by which a V1 `args` map is spread.
 */
import { currentStoreMethod } from '../current-store.js';
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { adminWebsiteScope, type Ctx } from '../../../platform/context.js';
import { BUILT_IN_OPTIONS } from '../../catalog/attributes/built-in.js';
import { attributeSetExists } from '../../catalog/attributes/service.js';
import {
  legacyProduct,
  legacyProductColumns,
  legacyProductList,
  legacySetAttributes,
  legacyValueAttributes,
  type LegacyAttribute,
  type LegacyProductColumns,
  type LegacyProductRow,
} from '../../catalog/products/legacy-read.js';
import { productUrlSuffix } from '../../catalog/products/urls.js';
import { isRecord } from '../encoding.js';
import { filterSql, FilterError, parseFilters, type FieldFilter, type FilterColumn } from '../filters.js';
import { defineResource, idArg, magentoDate, type LegacyValue } from '../resources.js';
import { editableAttributes, MAGENTO_CODE, OUR_CODE } from './product-data.js';
import { findProduct, isProductType, PRODUCT_FAULTS, PRODUCT_TYPE_LABELS, productFault, storeView } from './product-shared.js';
import {
  createLegacyProduct,
  deleteLegacyProduct,
  multiUpdateLegacyProducts,
  setLegacySpecialPrice,
  updateLegacyProduct,
} from './product-write.js';

type Rec = Map<string, LegacyValue>;
const rec = (entries: [string, LegacyValue][]): Rec => new Map(entries);

// ---- list ----

/** The fields Magento's list filters name (its aliases product_id, set and type included), as columns. */
function filterColumns(c: LegacyProductColumns): Record<string, FilterColumn> {
  const t = c.table;
  const num = (column: FilterColumn['column']): FilterColumn => ({ column, type: 'number' });
  const day = (column: AnyColumn): FilterColumn => ({ column: sqlDay(column), type: 'date' });
  return {
    product_id: num(t.id),
    entity_id: num(t.id),
    set: num(t.attributeSetId),
    attribute_set_id: num(t.attributeSetId),
    type: { column: t.type },
    type_id: { column: t.type },
    sku: { column: t.sku },
    name: { column: c.storeText('name') },
    description: { column: c.storeText('description') },
    short_description: { column: c.storeText('shortDescription') },
    url_key: { column: c.storeText('urlKey') },
    meta_title: { column: c.storeText('metaTitle') },
    meta_keyword: { column: c.storeText('metaKeywords') },
    meta_description: { column: c.storeText('metaDescription') },
    status: num(c.status),
    visibility: num(c.visibility),
    tax_class_id: num(t.taxClassId),
    price: num(t.price),
    special_price: num(t.specialPrice),
    cost: num(t.cost),
    msrp: num(t.msrp),
    weight: num(t.weight),
    minimal_price: num(t.minPrice),
    special_from_date: day(t.specialFromDate),
    special_to_date: day(t.specialToDate),
    news_from_date: day(t.newsFromDate),
    news_to_date: day(t.newsToDate),
    created_at: { column: t.createdAt, type: 'date' },
    updated_at: { column: t.updatedAt, type: 'date' },
    required_options: { column: t.hasRequiredOptions, type: 'bool' },
  };
}

/** A calendar date column as the moment its day starts in UTC, to compare with Magento's datetimes. */
const sqlDay = (column: AnyColumn): SQL => sql`(${column}::timestamp AT TIME ZONE 'UTC')`;

/** The fields filterColumns names; any other is looked up among the attributes kept in products.attributes. */
const FIXED_FILTERS = new Set(Object.keys(filterColumns(legacyProductColumns('0'))));

/** An attribute kept in products.attributes: compared as a number when its values are numbers (option ids, prices). */
function valueColumn(c: LegacyProductColumns, code: string, input: string): FilterColumn {
  const text = c.attribute(code);
  const numeric =
    ['select', 'boolean', 'price', 'weight'].includes(input) && !BUILT_IN_OPTIONS[code]?.some((o) => typeof o.value === 'string');
  if (!numeric) return { column: text };
  return { column: sql`(CASE WHEN ${text} ~ '^-?[0-9]+(\\.[0-9]+)?$' THEN (${text})::numeric END)`, type: 'number' };
}

async function list(ctx: Ctx, [filters, store]: (LegacyValue | undefined)[]): Promise<LegacyValue[]> {
  const view = storeView(ctx, store);
  let parsed: Map<string, FieldFilter>;
  try {
    parsed = parseFilters(filters);
  } catch (err) {
    if (err instanceof FilterError) throw productFault('filters_invalid', err.message);
    throw err;
  }
  // attributes kept in products.attributes are read only when a filter names one
  const values = [...parsed.keys()].some((k) => !FIXED_FILTERS.has(k)) ? await legacyValueAttributes(ctx) : new Map<string, string>();
  let rows;
  try {
    rows = await legacyProductList(ctx, {
      storeKey: view.storeKey,
      websites: adminWebsiteScope(ctx),
      where: (c) => {
        const columns = filterColumns(c);
        for (const [code, input] of values) if (!Object.hasOwn(columns, code)) columns[code] = valueColumn(c, code, input);
        return filterSql(parsed, columns);
      },
    });
  } catch (err) {
    if (err instanceof FilterError) throw productFault('filters_invalid', err.message);
    throw err;
  }
  return rows.map((p) =>
    rec([
      ['product_id', p.id],
      ['sku', p.sku],
      ['name', p.name],
      ['set', p.attributeSetId],
      ['type', p.type],
      ['category_ids', p.categoryIds],
      ['website_ids', p.websiteIds],
    ]),
  );
}

// ---- info ----

const VISIBILITY: Record<string, number> = { not_visible: 1, catalog: 2, search: 3, catalog_search: 4 };
const dateTime = (d: string | null | undefined) => (d ? `${d.slice(0, 10)} 00:00:00` : null);
const flag = (b: boolean | null | undefined) => (b === null || b === undefined ? null : b ? 1 : 0);

/** The value of an attribute as Magento's product model holds it once loaded. */
function valueOf(p: LegacyProductRow, a: LegacyAttribute): LegacyValue {
  switch (a.code) {
    case 'name':
      return p.name;
    case 'sku':
      return p.sku;
    case 'description':
      return p.description;
    case 'short_description':
      return p.shortDescription;
    case 'url_key':
      return p.urlKey;
    case 'meta_title':
      return p.metaTitle;
    case 'meta_keywords':
      return p.metaKeywords;
    case 'meta_description':
      return p.metaDescription;
    case 'weight':
      return p.weight;
    case 'price':
      return p.price;
    case 'special_price':
      return p.specialPrice;
    case 'cost':
      return p.cost;
    case 'msrp':
      return p.msrp;
    case 'minimal_price':
      return p.minPrice;
    case 'special_from_date':
      return dateTime(p.specialFromDate);
    case 'special_to_date':
      return dateTime(p.specialToDate);
    case 'news_from_date':
      return dateTime(p.newsFromDate);
    case 'news_to_date':
      return dateTime(p.newsToDate);
    case 'status':
      return p.isActive ? 1 : 2;
    case 'visibility':
      return VISIBILITY[p.visibility] ?? 4;
    case 'tax_class_id':
      return p.taxClassId;
    case 'has_options':
      return p.hasRequiredOptions || p.hasCustomOptions ? 1 : 0;
    case 'required_options':
      return p.hasRequiredOptions ? 1 : 0;
    case 'sku_type':
      return p.skuType;
    case 'price_type':
      return p.priceType;
    case 'weight_type':
      return p.weightType;
    case 'price_view':
      return p.priceView;
    case 'shipment_type':
      return p.shipmentType;
    case 'links_title':
      return p.linksTitle;
    case 'samples_title':
      return p.samplesTitle;
    case 'links_purchased_separately':
      return flag(p.linksPurchasedSeparately);
    case 'tier_price':
      return p.tierPrices.map((t) =>
        rec([
          ['price_id', t.id],
          ['website_id', t.websiteId],
          ['all_groups', t.customerGroupId === null ? 1 : 0],
          ['cust_group', t.customerGroupId ?? 32000],
          ['price', t.price],
          ['price_qty', t.qty],
          ['website_price', t.price],
        ]),
      );
  }
  if (a.isSystem) return null;
  const v = p.attributes?.[a.code];
  if (v === undefined || v === null) return null;
  if (Array.isArray(v)) return v.join(',');
  if (a.frontendInput === 'date' && typeof v === 'string') return dateTime(v);
  return typeof v === 'string' || typeof v === 'number' ? v : typeof v === 'boolean' ? (v ? 1 : 0) : JSON.stringify(v);
}

/** The codes (or ids) an `attributes` argument asks for: V1's list, or V2's {attributes, additional_attributes}. */
function wantedAttributes(v: LegacyValue | undefined): { main?: string[]; additional: string[] } {
  const codes = (x: LegacyValue | undefined) =>
    Array.isArray(x) ? x.filter((c) => typeof c === 'string' || typeof c === 'number').map((c) => OUR_CODE[c] ?? String(c)) : [];
  if (typeof v === 'string' && v) return { main: [OUR_CODE[v] ?? v], additional: [] };
  if (isRecord(v)) {
    const main = codes(v.get('attributes'));
    return { main: main.length ? main : undefined, additional: codes(v.get('additional_attributes')) };
  }
  const main = codes(v);
  return { main: main.length ? main : undefined, additional: [] };
}

async function info(ctx: Ctx, [product, store, attributes, identifierType]: (LegacyValue | undefined)[]): Promise<Rec> {
  const view = storeView(ctx, store);
  const key = await findProduct(ctx, product, identifierType);
  const p = await legacyProduct(ctx, key.id, { storeKey: view.storeKey, websites: adminWebsiteScope(ctx) });
  if (!p) throw productFault('product_not_exists');
  const editable = editableAttributes(await legacySetAttributes(ctx, p.attributeSetId), p.type);
  const wanted = wantedAttributes(attributes);
  const allowed = (code: string, id?: number) =>
    !wanted.main || wanted.main.includes(code) || (id !== undefined && wanted.main.includes(String(id)));
  const out = rec([
    ['product_id', p.id],
    ['sku', p.sku],
    ['set', p.attributeSetId],
    ['type', p.type],
    ['categories', p.categoryIds],
    ['websites', p.websiteIds],
  ]);
  // values every product has, whatever its set: Magento's static attributes
  const fixed: [string, LegacyValue][] = [
    ['type_id', p.type],
    ['category_ids', p.categoryIds],
    ['created_at', magentoDate(p.createdAt)],
    ['updated_at', magentoDate(p.updatedAt)],
  ];
  const additional: Rec[] = [];
  const put = (code: string, value: LegacyValue, id?: number) => {
    const magento = MAGENTO_CODE[code] ?? code;
    if (wanted.additional.includes(code))
      additional.push(
        rec([
          ['key', magento],
          ['value', value],
        ]),
      );
    else if (allowed(code, id)) out.set(magento, value);
  };
  put(...fixed[0]);
  for (const a of editable) {
    put(a.code, valueOf(p, a), a.id);
    if (a.code === 'url_key') put('url_path', `${p.urlKey}${productUrlSuffix(ctx, storeIdOf(ctx, view.storeKey))}`);
  }
  for (const f of fixed.slice(1)) put(...f);
  if (additional.length) out.set('additional_attributes', additional);
  return out;
}

/** The store view whose settings a read in `storeKey` uses: the default one for the default values. */
const storeIdOf = (ctx: Ctx, storeKey: string) => (storeKey === '0' ? ctx.app.settings.defaultStore.id : Number(storeKey));

// ---- attributes ----

/** The attributes Magento's create and update take by name; listOfAdditionalAttributes answers the others. */
const DEFAULT_ATTRIBUTES = new Set([
  'type_id',
  'category_ids',
  'website_ids',
  'name',
  'description',
  'short_description',
  'sku',
  'weight',
  'status',
  'url_key',
  'url_path',
  'visibility',
  'has_options',
  'gift_message_available',
  'price',
  'special_price',
  'special_from_date',
  'special_to_date',
  'tax_class_id',
  'tier_price',
  'meta_title',
  'meta_keywords',
  'meta_description',
  'custom_design',
  'custom_layout_update',
  'options_container',
  'image_label',
  'small_image_label',
  'thumbnail_label',
  'created_at',
  'updated_at',
]);

async function additionalAttributes(ctx: Ctx, [productType, attributeSetId]: (LegacyValue | undefined)[]): Promise<Rec[]> {
  if (!isProductType(productType)) throw productFault('product_type_not_exists');
  const setId = idArg(attributeSetId);
  if (setId === undefined || !(await attributeSetExists(ctx, setId))) throw productFault('product_attribute_set_not_exists');
  return editableAttributes(await legacySetAttributes(ctx, setId), productType)
    .filter((a) => a.inSet && !DEFAULT_ATTRIBUTES.has(a.code))
    .map((a) =>
      rec([
        ['attribute_id', a.id],
        ['code', MAGENTO_CODE[a.code] ?? a.code],
        ['type', a.frontendInput],
        ['required', a.isRequired ? 1 : 0],
        ['scope', a.scope],
      ]),
    );
}

// ---- the resources ----

const read = ['products', 'read'] as [string, 'read'];
const write = ['products', 'write'] as [string, 'write'];

export const product = defineResource({
  name: 'catalog_product',
  title: 'Product API',
  aliases: ['product'],
  faults: PRODUCT_FAULTS,
  methods: {
    currentStore: currentStoreMethod({ name: 'catalog_product', faults: PRODUCT_FAULTS }),
    list: {
      title: 'Retrieve products list by filters',
      permission: read,
      params: ['filters', 'store'],
      run: list,
    },
    info: {
      title: 'Retrieve product',
      permission: read,
      params: ['productId', 'store', 'attributes', 'identifierType'],
      run: info,
    },
    create: {
      title: 'Create new product',
      permission: ['products', 'create'],
      params: ['type', 'set', 'sku', 'productData', 'store'],
      run: createLegacyProduct,
    },
    update: {
      title: 'Update product',
      permission: write,
      params: ['productId', 'productData', 'store', 'identifierType'],
      run: (ctx, [ref, data, store, identifierType]) => updateLegacyProduct(ctx, ref, data, store, identifierType),
    },
    multiUpdate: {
      title: 'Multi update product',
      permission: write,
      params: ['productIds', 'productData', 'store', 'identifierType'],
      run: multiUpdateLegacyProducts,
    },
    delete: {
      title: 'Delete product',
      permission: ['products', 'delete'],
      params: ['productId', 'identifierType'],
      run: (ctx, [ref, identifierType]) => deleteLegacyProduct(ctx, ref, identifierType),
    },
    getSpecialPrice: {
      title: 'Get special price',
      permission: read,
      params: ['productId', 'store'],
      run: async (ctx, [ref, store]) => {
        const view = storeView(ctx, store);
        const key = await findProduct(ctx, ref, undefined);
        const p = await legacyProduct(ctx, key.id, { storeKey: view.storeKey });
        if (!p) throw productFault('product_not_exists');
        return rec([
          ['special_price', p.specialPrice],
          ['special_from_date', dateTime(p.specialFromDate)],
          ['special_to_date', dateTime(p.specialToDate)],
        ]);
      },
    },
    setSpecialPrice: {
      title: 'Set special price',
      permission: write,
      params: ['productId', 'specialPrice', 'fromDate', 'toDate', 'store', 'identifierType'],
      run: setLegacySpecialPrice,
    },
    listOfAdditionalAttributes: {
      title: 'Get list of non-default attributes by product type and attributes set',
      permission: read,
      params: ['productType', 'attributeSetId'],
      run: additionalAttributes,
    },
  },
});

export const productType = defineResource({
  name: 'catalog_product_type',
  title: 'Product types API',
  aliases: ['product_type'],
  faults: {},
  methods: {
    list: {
      title: 'Retrieve product types',
      permission: read,
      params: [],
      run: async () =>
        PRODUCT_TYPE_LABELS.map(([type, label]) =>
          rec([
            ['type', type],
            ['label', label],
          ]),
        ),
    },
  },
});
