/**
 * Gift cards: a code with a balance in its currency. The back office creates cards and adjusts their
 * balance; carts check them (usableGiftcard, giftcardsByCodes) and orders debit and credit them. Every
 * change of a balance is one statement on the card row plus a history row in the same transaction; a debit
 * is a single conditional UPDATE, so concurrent orders can never spend more than the balance (the CHECK
 * balance >= 0 backs that up).
 *
 * The stored status is active, used (balance spent to 0) or disabled; a card whose expiresAt has passed is
 * shown (and treated) as expired.
 */
import crypto from 'node:crypto';
import { and, desc, eq, gt, isNull, or, sql, type SQL } from 'drizzle-orm';
import { adminWebsiteScope, withTx, type Ctx } from '../../platform/context.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../platform/errors.js';
import { compact, isEmailAddress, isValidDate, wireDateTime } from '../../platform/format.js';
import { Decimal, dec, toWire } from '../../platform/money.js';
import { rows as dbRows } from '../../platform/db.js';
import { queueMail } from '../../platform/outbox.js';
import { configuredRule } from '../../platform/rate-limit.js';
import { declareDefaults } from '../../platform/settings.js';
import type { GiftcardBalanceDto, GiftcardCreateInput, GiftcardDto, GiftcardHistoryDto } from './schemas.js';
import { giftcardHistory, giftcards } from './tables.js';

declareDefaults({
  /** days a new card is valid; 0: cards never expire */
  'giftcard/general/lifetime_days': 365,
  /** balance checks (GraphQL) and cart gift-card applies per IP, per minute */
  'api/rate_limit/giftcard_balance': 10,
});

export const MAX_BALANCE = 10000;
const PLACES = 4;
const TEXT_MAX = 255;
const MESSAGE_MAX = 1000;
const COMMENT_MAX = 1000;
/** 0-9 and A-Z without I and O */
const CODE_ALPHABET = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';
const INT_MAX = 2147483647;

type CardRow = typeof giftcards.$inferSelect;
type HistoryRow = typeof giftcardHistory.$inferSelect;

export interface UsableGiftcard {
  id: number;
  code: string;
  balance: Decimal;
  currencyCode: string;
}

// ---- helpers ----

function invalid(field: string, message: string, constraint: string, reason = 'VALIDATION_FAILED'): AppError {
  return badRequest(message, { reason, details: { field, constraint } });
}

/** A JSON / GraphQL number as an exact decimal (through its string form), at most 4 decimal places. */
function decimalOf(value: unknown, field: string): Decimal {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(field, `${field} must be a number`, 'type');
  const d = dec(String(value));
  if (d.decimalPlaces() > PLACES) throw invalid(field, `${field} must have at most ${PLACES} decimal places`, 'multipleOf');
  return d;
}

/** The code as looked up: trimmed and upper-case; undefined when it cannot be a card code. */
function lookupCode(code: unknown): string | undefined {
  if (typeof code !== 'string') return undefined;
  const c = code.trim().toUpperCase();
  return /^[A-Z0-9-]{1,64}$/.test(c) ? c : undefined;
}

export function generateGiftcardCode(): string {
  const groups: string[] = [];
  for (let g = 0; g < 4; g++) {
    let s = '';
    for (let i = 0; i < 4; i++) s += CODE_ALPHABET[crypto.randomInt(CODE_ALPHABET.length)];
    groups.push(s);
  }
  return `GC-${groups.join('-')}`;
}

function isExpired(row: CardRow, now: Date): boolean {
  return row.status === 'expired' || (row.expiresAt !== null && row.expiresAt.getTime() <= now.getTime());
}

/** The status shown: disabled, used (nothing left), expired (past expiresAt), else active. */
function effectiveStatus(row: CardRow, now: Date): string {
  if (row.status === 'disabled') return 'disabled';
  if (row.status === 'used' || dec(row.balance).lte(0)) return 'used';
  if (isExpired(row, now)) return 'expired';
  return 'active';
}

function historyDto(h: HistoryRow): GiftcardHistoryDto {
  return compact({
    action: h.action,
    amount: toWire(h.amount),
    balanceBefore: toWire(h.balanceBefore),
    balanceAfter: toWire(h.balanceAfter),
    orderId: h.orderId,
    comment: h.comment,
    createdAt: wireDateTime(h.createdAt)!,
  });
}

