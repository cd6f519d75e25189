/**
 * Magento's EAV storage: an entity's attributes are rows of `eav_attribute`; its values sit in one table per
 * backend type (`<entity table>_varchar`, `_int`, `_decimal`, `_datetime`, `_text`), per store view for catalog
 * entities (store 0 holds the default), or in a column of the entity table for `static` attributes.
 */
import type { Source, SourceRow } from './source.js';

export interface EavAttribute {
  id: number;
  code: string;
  backendType: string;
  frontendInput: string | null;
}

export type EntityTypeCode = 'customer' | 'customer_address' | 'catalog_category' | 'catalog_product';

const BACKENDS = ['varchar', 'int', 'decimal', 'datetime', 'text'] as const;

const attributeCache = new WeakMap<Source, Map<string, Promise<Map<string, EavAttribute>>>>();

/** The attributes of an entity type, by code (read once per source). */
export function attributesOf(source: Source, type: EntityTypeCode): Promise<Map<string, EavAttribute>> {
  let cache = attributeCache.get(source);
  if (!cache) attributeCache.set(source, (cache = new Map()));
  let found = cache.get(type);
  if (!found) cache.set(type, (found = readAttributes(source, type)));
  return found;
}

async function readAttributes(source: Source, type: EntityTypeCode): Promise<Map<string, EavAttribute>> {
  const found = await source.query<SourceRow>(
    `SELECT a.attribute_id, a.attribute_code, a.backend_type, a.frontend_input
       FROM eav_attribute a JOIN eav_entity_type t ON t.entity_type_id = a.entity_type_id
      WHERE t.entity_type_code = ?`,
    [type],
  );
  return new Map(
    found.map((r) => [
      String(r.attribute_code),
      {
        id: Number(r.attribute_id),
        code: String(r.attribute_code),
        backendType: String(r.backend_type),
        frontendInput: r.frontend_input === null ? null : String(r.frontend_input),
      },
    ]),
  );
}

/** Values by entity id, then store id (0 when the table has no store column), then attribute code. */
export type EavValues = Map<number, Map<number, Record<string, unknown>>>;

/**
 * The values of the named attributes for a batch of entities, one query per backend type that holds any of
 * them. Attributes the source does not have are left out.
 */
export async function eavValues(
  source: Source,
  table: string,
  ids: number[],
  attributes: Map<string, EavAttribute>,
  codes: string[],
): Promise<EavValues> {
  const out: EavValues = new Map();
  if (!ids.length) return out;
  const byId = new Map<number, string>();
  const types = new Set<string>();
  for (const code of codes) {
    const a = attributes.get(code);
    if (!a || a.backendType === 'static') continue;
    byId.set(a.id, code);
    types.add(a.backendType);
  }
  const min = Math.min(...ids);
  const max = Math.max(...ids);
  const wanted = new Set(ids);
  const attrIds = [...byId.keys()];
  // one query per backend table, side by side; a key range rather than a long IN list: batches are consecutive ids
  const tables = BACKENDS.filter((type) => types.has(type) && source.hasTable(`${table}_${type}`)).map((type) => `${table}_${type}`);
  const results = await Promise.all(
    tables.map((valueTable) =>
      source.query<SourceRow>(
        `SELECT entity_id, ${source.hasColumn(valueTable, 'store_id') ? 'store_id' : '0'} AS store_id, attribute_id, value FROM ${valueTable}
          WHERE entity_id BETWEEN ? AND ? AND attribute_id IN (${attrIds.map(() => '?').join(', ')})`,
        [min, max, ...attrIds],
      ),
    ),
  );
  for (const found of results) {
    for (const r of found) {
      const id = Number(r.entity_id);
      if (!wanted.has(id)) continue;
      const code = byId.get(Number(r.attribute_id));
      if (!code) continue;
      let stores = out.get(id);
      if (!stores) out.set(id, (stores = new Map()));
      const storeId = Number(r.store_id);
      let values = stores.get(storeId);
      if (!values) stores.set(storeId, (values = {}));
      values[code] = r.value;
    }
  }
  return out;
}

/** An entity's values in one store view, falling back to the default (store 0) per attribute. */
export function valuesIn(values: EavValues, id: number, storeId = 0): Record<string, unknown> {
  const stores = values.get(id);
  if (!stores) return {};
  const base = stores.get(0) ?? {};
  return storeId === 0 ? base : Object.assign({}, base, stores.get(storeId));
}

/** The store views (besides 0) that hold values of their own for an entity. */
export function storesWithValues(values: EavValues, id: number): number[] {
  return [...(values.get(id)?.keys() ?? [])].filter((s) => s !== 0);
}
