/**
 * Product attributes and attribute sets: reads for the back office, and the rules for values of attributes
 * kept in products.attributes (`customAttributesWrite` on product writes). System attributes are columns of
 * the products table and are written through their own fields only. Values are stored as: select → option
 * id (a number; the fixed value for built-in lists), multiselect → array of option ids, boolean → 0/1,
 * date → `YYYY-MM-DD`, price/weight → decimal string, text/textarea → string.
 */
import { and, asc, count, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../../platform/context.js';
import { badRequest, notFound } from '../../../platform/errors.js';
import { isValidDate, likeEscape } from '../../../platform/format.js';
import { dec } from '../../../platform/money.js';
import type { Page } from '../../../platform/pagination.js';
import type { AttributeOptionDto, AttributeSetDto, ProductAttributeDto } from './schemas.js';
import { attributeOptions, attributeSetAttributes, attributeSets, productAttributes } from '../tables.js';

type AttributeRow = typeof productAttributes.$inferSelect;
type OptionRow = typeof attributeOptions.$inferSelect;

export const DEFAULT_ATTRIBUTE_SET = 'Default';

/** Values of select attributes whose choices are a fixed list rather than option rows. */
export const BUILT_IN_OPTIONS: Record<string, { value: string | number; label: string }[]> = {
  status: [
    { value: 'enabled', label: 'Enabled' },
    { value: 'disabled', label: 'Disabled' },
  ],
  visibility: [
    { value: 'not_visible', label: 'Not Visible Individually' },
    { value: 'catalog', label: 'Catalog' },
    { value: 'search', label: 'Search' },
    { value: 'catalog_search', label: 'Catalog, Search' },
  ],
  sku_type: [
    { value: 0, label: 'Dynamic' },
    { value: 1, label: 'Fixed' },
  ],
  weight_type: [
    { value: 0, label: 'Dynamic' },
    { value: 1, label: 'Fixed' },
  ],
  price_type: [
    { value: 0, label: 'Dynamic' },
    { value: 1, label: 'Fixed' },
  ],
  price_view: [
    { value: 0, label: 'Price Range' },
    { value: 1, label: 'As Low as' },
  ],
  shipment_type: [
    { value: 0, label: 'Together' },
    { value: 1, label: 'Separately' },
  ],
  msrp_enabled: [
    { value: 0, label: 'No' },
    { value: 1, label: 'Yes' },
    { value: 2, label: 'Use config' },
  ],
  msrp_display_actual_price_type: [
    { value: 1, label: 'In Cart' },
    { value: 2, label: 'Before Order Confirmation' },
    { value: 3, label: 'On Gesture' },
    { value: 4, label: 'Use config' },
  ],
  meta_robots: [
    { value: 'INDEX,FOLLOW', label: 'INDEX, FOLLOW' },
    { value: 'NOINDEX,FOLLOW', label: 'NOINDEX, FOLLOW' },
    { value: 'INDEX,NOFOLLOW', label: 'INDEX, NOFOLLOW' },
    { value: 'NOINDEX,NOFOLLOW', label: 'NOINDEX, NOFOLLOW' },
  ],
  page_layout: [
    { value: 'empty', label: 'Empty' },
    { value: 'one_column', label: '1 column' },
    { value: 'two_columns_left', label: '2 columns with left bar' },
    { value: 'two_columns_right', label: '2 columns with right bar' },
    { value: 'three_columns', label: '3 columns' },
  ],
  options_container: [
    { value: 'container1', label: 'Product Info Column' },
    { value: 'container2', label: 'Block after Info Column' },
  ],
};

/** Codes never written through customAttributesWrite, besides every system attribute. */
export const RESERVED_ATTRIBUTE_CODES: ReadonlySet<string> = new Set([
  'entity_id',
  'type_id',
  'sku',
  'attribute_set_id',
  'tax_class_id',
  'website_ids',
  'stock_data',
  'status',
  'visibility',
  'created_at',
  'updated_at',
  'entity_type_id',
]);

const TEXT_MAX = 255;
/** NUMERIC(20,4): below 10^16 */
const DECIMAL_MAX = dec('9999999999999999.9999');
const INT_MAX = 2147483647;

const SCOPE_TO_IS_GLOBAL: Record<string, number> = { store: 0, global: 1, website: 2 };

function optionDtos(attr: AttributeRow, options: OptionRow[]): AttributeOptionDto[] {
  const builtIn = BUILT_IN_OPTIONS[attr.code];
  if (builtIn) return builtIn.map((o) => ({ label: o.label, value: String(o.value) }));
  return options.map((o) => ({ label: o.label, value: String(o.id) }));
}

function toDto(a: AttributeRow, options: OptionRow[]): ProductAttributeDto {
  const dto: ProductAttributeDto = {
    id: a.id,
    attributeCode: a.code,
    frontendLabel: a.label,
    frontendInput: a.frontendInput,
    backendType: a.backendType,
    scope: a.scope,
    isGlobal: SCOPE_TO_IS_GLOBAL[a.scope] ?? 1,
    isFilterable: a.isFilterable,
    applyTo: a.applyTo,
    position: a.position,
    options: optionDtos(a, options),
    isRequired: a.isRequired,
    isUserDefined: a.isUserDefined,
    isUnique: a.isUnique,
    isSearchable: a.isSearchable,
    isFilterableInSearch: a.isFilterableInSearch,
    isComparable: a.isComparable,
    isVisibleOnFront: a.isVisibleOnFront,
    isHtmlAllowedOnFront: a.isHtmlAllowedOnFront,
    isUsedForPriceRules: a.isUsedForPriceRules,
    usedInProductListing: a.usedInProductListing,
    usedForSortBy: a.usedForSortBy,
    isVisibleInAdvancedSearch: a.isVisibleInAdvancedSearch,
    isWysiwygEnabled: a.isWysiwygEnabled,
    isConfigurable: a.isConfigurable,
  };
  if (a.defaultValue !== null) dto.defaultValue = a.defaultValue;
  if (a.frontendClass !== null) dto.frontendClass = a.frontendClass;
  if (a.note !== null) dto.note = a.note;
  return dto;
}

/** Options of the given attributes, by attribute id, in their sort order. */
async function optionsOf(ctx: Ctx, attributeIds: number[]): Promise<Map<number, OptionRow[]>> {
  const byAttr = new Map<number, OptionRow[]>();
  if (!attributeIds.length) return byAttr;
  const rows = await ctx.db
    .select()
    .from(attributeOptions)
    .where(inArray(attributeOptions.attributeId, attributeIds))
    .orderBy(asc(attributeOptions.sortOrder), asc(attributeOptions.id));
  for (const r of rows) {
    const list = byAttr.get(r.attributeId);
    if (list) list.push(r);
    else byAttr.set(r.attributeId, [r]);
  }
  return byAttr;
}

async function withOptions(ctx: Ctx, rows: AttributeRow[]): Promise<ProductAttributeDto[]> {
  const options = await optionsOf(
    ctx,
    rows.filter((r) => (r.frontendInput === 'select' || r.frontendInput === 'multiselect') && !BUILT_IN_OPTIONS[r.code]).map((r) => r.id),
  );
  return rows.map((r) => toDto(r, options.get(r.id) ?? []));
}

// ---- attributes ----

export interface AttributeFilter {
  search?: string;
}

/** Attributes by code, optionally those whose code or label contains `search` (case-insensitive). */
export async function listProductAttributes(
  ctx: Ctx,
  filter: AttributeFilter,
  page: Page,
): Promise<{ items: ProductAttributeDto[]; total: number }> {
  const term = filter.search?.trim();
  const where = term
    ? or(ilike(productAttributes.code, `%${likeEscape(term)}%`), ilike(productAttributes.label, `%${likeEscape(term)}%`))
    : undefined;
  const rows = await ctx.db
    .select()
    .from(productAttributes)
    .where(where)
    .orderBy(sql`${productAttributes.code} collate "C"`, asc(productAttributes.id))
    .limit(page.size)
    .offset(page.offset);
  const total =
    page.offset === 0 && rows.length < page.size
      ? rows.length
      : (await ctx.db.select({ n: count() }).from(productAttributes).where(where))[0].n;
  return { items: await withOptions(ctx, rows), total };
}

function attributeNotFound(what: string) {
  return notFound(`Product attribute not found: ${what}`, { reason: 'ATTRIBUTE_NOT_FOUND' });
}

export async function getProductAttribute(ctx: Ctx, id: number): Promise<ProductAttributeDto> {
  if (!Number.isInteger(id) || id < 1 || id > INT_MAX) throw attributeNotFound(String(id));
  const [row] = await ctx.db.select().from(productAttributes).where(eq(productAttributes.id, id));
  if (!row) throw attributeNotFound(String(id));
  return (await withOptions(ctx, [row]))[0];
}

export async function getProductAttributeByCode(ctx: Ctx, code: string): Promise<ProductAttributeDto> {
  const [row] = await ctx.db.select().from(productAttributes).where(eq(productAttributes.code, code));
  if (!row) throw attributeNotFound(code);
  return (await withOptions(ctx, [row]))[0];
}

// ---- attribute sets ----

type SetRow = typeof attributeSets.$inferSelect;

async function setDtos(ctx: Ctx, sets: SetRow[]): Promise<AttributeSetDto[]> {
  if (!sets.length) return [];
  const members = await ctx.db
    .select({
      setId: attributeSetAttributes.setId,
      code: productAttributes.code,
      groupName: attributeSetAttributes.groupName,
      groupSortOrder: attributeSetAttributes.groupSortOrder,
      sortOrder: attributeSetAttributes.sortOrder,
    })
    .from(attributeSetAttributes)
    .innerJoin(productAttributes, eq(productAttributes.id, attributeSetAttributes.attributeId))
    .where(inArray(attributeSetAttributes.setId, sets.map((s) => s.id)))
    .orderBy(
      asc(attributeSetAttributes.groupSortOrder),
      asc(attributeSetAttributes.groupName),
      asc(attributeSetAttributes.sortOrder),
      asc(productAttributes.code),
    );
  return sets.map((s) => {
    const groups: AttributeSetDto['groups'] = [];
    const codes: string[] = [];
    for (const m of members) {
      if (m.setId !== s.id) continue;
      let group = groups[groups.length - 1];
      if (!group || group.name !== m.groupName) {
        group = { name: m.groupName, sortOrder: m.groupSortOrder, attributes: [] };
        groups.push(group);
      }
      group.attributes.push({ code: m.code, sortOrder: m.sortOrder });
      codes.push(m.code);
    }
    return { id: s.id, attributeSetName: s.name, attributeCodes: codes, groups };
  });
}

/** Attribute sets by name. */
export async function listAttributeSets(ctx: Ctx, page: Page): Promise<{ items: AttributeSetDto[]; total: number }> {
  const rows = await ctx.db
    .select()
    .from(attributeSets)
    .orderBy(sql`lower(${attributeSets.name}) collate "C"`, asc(attributeSets.id))
    .limit(page.size)
    .offset(page.offset);
  const total =
    page.offset === 0 && rows.length < page.size ? rows.length : (await ctx.db.select({ n: count() }).from(attributeSets))[0].n;
  return { items: await setDtos(ctx, rows), total };
}

export async function getAttributeSet(ctx: Ctx, id: number): Promise<AttributeSetDto> {
  const row = Number.isInteger(id) && id >= 1 && id <= INT_MAX ? (await ctx.db.select().from(attributeSets).where(eq(attributeSets.id, id)))[0] : undefined;
  if (!row) throw notFound(`Attribute set not found: ${id}`, { reason: 'ATTRIBUTE_SET_NOT_FOUND' });
  return (await setDtos(ctx, [row]))[0];
}

/** The id of the attribute set named Default, which new products get unless told otherwise. */
export async function defaultAttributeSetId(ctx: Ctx): Promise<number> {
  const [row] = await ctx.db.select({ id: attributeSets.id }).from(attributeSets).where(eq(attributeSets.name, DEFAULT_ATTRIBUTE_SET));
  if (row) return row.id;
  const [first] = await ctx.db.select({ id: attributeSets.id }).from(attributeSets).orderBy(asc(attributeSets.id)).limit(1);
  if (!first) throw badRequest('No attribute set exists', { reason: 'NO_ATTRIBUTE_SET' });
  return first.id;
}

export async function attributeSetExists(ctx: Ctx, id: number): Promise<boolean> {
  if (!Number.isInteger(id) || id < 1 || id > INT_MAX) return false;
  const [row] = await ctx.db.select({ id: attributeSets.id }).from(attributeSets).where(eq(attributeSets.id, id));
  return !!row;
}

// ---- values ----

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
      else if (typeof raw === 'string') list = raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
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
    .filter((r) => !r.attr.isSystem && (r.attr.frontendInput === 'select' || r.attr.frontendInput === 'multiselect') && !BUILT_IN_OPTIONS[r.attr.code])
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
