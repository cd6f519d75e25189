/**
 * Back-office writes of attributes and attribute sets. A new attribute is a store's own (user-defined) one;
 * system attributes (columns of the products table) and the built-in lists keep their code, input and options.
 * Options a product still holds are not removed, nor are attributes a configurable product is built on, nor
 * sets products use. Required system attributes of every product type (name, sku, status, visibility) stay in
 * every set: products always have them.
 */
import { and, asc, eq, inArray, ne, notInArray, sql } from 'drizzle-orm';
import { withTx, type Ctx } from '../../../platform/context.js';
import { rows } from '../../../platform/db.js';
import { badRequest, conflict } from '../../../platform/errors.js';
import {
  attributeGroups,
  attributeOptions,
  attributeSetAttributes,
  attributeSets,
  configurableAttributes,
  productAttributes,
  products,
} from '../tables.js';
import { BUILT_IN_OPTIONS, RESERVED_ATTRIBUTE_CODES } from './built-in.js';
import { DEFAULT_ATTRIBUTE_SET, getAttributeSet, getProductAttribute, type AttributeRow } from './service.js';
import {
  ATTRIBUTE_INPUTS,
  type AttributeSetCreateBody,
  type AttributeSetUpdateBody,
  type ProductAttributeCreateBody,
  type ProductAttributeUpdateBody,
} from './write-schemas.js';
import type { AttributeSetDto, ProductAttributeDto } from './schemas.js';

type NewAttribute = typeof productAttributes.$inferInsert;
type OptionInput = NonNullable<ProductAttributeUpdateBody['options']>[number];

const invalid = (field: string, message: string, reason = 'VALIDATION_FAILED') => badRequest(message, { reason, details: { field } });
const hasOptions = (input: string) => input === 'select' || input === 'multiselect';
const orNull = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v.trim() === '' ? null : v.trim());

/** The columns a create or update sets from the body's flags and texts. */
function fields(body: ProductAttributeUpdateBody): Partial<NewAttribute> {
  const out: Partial<NewAttribute> = {};
  if (body.frontendLabel !== undefined) {
    const label = body.frontendLabel.trim();
    if (!label) throw invalid('frontendLabel', 'frontendLabel must not be blank');
    out.label = label;
  }
  const flags = [
    'isRequired',
    'isUnique',
    'isSearchable',
    'isFilterableInSearch',
    'isComparable',
    'isVisibleOnFront',
    'isHtmlAllowedOnFront',
    'isUsedForPriceRules',
    'usedInProductListing',
    'usedForSortBy',
    'isVisibleInAdvancedSearch',
    'isWysiwygEnabled',
    'isConfigurable',
  ] as const;
  for (const k of flags) if (body[k] !== undefined) out[k] = body[k];
  if (body.scope !== undefined) out.scope = body.scope;
  if (body.isFilterable !== undefined) out.isFilterable = body.isFilterable;
  if (body.applyTo !== undefined) out.applyTo = body.applyTo;
  if (body.position !== undefined) out.position = body.position;
  for (const k of ['defaultValue', 'frontendClass', 'note'] as const) if (body[k] !== undefined) out[k] = orNull(body[k]);
  return out;
}

/** A super attribute of configurable products is a global select attribute. */
function checkConfigurable(a: Pick<AttributeRow, 'isConfigurable' | 'frontendInput' | 'scope'>): void {
  if (a.isConfigurable && (a.frontendInput !== 'select' || a.scope !== 'global')) {
    throw invalid('isConfigurable', 'Only a global select attribute can be used for configurable products');
  }
}

export function checkOptionsAllowed(a: Pick<AttributeRow, 'code' | 'frontendInput' | 'isSystem'>): void {
  if (!hasOptions(a.frontendInput)) throw invalid('options', `A ${a.frontendInput} attribute has no options`);
  if (a.isSystem || BUILT_IN_OPTIONS[a.code]) throw invalid('options', `The options of ${a.code} are built in`);
}

function optionRow(o: OptionInput, attributeId: number, sortOrder: number) {
  const swatchType = orNull(o.swatchType) ?? null;
  if (swatchType !== null && swatchType !== 'color' && swatchType !== 'text') throw invalid('options', 'swatchType is color or text');
  const swatchValue = orNull(o.swatchValue) ?? null;
  if (swatchType === 'color' && swatchValue !== null && !/^#[0-9a-fA-F]{6}$/.test(swatchValue)) {
    throw invalid('options', 'A color swatch is #rrggbb');
  }
  const label = o.label.trim();
  if (!label) throw invalid('options', 'An option label must not be blank');
  return { attributeId, label, sortOrder, swatchType, swatchValue };
}

