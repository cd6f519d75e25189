/**
 * Tax rules: each applies its rates to every pair of (customer tax class, product tax class) it lists. Codes
 * are unique case-insensitively; each id list holds at least one id, of an existing class of the right type
 * (customer ids are CUSTOMER classes, product ids PRODUCT classes) or an existing rate.
 */
import { and, asc, count, eq, ilike, inArray, ne, sql } from 'drizzle-orm';
import { assertGlobalWriter, withTx, type Ctx } from '../../platform/context.js';
import { conflict, fromDatabaseError, notFound } from '../../platform/errors.js';
import { likeEscape } from '../../platform/format.js';
import type { Page } from '../../platform/pagination.js';
import type { TaxRuleCreateInput, TaxRuleDto, TaxRuleUpdateInput } from './schemas.js';
import { taxClasses, taxRates, taxRules } from './tables.js';
import { checkBool, checkInt, cleanText, invalid, isId, lockTaxCodes } from './util.js';

type RuleRow = typeof taxRules.$inferSelect;
type IdField = 'customerTaxClassIds' | 'productTaxClassIds' | 'taxRateIds';

const MAX_IDS = 1000;

function toDto(row: RuleRow): TaxRuleDto {
  return {
    id: row.id,
    code: row.code,
    priority: row.priority,
    position: row.position,
    calculateSubtotal: row.calculateSubtotal,
    customerTaxClassIds: row.customerTaxClassIds,
    productTaxClassIds: row.productTaxClassIds,
    taxRateIds: row.taxRateIds,
  };
}

const ruleNotFound = (id: number) => notFound(`Tax rule not found: ${id}`, { reason: 'TAX_RULE_NOT_FOUND' });
const codeTaken = (code: string) =>
  conflict(`A tax rule with code "${code}" already exists`, { reason: 'TAX_RULE_CODE_TAKEN', details: { field: 'code' } });

/** A non-empty list of ids, without repeats, in the order given. */
function cleanIds(field: IdField, v: unknown): number[] {
  if (!Array.isArray(v) || !v.length) throw invalid(field, `${field} must list at least one id`, 'required');
  if (v.length > MAX_IDS) throw invalid(field, `${field} lists at most ${MAX_IDS} ids`, 'maxItems');
  if (!v.every((x) => isId(x) && x > 0)) throw invalid(field, `${field} must hold positive integer ids`, 'type');
  return [...new Set(v as number[])];
}

/** Every id must exist (and be a class of `type`); the rows are locked against deletion until the transaction ends. */
async function assertRefs(ctx: Ctx, field: IdField, ids: number[]): Promise<void> {
  let found: number[];
  let what: string;
  if (field === 'taxRateIds') {
    what = 'tax rates';
    found = (await ctx.db.select({ id: taxRates.id }).from(taxRates).where(inArray(taxRates.id, ids)).for('key share')).map((r) => r.id);
  } else {
    const type = field === 'customerTaxClassIds' ? 'CUSTOMER' : 'PRODUCT';
    what = `${type} tax classes`;
    found = (
      await ctx.db
        .select({ id: taxClasses.id })
        .from(taxClasses)
        .where(and(inArray(taxClasses.id, ids), eq(taxClasses.classType, type)))
        .for('key share')
    ).map((r) => r.id);
  }
  const bad = ids.filter((id) => !found.includes(id));
  if (bad.length) {
    throw invalid(field, `${field}: ${bad.join(', ')} ${bad.length === 1 ? 'is not one of the' : 'are not'} ${what}`, 'exists');
  }
}

async function assertCodeFree(ctx: Ctx, code: string, exceptId?: number): Promise<void> {
  const same = sql`lower(${taxRules.code}) = lower(${code})`;
  const [dup] = await ctx.db
    .select({ id: taxRules.id })
    .from(taxRules)
    .where(exceptId === undefined ? same : and(same, ne(taxRules.id, exceptId)))
    .limit(1);
  if (dup) throw codeTaken(code);
}

async function mapDuplicate<T>(code: string | undefined, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (fromDatabaseError(err)?.reason === 'DUPLICATE') throw codeTaken(code ?? '');
    throw err;
  }
}

type RuleSet = Partial<Omit<RuleRow, 'id'>>;

