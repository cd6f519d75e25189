/**
 * The rules for values of attributes kept in products.attributes (`customAttributesWrite` on product writes),
 * and their storefront labels. System attributes are columns of the products table and are written through
 * their own fields only. Values are stored as: select → option id (a number; the fixed value for built-in
 * lists), multiselect → array of option ids, boolean → 0/1, date → `YYYY-MM-DD`, price/weight → decimal
 * string, text/textarea → string.
 */
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../../platform/context.js';
import { badRequest } from '../../../platform/errors.js';
import { isValidDate } from '../../../platform/format.js';
import { dec } from '../../../platform/money.js';
import { attributeSetAttributes, productAttributes } from '../tables.js';
import { BUILT_IN_OPTIONS, RESERVED_ATTRIBUTE_CODES } from './built-in.js';
import { attributeSetExists, optionsOf, type AttributeRow, type OptionRow } from './service.js';

const TEXT_MAX = 255;
/** NUMERIC(20,4): below 10^16 */
const DECIMAL_MAX = dec('9999999999999999.9999');
const INT_MAX = 2147483647;

function invalid(code: string, message: string, constraint: string) {
  return badRequest(`customAttributesWrite.${code}: ${message}`, {
    reason: 'INVALID_ATTRIBUTE_VALUE',
    details: { field: `customAttributesWrite.${code}`, constraint },
  });
}

interface Choice {
  stored: string | number;
  labels: string[];
}

function choicesOf(attr: AttributeRow, options: OptionRow[]): Choice[] {
  const builtIn = BUILT_IN_OPTIONS[attr.code];
  if (builtIn) return builtIn.map((o) => ({ stored: o.value, labels: [o.label] }));
  return options.map((o) => ({ stored: o.id, labels: [o.label, ...Object.values(o.storeLabels ?? {})] }));
}

/** One choice of a select attribute: by its value (an option id), else by a label, case-insensitively. */
function pickChoice(code: string, choices: Choice[], raw: unknown): string | number {
  if (typeof raw === 'number' || typeof raw === 'string') {
    const s = String(raw).trim();
    const byValue = choices.find((c) => String(c.stored) === s);
    if (byValue) return byValue.stored;
    if (typeof raw === 'string') {
      const lower = s.toLowerCase();
      const byValueAnyCase = choices.find((c) => typeof c.stored === 'string' && c.stored.toLowerCase() === lower);
      if (byValueAnyCase) return byValueAnyCase.stored;
      const byLabel = choices.find((c) => c.labels.some((l) => l.trim().toLowerCase() === lower));
      if (byLabel) return byLabel.stored;
    }
    throw invalid(code, `"${s}" is not an option of this attribute`, 'option');
  }
  throw invalid(code, 'must be an option id or label', 'type');
}

function normalizeValue(attr: AttributeRow, options: OptionRow[], raw: unknown): unknown {
  const code = attr.code;
  if (raw === null) return null;
  switch (attr.frontendInput) {
    case 'select': {
      if (raw === '') return null;
      return pickChoice(code, choicesOf(attr, options), raw);
    }
    case 'multiselect': {
      let list: unknown[];
      if (Array.isArray(raw)) list = raw;
      else if (typeof raw === 'string')
        list = raw
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '');
      else if (typeof raw === 'number') list = [raw];
      else throw invalid(code, 'must be an array or a comma-separated list of option ids or labels', 'type');
      const choices = choicesOf(attr, options);
      const out: (string | number)[] = [];
      for (const item of list) {
        const v = pickChoice(code, choices, item);
        if (!out.includes(v)) out.push(v);
      }
      return out.length ? out : null;
    }
    case 'boolean': {
      if (raw === true || raw === 1 || raw === '1' || (typeof raw === 'string' && ['true', 'yes'].includes(raw.toLowerCase()))) return 1;
      if (raw === false || raw === 0 || raw === '0' || (typeof raw === 'string' && ['false', 'no'].includes(raw.toLowerCase()))) return 0;
      if (raw === '') return null;
      throw invalid(code, 'must be true or false (or 1 or 0)', 'type');
    }
    case 'date': {
      if (raw === '') return null;
      if (typeof raw !== 'string' || !isValidDate(raw)) throw invalid(code, 'must be a date YYYY-MM-DD', 'format');
      return raw;
    }
    case 'price':
    case 'weight': {
      if (raw === '') return null;
      const s = typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : typeof raw === 'string' ? raw.trim() : undefined;
      if (s === undefined || !/^(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i.test(s)) {
        throw invalid(code, 'must be a non-negative decimal number', 'type');
      }
      const d = dec(s).toDecimalPlaces(4);
      if (d.gt(DECIMAL_MAX)) throw invalid(code, 'is too large', 'maximum');
      return d.toFixed();
    }
    case 'textarea':
    case 'gallery': {
      if (typeof raw === 'string') return raw;
      if (typeof raw === 'number' && Number.isFinite(raw)) return String(raw);
      throw invalid(code, 'must be a string', 'type');
    }
    default: {
      const s = typeof raw === 'string' ? raw : typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : undefined;
      if (s === undefined) throw invalid(code, 'must be a string', 'type');
      if (s.length > TEXT_MAX) throw invalid(code, `must have at most ${TEXT_MAX} characters`, 'maxLength');
      return s === '' ? null : s;
    }
  }
}

/**
 * Checks a product write's `customAttributesWrite` against the product's attribute set and returns the
 * values to merge into products.attributes (null: remove the key). Reserved and system codes are a 400
 * naming the field; codes no attribute has are skipped; attributes outside the set are a 400.
 */
