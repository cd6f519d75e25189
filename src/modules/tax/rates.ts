/**
 * Tax rates: a percent for a destination (a country, optionally one of its regions, and a postcode pattern or a
 * numeric postcode range), with optional titles per store view. Codes are unique case-insensitively. Deleting
 * a rate takes it out of every rule; a rule left without rates stays and applies nothing.
 */
import { and, asc, count, eq, ilike, ne, sql, type SQL } from 'drizzle-orm';
import { assertGlobalWriter, withTx, type Ctx } from '../../platform/context.js';
import { conflict, fromDatabaseError, notFound } from '../../platform/errors.js';
import type { Page } from '../../platform/pagination.js';
import { dec, toWire } from '../../platform/money.js';
import { compact, likeEscape } from '../../platform/format.js';
import { countryExists, getCountry, regionById } from '../directory/service.js';
import type { TaxRateCreateInput, TaxRateDto, TaxRateUpdateInput } from './schemas.js';
import { taxRates, taxRules } from './tables.js';
import { checkBool, cleanText, invalid, isId, lockTaxCodes } from './util.js';

type RateRow = typeof taxRates.$inferSelect;
type Title = { storeId: number; title: string };

const POSTCODE_MAX = 64;
const ZIP_DIGITS = 10;

export function taxRateDto(row: RateRow): TaxRateDto {
  return compact({
    id: row.id,
    code: row.code,
    taxCountryId: row.taxCountryId,
    taxRegionId: row.taxRegionId,
    taxPostcode: row.taxPostcode,
    rate: toWire(row.rate),
    zipIsRange: row.zipIsRange,
    zipFrom: row.zipIsRange ? row.zipFrom : null,
    zipTo: row.zipIsRange ? row.zipTo : null,
    titles: (row.titles ?? []).map((t) => ({ storeId: t.storeId, title: t.title })),
  }) as TaxRateDto;
}

const rateNotFound = (id: number) => notFound(`Tax rate not found: ${id}`, { reason: 'TAX_RATE_NOT_FOUND' });

function cleanCountry(ctx: Ctx, v: unknown): string {
  if (typeof v !== 'string' || !v.trim()) throw invalid('taxCountryId', 'taxCountryId is required', 'required');
  if (!countryExists(v)) throw invalid('taxCountryId', `Unknown country: ${v}`, 'exists');
  return getCountry(ctx, v).id;
}

function cleanRate(v: unknown): string {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw invalid('rate', 'rate is required: a percent from 0 to 100', 'required');
  if (v < 0 || v > 100) throw invalid('rate', 'rate must be from 0 to 100', 'range');
  return dec(v).toDecimalPlaces(4).toFixed(4);
}

function cleanRegion(countryId: string, v: unknown): number | null {
  if (v === null || v === undefined || v === 0) return null;
  if (!isId(v)) throw invalid('taxRegionId', 'taxRegionId must be a region id', 'type');
  const region = regionById(v);
  if (!region || region.countryId !== countryId) {
    throw invalid('taxRegionId', `Region ${v} does not belong to ${countryId}`, 'exists');
  }
  return region.id;
}

function cleanPostcode(v: unknown): string {
  if (v === null || v === undefined) return '*';
  if (typeof v !== 'string') throw invalid('taxPostcode', 'taxPostcode must be a string', 'type');
  const s = v.trim();
  if (!s) return '*';
  if (s.length > POSTCODE_MAX) throw invalid('taxPostcode', `taxPostcode has at most ${POSTCODE_MAX} characters`, 'maxLength');
  if (!/^(\*|[A-Za-z0-9 -]+\*?)$/.test(s)) {
    throw invalid('taxPostcode', 'taxPostcode is `*`, a postcode, or a postcode prefix followed by `*`', 'pattern');
  }
  return s;
}