function toDto(row: CardRow, history: HistoryRow[], now: Date): GiftcardDto {
  return compact({
    id: row.id,
    code: row.code,
    balance: toWire(row.balance),
    initialBalance: toWire(row.initialBalance),
    status: effectiveStatus(row, now),
    expiresAt: wireDateTime(row.expiresAt),
    currencyCode: row.currencyCode,
    createdAt: wireDateTime(row.createdAt)!,
    updatedAt: wireDateTime(row.updatedAt)!,
    purchaseOrderId: row.purchaseOrderId,
    purchaseOrderItemId: row.purchaseOrderItemId,
    emailScheduledAt: wireDateTime(row.emailScheduledAt),
    emailSentAt: wireDateTime(row.emailSentAt),
    recipientName: row.recipientName,
    recipientEmail: row.recipientEmail,
    senderName: row.senderName,
    senderEmail: row.senderEmail,
    message: row.message,
    websiteIds: row.websiteIds,
    history: history.map(historyDto),
  }) as GiftcardDto;
}

function usableOf(row: CardRow): UsableGiftcard {
  return { id: row.id, code: row.code, balance: dec(row.balance), currencyCode: row.currencyCode };
}

const byCode = (code: string): SQL => sql`upper(${giftcards.code}) = ${code}`;

/** Conditions of a card a shopper can spend in the current website now. */
function usableWhere(ctx: Ctx): SQL {
  return and(
    eq(giftcards.status, 'active'),
    gt(giftcards.balance, '0'),
    or(isNull(giftcards.expiresAt), gt(giftcards.expiresAt, ctx.now)),
    sql`${ctx.store.websiteId}::int = any(${giftcards.websiteIds})`,
  )!;
}

async function findByCode(ctx: Ctx, code: unknown, forUpdate = false): Promise<CardRow | undefined> {
  const c = lookupCode(code);
  if (!c) return undefined;
  const q = ctx.db.select().from(giftcards).where(byCode(c));
  const [row] = forUpdate ? await q.for('update') : await q;
  return row;
}

async function findById(ctx: Ctx, id: number, forUpdate = false): Promise<CardRow | undefined> {
  if (!Number.isInteger(id) || id < 1 || id > INT_MAX) return undefined;
  const q = ctx.db.select().from(giftcards).where(eq(giftcards.id, id));
  const [row] = forUpdate ? await q.for('update') : await q;
  return row;
}

async function historyOf(ctx: Ctx, id: number): Promise<HistoryRow[]> {
  return ctx.db.select().from(giftcardHistory).where(eq(giftcardHistory.giftcardId, id)).orderBy(desc(giftcardHistory.id));
}

/** A card outside the websites of a store-restricted admin principal reads as missing. */
function inScope(ctx: Ctx, row: CardRow): boolean {
  const scope = adminWebsiteScope(ctx);
  return !scope || row.websiteIds.some((w) => scope.includes(w));
}

const cardNotFound = () => notFound('Gift card not found', { reason: 'GIFTCARD_NOT_FOUND' });

/** Why a shopper cannot spend the card in the current website (undefined when they can). */
function unusableReason(ctx: Ctx, row: CardRow | undefined): AppError | undefined {
  const err = (message: string, reason: string) => badRequest(message, { reason, details: { field: 'code' } });
  if (!row) return err('Gift card not found', 'GIFTCARD_NOT_FOUND');
  if (row.status === 'disabled') return err('Gift card is disabled', 'GIFTCARD_DISABLED');
  if (isExpired(row, ctx.now)) return err('Gift card has expired', 'GIFTCARD_EXPIRED');
  if (row.status === 'used' || dec(row.balance).lte(0)) return err('Gift card has been used up', 'GIFTCARD_USED');
  if (!row.websiteIds.includes(ctx.store.websiteId)) return err('Gift card is not valid for this website', 'GIFTCARD_WRONG_WEBSITE');
  return undefined;
}

function optText(value: unknown, field: string, max: number): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalid(field, `${field} must be a string`, 'type');
  const v = value.trim();
  if (!v) return null;
  if (v.length > max) throw invalid(field, `${field} has at most ${max} characters`, 'maxLength');
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(v)) throw invalid(field, `${field} must not contain control characters`, 'pattern');
  return v;
}

function optEmail(value: unknown, field: string): string | null {
  const v = optText(value, field, 254);
  if (v !== null && !isEmailAddress(v)) throw invalid(field, `${field} is not a valid email address`, 'format', 'INVALID_EMAIL');
  return v;
}

