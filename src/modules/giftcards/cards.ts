/**
 * A gift card as stored and shown: its code rules, its effective status (a card whose expiresAt has passed is
 * shown, and treated, as expired), its wire shape with its history, and the checks a shopper's use of it meets.
 */
import crypto from 'node:crypto';
import { and, desc, eq, gt, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { adminWebsiteScope, type Ctx } from '../../platform/context.js';
import { AppError, badRequest, notFound } from '../../platform/errors.js';
import { compact, isEmailAddress, isValidDate, wireDateTime } from '../../platform/format.js';
import { Decimal, dec, toWire } from '../../platform/money.js';
import type { GiftcardDto, GiftcardHistoryDto } from './schemas.js';
import { giftcardHistory, giftcards } from './tables.js';

export const MAX_BALANCE = 10000;
export const PLACES = 4;
export const TEXT_MAX = 255;
export const MESSAGE_MAX = 1000;
export const COMMENT_MAX = 1000;
/** 0-9 and A-Z without I and O */
const CODE_ALPHABET = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';
export const INT_MAX = 2147483647;

export type CardRow = typeof giftcards.$inferSelect;
export type HistoryRow = typeof giftcardHistory.$inferSelect;

export interface UsableGiftcard {
  id: number;
  code: string;
  balance: Decimal;
  currencyCode: string;
}

// ---- helpers ----

export function invalid(field: string, message: string, constraint: string, reason = 'VALIDATION_FAILED'): AppError {
  return badRequest(message, { reason, details: { field, constraint } });
}

/** A JSON / GraphQL number as an exact decimal (through its string form), at most 4 decimal places. */
export function decimalOf(value: unknown, field: string): Decimal {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(field, `${field} must be a number`, 'type');
  const d = dec(String(value));
  if (d.decimalPlaces() > PLACES) throw invalid(field, `${field} must have at most ${PLACES} decimal places`, 'multipleOf');
  return d;
}

/** The code as looked up: trimmed and upper-case; undefined when it cannot be a card code. */
export function lookupCode(code: unknown): string | undefined {
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

export function isExpired(row: CardRow, now: Date): boolean {
  return row.status === 'expired' || (row.expiresAt !== null && row.expiresAt.getTime() <= now.getTime());
}

/** The status shown: disabled, used (nothing left), expired (past expiresAt), else active. */
export function effectiveStatus(row: CardRow, now: Date): string {
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

export function toDto(row: CardRow, history: HistoryRow[], now: Date): GiftcardDto {
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

export function usableOf(row: CardRow): UsableGiftcard {
  return { id: row.id, code: row.code, balance: dec(row.balance), currencyCode: row.currencyCode };
}

export const byCode = (code: string): SQL => sql`upper(${giftcards.code}) = ${code}`;

/** Conditions of a card a shopper can spend now, in any of its websites. */
export function usableNowWhere(ctx: Ctx): SQL {
  return usableAtWhere(ctx.now);
}

/** Conditions of a card a shopper can spend at `now` (a time, or a timestamptz expression), in any of its websites. */
export function usableAtWhere(now: Date | SQL): SQL {
  return and(eq(giftcards.status, 'active'), gt(giftcards.balance, '0'), or(isNull(giftcards.expiresAt), gt(giftcards.expiresAt, now)))!;
}

/** Conditions of a card a shopper can spend in the current website now. */
export function usableWhere(ctx: Ctx): SQL {
  return and(usableNowWhere(ctx), sql`${ctx.store.websiteId}::int = any(${giftcards.websiteIds})`)!;
}

export async function findByCode(ctx: Ctx, code: unknown, forUpdate = false): Promise<CardRow | undefined> {
  const c = lookupCode(code);
  if (!c) return undefined;
  const q = ctx.db.select().from(giftcards).where(byCode(c));
  const [row] = forUpdate ? await q.for('update') : await q;
  return row;
}

export async function findById(ctx: Ctx, id: number, forUpdate = false): Promise<CardRow | undefined> {
  if (!Number.isInteger(id) || id < 1 || id > INT_MAX) return undefined;
  const q = ctx.db.select().from(giftcards).where(eq(giftcards.id, id));
  const [row] = forUpdate ? await q.for('update') : await q;
  return row;
}

export async function historyOf(ctx: Ctx, id: number): Promise<HistoryRow[]> {
  return ctx.db.select().from(giftcardHistory).where(eq(giftcardHistory.giftcardId, id)).orderBy(desc(giftcardHistory.id));
}

/** The history of each of these cards, newest first: one query whatever their number. */
export async function historiesOf(ctx: Ctx, ids: readonly number[]): Promise<Map<number, HistoryRow[]>> {
  const out = new Map<number, HistoryRow[]>(ids.map((id) => [id, []]));
  if (!ids.length) return out;
  const rows = await ctx.db
    .select()
    .from(giftcardHistory)
    .where(inArray(giftcardHistory.giftcardId, [...out.keys()]))
    .orderBy(desc(giftcardHistory.id));
  for (const h of rows) out.get(h.giftcardId)!.push(h);
  return out;
}

/** A card outside the websites of a store-restricted admin principal reads as missing. */
export function inScope(ctx: Ctx, row: CardRow): boolean {
  const scope = adminWebsiteScope(ctx);
  return !scope || row.websiteIds.some((w) => scope.includes(w));
}

export const cardNotFound = () => notFound('Gift card not found', { reason: 'GIFTCARD_NOT_FOUND' });

/** Why a shopper cannot spend the card in the current website (undefined when they can). */
export function unusableReason(ctx: Ctx, row: CardRow | undefined): AppError | undefined {
  const err = (message: string, reason: string) => badRequest(message, { reason, details: { field: 'code' } });
  if (!row) return err('Gift card not found', 'GIFTCARD_NOT_FOUND');
  if (row.status === 'disabled') return err('Gift card is disabled', 'GIFTCARD_DISABLED');
  if (isExpired(row, ctx.now)) return err('Gift card has expired', 'GIFTCARD_EXPIRED');
  if (row.status === 'used' || dec(row.balance).lte(0)) return err('Gift card has been used up', 'GIFTCARD_USED');
  if (!row.websiteIds.includes(ctx.store.websiteId)) return err('Gift card is not valid for this website', 'GIFTCARD_WRONG_WEBSITE');
  return undefined;
}

export function optText(value: unknown, field: string, max: number): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalid(field, `${field} must be a string`, 'type');
  const v = value.trim();
  if (!v) return null;
  if (v.length > max) throw invalid(field, `${field} has at most ${max} characters`, 'maxLength');
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(v))
    throw invalid(field, `${field} must not contain control characters`, 'pattern');
  return v;
}

export function optEmail(value: unknown, field: string): string | null {
  const v = optText(value, field, 254);
  if (v !== null && !isEmailAddress(v)) throw invalid(field, `${field} is not a valid email address`, 'format', 'INVALID_EMAIL');
  return v;
}

/** `YYYY-MM-DD` (valid through that day) or `YYYY-MM-DD HH:MM:SS`, UTC, in the future; null: never expires. */
export function parseExpiry(ctx: Ctx, value: unknown): Date | null | undefined {
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
export function websiteStoreId(ctx: Ctx, websiteId: number): number | undefined {
  const r = ctx.app.settings;
  const w = r.website(websiteId);
  const group = w?.defaultGroupId ? r.group(w.defaultGroupId) : undefined;
  return group?.defaultStoreId ?? r.allStores().find((s) => s.websiteId === websiteId)?.id;
}
