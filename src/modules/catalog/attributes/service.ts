/**
 * Product attributes and attribute sets: reads for the back office. The rules for values of attributes kept in
 * products.attributes are in values.ts, the built-in choice lists in built-in.ts.
 */
import { asc, count, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../../platform/context.js';
import { badRequest, notFound } from '../../../platform/errors.js';
import { likeEscape } from '../../../platform/format.js';
import type { Page } from '../../../platform/pagination.js';
import { BUILT_IN_OPTIONS } from './built-in.js';
import type { AttributeOptionDto, AttributeSetDto, AttributeSortField, ProductAttributeDto } from './schemas.js';
import { attributeOptions, attributeSetAttributes, attributeSets, productAttributes } from '../tables.js';

export type AttributeRow = typeof productAttributes.$inferSelect;
export type OptionRow = typeof attributeOptions.$inferSelect;

export const DEFAULT_ATTRIBUTE_SET = 'Default';

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
export async function optionsOf(ctx: Ctx, attributeIds: number[]): Promise<Map<number, OptionRow[]>> {
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
  sortBy?: AttributeSortField;
  sortDir?: 'asc' | 'desc';
}

/** ORDER BY of the attribute list: the chosen column (the code by default), then the id. */
function attributeOrder(filter: AttributeFilter): SQL[] {
  const dir = filter.sortDir === 'desc' ? sql`DESC` : sql`ASC`;
  const column = {
    code: sql`${productAttributes.code} collate "C"`,
    label: sql`lower(${productAttributes.label}) collate "C"`,
    frontend_input: sql`${productAttributes.frontendInput}`,
    scope: sql`${productAttributes.scope}`,
    position: sql`${productAttributes.position}`,
  }[filter.sortBy ?? 'code'];
  return [sql`${column} ${dir}`, sql`${productAttributes.id} ${dir}`];
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
    .orderBy(...attributeOrder(filter))
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
    .where(
      inArray(
        attributeSetAttributes.setId,
        sets.map((s) => s.id),
      ),
    )
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
  const total = page.offset === 0 && rows.length < page.size ? rows.length : (await ctx.db.select({ n: count() }).from(attributeSets))[0].n;
  return { items: await setDtos(ctx, rows), total };
}

export async function getAttributeSet(ctx: Ctx, id: number): Promise<AttributeSetDto> {
  const row =
    Number.isInteger(id) && id >= 1 && id <= INT_MAX
      ? (await ctx.db.select().from(attributeSets).where(eq(attributeSets.id, id)))[0]
      : undefined;
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
