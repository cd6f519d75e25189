/**
 * Magento 1 list filters, in both forms clients send: V1's map of field → value or → {operator: value}
 * (`{"status": {"in": ["pending", "processing"]}, "created_at": {"from": "2024-01-01", "to": "2024-02-01"}}`), and
 * V2's `{filter: [{key, value}], complex_filter: [{key, value: {key: operator, value}}]}` (as plain values once
 * decoded). They become SQL over the columns a resource names per field, with Magento's operators: eq, neq, like,
 * nlike, in, nin, gt, lt, gteq, lteq, from, to, null, notnull, finset, seq, sneq, moreq; a list of conditions on
 * one field is their OR. A field the resource does not list, an unknown operator or a value of the wrong shape is
 * the resource's `filters_invalid` fault; nothing is ever spliced into SQL as text.
 */
import { and, eq, gt, gte, inArray, isNotNull, isNull, lt, lte, ne, notInArray, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { isRecord } from './encoding.js';
import type { LegacyValue } from './resources.js';

export type Operator =
  | 'eq'
  | 'neq'
  | 'like'
  | 'nlike'
  | 'in'
  | 'nin'
  | 'gt'
  | 'lt'
  | 'gteq'
  | 'lteq'
  | 'from'
  | 'to'
  | 'null'
  | 'notnull'
  | 'finset'
  | 'seq'
  | 'sneq'
  | 'moreq';

const OPERATORS = new Set<string>([
  'eq',
  'neq',
  'like',
  'nlike',
  'in',
  'nin',
  'gt',
  'lt',
  'gteq',
  'lteq',
  'from',
  'to',
  'null',
  'notnull',
  'finset',
  'seq',
  'sneq',
  'moreq',
]);
/** operators whose value is a list; a V2 client sends it as one comma-separated string */
const LIST_OPERATORS = new Set(['in', 'nin', 'finset']);
const MAX_CONDITIONS = 100;
const MAX_LIST = 1000;

/** One field's conditions: each entry is one alternative (OR), each alternative a set of operators (AND). */
export type FieldFilter = Map<Operator, LegacyValue>[];

export class FilterError extends Error {}

/** A V2 `{key, value}` pair's parts, or undefined for anything else. */
function pair(v: LegacyValue | undefined): [string, LegacyValue] | undefined {
  if (!isRecord(v)) return undefined;
  const key = v.get('key');
  return typeof key === 'string' && v.has('value') ? [key, v.get('value') ?? null] : undefined;
}

function condition(v: LegacyValue): Map<Operator, LegacyValue> {
  if (!isRecord(v)) return new Map([['eq', v]]);
  const out = new Map<Operator, LegacyValue>();
  for (const [op, value] of v) {
    if (!OPERATORS.has(op)) throw new FilterError(`Unknown filter operator: ${op}`);
    out.set(op as Operator, LIST_OPERATORS.has(op) && typeof value === 'string' ? value.split(',') : value);
  }
  return out;
}

/** The filters of a list call as field → conditions, from either form; an absent or empty argument is no filter. */
export function parseFilters(filters: LegacyValue | undefined): Map<string, FieldFilter> {
  const out = new Map<string, FieldFilter>();
  if (filters === undefined || filters === null || filters === '') return out;
  if (!isRecord(filters)) {
    if (Array.isArray(filters) && filters.length === 0) return out;
    throw new FilterError('Filters must be a map of fields');
  }
  const v2 = filters.has('filter') || filters.has('complex_filter');
  if (v2) {
    const simple = filters.get('filter');
    for (const entry of Array.isArray(simple) ? simple : simple ? [simple] : []) {
      const p = pair(entry);
      if (!p) throw new FilterError('A filter is {key, value}');
      out.set(p[0], [new Map([['eq', p[1]]])]);
    }
    const complex = filters.get('complex_filter');
    for (const entry of Array.isArray(complex) ? complex : complex ? [complex] : []) {
      const p = pair(entry);
      const c = p && pair(p[1]);
      if (!p || !c) throw new FilterError('A complex filter is {key, value: {key, value}}');
      const one = condition(new Map([[c[0], c[1]]]));
      const current = out.get(p[0]);
      // Magento adds each operator of a field to the same condition (created_at from … to …)
      if (current && current.length === 1) for (const [op, value] of one) current[0].set(op, value);
      else out.set(p[0], [one]);
    }
  } else {
    for (const [field, v] of filters) {
      // a list of conditions (maps) is their OR; a plain list is `in`
      if (Array.isArray(v)) out.set(field, v.length && v.every(isRecord) ? v.map(condition) : [new Map([['in', v]])]);
      else out.set(field, [condition(v)]);
    }
  }
  if ([...out.values()].reduce((n, f) => n + f.length, 0) > MAX_CONDITIONS) throw new FilterError('Too many filter conditions');
  return out;
}

const scalar = (v: LegacyValue): string => {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v === true ? 1 : v === false ? 0 : v);
  throw new FilterError('A filter value must be a scalar');
};