/** Option ids of `code` that some product holds as its value (a select's id, one of a multiselect's). */
export async function optionsInUse(ctx: Ctx, code: string, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const found = await rows<{ id: number }>(
    ctx.db,
    sql`SELECT DISTINCT o.id FROM unnest(${`{${ids.join(',')}}`}::int[]) AS o(id)
      WHERE EXISTS (SELECT 1 FROM ${products} p WHERE p.attributes ? ${code}::text
        AND (p.attributes -> ${code}::text @> to_jsonb(o.id) OR p.attributes -> ${code}::text @> to_jsonb(o.id::text)
          OR p.attributes ->> ${code}::text = o.id::text))`,
  );
  return found.map((r) => Number(r.id));
}

/** Replaces the options of an attribute: kept ones (by value) changed in place, new ones added, the rest removed. */
async function replaceOptions(ctx: Ctx, attr: AttributeRow, list: OptionInput[]): Promise<void> {
  const current = await ctx.db.select({ id: attributeOptions.id }).from(attributeOptions).where(eq(attributeOptions.attributeId, attr.id));
  const existing = new Set(current.map((o) => o.id));
  const kept = new Set<number>();
  const labels = new Set<string>();
  for (const o of list) {
    const lower = o.label.trim().toLowerCase();
    if (labels.has(lower)) throw invalid('options', `The option "${o.label.trim()}" is listed twice`);
    labels.add(lower);
    if (o.value === undefined) continue;
    const id = Number(o.value);
    if (!existing.has(id)) throw invalid('options', `${o.value} is not an option of ${attr.code}`);
    if (kept.has(id)) throw invalid('options', `The option ${o.value} is listed twice`);
    kept.add(id);
  }
  const removed = [...existing].filter((id) => !kept.has(id));
  const used = await optionsInUse(ctx, attr.code, removed);
  if (used.length) {
    throw conflict(`Products still hold the option(s) ${used.join(', ')} of ${attr.code}`, {
      reason: 'OPTION_IN_USE',
      details: { field: 'options' },
    });
  }
  if (removed.length) await ctx.db.delete(attributeOptions).where(inArray(attributeOptions.id, removed));
  for (const [i, o] of list.entries()) {
    const row = optionRow(o, attr.id, i + 1);
    if (o.value === undefined) await ctx.db.insert(attributeOptions).values(row);
    else
      await ctx.db
        .update(attributeOptions)
        .set(row)
        .where(eq(attributeOptions.id, Number(o.value)));
  }
}

async function requireAttribute(ctx: Ctx, id: number): Promise<AttributeRow> {
  await getProductAttribute(ctx, id); // the 404 of the read
  const [row] = await ctx.db.select().from(productAttributes).where(eq(productAttributes.id, id)).for('update');
  return row;
}

/** POST /product-attributes: a store's own attribute, with its options for select and multiselect inputs. */
export async function createProductAttribute(ctx: Ctx, body: ProductAttributeCreateBody): Promise<ProductAttributeDto> {
  const code = body.attributeCode;
  if (RESERVED_ATTRIBUTE_CODES.has(code)) throw invalid('attributeCode', `${code} is reserved`, 'RESERVED_CODE');
  const id = await withTx(ctx, async (tx) => {
    const [taken] = await tx.db.select({ id: productAttributes.id }).from(productAttributes).where(eq(productAttributes.code, code));
    if (taken)
      throw conflict(`An attribute with the code ${code} exists`, { reason: 'DUPLICATE_CODE', details: { field: 'attributeCode' } });
    const row: NewAttribute = {
      code,
      label: body.frontendLabel,
      frontendInput: body.frontendInput,
      backendType: ATTRIBUTE_INPUTS[body.frontendInput],
      isSystem: false,
      isUserDefined: true,
      ...fields(body),
    };
    checkConfigurable({ isConfigurable: row.isConfigurable ?? false, frontendInput: row.frontendInput, scope: row.scope ?? 'global' });
    if (body.options?.length) checkOptionsAllowed({ code, frontendInput: row.frontendInput, isSystem: false });
    const [created] = await tx.db.insert(productAttributes).values(row).returning();
    if (body.options?.length) await replaceOptions(tx, created, body.options);
    return created.id;
  });
  return getProductAttribute(ctx, id);
}

