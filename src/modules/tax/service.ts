/**
 * Tax classes (PRODUCT and CUSTOMER), and the module's entry points: rates (rates.ts), rules (rules.ts), the
 * rate resolution and tax config the cart totals read (resolve.ts), install and demo data.
 *
 * A class in use (by a product, a customer group, a rule or the shipping tax class setting) cannot be deleted,
 * nor can its type change.
 */
import { and, asc, count, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import { assertGlobalWriter, withTx, type Ctx } from '../../platform/context.js';
import { rows, type Db } from '../../platform/db.js';
import { conflict, notFound } from '../../platform/errors.js';
import { likeEscape } from '../../platform/format.js';
import type { Page } from '../../platform/pagination.js';
import { REGIONS } from '../directory/data.js';
import type { TaxClassCreateInput, TaxClassDto, TaxClassListFilter, TaxClassUpdateInput } from './schemas.js';
import { taxClasses, taxRates, taxRules } from './tables.js';
import { cleanText, invalid, isId } from './util.js';

export * from './rates.js';
export * from './rules.js';
export * from './resolve.js';

export type TaxClassType = 'PRODUCT' | 'CUSTOMER';

type ClassRow = typeof taxClasses.$inferSelect;

export async function getTaxClass(ctx: Ctx, id: number) {
  if (!isId(id)) return undefined;
  const [row] = await ctx.db.select().from(taxClasses).where(eq(taxClasses.id, id));
  return row;
}

/** Names of tax classes by id, for lists that show them. */
export async function taxClassNames(ctx: Ctx, ids: number[]): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter(isId))];
  if (!wanted.length) return new Map();
  const found = await ctx.db
    .select({ id: taxClasses.id, name: taxClasses.className })
    .from(taxClasses)
    .where(inArray(taxClasses.id, wanted));
  return new Map(found.map((r) => [r.id, r.name]));
}

function toDto(row: ClassRow): TaxClassDto {
  return { id: row.id, className: row.className, classType: row.classType };
}

const classNotFound = (id: number) => notFound(`Tax class not found: ${id}`, { reason: 'TAX_CLASS_NOT_FOUND' });

function cleanType(field: string, v: unknown): TaxClassType {
  const t = typeof v === 'string' ? v.trim().toUpperCase() : undefined;
  if (t !== 'PRODUCT' && t !== 'CUSTOMER') throw invalid(field, `${field} must be PRODUCT or CUSTOMER`, 'enum');
  return t;
}

/** Classes by name; filters `classType` and `search` (part of the name, any case). */
export async function listTaxClasses(
  ctx: Ctx,
  filter: TaxClassListFilter = {},
  page?: Page,
): Promise<{ items: TaxClassDto[]; total: number }> {
  const where: SQL[] = [];
  if (filter.classType !== undefined && filter.classType !== null)
    where.push(eq(taxClasses.classType, cleanType('classType', filter.classType)));
  if (typeof filter.search === 'string' && filter.search.trim())
    where.push(ilike(taxClasses.className, `%${likeEscape(filter.search.trim())}%`));
  const cond = where.length ? and(...where) : undefined;
  const q = ctx.db
    .select()
    .from(taxClasses)
    .where(cond)
    .orderBy(sql`lower(${taxClasses.className}) collate "C"`, asc(taxClasses.id));
  const found = page ? await q.limit(page.size).offset(page.offset) : await q;
  const total = page ? (await ctx.db.select({ n: count() }).from(taxClasses).where(cond))[0].n : found.length;
  return { items: found.map(toDto), total };
}

export async function getTaxClassDto(ctx: Ctx, id: number): Promise<TaxClassDto> {
  const row = await getTaxClass(ctx, id);
  if (!row) throw classNotFound(id);
  return toDto(row);
}

export async function createTaxClass(ctx: Ctx, input: TaxClassCreateInput): Promise<TaxClassDto> {
  assertGlobalWriter(ctx, 'tax classes');
  const className = cleanText('className', input.className);
  const classType = input.classType === undefined || input.classType === null ? 'PRODUCT' : cleanType('classType', input.classType);
  const [row] = await ctx.db.insert(taxClasses).values({ className, classType }).returning();
  return toDto(row);
}

/** Where a class is used, as phrases ("2 products", "1 tax rule"); empty when unused. */
async function classUses(ctx: Ctx, id: number): Promise<string[]> {
  const [r] = await rows<{ products: number | string; groups: number | string }>(
    ctx.db,
    sql`SELECT (SELECT count(*) FROM products WHERE tax_class_id = ${id}) AS products,
               (SELECT count(*) FROM customer_groups WHERE tax_class_id = ${id}) AS groups`,
  );
  const [rules] = await ctx.db
    .select({ n: count() })
    .from(taxRules)
    .where(sql`${id} = ANY(${taxRules.customerTaxClassIds}) OR ${id} = ANY(${taxRules.productTaxClassIds})`);
  const uses: string[] = [];
  const n = (v: number | string) => Number(v);
  const phrase = (k: number, one: string, many: string) => `${k} ${k === 1 ? one : many}`;
  if (n(r.products)) uses.push(phrase(n(r.products), 'product', 'products'));
  if (n(r.groups)) uses.push(phrase(n(r.groups), 'customer group', 'customer groups'));
  if (rules.n) uses.push(phrase(rules.n, 'tax rule', 'tax rules'));
  const settings = ctx.app.settings;
  const scopes = [undefined, ...settings.allStores().map((s) => s.id)];
  if (scopes.some((s) => settings.getInt('tax/classes/shipping_tax_class', s) === id))
    uses.push('the shipping tax class setting (tax/classes/shipping_tax_class)');
  return uses;
}