/** `YYYY-MM-DD` (valid through that day) or `YYYY-MM-DD HH:MM:SS`, UTC, in the future; null: never expires. */
function parseExpiry(ctx: Ctx, value: unknown): Date | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  if (typeof value !== 'string') throw invalid('expiresAt', 'expiresAt must be a string', 'type');
  const v = value.trim();
  if (!v) return null;
  const m = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}):(\d{2}):(\d{2}))?$/.exec(v);
  if (!m || !isValidDate(m[1]) || (m[2] !== undefined && (+m[2] > 23 || +m[3] > 59 || +m[4] > 59))) {
    throw invalid('expiresAt', 'expiresAt must be a date YYYY-MM-DD or a date and time YYYY-MM-DD HH:MM:SS', 'format', 'INVALID_DATE');
  }
  const d = new Date(`${m[1]}T${m[2] === undefined ? '23:59:59' : `${m[2]}:${m[3]}:${m[4]}`}Z`);
  if (d.getTime() <= ctx.now.getTime()) throw invalid('expiresAt', 'expiresAt must be in the future', 'minimum', 'INVALID_DATE');
  return d;
}

/** A store view of the website, for website-scoped config (its default store view). */
function websiteStoreId(ctx: Ctx, websiteId: number): number | undefined {
  const r = ctx.app.settings;
  const w = r.website(websiteId);
  const group = w?.defaultGroupId ? r.group(w.defaultGroupId) : undefined;
  return group?.defaultStoreId ?? r.allStores().find((s) => s.websiteId === websiteId)?.id;
}

function storeName(ctx: Ctx): string {
  const s = ctx.app.settings;
  return s.get('general/store_information/name', ctx.store.storeId) || s.store(ctx.store.storeId)?.name || 'our store';
}

function formatAmount(v: Decimal.Value, currency: string): string {
  return `${dec(v).toFixed(2)} ${currency}`;
}

// ---- back office ----

