/**
 * What the Magento 1 API needs of attributes and attribute sets beyond the REST reads and writes: a set's
 * attributes in group order, all sets' names, groups by id (attribute_groups, where empty groups are kept), one
 * attribute added to or taken out of a set, and one option added with its store-view labels or removed. The
 * rules are the REST writes' (required system attributes stay in every set, options products hold stay, built-in
 * lists keep their options); a set's groups and members change under a lock on the set's row, as REST's set
 * update takes it, so that two clients changing one set at once lose nothing.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { withTx, type Ctx } from '../../../platform/context.js';
import { rows } from '../../../platform/db.js';
import { badRequest, conflict, notFound } from '../../../platform/errors.js';
import { attributeGroups, attributeOptions, attributeSetAttributes, attributeSets, productAttributes, products } from '../tables.js';
import { checkOptionsAllowed, optionsInUse } from './write.js';

export interface LegacySetAttribute {
  id: number;
  code: string;
  frontendInput: string;
  isRequired: boolean;
  scope: string;
}

/** The attributes of a set in group order, then their order in the group (none for an unknown set), in one statement. */
export async function setAttributes(ctx: Ctx, setId: number): Promise<LegacySetAttribute[]> {
  return ctx.db
    .select({
      id: productAttributes.id,
      code: productAttributes.code,
      frontendInput: productAttributes.frontendInput,
      isRequired: productAttributes.isRequired,
      scope: productAttributes.scope,
    })
    .from(attributeSetAttributes)
    .innerJoin(productAttributes, eq(productAttributes.id, attributeSetAttributes.attributeId))
    .where(eq(attributeSetAttributes.setId, setId))
    .orderBy(
      asc(attributeSetAttributes.groupSortOrder),
      asc(attributeSetAttributes.groupName),
      asc(attributeSetAttributes.sortOrder),
      asc(productAttributes.code),
    );
}

/** Every attribute set's id and name, in id order, in one statement. */
export async function attributeSetNames(ctx: Ctx): Promise<{ id: number; name: string }[]> {
  return ctx.db.select({ id: attributeSets.id, name: attributeSets.name }).from(attributeSets).orderBy(asc(attributeSets.id));
}

/** The attributes product lists may be sorted by, with their labels, in one statement. */
export async function sortableAttributes(ctx: Ctx): Promise<{ code: string; label: string }[]> {
  return ctx.db
    .select({ code: productAttributes.code, label: productAttributes.label })
    .from(productAttributes)
    .where(eq(productAttributes.usedForSortBy, true))
    .orderBy(asc(productAttributes.position), asc(productAttributes.id));
}

/** The ids of the products built on a set, in id order. */
export async function productIdsOfSet(ctx: Ctx, setId: number): Promise<number[]> {
  const found = await ctx.db.select({ id: products.id }).from(products).where(eq(products.attributeSetId, setId)).orderBy(asc(products.id));
  return found.map((r) => r.id);
}

// ---- groups ----

export interface LegacyGroup {
  id: number;
  setId: number;
  name: string;
  sortOrder: number;
}

const setNotFound = (id: number) => notFound(`Attribute set not found: ${id}`, { reason: 'ATTRIBUTE_SET_NOT_FOUND' });
const groupNotFound = (id: number) => notFound(`Attribute group not found: ${id}`, { reason: 'GROUP_NOT_FOUND' });
const attributeNotFound = (id: number) => notFound(`Product attribute not found: ${id}`, { reason: 'ATTRIBUTE_NOT_FOUND' });

/** Locks the set's row for the rest of the transaction; false when there is no such set. */
async function lockSet(ctx: Ctx, setId: number): Promise<boolean> {
  const [row] = await ctx.db.select({ id: attributeSets.id }).from(attributeSets).where(eq(attributeSets.id, setId)).for('update');
  return !!row;
}