/** PUT /product-attributes/{id}: the fields sent; `options` replaces the list of a select or multiselect. */
export async function updateProductAttribute(ctx: Ctx, id: number, body: ProductAttributeUpdateBody): Promise<ProductAttributeDto> {
  await withTx(ctx, async (tx) => {
    const row = await requireAttribute(tx, id);
    const set = fields(body);
    checkConfigurable({ ...row, ...set } as AttributeRow);
    if (set.isConfigurable === false && row.isConfigurable) {
      const [used] = await tx.db.select().from(configurableAttributes).where(eq(configurableAttributes.attributeId, id)).limit(1);
      if (used)
        throw conflict(`Configurable products are built on ${row.code}`, {
          reason: 'ATTRIBUTE_IN_USE',
          details: { field: 'isConfigurable' },
        });
    }
    if (Object.keys(set).length) await tx.db.update(productAttributes).set(set).where(eq(productAttributes.id, id));
    if (body.options !== undefined) {
      checkOptionsAllowed(row);
      await replaceOptions(tx, row, body.options);
    }
  });
  return getProductAttribute(ctx, id);
}

/** DELETE /product-attributes/{id}: a store's own attribute no configurable product is built on; products lose its values. */
export async function deleteProductAttribute(ctx: Ctx, id: number): Promise<void> {
  await withTx(ctx, async (tx) => {
    const row = await requireAttribute(tx, id);
    if (row.isSystem || !row.isUserDefined) {
      throw conflict(`${row.code} is built in and cannot be deleted`, { reason: 'ATTRIBUTE_BUILT_IN' });
    }
    const [used] = await tx.db.select().from(configurableAttributes).where(eq(configurableAttributes.attributeId, id)).limit(1);
    if (used) throw conflict(`Configurable products are built on ${row.code}`, { reason: 'ATTRIBUTE_IN_USE' });
    await tx.db
      .update(products)
      .set({ attributes: sql`${products.attributes} - ${row.code}::text`, updatedAt: tx.now })
      .where(sql`${products.attributes} ? ${row.code}::text`);
    await tx.db.delete(productAttributes).where(eq(productAttributes.id, id));
  });
}

// ---- attribute sets ----

type Group = NonNullable<AttributeSetUpdateBody['groups']>[number];

/** The membership rows of `groups`: codes resolved, each attribute once, required system attributes present. */
async function memberRows(ctx: Ctx, setId: number, groups: Group[]) {
  const codes = groups.flatMap((g) => g.attributes);
  const seen = new Set<string>();
  for (const c of codes) {
    if (seen.has(c)) throw invalid('groups', `${c} is in more than one place`);
    seen.add(c);
  }
  const names = new Set<string>();
  for (const g of groups) {
    const n = g.name.trim().toLowerCase();
    if (!n) throw invalid('groups', 'A group name must not be blank');
    if (names.has(n)) throw invalid('groups', `The group ${g.name.trim()} is listed twice`);
    names.add(n);
  }
  const attrs = codes.length
    ? await ctx.db
        .select({ id: productAttributes.id, code: productAttributes.code })
        .from(productAttributes)
        .where(inArray(productAttributes.code, codes))
    : [];
  const ids = new Map(attrs.map((a) => [a.code, a.id]));
  const unknown = codes.filter((c) => !ids.has(c));
  if (unknown.length) throw invalid('groups', `No attribute has the code ${unknown.join(', ')}`);
  const required = await ctx.db
    .select({ code: productAttributes.code })
    .from(productAttributes)
    .where(
      and(eq(productAttributes.isSystem, true), eq(productAttributes.isRequired, true), sql`cardinality(${productAttributes.applyTo}) = 0`),
    );
  const missing = required.map((r) => r.code).filter((c) => !seen.has(c));
  if (missing.length) throw invalid('groups', `Every set holds ${missing.join(', ')}`, 'REQUIRED_ATTRIBUTES');
  return groups.flatMap((g, gi) =>
    g.attributes.map((code, ai) => ({
      setId,
      attributeId: ids.get(code)!,
      groupName: g.name.trim(),
      groupSortOrder: gi + 1,
      sortOrder: (ai + 1) * 10,
    })),
  );
}