function cleanZip(field: string, v: unknown): string {
  const s = typeof v === 'number' && Number.isInteger(v) && v >= 0 ? String(v) : typeof v === 'string' ? v.trim() : undefined;
  if (s === undefined || s === '') throw invalid(field, `${field} is required when zipIsRange is true`, 'required');
  if (!new RegExp(`^\\d{1,${ZIP_DIGITS}}$`).test(s))
    throw invalid(field, `${field} must be a number of at most ${ZIP_DIGITS} digits`, 'pattern');
  return s;
}

function cleanTitles(ctx: Ctx, v: unknown): Title[] {
  if (!Array.isArray(v)) throw invalid('titles', 'titles must be a list of {storeId, title}', 'type');
  const out: Title[] = [];
  const seen = new Set<number>();
  for (const t of v as unknown[]) {
    const o = t as { storeId?: unknown; title?: unknown } | null;
    if (!o || typeof o !== 'object' || !isId(o.storeId) || typeof o.title !== 'string') {
      throw invalid('titles', 'each title is {storeId, title}', 'type');
    }
    if (!ctx.app.settings.store(o.storeId)) throw invalid('titles', `Unknown store: ${o.storeId}`, 'exists');
    if (seen.has(o.storeId)) throw invalid('titles', `Store ${o.storeId} has two titles`, 'unique');
    seen.add(o.storeId);
    const title = o.title.trim();
    if (!title) continue;
    out.push({ storeId: o.storeId, title: cleanText('titles.title', title) });
  }
  return out.sort((a, b) => a.storeId - b.storeId);
}

interface RateState {
  code: string;
  taxCountryId: string;
  taxRegionId: number | null;
  taxPostcode: string;
  rate: string;
  zipIsRange: boolean;
  zipFrom: string | null;
  zipTo: string | null;
  titles: Title[];
}

/** The stored state after applying `input` (only the keys sent) to `base`. */
function applyInput(ctx: Ctx, base: RateState | undefined, input: Partial<TaxRateCreateInput>): RateState {
  const has = (k: keyof TaxRateCreateInput) => input[k] !== undefined;
  const code = has('code') || !base ? cleanText('code', input.code) : base.code;
  const taxCountryId = has('taxCountryId') || !base ? cleanCountry(ctx, input.taxCountryId) : base.taxCountryId;
  const rate = has('rate') || !base ? cleanRate(input.rate) : base.rate;
  const taxRegionId = cleanRegion(taxCountryId, has('taxRegionId') ? input.taxRegionId : base?.taxRegionId);
  const zipIsRange = has('zipIsRange') ? checkBool('zipIsRange', input.zipIsRange) : (base?.zipIsRange ?? false);
  let taxPostcode: string;
  let zipFrom: string | null = null;
  let zipTo: string | null = null;
  if (zipIsRange) {
    zipFrom = cleanZip('zipFrom', has('zipFrom') ? input.zipFrom : base?.zipFrom);
    zipTo = cleanZip('zipTo', has('zipTo') ? input.zipTo : base?.zipTo);
    if (BigInt(zipFrom) > BigInt(zipTo)) throw invalid('zipTo', 'zipFrom must not be greater than zipTo', 'range');
    taxPostcode = `${zipFrom}-${zipTo}`;
  } else {
    taxPostcode = has('taxPostcode') || !base || base.zipIsRange ? cleanPostcode(input.taxPostcode) : base.taxPostcode;
  }
  const titles = has('titles') ? cleanTitles(ctx, input.titles) : (base?.titles ?? []);
  return { code, taxCountryId, taxRegionId, taxPostcode, rate, zipIsRange, zipFrom, zipTo, titles };
}

async function assertCodeFree(ctx: Ctx, code: string, exceptId?: number): Promise<void> {
  const same = sql`lower(${taxRates.code}) = lower(${code})`;
  const [dup] = await ctx.db
    .select({ id: taxRates.id })
    .from(taxRates)
    .where(exceptId === undefined ? same : and(same, ne(taxRates.id, exceptId)))
    .limit(1);
  if (dup) throw codeTaken(code);
}

const codeTaken = (code: string) =>
  conflict(`A tax rate with code "${code}" already exists`, { reason: 'TAX_RATE_CODE_TAKEN', details: { field: 'code' } });