/** POST /giftcards. */
export async function createGiftcard(ctx: Ctx, input: GiftcardCreateInput): Promise<GiftcardDto> {
  // balance: initialBalance or balance, the other mirrored
  const given = input.initialBalance ?? input.balance;
  if (given === undefined || given === null) {
    throw invalid('initialBalance', 'initialBalance (or balance) is required', 'required', 'MISSING_FIELDS');
  }
  const initial = decimalOf(given, input.initialBalance !== undefined ? 'initialBalance' : 'balance');
  if (input.initialBalance !== undefined && input.balance !== undefined && !decimalOf(input.balance, 'balance').eq(initial)) {
    throw invalid('balance', 'balance and initialBalance differ; send one of them', 'const');
  }
  if (initial.lte(0) || initial.gt(MAX_BALANCE)) {
    throw invalid('initialBalance', `The balance must be greater than 0 and at most ${MAX_BALANCE}`, 'range', 'INVALID_BALANCE');
  }

  let code: string | undefined;
  if (input.code !== undefined && input.code !== null && input.code.trim() !== '') {
    const c = input.code.trim();
    if (!/^[A-Za-z0-9-]{4,64}$/.test(c)) {
      throw invalid('code', 'code must be 4 to 64 characters of letters, digits and -', 'pattern', 'INVALID_CODE');
    }
    code = c.toUpperCase();
  }

  const settings = ctx.app.settings;
  const rawIds = input.websiteIds ?? (input.websiteId !== undefined ? [input.websiteId] : [ctx.store.websiteId]);
  if (!rawIds.length) throw invalid('websiteIds', 'websiteIds must name at least one website', 'minItems', 'INVALID_WEBSITE');
  const websiteIds = [...new Set(rawIds)];
  for (const id of websiteIds) {
    if (!Number.isInteger(id) || id < 1 || !settings.website(id)) {
      throw invalid('websiteIds', `Unknown website: ${id}`, 'exists', 'INVALID_WEBSITE');
    }
  }
  const scope = adminWebsiteScope(ctx);
  if (scope && websiteIds.some((id) => !scope.includes(id))) {
    throw forbidden('Access denied: a website of the gift card is outside the stores of this token', { reason: 'WEBSITE_OUT_OF_SCOPE' });
  }

  const storeIds = websiteIds.map((id) => websiteStoreId(ctx, id));
  const currencyCode = (optText(input.currencyCode, 'currencyCode', 3) ?? settings.baseCurrency(storeIds[0])).toUpperCase();
  if (!/^[A-Z]{3}$/.test(currencyCode) || storeIds.some((s) => !settings.allowedCurrencies(s).includes(currencyCode))) {
    throw invalid('currencyCode', `Currency ${currencyCode} is not allowed in the gift card's websites`, 'enum', 'INVALID_CURRENCY');
  }

  const status = optText(input.status, 'status', 32)?.toLowerCase() ?? 'active';
  if (status !== 'active' && status !== 'disabled') throw invalid('status', 'status must be active or disabled', 'enum', 'INVALID_STATUS');

  let expiresAt = parseExpiry(ctx, input.expiresAt);
  if (expiresAt === undefined) {
    const days = Math.max(0, settings.getInt('giftcard/general/lifetime_days', ctx.store.storeId));
    expiresAt = days ? new Date(ctx.now.getTime() + days * 86_400_000) : null;
  }

  const recipientName = optText(input.recipientName, 'recipientName', TEXT_MAX);
  const recipientEmail = optEmail(input.recipientEmail, 'recipientEmail');
  const senderName = optText(input.senderName, 'senderName', TEXT_MAX);
  const senderEmail = optEmail(input.senderEmail, 'senderEmail');
  const message = optText(input.message, 'message', MESSAGE_MAX);
  const amount = initial.toFixed(PLACES);

  return withTx(ctx, async (tx) => {
    let row: CardRow | undefined;
    for (let attempt = 0; !row; attempt++) {
      [row] = await tx.db
        .insert(giftcards)
        .values({
          code: code ?? generateGiftcardCode(),
          balance: amount,
          initialBalance: amount,
          currencyCode,
          status,
          expiresAt,
          websiteIds,
          recipientName,
          recipientEmail,
          senderName,
          senderEmail,
          message,
          emailScheduledAt: recipientEmail ? ctx.now : null,
          createdAt: ctx.now,
          updatedAt: ctx.now,
        })
        .onConflictDoNothing()
        .returning();
      if (!row && (code !== undefined || attempt >= 4)) {
        throw conflict(code !== undefined ? `A gift card with code ${code} already exists` : 'No unused gift card code was found; try again', {
          reason: 'GIFTCARD_CODE_TAKEN',
          details: { field: 'code' },
        });
      }
    }
    const [created] = await tx.db
      .insert(giftcardHistory)
      .values({ giftcardId: row.id, action: 'created', amount, balanceBefore: '0', balanceAfter: amount, createdAt: ctx.now })
      .returning();
    if (recipientEmail) {
      const store = storeName(tx);
      const lines = [
        `Hello${recipientName ? ` ${recipientName}` : ''},`,
        '',
        `${senderName ?? 'Someone'} sent you a gift card for ${store}.`,
        '',
        `Gift card code: ${row.code}`,
        `Balance: ${formatAmount(amount, currencyCode)}`,
      ];
      if (expiresAt) lines.push(`Valid until: ${wireDateTime(expiresAt)} UTC`);
      if (message) lines.push('', 'Message:', message);
      lines.push('', `Enter the code at checkout on ${ctx.app.settings.baseUrl(ctx.store.storeId)} to pay with it.`);
      await queueMail(tx, {
        to: recipientEmail,
        subject: `You have received a gift card for ${store}`,
        template: 'giftcard/email',
        text: lines.join('\n'),
      });
    }
    return toDto(row, [created], ctx.now);
  });
}

/** A page of the cards the caller's websites hold, newest first (GraphQL `giftCards`). */
export async function listGiftcards(ctx: Ctx, page: { size: number; offset: number }): Promise<{ items: GiftcardDto[]; total: number }> {
  const scope = adminWebsiteScope(ctx);
  const cond = scope ? sql`${giftcards.websiteIds} && ${sql.raw(`ARRAY[${scope.map((w) => Number(w)).join(',') || '-1'}]::int[]`)}` : undefined;
  const [rows, [{ n }]] = await Promise.all([
    ctx.db.select().from(giftcards).where(cond).orderBy(desc(giftcards.id)).limit(page.size).offset(page.offset),
    ctx.db.select({ n: sql<number>`count(*)::int` }).from(giftcards).where(cond),
  ]);
  const items: GiftcardDto[] = [];
  for (const row of rows) items.push(toDto(row, await historyOf(ctx, row.id), ctx.now));
  return { items, total: Number(n) };
}