/** Gives each group of the set that has members and no id yet a row, in the groups' order (one statement). */
async function ensureGroupRows(ctx: Ctx, setId: number): Promise<void> {
  await ctx.db.execute(sql`
    INSERT INTO ${attributeGroups} (set_id, name, sort_order)
    SELECT m.set_id, min(m.group_name), min(m.group_sort_order) FROM ${attributeSetAttributes} m
    WHERE m.set_id = ${setId}
      AND NOT EXISTS (SELECT 1 FROM ${attributeGroups} g WHERE g.set_id = m.set_id AND lower(g.name) = lower(m.group_name))
    GROUP BY m.set_id, lower(m.group_name)
    ORDER BY min(m.group_sort_order), min(m.group_name)
    ON CONFLICT DO NOTHING`);
}

/** The groups of a locked set with their ids, and the sort order each has among its members (null when empty). */
async function groupsOf(ctx: Ctx, setId: number): Promise<(LegacyGroup & { memberSort: number | null; memberName: string | null })[]> {
  await ensureGroupRows(ctx, setId);
  return rows(
    ctx.db,
    sql`SELECT g.id, g.set_id AS "setId", g.name, g.sort_order AS "sortOrder",
          (SELECT min(m.group_sort_order) FROM ${attributeSetAttributes} m WHERE m.set_id = g.set_id AND lower(m.group_name) = lower(g.name)) AS "memberSort",
          (SELECT min(m.group_name) FROM ${attributeSetAttributes} m WHERE m.set_id = g.set_id AND lower(m.group_name) = lower(g.name)) AS "memberName"
        FROM ${attributeGroups} g WHERE g.set_id = ${setId} ORDER BY g.sort_order, g.id`,
  );
}

/** A group by id, with its set locked; 404 GROUP_NOT_FOUND when there is none. */
async function lockedGroup(ctx: Ctx, groupId: number): Promise<LegacyGroup> {
  const [seen] = await ctx.db.select().from(attributeGroups).where(eq(attributeGroups.id, groupId));
  if (!seen || !(await lockSet(ctx, seen.setId))) throw groupNotFound(groupId);
  const [row] = await ctx.db.select().from(attributeGroups).where(eq(attributeGroups.id, groupId));
  if (!row) throw groupNotFound(groupId);
  return row;
}

function groupName(name: string): string {
  const n = name.trim();
  if (!n) throw badRequest('A group name must not be blank', { reason: 'VALIDATION_FAILED', details: { field: 'groupName' } });
  if (n.length > 255)
    throw badRequest('A group name has at most 255 characters', { reason: 'VALIDATION_FAILED', details: { field: 'groupName' } });
  return n;
}

/** A new empty group of a set, last; its id. 409 GROUP_EXISTS when the set has a group of that name (any case). */
export async function addGroup(ctx: Ctx, setId: number, name: string): Promise<number> {
  return withTx(ctx, async (tx) => {
    if (!(await lockSet(tx, setId))) throw setNotFound(setId);
    const n = groupName(name);
    const groups = await groupsOf(tx, setId);
    if (groups.some((g) => g.name.toLowerCase() === n.toLowerCase())) {
      throw conflict(`The set has a group named ${n}`, { reason: 'GROUP_EXISTS' });
    }
    const last = Math.max(0, ...groups.map((g) => g.memberSort ?? g.sortOrder));
    const [created] = await tx.db
      .insert(attributeGroups)
      .values({ setId, name: n, sortOrder: last + 1 })
      .returning({ id: attributeGroups.id });
    return created.id;
  });
}

/** Renames a group and what its members name it. 409 GROUP_EXISTS when another group of the set has that name. */
export async function renameGroup(ctx: Ctx, groupId: number, name: string): Promise<void> {
  await withTx(ctx, async (tx) => {
    const group = await lockedGroup(tx, groupId);
    const n = groupName(name);
    const groups = await groupsOf(tx, group.setId);
    if (groups.some((g) => g.id !== group.id && g.name.toLowerCase() === n.toLowerCase())) {
      throw conflict(`The set has a group named ${n}`, { reason: 'GROUP_EXISTS' });
    }
    await tx.db
      .update(attributeSetAttributes)
      .set({ groupName: n })
      .where(
        and(eq(attributeSetAttributes.setId, group.setId), sql`lower(${attributeSetAttributes.groupName}) = ${group.name.toLowerCase()}`),
      );
    await tx.db.update(attributeGroups).set({ name: n }).where(eq(attributeGroups.id, group.id));
  });
}