export async function normalizeCustomAttributes(
  ctx: Ctx,
  attributeSetId: number,
  input: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw badRequest('customAttributesWrite must be an object of attribute codes to values', {
      reason: 'VALIDATION_FAILED',
      details: { field: 'customAttributesWrite', constraint: 'type' },
    });
  }
  const codes = Object.keys(input);
  const out: Record<string, unknown> = {};
  if (!codes.length) return out;
  for (const code of codes) {
    if (RESERVED_ATTRIBUTE_CODES.has(code)) throw systemCode(code);
  }
  const rows = await ctx.db
    .select({ attr: productAttributes, inSet: sql<boolean>`${attributeSetAttributes.setId} IS NOT NULL` })
    .from(productAttributes)
    .leftJoin(
      attributeSetAttributes,
      and(eq(attributeSetAttributes.attributeId, productAttributes.id), eq(attributeSetAttributes.setId, safeId(attributeSetId))),
    )
    .where(inArray(productAttributes.code, codes));
  const byCode = new Map(rows.map((r) => [r.attr.code, r]));
  const optionIds = rows
    .filter(
      (r) =>
        !r.attr.isSystem && (r.attr.frontendInput === 'select' || r.attr.frontendInput === 'multiselect') && !BUILT_IN_OPTIONS[r.attr.code],
    )
    .map((r) => r.attr.id);
  let options: Map<number, OptionRow[]> | undefined;
  for (const code of codes) {
    const found = byCode.get(code);
    if (!found) continue;
    if (found.attr.isSystem) throw systemCode(code);
    if (!found.inSet) {
      if (!(await attributeSetExists(ctx, attributeSetId))) {
        throw badRequest(`Attribute set not found: ${attributeSetId}`, {
          reason: 'ATTRIBUTE_SET_NOT_FOUND',
          details: { field: 'attributeSetId' },
        });
      }
      throw badRequest(`customAttributesWrite.${code}: the attribute is not in the product's attribute set`, {
        reason: 'ATTRIBUTE_NOT_IN_SET',
        details: { field: `customAttributesWrite.${code}`, constraint: 'attributeSet' },
      });
    }
    if (optionIds.includes(found.attr.id)) options ??= await optionsOf(ctx, optionIds);
    out[code] = normalizeValue(found.attr, options?.get(found.attr.id) ?? [], input[code]);
  }
  return out;
}

function safeId(id: number): number {
  return Number.isInteger(id) && id >= 1 && id <= INT_MAX ? id : 0;
}

function systemCode(code: string) {
  return badRequest(`customAttributesWrite.${code}: ${code} is a system attribute; write it through its own field`, {
    reason: 'SYSTEM_ATTRIBUTE',
    details: { field: `customAttributesWrite.${code}`, constraint: 'system' },
  });
}

// ---- labels for reads ----

export interface AttributeValueLabel {
  code: string;
  label: string;
  /** the value as shoppers read it: option labels (comma-separated for multiselect), Yes/No, text */
  value: string;
}

function optionLabel(o: OptionRow, storeId: number | undefined): string {
  const own = storeId === undefined ? undefined : o.storeLabels?.[String(storeId)];
  return own || o.label;
}

/**
 * The stored values of a product's attributes as shoppers read them, for the attributes shown on the
 * storefront (isVisibleOnFront), in attribute position order. `storeId` picks store-view option labels.
 */
export async function describeAttributeValues(
  ctx: Ctx,
  values: Record<string, unknown>,
  opts: { storeId?: number; onlyVisibleOnFront?: boolean } = {},
): Promise<AttributeValueLabel[]> {
  const codes = Object.keys(values).filter((c) => values[c] !== null && values[c] !== undefined && values[c] !== '');
  if (!codes.length) return [];
  const conditions: SQL[] = [inArray(productAttributes.code, codes), eq(productAttributes.isSystem, false)];
  if (opts.onlyVisibleOnFront !== false) conditions.push(eq(productAttributes.isVisibleOnFront, true));
  const attrs = await ctx.db
    .select()
    .from(productAttributes)
    .where(and(...conditions))
    .orderBy(asc(productAttributes.position), asc(productAttributes.code));
  const options = await optionsOf(
    ctx,
    attrs.filter((a) => (a.frontendInput === 'select' || a.frontendInput === 'multiselect') && !BUILT_IN_OPTIONS[a.code]).map((a) => a.id),
  );
  const out: AttributeValueLabel[] = [];
  for (const a of attrs) {
    const raw = values[a.code];
    let text: string;
    if (a.frontendInput === 'select' || a.frontendInput === 'multiselect') {
      const list = Array.isArray(raw) ? raw : a.frontendInput === 'multiselect' && typeof raw === 'string' ? raw.split(',') : [raw];
      const builtIn = BUILT_IN_OPTIONS[a.code];
      const own = options.get(a.id) ?? [];
      const labels = list
        .map((v) => {
          const s = String(v).trim();
          if (builtIn) return builtIn.find((o) => String(o.value) === s)?.label;
          const o = own.find((x) => String(x.id) === s);
          return o ? optionLabel(o, opts.storeId) : undefined;
        })
        .filter((l): l is string => !!l);
      if (!labels.length) continue;
      text = labels.join(', ');
    } else if (a.frontendInput === 'boolean') {
      text = raw === 1 || raw === true || raw === '1' ? 'Yes' : 'No';
    } else {
      text = String(raw);
    }
    out.push({ code: a.code, label: a.label, value: text });
  }
  return out;
}
