/**
 * Gift cards: a code with a balance in its currency. The back office creates cards, lists and reads them and
 * adjusts their balance; shoppers check a balance. Carts and orders spend and refund them (spend.ts). Every
 * change of a balance is one statement on the card row plus a history row in the same transaction.
 */
import { eq } from 'drizzle-orm';
import { adminWebsiteScope, withTx, type Ctx } from '../../platform/context.js';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.js';
import { compact, wireDateTime } from '../../platform/format.js';
import { Decimal, dec, toWire } from '../../platform/money.js';
import { queueMail } from '../../platform/outbox.js';
import { configuredRule } from '../../platform/rate-limit.js';
import { declareConfig, declareConfigLabels } from '../../platform/settings.js';
import {
  cardNotFound,
  COMMENT_MAX,
  decimalOf,
  effectiveStatus,
  findByCode,
  findById,
  generateGiftcardCode,
  historyOf,
  inScope,
  invalid,
  lookupCode,
  MAX_BALANCE,
  MESSAGE_MAX,
  optEmail,
  optText,
  parseExpiry,
  PLACES,
  TEXT_MAX,
  toDto,
  websiteStoreId,
  type CardRow,
} from './cards.js';
import type { GiftcardBalanceDto, GiftcardCreateInput, GiftcardDto } from './schemas.js';
import { giftcardHistory, giftcards } from './tables.js';

declareConfigLabels({ giftcard: 'Gift Cards' });
declareConfig({
  'giftcard/general/lifetime_days': {
    type: 'integer',
    default: 365,
    label: 'Lifetime (days)',
    comment: 'days a new card is valid; 0: never expires',
    min: 0,
  },
  'api/rate_limit/giftcard_balance': {
    type: 'integer',
    default: 10,
    label: 'Gift Card Balance Checks',
    comment: 'balance checks (GraphQL) and cart gift-card applies per IP, per minute; 0: no limit',
    min: 0,
    scopes: ['default'],
  },
});

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
        throw conflict(
          code !== undefined ? `A gift card with code ${code} already exists` : 'No unused gift card code was found; try again',
          {
            reason: 'GIFTCARD_CODE_TAKEN',
            details: { field: 'code' },
          },
        );
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
    const updated = await setBalance(tx, row, after, comment);
    return toDto(updated, await historyOf(tx, row.id), ctx.now);
  });
}

/**
 * Sets the balance of a card locked in the open transaction, with its history row ("adjusted"). A card spent to
 * 0 becomes used; a used card given a balance again becomes active. The balance it already has changes nothing.
 */
export async function setBalance(tx: Ctx, row: CardRow, after: Decimal, comment: string | null): Promise<CardRow> {
  const before = dec(row.balance);
  if (after.eq(before)) return row;
  let status = row.status;
  if (after.isZero() && status !== 'disabled') status = 'used';
  else if (after.gt(0) && status === 'used') status = 'active';
  const [updated] = await tx.db
    .update(giftcards)
    .set({ balance: after.toFixed(PLACES), status, updatedAt: tx.now })
    .where(eq(giftcards.id, row.id))
    .returning();
  await tx.db.insert(giftcardHistory).values({
    giftcardId: row.id,
    action: 'adjusted',
    amount: after.minus(before).toFixed(PLACES),
    balanceBefore: before.toFixed(PLACES),
    balanceAfter: after.toFixed(PLACES),
    comment,
    createdAt: tx.now,
  });
  return updated;
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