/**
 * Removes a group and its attributes from the set: refused (409) when one of them may be a super attribute of
 * configurable products (GROUP_HAS_CONFIGURABLE) or is built in (GROUP_HAS_SYSTEM), as Magento refuses.
 */
export async function removeGroup(ctx: Ctx, groupId: number): Promise<void> {
  await withTx(ctx, async (tx) => {
    const group = await lockedGroup(tx, groupId);
    const inGroup = and(
      eq(attributeSetAttributes.setId, group.setId),
      sql`lower(${attributeSetAttributes.groupName}) = ${group.name.toLowerCase()}`,
    );
    const members = await tx.db
      .select({
        attributeId: attributeSetAttributes.attributeId,
        configurable: productAttributes.isConfigurable,
        own: productAttributes.isUserDefined,
      })
      .from(attributeSetAttributes)
      .innerJoin(productAttributes, eq(productAttributes.id, attributeSetAttributes.attributeId))
      .where(inGroup);
    if (members.some((m) => m.configurable)) {
      throw conflict('The group holds attributes of configurable products', { reason: 'GROUP_HAS_CONFIGURABLE' });
    }
    if (members.some((m) => !m.own)) throw conflict('The group holds built-in attributes', { reason: 'GROUP_HAS_SYSTEM' });
    await tx.db.delete(attributeSetAttributes).where(inGroup);
    await tx.db.delete(attributeGroups).where(eq(attributeGroups.id, group.id));
  });
}

/** After a set is made from a skeleton: ids for its groups, and the skeleton's empty groups copied. */
export async function copyGroups(ctx: Ctx, skeletonId: number, setId: number): Promise<void> {
  await withTx(ctx, async (tx) => {
    await ensureGroupRows(tx, skeletonId);
    await ensureGroupRows(tx, setId);
    await tx.db.execute(sql`
      INSERT INTO ${attributeGroups} (set_id, name, sort_order)
      SELECT ${setId}::int, g.name, g.sort_order FROM ${attributeGroups} g WHERE g.set_id = ${skeletonId}
      ORDER BY g.sort_order, g.id
      ON CONFLICT DO NOTHING`);
  });
}

// ---- members ----

async function attributeRow(ctx: Ctx, id: number) {
  const [row] = await ctx.db.select().from(productAttributes).where(eq(productAttributes.id, id));
  if (!row) throw attributeNotFound(id);
  return row;
}

/**
 * Adds an attribute to a set, in the group given (one of the set's) or the set's default group (General, else
 * its first, else a new General), at `sortOrder` among the group's members. 409 ALREADY_IN_SET when it is in.
 */
export async function addSetAttribute(
  ctx: Ctx,
  input: { attributeId: number; setId: number; groupId?: number; sortOrder: number },
): Promise<void> {
  await withTx(ctx, async (tx) => {
    await attributeRow(tx, input.attributeId);
    if (!(await lockSet(tx, input.setId))) throw setNotFound(input.setId);
    const groups = await groupsOf(tx, input.setId);
    let group = input.groupId === undefined ? undefined : groups.find((g) => g.id === input.groupId);
    if (input.groupId !== undefined && !group) throw groupNotFound(input.groupId);
    group ??= groups.find((g) => g.name.toLowerCase() === 'general') ?? groups[0];
    const target = group
      ? { name: group.memberName ?? group.name, sortOrder: group.memberSort ?? group.sortOrder }
      : { name: 'General', sortOrder: 1 };
    if (!group) await tx.db.insert(attributeGroups).values({ setId: input.setId, ...target });
    const added = await tx.db
      .insert(attributeSetAttributes)
      .values({
        setId: input.setId,
        attributeId: input.attributeId,
        groupName: target.name,
        groupSortOrder: target.sortOrder,
        sortOrder: input.sortOrder,
      })
      .onConflictDoNothing()
      .returning({ id: attributeSetAttributes.attributeId });
    if (!added.length) throw conflict('The attribute is in the set', { reason: 'ALREADY_IN_SET' });
  });
}