/** GET /giftcards/{id}: the card with its history, newest first. */
export async function getGiftcard(ctx: Ctx, id: number): Promise<GiftcardDto> {
  const row = await findById(ctx, id);
  if (!row || !inScope(ctx, row)) throw cardNotFound();
  return toDto(row, await historyOf(ctx, row.id), ctx.now);
}

export interface AdjustInput {
  id?: number | null;
  code?: string | null;
  /** a signed change of the balance; or */
  amount?: number | null;
  /** the balance to set (Maho's adjustBalance) */
  newBalance?: number | null;
  comment?: string | null;
}

/**
 * adjustGiftcardBalance: adds a signed amount. The result must stay within 0…10000, else nothing changes.
 * A card spent to 0 becomes used; a used card given a balance again becomes active.
 */
export async function adjustGiftcardBalance(ctx: Ctx, input: AdjustInput): Promise<GiftcardDto> {
  const hasAmount = input.amount !== undefined && input.amount !== null;
  const hasTarget = input.newBalance !== undefined && input.newBalance !== null;
  if (hasAmount === hasTarget) throw invalid('amount', 'Give either amount (a change) or newBalance', 'required', 'MISSING_FIELDS');
  const delta = hasAmount ? decimalOf(input.amount, 'amount') : undefined;
  if (delta?.isZero()) throw invalid('amount', 'amount must not be 0', 'not');
  const target = hasTarget ? decimalOf(input.newBalance, 'newBalance') : undefined;
  const comment = optText(input.comment, 'comment', COMMENT_MAX);
  const hasId = input.id !== undefined && input.id !== null;
  const hasCode = input.code !== undefined && input.code !== null;
  if (!hasId && !hasCode) throw invalid('id', 'Name the gift card by id or code', 'required', 'MISSING_FIELDS');
  return withTx(ctx, async (tx) => {
    const row = hasId ? await findById(tx, input.id!, true) : await findByCode(tx, input.code, true);
    if (!row || !inScope(tx, row)) throw cardNotFound();
    if (hasId && hasCode && lookupCode(input.code) !== row.code.toUpperCase()) {
      throw invalid('code', 'id and code name different gift cards', 'const');
    }
    const before = dec(row.balance);
    const after = target ?? before.plus(delta!);
    if (after.lt(0) || after.gt(MAX_BALANCE)) {
      throw badRequest(`The resulting balance ${after.toFixed()} must be between 0 and ${MAX_BALANCE}`, {
        details: { field: target ? 'newBalance' : 'amount', constraint: 'range', balance: toWire(before) },
      });
    }
    // setting the balance it already has changes nothing
    if (after.eq(before)) return toDto(row, await historyOf(tx, row.id), ctx.now);
    let status = row.status;
    if (after.isZero() && status !== 'disabled') status = 'used';
    else if (after.gt(0) && status === 'used') status = 'active';
    const [updated] = await tx.db
      .update(giftcards)
      .set({ balance: after.toFixed(PLACES), status, updatedAt: ctx.now })
      .where(eq(giftcards.id, row.id))
      .returning();
    await tx.db.insert(giftcardHistory).values({
      giftcardId: row.id,
      action: 'adjusted',
      amount: after.minus(before).toFixed(PLACES),
      balanceBefore: before.toFixed(PLACES),
      balanceAfter: after.toFixed(PLACES),
      comment,
      createdAt: ctx.now,
    });
    return toDto(updated, await historyOf(tx, row.id), ctx.now);
  });
}

// ---- storefront ----

function balanceRule(ctx: Ctx) {
  return configuredRule(ctx.app.settings, 'giftcard_balance', 60, ctx.store.storeId);
}

/**
 * Counts one gift-card attempt of the caller's IP against api/rate_limit/giftcard_balance (429 past it). The
 * GraphQL balance check calls it; cart gift-card applies by non-backend callers share the budget.
 */
export async function limitGiftcardAttempts(ctx: Ctx): Promise<void> {
  await ctx.app.limiter.consume(balanceRule(ctx), ctx.ip);
}

/**
 * checkGiftcardBalance (public, rate limited per IP). An unknown code, a disabled card and a card of another
 * website all answer the same 404, so that codes cannot be probed for more than that.
 */
