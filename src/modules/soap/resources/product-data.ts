/**
 * A `productData` struct of catalog_product.create/update in the product service's terms. As Magento's
 * `_prepareDataForSave`, a key that names an attribute is taken only when the attribute is one of the product's
 * editable attributes (in its attribute set, applying to its type; the system attributes, columns every product
 * has, count as members of every set, as Magento's sets always hold them), a null value is no value, and
 * `additional_attributes` (`single_data`/`multi_data`, maps or V2 lists of {key, value}) carries any other
 * attribute; `website_ids`/`websites` (ids or codes), `category_ids`/`categories`, `stock_data` (Magento's stock
 * keys) and `tier_price` are taken for any product. A configurable product takes its super attributes and
 * children under Maho's keys: `super_attributes` (codes or ids) or `configurable_attributes_data` (the product
 * model's list of {attribute_id or attribute_code, position}), and `child_product_ids` or
 * `configurable_products_data` (child id → data, or a list of ids). A value of the wrong shape is fault 102
 * naming the field; the service checks the rest.
 */
import { Value } from 'typebox/value';
import type { Ctx } from '../../../platform/context.js';
import type { LegacyAttribute } from '../../catalog/products/legacy-read.js';
import type { ConfigurableUpdateT, TierPriceInputT } from '../../catalog/products/subresource-schemas.js';
import { ProductWrite, type ProductStockDataT, type ProductWriteBody } from '../../catalog/products/write-schemas.js';
import { isRecord } from '../encoding.js';
import type { LegacyValue } from '../resources.js';
import { productFault } from './product-shared.js';
import { STOCK_KEYS, stockFields } from './stock-data.js';

type Kind = 'text' | 'money' | 'number' | 'date' | 'status' | 'visibility' | 'int' | 'flag01' | 'bool';

/** Attributes written through a field of their own: Magento's code → the body's key and how its value reads. */
const FIELDS: Record<string, readonly [keyof ProductWriteBody, Kind]> = {
  sku: ['sku', 'text'],
  name: ['name', 'text'],
  description: ['description', 'text'],
  short_description: ['shortDescription', 'text'],
  url_key: ['urlKey', 'text'],
  meta_title: ['metaTitle', 'text'],
  meta_keywords: ['metaKeywords', 'text'],
  meta_description: ['metaDescription', 'text'],
  price: ['price', 'money'],
  special_price: ['specialPrice', 'money'],
  cost: ['cost', 'money'],
  msrp: ['msrp', 'money'],
  weight: ['weight', 'number'],
  special_from_date: ['specialFromDate', 'date'],
  special_to_date: ['specialToDate', 'date'],
  news_from_date: ['newsFromDate', 'date'],
  news_to_date: ['newsToDate', 'date'],
  status: ['status', 'status'],
  visibility: ['visibility', 'visibility'],
  tax_class_id: ['taxClassId', 'int'],
  sku_type: ['skuType', 'flag01'],
  price_type: ['priceType', 'flag01'],
  weight_type: ['weightType', 'flag01'],
  price_view: ['priceView', 'flag01'],
  shipment_type: ['shipmentType', 'flag01'],
  links_title: ['linksTitle', 'text'],
  samples_title: ['samplesTitle', 'text'],
  links_purchased_separately: ['linksPurchasedSeparately', 'bool'],
};

/** Magento's attribute codes where ours differ. */
export const MAGENTO_CODE: Record<string, string> = { meta_keywords: 'meta_keyword' };
export const OUR_CODE: Record<string, string> = { meta_keyword: 'meta_keywords' };

/** Attribute inputs the API never reads nor writes (images are the media resource's), and codes it ignores. */
export const IGNORED_INPUTS = new Set(['gallery', 'media_image']);
export const IGNORED_CODES = new Set(['entity_id', 'attribute_set_id', 'entity_type_id']);
/** Read-only values: shown by info, never written. */
const READ_ONLY = new Set(['has_options', 'required_options', 'minimal_price', 'created_at', 'updated_at', 'type_id', 'url_path']);