/** Takes an attribute out of a set. 404 NOT_IN_SET when it is not in; 400 REQUIRED_ATTRIBUTES for one every set holds. */
export async function removeSetAttribute(ctx: Ctx, attributeId: number, setId: number): Promise<void> {
  await withTx(ctx, async (tx) => {
    const attr = await attributeRow(tx, attributeId);
    if (!(await lockSet(tx, setId))) throw setNotFound(setId);
    const member = and(eq(attributeSetAttributes.setId, setId), eq(attributeSetAttributes.attributeId, attributeId));
    const [inSet] = await tx.db.select({ id: attributeSetAttributes.attributeId }).from(attributeSetAttributes).where(member);
    if (!inSet) throw notFound('The attribute is not in the set', { reason: 'NOT_IN_SET' });
    if (attr.isSystem && attr.isRequired && attr.applyTo.length === 0) {
      throw badRequest(`Every set holds ${attr.code}`, { reason: 'REQUIRED_ATTRIBUTES' });
    }
    await tx.db.delete(attributeSetAttributes).where(member);
  });
}

// ---- options ----

/**
 * Adds an option to a select or multiselect attribute of the store's own: `labels` by store id, 0 the default
 * label (required); `isDefault` makes it the attribute's default value. Its id. 409 DUPLICATE_OPTION when the
 * attribute has an option with that default label (any case), as REST's option lists refuse twins.
 */
export async function addOption(
  ctx: Ctx,
  attributeId: number,
  input: { labels: Map<number, string>; sortOrder: number; isDefault: boolean },
): Promise<number> {
  return withTx(ctx, async (tx) => {
    const [attr] = await tx.db.select().from(productAttributes).where(eq(productAttributes.id, attributeId)).for('update');
    if (!attr) throw attributeNotFound(attributeId);
    checkOptionsAllowed(attr);
    const label = input.labels.get(0)?.trim();
    if (!label) throw badRequest('Default option value is not defined', { reason: 'VALIDATION_FAILED', details: { field: 'label' } });
    const storeLabels: Record<string, string> = {};
    for (const [storeId, l] of input.labels) if (storeId !== 0 && l.trim()) storeLabels[String(storeId)] = l.trim();
    if ([label, ...Object.values(storeLabels)].some((l) => l.length > 255)) {
      throw badRequest('An option label has at most 255 characters', { reason: 'VALIDATION_FAILED', details: { field: 'label' } });
    }
    const [twin] = await tx.db
      .select({ id: attributeOptions.id })
      .from(attributeOptions)
      .where(and(eq(attributeOptions.attributeId, attributeId), sql`lower(${attributeOptions.label}) = ${label.toLowerCase()}`));
    if (twin) throw conflict(`The option "${label}" exists`, { reason: 'DUPLICATE_OPTION' });
    const [created] = await tx.db
      .insert(attributeOptions)
      .values({ attributeId, label, storeLabels, sortOrder: input.sortOrder })
      .returning({ id: attributeOptions.id });
    if (input.isDefault) {
      await tx.db
        .update(productAttributes)
        .set({ defaultValue: String(created.id) })
        .where(eq(productAttributes.id, attributeId));
    }
    return created.id;
  });
}

/** Removes an option of a select or multiselect attribute. 404 OPTION_NOT_FOUND; 409 OPTION_IN_USE when a product holds it. */
export async function removeOption(ctx: Ctx, attributeId: number, optionId: number): Promise<void> {
  await withTx(ctx, async (tx) => {
    const [attr] = await tx.db.select().from(productAttributes).where(eq(productAttributes.id, attributeId)).for('update');
    if (!attr) throw attributeNotFound(attributeId);
    checkOptionsAllowed(attr);
    const [option] = await tx.db
      .select({ id: attributeOptions.id })
      .from(attributeOptions)
      .where(and(eq(attributeOptions.id, optionId), eq(attributeOptions.attributeId, attributeId)));
    if (!option) throw notFound(`${optionId} is not an option of ${attr.code}`, { reason: 'OPTION_NOT_FOUND' });
    if ((await optionsInUse(tx, attr.code, [optionId])).length) {
      throw conflict(`Products still hold the option ${optionId} of ${attr.code}`, { reason: 'OPTION_IN_USE' });
    }
    await tx.db.delete(attributeOptions).where(eq(attributeOptions.id, optionId));
  });
}