/** The checked values of the keys that were sent (every required one on create). */
function cleanInput(input: Partial<TaxRuleCreateInput>, create: boolean): RuleSet {
  const set: RuleSet = {};
  if (create || input.code !== undefined) set.code = cleanText('code', input.code);
  if (input.priority !== undefined) set.priority = checkInt('priority', input.priority);
  if (input.position !== undefined) set.position = checkInt('position', input.position);
  if (input.calculateSubtotal !== undefined) set.calculateSubtotal = checkBool('calculateSubtotal', input.calculateSubtotal);
  for (const f of ['customerTaxClassIds', 'productTaxClassIds', 'taxRateIds'] as const) {
    if (create || input[f] !== undefined) set[f] = cleanIds(f, input[f]);
  }
  return set;
}

async function assertAllRefs(ctx: Ctx, set: RuleSet): Promise<void> {
  for (const f of ['customerTaxClassIds', 'productTaxClassIds', 'taxRateIds'] as const) {
    const ids = set[f];
    if (ids) await assertRefs(ctx, f, ids);
  }
}

/** Rules by code. */
export async function listTaxRules(
  ctx: Ctx,
  page?: Page,
  filter: { search?: string } = {},
): Promise<{ items: TaxRuleDto[]; total: number }> {
  const cond =
    typeof filter.search === 'string' && filter.search.trim() ? ilike(taxRules.code, `%${likeEscape(filter.search.trim())}%`) : undefined;
  const q = ctx.db
    .select()
    .from(taxRules)
    .where(cond)
    .orderBy(sql`lower(${taxRules.code}) collate "C"`, asc(taxRules.id));
  const found = page ? await q.limit(page.size).offset(page.offset) : await q;
  const total = page ? (await ctx.db.select({ n: count() }).from(taxRules).where(cond))[0].n : found.length;
  return { items: found.map(toDto), total };
}

async function findRule(ctx: Ctx, id: number, forUpdate = false): Promise<RuleRow | undefined> {
  if (!isId(id)) return undefined;
  const q = ctx.db.select().from(taxRules).where(eq(taxRules.id, id));
  const [row] = forUpdate ? await q.for('update') : await q;
  return row;
}

export async function getTaxRule(ctx: Ctx, id: number): Promise<TaxRuleDto> {
  const row = await findRule(ctx, id);
  if (!row) throw ruleNotFound(id);
  return toDto(row);
}

export async function createTaxRule(ctx: Ctx, input: TaxRuleCreateInput): Promise<TaxRuleDto> {
  assertGlobalWriter(ctx, 'tax rules');
  const set = cleanInput(input, true);
  return mapDuplicate(set.code, () =>
    withTx(ctx, async (tx) => {
      await lockTaxCodes(tx);
      await assertAllRefs(tx, set);
      await assertCodeFree(tx, set.code!);
      const [row] = await tx.db
        .insert(taxRules)
        .values({
          code: set.code!,
          priority: set.priority ?? 0,
          position: set.position ?? 0,
          calculateSubtotal: set.calculateSubtotal ?? false,
          customerTaxClassIds: set.customerTaxClassIds!,
          productTaxClassIds: set.productTaxClassIds!,
          taxRateIds: set.taxRateIds!,
        })
        .returning();
      return toDto(row);
    }),
  );
}

/** Changes the keys that were sent; an id list sent replaces the rule's list. */
export async function updateTaxRule(ctx: Ctx, id: number, input: TaxRuleUpdateInput): Promise<TaxRuleDto> {
  assertGlobalWriter(ctx, 'tax rules');
  const set = cleanInput(input, false);
  return mapDuplicate(set.code, () =>
    withTx(ctx, async (tx) => {
      if (set.code !== undefined) await lockTaxCodes(tx);
      const row = await findRule(tx, id, true);
      if (!row) throw ruleNotFound(id);
      await assertAllRefs(tx, set);
      if (set.code !== undefined && set.code !== row.code) await assertCodeFree(tx, set.code, row.id);
      if (!Object.keys(set).length) return toDto(row);
      const [updated] = await tx.db.update(taxRules).set(set).where(eq(taxRules.id, row.id)).returning();
      return toDto(updated);
    }),
  );
}

export async function deleteTaxRule(ctx: Ctx, id: number): Promise<void> {
  assertGlobalWriter(ctx, 'tax rules');
  await withTx(ctx, async (tx) => {
    const row = await findRule(tx, id, true);
    if (!row) throw ruleNotFound(id);
    await tx.db.delete(taxRules).where(eq(taxRules.id, row.id));
  });
}