/** The product's editable attributes: those of its set (and the system ones) that apply to its type, images aside. */
export function editableAttributes(attributes: readonly LegacyAttribute[], type: string): LegacyAttribute[] {
  return attributes.filter(
    (a) => (!a.applyTo.length || a.applyTo.includes(type)) && !IGNORED_INPUTS.has(a.frontendInput) && !IGNORED_CODES.has(a.code),
  );
}

export interface ProductInput {
  body: ProductWriteBody;
  /** the new tier prices (the whole set), when `tier_price` was given */
  tierPrices?: TierPriceInputT[];
  /** the website of each tier price by code or id as given, to check against the product's websites */
  tierWebsites?: number[];
  /** super attributes and/or children, for a configurable product */
  configurable?: ConfigurableUpdateT;
}

const invalid = (code: string, creating: boolean, why?: string): never => {
  // Magento's wording: its create names the attribute, its update the value
  const base = creating ? `Attribute "${code}" is invalid` : `Value for "${code}" is invalid`;
  throw productFault('data_invalid', why ? `${base}: ${why}` : `${base}.`);
};

const DECIMAL = /^\s*\d+(\.\d+)?\s*$/;

/** One value read as the body's field wants it; '' clears a value that may be cleared. */
function fieldValue(code: string, kind: Kind, v: LegacyValue, creating: boolean): unknown {
  const bad = (why?: string) => invalid(MAGENTO_CODE[code] ?? code, creating, why);
  const text = typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined;
  if (text === undefined && kind !== 'bool') return bad();
  const t = (text ?? '').trim();
  switch (kind) {
    case 'text':
      return text;
    case 'date':
      return t === '' ? null : t;
    case 'money':
    case 'number':
      if (t === '') return null;
      if (!DECIMAL.test(t)) return bad('not a number');
      return Number(t);
    case 'status':
    case 'visibility':
      return /^\d{1,2}$/.test(t) ? Number(t) : t;
    case 'int':
      if (t === '') return 0;
      if (!/^\d{1,10}$/.test(t)) return bad('not a whole number');
      return Number(t);
    case 'flag01':
      if (t !== '0' && t !== '1') return bad('not 0 or 1');
      return Number(t);
    case 'bool':
      if (v === true || t === '1' || t === 'true') return true;
      if (v === false || t === '0' || t === 'false' || t === '') return false;
      return bad();
  }
}

function stockData(v: LegacyValue, creating: boolean): ProductStockDataT {
  if (!isRecord(v)) return invalid('stock_data', creating);
  return stockFields(v, {
    number: (x, key) => {
      const t = typeof x === 'number' ? String(x) : typeof x === 'string' ? x.trim() : '';
      // Magento keeps quantities with four decimals: "5.0000" is 5
      if (!/^-?\d{1,10}(\.0*)?$/.test(t)) invalid(`stock_data.${key}`, creating, 'not a whole number');
      return Number(t);
    },
    flag: (x, key) => fieldValue(`stock_data.${key}`, 'bool', x, creating),
  }) as ProductStockDataT;
}

/** A list as sent: a list, a map's values, or comma-separated text (as a WS-I additional attribute carries one). */
const listOf = (v: LegacyValue | undefined): LegacyValue[] | undefined =>
  Array.isArray(v) ? v : isRecord(v) ? [...v.values()] : typeof v === 'string' && v.trim() ? v.split(',').map((x) => x.trim()) : undefined;

/** Websites by id or code. */
function websiteIds(ctx: Ctx, v: LegacyValue[], code: string, creating: boolean): number[] {
  const all = ctx.app.settings.allWebsites();
  return v.map((w) => {
    const t = typeof w === 'number' ? String(w) : typeof w === 'string' ? w.trim() : '';
    if (/^\d{1,10}$/.test(t)) return Number(t);
    const found = all.find((x) => x.code === t);
    return found ? found.id : invalid(code, creating, `unknown website ${JSON.stringify(t)}`);
  });
}

function idList(v: LegacyValue[], code: string, creating: boolean): number[] {
  return v.map((x) => {
    const t = typeof x === 'number' ? String(x) : typeof x === 'string' ? x.trim() : '';
    return /^\d{1,10}$/.test(t) && Number(t) <= 2147483647 ? Number(t) : invalid(code, creating, 'not a list of ids');
  });
}