export async function checkGiftcardBalance(ctx: Ctx, code: string): Promise<GiftcardBalanceDto> {
  await limitGiftcardAttempts(ctx);
  const row = await findByCode(ctx, code);
  if (!row || row.status === 'disabled' || !row.websiteIds.includes(ctx.store.websiteId)) throw notFound('Gift card not found');
  return compact({
    code: row.code,
    balance: toWire(row.balance),
    currencyCode: row.currencyCode,
    status: effectiveStatus(row, ctx.now),
    expiresAt: wireDateTime(row.expiresAt),
  }) as GiftcardBalanceDto;
}

// ---- for carts and orders ----

/** The card if a shopper can spend it in the current website now; else a 400 naming why not. */
export async function usableGiftcard(ctx: Ctx, code: string): Promise<UsableGiftcard> {
  const row = await findByCode(ctx, code);
  const err = unusableReason(ctx, row);
  if (err) throw err;
  return usableOf(row!);
}

/** The cards of these codes still usable now, in the order given (each once); one query. */
export async function giftcardsByCodes(ctx: Ctx, codes: string[]): Promise<UsableGiftcard[]> {
  const wanted = [...new Set(codes.map(lookupCode).filter((c): c is string => c !== undefined))];
  if (!wanted.length) return [];
  const found = await ctx.db
    .select()
    .from(giftcards)
    .where(and(sql`upper(${giftcards.code}) in (${sql.join(wanted.map((c) => sql`${c}`), sql`, `)})`, usableWhere(ctx)));
  const byUpper = new Map(found.map((r) => [r.code.toUpperCase(), r]));
  return wanted.flatMap((c) => {
    const r = byUpper.get(c);
    return r ? [usableOf(r)] : [];
  });
}

function positiveAmount(amount: Decimal, what: string): Decimal {
  const a = dec(amount);
  if (!a.isFinite() || a.lte(0)) throw badRequest(`The ${what} amount must be greater than 0`, { reason: 'INVALID_AMOUNT' });
  return a.toDecimalPlaces(PLACES);
}

/**
 * Spends `amount` of the card: one conditional UPDATE (balance >= amount, card usable now), so that
 * concurrent debits never overdraw it; a `used` history row; status used at 0. Joins the caller's transaction.
 */
export async function debitGiftcard(ctx: Ctx, code: string, amount: Decimal, orderId: number | null): Promise<UsableGiftcard> {
  const amt = positiveAmount(amount, 'debit');
  const c = lookupCode(code);
  if (!c) throw unusableReason(ctx, undefined)!;
  const a = amt.toFixed(PLACES);
  return withTx(ctx, async (tx) => {
    const [row] = await tx.db
      .update(giftcards)
      .set({
        balance: sql`${giftcards.balance} - ${a}::numeric`,
        status: sql`case when ${giftcards.balance} - ${a}::numeric = 0 then 'used' else ${giftcards.status} end`,
        updatedAt: ctx.now,
      })
      .where(and(byCode(c), sql`${giftcards.balance} >= ${a}::numeric`, usableWhere(tx)))
      .returning();
    if (!row) {
      const card = await findByCode(tx, c);
      throw (
        unusableReason(tx, card) ??
        badRequest('Gift card balance is not enough', {
          reason: 'GIFTCARD_INSUFFICIENT_BALANCE',
          details: { field: 'code', balance: toWire(card!.balance), requested: toWire(amt) },
        })
      );
    }
    const after = dec(row.balance);
    await tx.db.insert(giftcardHistory).values({
      giftcardId: row.id,
      action: 'used',
      amount: amt.neg().toFixed(PLACES),
      balanceBefore: after.plus(amt).toFixed(PLACES),
      balanceAfter: after.toFixed(PLACES),
      orderId,
      createdAt: ctx.now,
    });
    return usableOf(row);
  });
}

/**
 * debitGiftcard for several cards at once (an order paid with them), in one statement: the cards are locked in
 * the order of their codes, each is debited where its balance covers its amount and it is usable now, and
 * each debit gets its `used` history row. A refusal is the error debitGiftcard gives for the first card (by
 * code) that could not be debited; the others may be debited already, so the caller's transaction must roll
 * back then (placement does). Runs in the caller's transaction.
 */