const list = (v: LegacyValue): string[] => {
  const items = Array.isArray(v) ? v : [v];
  if (items.length > MAX_LIST) throw new FilterError('Too many values in a filter');
  return items.map(scalar);
};

/** How a field compares: as text (default), or cast to the column's type so that '10' < '9' does not happen. */
export interface FilterColumn {
  column: SQLWrapper;
  /** 'number' compares numerically, 'date' as a timestamp, 'bool' as 0/1 */
  type?: 'text' | 'number' | 'date' | 'bool';
}

function typed(c: FilterColumn, v: string): unknown {
  if (c.type === 'number') {
    if (!/^\s*[+-]?(\d+\.?\d*|\.\d+)\s*$/.test(v)) throw new FilterError(`Not a number: ${v}`);
    return v.trim();
  }
  if (c.type === 'date') {
    const d = new Date(/^\d{4}-\d{2}-\d{2}( |$)/.test(v) ? `${v.replace(' ', 'T')}${v.length === 10 ? 'T00:00:00' : ''}Z` : v);
    if (Number.isNaN(d.getTime())) throw new FilterError(`Not a date: ${v}`);
    return d;
  }
  if (c.type === 'bool') return ['1', 'true'].includes(v.trim().toLowerCase());
  return v;
}

function one(c: FilterColumn, op: Operator, v: LegacyValue): SQL {
  const col = c.column;
  const text = sql`${col}::text`;
  switch (op) {
    case 'eq':
    case 'seq':
      return eq(col, typed(c, scalar(v)));
    case 'neq':
    case 'sneq':
      return ne(col, typed(c, scalar(v)));
    case 'like':
      return sql`${text} ILIKE ${scalar(v)}`;
    case 'nlike':
      return sql`${text} NOT ILIKE ${scalar(v)}`;
    case 'in':
      return inArray(
        col,
        list(v).map((x) => typed(c, x)),
      );
    case 'nin':
      return notInArray(
        col,
        list(v).map((x) => typed(c, x)),
      );
    case 'gt':
      return gt(col, typed(c, scalar(v)));
    case 'lt':
      return lt(col, typed(c, scalar(v)));
    case 'gteq':
    case 'from':
    case 'moreq':
      return gte(col, typed(c, scalar(v)));
    case 'lteq':
    case 'to':
      return lte(col, typed(c, scalar(v)));
    case 'null':
      return isNull(col);
    case 'notnull':
      return isNotNull(col);
    case 'finset':
      return or(...list(v).map((x) => sql`${scalar(x)} = ANY(string_to_array(${text}, ','))`))!;
  }
}

/**
 * The WHERE of the filters over `columns` (field → column); undefined for none. A field not in `columns` or a
 * malformed condition throws FilterError, which the resource answers as its `filters_invalid` fault.
 */
export function filterSql(filters: Map<string, FieldFilter>, columns: Record<string, FilterColumn>): SQL | undefined {
  const conds: SQL[] = [];
  for (const [field, alternatives] of filters) {
    const c = Object.hasOwn(columns, field) ? columns[field] : undefined;
    if (!c) throw new FilterError(`Unknown filter field: ${field}`);
    const ors = alternatives.map((alt) => and(...[...alt].map(([op, v]) => one(c, op, v)))!);
    if (ors.length) conds.push(ors.length === 1 ? ors[0] : or(...ors)!);
  }
  return conds.length ? and(...conds) : undefined;
}