/** tier_price: a list of {customer_group_id ('all' or an id), website ('all', a code or an id), qty, price}. */
function tierPrices(ctx: Ctx, v: LegacyValue[], creating: boolean): { items: TierPriceInputT[]; websites: number[] } {
  const items: TierPriceInputT[] = [];
  const websites: number[] = [];
  for (const t of v) {
    if (!isRecord(t) || !present(t.get('qty')) || !present(t.get('price'))) throw productFault('data_invalid', 'Invalid Tier Prices');
    const w = t.get('website');
    const websiteId = !present(w) || w === 'all' ? 0 : (websiteIds(ctx, [w!], 'tier_price', creating)[0] ?? 0);
    const g = t.get('customer_group_id');
    const group = !present(g) || g === 'all' ? 'all' : /^\d{1,10}$/.test(String(g).trim()) ? Number(String(g).trim()) : undefined;
    if (group === undefined) invalid('tier_price', creating, 'customer_group_id is "all" or a group id');
    const qty = fieldValue('tier_price', 'number', t.get('qty')!, creating);
    const price = fieldValue('tier_price', 'money', t.get('price')!, creating);
    items.push({ customerGroupId: group, websiteId, qty: qty as number, price: price as number });
    if (websiteId) websites.push(websiteId);
  }
  return { items, websites };
}

/** Set, as PHP's isset() reads it: null is no value. */
const present = (v: LegacyValue | undefined): v is LegacyValue => v !== undefined && v !== null;

/** super_attributes or configurable_attributes_data, as codes or ids in position order. */
function superAttributes(data: Map<string, LegacyValue>, creating: boolean): (string | number)[] | undefined {
  const plain = data.get('super_attributes');
  const rich = data.get('configurable_attributes_data');
  const entries = present(plain) ? listOf(plain) : present(rich) ? listOf(rich) : undefined;
  if (!present(plain) && !present(rich)) return undefined;
  if (!entries) return invalid(present(plain) ? 'super_attributes' : 'configurable_attributes_data', creating);
  const out = entries.map((e, i) => {
    const position = isRecord(e) && present(e.get('position')) ? Number(e.get('position')) : i;
    const ref = isRecord(e) ? (e.get('attribute_code') ?? e.get('attribute_id')) : e;
    const t = typeof ref === 'number' ? String(ref) : typeof ref === 'string' ? ref.trim() : '';
    if (!t) invalid(present(plain) ? 'super_attributes' : 'configurable_attributes_data', creating);
    return { ref: /^\d{1,10}$/.test(t) ? Number(t) : t, position: Number.isFinite(position) ? position : i, i };
  });
  return out.sort((a, b) => a.position - b.position || a.i - b.i).map((x) => x.ref);
}

/** child_product_ids or configurable_products_data (child id → data, or a list of ids). */
function childIds(data: Map<string, LegacyValue>, creating: boolean): number[] | undefined {
  const plain = data.get('child_product_ids');
  if (present(plain)) return idList(listOf(plain) ?? invalid('child_product_ids', creating), 'child_product_ids', creating);
  const rich = data.get('configurable_products_data');
  if (!present(rich)) return undefined;
  if (isRecord(rich)) return idList([...rich.keys()], 'configurable_products_data', creating);
  return idList(listOf(rich) ?? invalid('configurable_products_data', creating), 'configurable_products_data', creating);
}

/** additional_attributes' single_data and multi_data as code → value (a V1 map or a V2 list of {key, value}). */
function additional(v: LegacyValue | undefined, creating: boolean): Map<string, LegacyValue> {
  const out = new Map<string, LegacyValue>();
  if (!present(v)) return out;
  if (!isRecord(v)) return invalid('additional_attributes', creating);
  for (const part of ['multi_data', 'single_data']) {
    const d = v.get(part);
    if (!present(d)) continue;
    if (isRecord(d)) for (const [k, x] of d) out.set(k, x);
    else if (Array.isArray(d)) {
      for (const e of d) {
        const key = isRecord(e) ? e.get('key') : undefined;
        if (typeof key !== 'string') return invalid('additional_attributes', creating);
        out.set(key, e instanceof Map ? (e.get('value') ?? null) : null);
      }
    } else return invalid('additional_attributes', creating);
  }
  return out;
}