export async function debitGiftcards(
  ctx: Ctx,
  debits: { code: string; amount: Decimal }[],
  orderId: number | null,
  /** what a refusal of the card `code` (as given) becomes */
  refusal: (code: string, e: AppError) => AppError = (_code, e) => e,
): Promise<void> {
  const wanted = debits
    .map((d) => ({ code: lookupCode(d.code), amount: positiveAmount(d.amount, 'debit').toFixed(PLACES), given: d.code }))
    .sort((a, b) => ((a.code ?? '') < (b.code ?? '') ? -1 : 1));
  const bad = wanted.find((w) => !w.code);
  if (bad) throw refusal(bad.given, unusableReason(ctx, undefined)!);
  if (!wanted.length) return;
  const codes = `{${wanted.map((w) => w.code).join(',')}}`;
  const amounts = `{${wanted.map((w) => w.amount).join(',')}}`;
  const done = await dbRows<{ code: string }>(
    ctx.db,
    sql`WITH want AS (SELECT * FROM unnest(${codes}::text[], ${amounts}::numeric[]) AS w(code, amount)),
        d AS (
          UPDATE giftcards SET balance = giftcards.balance - w.amount,
                 status = CASE WHEN giftcards.balance - w.amount = 0 THEN 'used' ELSE giftcards.status END,
                 updated_at = ${ctx.now}
          FROM want w
          WHERE upper(giftcards.code) = w.code AND giftcards.balance >= w.amount AND ${usableWhere(ctx)}
            -- every card locked first, in the order of the codes, so that placements never deadlock
            AND (SELECT count(*) FROM (SELECT 1 FROM giftcards l WHERE upper(l.code) = ANY(${codes}::text[]) ORDER BY upper(l.code) FOR UPDATE) k) >= 0
          RETURNING giftcards.id, upper(giftcards.code) AS code, giftcards.balance, w.amount
        ), h AS (
          INSERT INTO giftcard_history (giftcard_id, action, amount, balance_before, balance_after, order_id, created_at)
          SELECT id, 'used', -amount, balance + amount, balance, ${orderId}, ${ctx.now} FROM d
        )
        SELECT code FROM d`,
  );
  const debited = new Set(done.map((r) => r.code));
  const first = wanted.find((w) => !debited.has(w.code!));
  if (!first) return;
  const card = await findByCode(ctx, first.code);
  throw refusal(
    first.given,
    unusableReason(ctx, card) ??
      badRequest('Gift card balance is not enough', {
        reason: 'GIFTCARD_INSUFFICIENT_BALANCE',
        details: { field: 'code', balance: toWire(card!.balance), requested: toWire(first.amount) },
      }),
  );
}

/**
 * Gives `amount` back to the card (refunds, cancellations): never capped; a used card becomes active again.
 * Writes a `refunded` history row. Joins the caller's transaction.
 */
export async function creditGiftcard(ctx: Ctx, code: string, amount: Decimal, orderId: number | null, comment?: string): Promise<void> {
  const amt = positiveAmount(amount, 'credit');
  const c = lookupCode(code);
  if (!c) throw unusableReason(ctx, undefined)!;
  const a = amt.toFixed(PLACES);
  const note = comment === undefined ? null : optText(comment, 'comment', COMMENT_MAX);
  await withTx(ctx, async (tx) => {
    const [row] = await tx.db
      .update(giftcards)
      .set({
        balance: sql`${giftcards.balance} + ${a}::numeric`,
        status: sql`case when ${giftcards.status} = 'used' then 'active' else ${giftcards.status} end`,
        updatedAt: ctx.now,
      })
      .where(byCode(c))
      .returning();
    if (!row) throw unusableReason(tx, undefined)!;
    const after = dec(row.balance);
    await tx.db.insert(giftcardHistory).values({
      giftcardId: row.id,
      action: 'refunded',
      amount: a,
      balanceBefore: after.minus(amt).toFixed(PLACES),
      balanceAfter: after.toFixed(PLACES),
      orderId,
      comment: note,
      createdAt: ctx.now,
    });
  });
}

// ---- demo ----

export const DEMO_GIFTCARD_CODE = 'GC-DEMO-0000-0000-0001';

/** One active card with 50.00 in the base currency of website 1, valid in website 1, never expiring. */
export async function seedDemo(ctx: Ctx): Promise<void> {
  const storeId = websiteStoreId(ctx, 1);
  await createGiftcard(ctx, {
    code: DEMO_GIFTCARD_CODE,
    initialBalance: 50,
    websiteIds: [1],
    currencyCode: ctx.app.settings.baseCurrency(storeId),
    expiresAt: null,
  });
}