async function checkSetName(ctx: Ctx, name: string, id?: number): Promise<string> {
  const n = name.trim();
  if (!n) throw invalid('attributeSetName', 'attributeSetName must not be blank');
  const [taken] = await ctx.db
    .select({ id: attributeSets.id })
    .from(attributeSets)
    .where(and(sql`lower(${attributeSets.name}) = ${n.toLowerCase()}`, id === undefined ? undefined : ne(attributeSets.id, id)));
  if (taken) throw conflict(`An attribute set named ${n} exists`, { reason: 'DUPLICATE_NAME', details: { field: 'attributeSetName' } });
  return n;
}

/** The groups of an existing set, as a write names them. */
async function groupsOf(ctx: Ctx, setId: number): Promise<Group[]> {
  const set = await getAttributeSet(ctx, setId);
  return set.groups.map((g) => ({ name: g.name, attributes: g.attributes.map((a) => a.code) }));
}

/** POST /attribute-sets: a set with the groups given, else those of `skeletonSetId`, else those of the Default set. */
export async function createAttributeSet(ctx: Ctx, body: AttributeSetCreateBody): Promise<AttributeSetDto> {
  const id = await withTx(ctx, async (tx) => {
    const name = await checkSetName(tx, body.attributeSetName);
    let groups = body.groups;
    if (!groups) {
      let skeleton = body.skeletonSetId;
      if (skeleton === undefined) {
        const [d] = await tx.db.select({ id: attributeSets.id }).from(attributeSets).where(eq(attributeSets.name, DEFAULT_ATTRIBUTE_SET));
        skeleton = d?.id;
      }
      groups =
        skeleton === undefined
          ? []
          : await groupsOf(tx, skeleton).catch(() => {
              throw invalid('skeletonSetId', `Attribute set not found: ${skeleton}`);
            });
    }
    const [{ max }] = await tx.db.select({ max: sql<number>`coalesce(max(${attributeSets.sortOrder}), 0)::int` }).from(attributeSets);
    const [created] = await tx.db
      .insert(attributeSets)
      .values({ name, sortOrder: Number(max) + 1 })
      .returning({ id: attributeSets.id });
    const members = await memberRows(tx, created.id, groups);
    if (members.length) await tx.db.insert(attributeSetAttributes).values(members);
    return created.id;
  });
  return getAttributeSet(ctx, id);
}

/** PUT /attribute-sets/{id}: a new name and/or the groups (replacing the membership). */
export async function updateAttributeSet(ctx: Ctx, id: number, body: AttributeSetUpdateBody): Promise<AttributeSetDto> {
  await withTx(ctx, async (tx) => {
    await getAttributeSet(tx, id);
    await tx.db.select({ id: attributeSets.id }).from(attributeSets).where(eq(attributeSets.id, id)).for('update');
    if (body.attributeSetName !== undefined) {
      const name = await checkSetName(tx, body.attributeSetName, id);
      await tx.db.update(attributeSets).set({ name }).where(eq(attributeSets.id, id));
    }
    if (body.groups !== undefined) {
      const members = await memberRows(tx, id, body.groups);
      await tx.db.delete(attributeSetAttributes).where(eq(attributeSetAttributes.setId, id));
      if (members.length) await tx.db.insert(attributeSetAttributes).values(members);
      // the groups are those given: ids of groups left out (empty ones of the legacy API among them) go
      const names = body.groups.map((g) => g.name.trim().toLowerCase());
      await tx.db.delete(attributeGroups).where(and(eq(attributeGroups.setId, id), notInArray(sql`lower(${attributeGroups.name})`, names)));
    }
  });
  return getAttributeSet(ctx, id);
}

/** DELETE /attribute-sets/{id}: a set no product uses, other than the Default set. */
export async function deleteAttributeSet(ctx: Ctx, id: number): Promise<void> {
  await withTx(ctx, async (tx) => {
    const set = await getAttributeSet(tx, id);
    if (set.attributeSetName === DEFAULT_ATTRIBUTE_SET) throw conflict('The Default set cannot be deleted', { reason: 'DEFAULT_SET' });
    const [used] = await tx.db
      .select({ id: products.id })
      .from(products)
      .where(eq(products.attributeSetId, id))
      .orderBy(asc(products.id))
      .limit(1);
    if (used) throw conflict(`Products use the set ${set.attributeSetName}`, { reason: 'ATTRIBUTE_SET_IN_USE' });
    await tx.db.delete(attributeSets).where(eq(attributeSets.id, id));
  });
}