async function mapDuplicate<T>(code: string | undefined, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (fromDatabaseError(err)?.reason === 'DUPLICATE') throw codeTaken(code ?? '');
    throw err;
  }
}

/** Rates by code; filter `taxCountryId` (ISO-2 or ISO-3, any case). */
export async function listTaxRates(
  ctx: Ctx,
  filter: { taxCountryId?: string; search?: string } = {},
  page?: Page,
): Promise<{ items: TaxRateDto[]; total: number }> {
  const where: SQL[] = [];
  if (typeof filter.taxCountryId === 'string' && filter.taxCountryId.trim()) {
    const c = filter.taxCountryId.trim();
    if (!countryExists(c)) return { items: [], total: 0 };
    where.push(eq(taxRates.taxCountryId, getCountry(ctx, c).id));
  }
  if (typeof filter.search === 'string' && filter.search.trim()) where.push(ilike(taxRates.code, `%${likeEscape(filter.search.trim())}%`));
  const cond = where.length ? and(...where) : undefined;
  const q = ctx.db
    .select()
    .from(taxRates)
    .where(cond)
    .orderBy(sql`lower(${taxRates.code}) collate "C"`, asc(taxRates.id));
  const found = page ? await q.limit(page.size).offset(page.offset) : await q;
  const total = page ? (await ctx.db.select({ n: count() }).from(taxRates).where(cond))[0].n : found.length;
  return { items: found.map(taxRateDto), total };
}

async function findRate(ctx: Ctx, id: number, forUpdate = false): Promise<RateRow | undefined> {
  if (!isId(id)) return undefined;
  const q = ctx.db.select().from(taxRates).where(eq(taxRates.id, id));
  const [row] = forUpdate ? await q.for('update') : await q;
  return row;
}

export async function getTaxRate(ctx: Ctx, id: number): Promise<TaxRateDto> {
  const row = await findRate(ctx, id);
  if (!row) throw rateNotFound(id);
  return taxRateDto(row);
}

export async function createTaxRate(ctx: Ctx, input: TaxRateCreateInput): Promise<TaxRateDto> {
  assertGlobalWriter(ctx, 'tax rates');
  const state = applyInput(ctx, undefined, input);
  return mapDuplicate(state.code, () =>
    withTx(ctx, async (tx) => {
      await lockTaxCodes(tx);
      await assertCodeFree(tx, state.code);
      const [row] = await tx.db.insert(taxRates).values(state).returning();
      return taxRateDto(row);
    }),
  );
}

/** Changes the keys that were sent; `titles` replaces every title, and without it they are kept. */
export async function updateTaxRate(ctx: Ctx, id: number, input: TaxRateUpdateInput): Promise<TaxRateDto> {
  assertGlobalWriter(ctx, 'tax rates');
  return mapDuplicate(typeof input.code === 'string' ? input.code.trim() : undefined, () =>
    withTx(ctx, async (tx) => {
      if (input.code !== undefined) await lockTaxCodes(tx);
      const row = await findRate(tx, id, true);
      if (!row) throw rateNotFound(id);
      const state = applyInput(tx, { ...row, titles: row.titles ?? [] }, input);
      if (state.code !== row.code) await assertCodeFree(tx, state.code, row.id);
      const [updated] = await tx.db.update(taxRates).set(state).where(eq(taxRates.id, row.id)).returning();
      return taxRateDto(updated);
    }),
  );
}

/** Deletes a rate and takes it out of every rule. */
export async function deleteTaxRate(ctx: Ctx, id: number): Promise<void> {
  assertGlobalWriter(ctx, 'tax rates');
  await withTx(ctx, async (tx) => {
    const row = await findRate(tx, id, true);
    if (!row) throw rateNotFound(id);
    await tx.db
      .update(taxRules)
      .set({ taxRateIds: sql`array_remove(${taxRules.taxRateIds}, ${row.id}::int)` })
      .where(sql`${row.id}::int = ANY(${taxRules.taxRateIds})`);
    await tx.db.delete(taxRates).where(eq(taxRates.id, row.id));
  });
}