function inUse(row: ClassRow, uses: string[], what: string) {
  return conflict(`The tax class "${row.className}" is used by ${uses.join(', ')} and cannot be ${what}`, {
    reason: 'TAX_CLASS_IN_USE',
    details: { usedBy: uses },
  });
}

/** Changes the keys that were sent; the type only while the class is unused. */
export async function updateTaxClass(ctx: Ctx, id: number, input: TaxClassUpdateInput): Promise<TaxClassDto> {
  assertGlobalWriter(ctx, 'tax classes');
  const className = input.className === undefined || input.className === null ? undefined : cleanText('className', input.className);
  const classType = input.classType === undefined || input.classType === null ? undefined : cleanType('classType', input.classType);
  return withTx(ctx, async (tx) => {
    const [row] = isId(id) ? await tx.db.select().from(taxClasses).where(eq(taxClasses.id, id)).for('update') : [];
    if (!row) throw classNotFound(id);
    const set: Partial<ClassRow> = {};
    if (className !== undefined && className !== row.className) set.className = className;
    if (classType !== undefined && classType !== row.classType) {
      const uses = await classUses(tx, row.id);
      if (uses.length) throw inUse(row, uses, 'changed to another type');
      set.classType = classType;
    }
    if (!Object.keys(set).length) return toDto(row);
    const [updated] = await tx.db.update(taxClasses).set(set).where(eq(taxClasses.id, row.id)).returning();
    return toDto(updated);
  });
}

export async function deleteTaxClass(ctx: Ctx, id: number): Promise<void> {
  assertGlobalWriter(ctx, 'tax classes');
  await withTx(ctx, async (tx) => {
    const [row] = isId(id) ? await tx.db.select().from(taxClasses).where(eq(taxClasses.id, id)).for('update') : [];
    if (!row) throw classNotFound(id);
    const uses = await classUses(tx, row.id);
    if (uses.length) throw inUse(row, uses, 'deleted');
    await tx.db.delete(taxClasses).where(eq(taxClasses.id, row.id));
  });
}

// ---- install and demo data ----

function regionId(countryId: string, code: string): number {
  const r = REGIONS.find((x) => x.countryId === countryId && x.code === code);
  if (!r) throw new Error(`tax install: no region ${countryId}-${code}`);
  return r.id;
}

async function setClassSequence(db: Db): Promise<void> {
  await db.execute(sql`SELECT setval(pg_get_serial_sequence('tax_classes', 'id'), (SELECT max(id) FROM tax_classes))`);
}

/** Inserts rates and a rule unless their codes exist already (install runs again on databases of an older version). */
async function ensureRule(
  db: Db,
  rates: (typeof taxRates.$inferInsert)[],
  rule: { code: string; priority: number; customerTaxClassIds: number[]; productTaxClassIds: number[] },
): Promise<void> {
  await db.insert(taxRates).values(rates).onConflictDoNothing();
  const codes = rates.map((r) => r.code.toLowerCase());
  const found = await db
    .select({ id: taxRates.id, code: taxRates.code })
    .from(taxRates)
    .where(inArray(sql`lower(${taxRates.code})`, codes));
  const ids = codes.map((c) => found.find((f) => f.code.toLowerCase() === c)?.id).filter((x): x is number => x !== undefined);
  await db
    .insert(taxRules)
    .values({ ...rule, position: 0, calculateSubtotal: false, taxRateIds: ids })
    .onConflictDoNothing();
}

/**
 * Install data: classes Taxable Goods (2), Retail Customer (3), Shipping (4); rates US-CA 8.25 % and US-NY
 * 8.375 %; the rule "Retail Customer-Taxable Goods-Rate 1" applying both. Idempotent.
 */
export async function install(db: Db): Promise<void> {
  await db
    .insert(taxClasses)
    .values([
      { id: 2, className: 'Taxable Goods', classType: 'PRODUCT' },
      { id: 3, className: 'Retail Customer', classType: 'CUSTOMER' },
      { id: 4, className: 'Shipping', classType: 'PRODUCT' },
    ])
    .onConflictDoNothing();
  await setClassSequence(db);
  await ensureRule(
    db,
    [
      { code: 'US-CA-*-Rate 1', taxCountryId: 'US', taxRegionId: regionId('US', 'CA'), taxPostcode: '*', rate: '8.2500' },
      { code: 'US-NY-*-Rate 1', taxCountryId: 'US', taxRegionId: regionId('US', 'NY'), taxPostcode: '*', rate: '8.3750' },
    ],
    { code: 'Retail Customer-Taxable Goods-Rate 1', priority: 0, customerTaxClassIds: [3], productTaxClassIds: [2] },
  );
}

/** Demo data: German VAT 19 % for retail customers buying taxable goods. */
export async function seedDemo(ctx: Ctx): Promise<void> {
  await ensureRule(ctx.db, [{ code: 'DE-*-*-Rate 1', taxCountryId: 'DE', taxRegionId: null, taxPostcode: '*', rate: '19.0000' }], {
    code: 'Retail Customer-Taxable Goods-DE',
    priority: 0,
    customerTaxClassIds: [3],
    productTaxClassIds: [2],
  });
}