/**
 * The service input of a productData struct for a product of `type` whose set has `attributes`. `creating`
 * words the faults as Magento's create does.
 */
export function productInput(
  ctx: Ctx,
  data: LegacyValue | undefined,
  opts: { type: string; attributes: readonly LegacyAttribute[]; creating: boolean },
): ProductInput {
  const { creating } = opts;
  // an empty struct may arrive as an empty list
  const map = isRecord(data) ? data : (Array.isArray(data) && !data.length) || data === undefined || data === null ? new Map() : undefined;
  if (!map) throw productFault('data_invalid', 'Product data must be a struct.');
  const extra = additional(map.get('additional_attributes'), creating);
  const body: Record<string, unknown> = {};
  const custom: Record<string, unknown> = {};
  const out: ProductInput = { body: body as ProductWriteBody };
  for (const a of editableAttributes(opts.attributes, opts.type)) {
    const magento = MAGENTO_CODE[a.code] ?? a.code;
    const v = [map.get(magento), map.get(a.code), extra.get(magento), extra.get(a.code)].find(present);
    if (v === undefined || READ_ONLY.has(a.code) || (a.code === 'sku' && creating)) continue;
    if (a.code === 'tier_price') {
      const list = listOf(v);
      if (!list) continue;
      const t = tierPrices(ctx, list, creating);
      out.tierPrices = t.items;
      out.tierWebsites = t.websites;
    } else if (Object.hasOwn(FIELDS, a.code)) {
      const [key, kind] = FIELDS[a.code];
      body[key] = fieldValue(a.code, kind, v, creating);
    } else if (!a.isSystem) {
      // the service checks the value against the attribute (options, dates, numbers)
      custom[a.code] = Array.isArray(v) ? v.map((x) => (isRecord(x) ? null : x)) : isRecord(v) ? invalid(magento, creating) : v;
    }
  }
  if (Object.keys(custom).length) body.customAttributesWrite = custom;
  for (const key of ['website_ids', 'websites']) {
    const list = present(map.get(key)) ? listOf(map.get(key)) : undefined;
    if (list) body.websiteIds = websiteIds(ctx, list, key, creating);
  }
  for (const key of ['category_ids', 'categories']) {
    const list = present(map.get(key)) ? listOf(map.get(key)) : undefined;
    if (list) body.categoryIds = idList(list, key, creating);
  }
  const stock = map.get('stock_data');
  if (present(stock)) body.stockData = stockData(stock, creating);
  if (opts.type === 'configurable') {
    const attrs = superAttributes(map, creating);
    const children = childIds(map, creating);
    if (attrs !== undefined || children !== undefined) {
      out.configurable = { ...(attrs !== undefined ? { superAttributes: attrs } : {}), ...(children ? { childProductIds: children } : {}) };
    }
  }
  checkShape(body, creating);
  return out;
}

/** Body key → Magento's code, for naming a field in a fault. */
const CODE_OF = new Map<string, string>([
  ...Object.entries(FIELDS).map(([code, [key]]) => [key, MAGENTO_CODE[code] ?? code] as [string, string]),
  ['websiteIds', 'websites'],
  ['categoryIds', 'categories'],
  ['stockData', 'stock_data'],
  ['customAttributesWrite', 'additional_attributes'],
]);

/** The bounds REST's body schema enforces (lengths, ranges, list sizes), as fault 102 naming Magento's field. */
function checkShape(body: Record<string, unknown>, creating: boolean): void {
  const [first] = [...Value.Errors(ProductWrite, body)];
  if (!first) return;
  const [key, sub] = first.instancePath.split('/').slice(1);
  const code = CODE_OF.get(key) ?? key;
  const name = key === 'stockData' && sub ? `stock_data.${Object.entries(STOCK_KEYS).find(([, k]) => k === sub)?.[0] ?? sub}` : code;
  invalid(name, creating, first.message);
}
