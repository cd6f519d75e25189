/**
 * Where a typed argument's shape is not the untyped interface's, it is reshaped as Magento's V2 classes do
 * before the shared method runs: lists of `{order_item_id, qty}` become the map of item id to quantity, a
 * product's `additional_attributes` become attributes of its data, the list of attributes asked of a product
 * becomes one list of codes, a cart product's options and an attribute's additional fields, sent as pairs, become maps.
 */
import { isRecord, type SoapRecord, type SoapValue } from '../encoding.js';

/** `[{key, value}]` pairs as a map; anything else as it is. */
export function pairsToMap(v: SoapValue | undefined): SoapValue | undefined {
  if (!Array.isArray(v)) return v;
  const out: SoapRecord = new Map();
  for (const e of v) if (isRecord(e) && typeof e.get('key') === 'string') out.set(e.get('key') as string, e.get('value') ?? null);
  return out;
}

/** The item id → quantity map of a list of `{order_item_id, qty}` (entries lacking either are left out, as Magento does). */
function itemQtys(v: SoapValue): SoapValue {
  if (!Array.isArray(v)) return v;
  const out: SoapRecord = new Map();
  for (const e of v) {
    if (!isRecord(e)) continue;
    const id = e.get('order_item_id');
    const qty = e.get('qty');
    if (id !== undefined && id !== null && qty !== undefined && qty !== null) out.set(String(id), qty);
  }
  return out;
}

/** A product's data with its `additional_attributes` (V2: single_data and multi_data pairs; WS-I: pairs) moved in. */
function productData(v: SoapValue): SoapValue {
  if (!isRecord(v) || !v.has('additional_attributes')) return v;
  const extra = v.get('additional_attributes');
  const out: SoapRecord = new Map([...v].filter(([k]) => k !== 'additional_attributes'));
  const parts = isRecord(extra) ? [extra.get('single_data'), extra.get('multi_data')] : [extra];
  for (const p of parts) {
    const m = pairsToMap(p ?? undefined);
    if (isRecord(m)) for (const [k, x] of m) if (!out.has(k)) out.set(k, x);
  }
  return out;
}

/** `{attributes, additional_attributes}` as the one list of attribute codes the method takes. */
function requestAttributes(v: SoapValue): SoapValue {
  if (!isRecord(v)) return v;
  const list = (x: SoapValue | undefined) => (Array.isArray(x) ? x : []);
  return [...list(v.get('attributes')), ...list(v.get('additional_attributes'))];
}

/** The fields of a struct that are `{key, value}` pair lists, as maps. */
const pairFields =
  (...keys: string[]) =>
  (v: SoapValue): SoapValue => {
    if (!isRecord(v)) return v;
    const out: SoapRecord = new Map(v);
    for (const k of keys) if (out.has(k)) out.set(k, pairsToMap(out.get(k)) ?? null);
    return out;
  };

/**
 * A product as V2 answers it: the attributes its type has no field for go to `additional_attributes` as
 * key/value pairs (scalars only; a value that is a list is written as its items joined by commas).
 */
function productReturn(v: SoapValue, fields: ReadonlySet<string>): SoapValue {
  if (!isRecord(v)) return v;
  const out: SoapRecord = new Map();
  const extra: SoapValue[] = [];
  for (const [k, x] of v) {
    if (fields.has(k)) out.set(k, x);
    else if (x !== null && !isRecord(x))
      extra.push(
        new Map<string, SoapValue>([
          ['key', k],
          ['value', Array.isArray(x) ? x.join(',') : x],
        ]),
      );
  }
  if (extra.length && !out.has('additional_attributes')) out.set('additional_attributes', extra);
  return out;
}

/** Results reshaped before they are written as their type, given the type's field names. */
export const OUTPUT_SHAPES: Record<string, (v: SoapValue, fields: ReadonlySet<string>) => SoapValue> = {
  catalogProductReturnEntity: productReturn,
};

export const INPUT_SHAPES: Record<string, (v: SoapValue) => SoapValue> = {
  orderItemIdQtyArray: itemQtys,
  catalogProductCreateEntity: productData,
  catalogProductRequestAttributes: requestAttributes,
  shoppingCartProductEntity: pairFields('options', 'bundle_option', 'bundle_option_qty'),
  catalogProductAttributeEntityToCreate: pairFields('additional_fields'),
  catalogProductAttributeEntityToUpdate: pairFields('additional_fields'),
};
