/**
 * PUT /giftcards/{id}: the back office changes a card's status, balance, expiry and recipient fields. As in Maho,
 * a balance change is an adjustment with its history row (comment: the given one, else "API balance
 * adjustment"), and an explicit status wins over the one the new balance implies. The code and the websites
 * cannot change: a client that sends back what it read passes, a different value is a 400. No mail is sent.
 */
import { eq } from 'drizzle-orm';
import { adminWebsiteScope, withTx, type Ctx } from '../../platform/context.js';
import { forbidden } from '../../platform/errors.js';
import { Decimal } from '../../platform/money.js';
import {
  cardNotFound,
  COMMENT_MAX,
  decimalOf,
  findById,
  historyOf,
  inScope,
  invalid,
  lookupCode,
  MAX_BALANCE,
  MESSAGE_MAX,
  optEmail,
  optText,
  parseExpiry,
  TEXT_MAX,
  toDto,
  type CardRow,
} from './cards.js';
import type { GiftcardDto, GiftcardUpdateInput } from './schemas.js';
import { setBalance } from './service.js';
import { giftcards } from './tables.js';

const STATUSES = ['active', 'used', 'expired', 'disabled'];

type Changes = Partial<
  Pick<CardRow, 'status' | 'expiresAt' | 'recipientName' | 'recipientEmail' | 'senderName' | 'senderEmail' | 'message'>
>;

/** The new expiry: unchanged when the same instant is sent back (even one now past), else a future date or null. */
function expiryOf(ctx: Ctx, row: CardRow, value: string | null | undefined): Date | null | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && row.expiresAt) {
    const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})$/.exec(value.trim());
    if (m && new Date(`${m[1]}T${m[2]}Z`).getTime() === row.expiresAt.getTime()) return undefined;
  }
  return parseExpiry(ctx, value);
}

/** Checks everything that does not need the card, so bad input is refused before any lock. */
function checkInput(input: GiftcardUpdateInput): { status?: string; balance?: Decimal; comment: string | null } {
  let status: string | undefined;
  if (input.status !== undefined) {
    status = input.status.trim().toLowerCase();
    if (!STATUSES.includes(status)) throw invalid('status', `status must be one of ${STATUSES.join(', ')}`, 'enum', 'INVALID_STATUS');
  }
  let balance: Decimal | undefined;
  if (input.balance !== undefined) {
    balance = decimalOf(input.balance, 'balance');
    if (balance.lt(0) || balance.gt(MAX_BALANCE)) {
      throw invalid('balance', `The balance must be between 0 and ${MAX_BALANCE}`, 'range', 'INVALID_BALANCE');
    }
  }
  return { status, balance, comment: optText(input.comment, 'comment', COMMENT_MAX) };
}

export async function updateGiftcard(ctx: Ctx, id: number, input: GiftcardUpdateInput): Promise<GiftcardDto> {
  const { status, balance, comment } = checkInput(input);
  const texts: Changes = {};
  if (input.recipientName !== undefined) texts.recipientName = optText(input.recipientName, 'recipientName', TEXT_MAX);
  if (input.recipientEmail !== undefined) texts.recipientEmail = optEmail(input.recipientEmail, 'recipientEmail');
  if (input.senderName !== undefined) texts.senderName = optText(input.senderName, 'senderName', TEXT_MAX);
  if (input.senderEmail !== undefined) texts.senderEmail = optEmail(input.senderEmail, 'senderEmail');
  if (input.message !== undefined) texts.message = optText(input.message, 'message', MESSAGE_MAX);

  return withTx(ctx, async (tx) => {
    let row = await findById(tx, id, true);
    if (!row || !inScope(tx, row)) throw cardNotFound();
    const scope = adminWebsiteScope(tx);
    if (scope && row.websiteIds.some((w) => !scope.includes(w))) {
      throw forbidden('Access denied: a website of the gift card is outside the stores of this token', { reason: 'WEBSITE_OUT_OF_SCOPE' });
    }
    if (input.code !== undefined && input.code !== null && input.code.trim() !== '' && lookupCode(input.code) !== row.code.toUpperCase()) {
      throw invalid('code', 'The code of a gift card cannot be changed', 'const', 'READ_ONLY_FIELD');
    }
    if (input.websiteIds !== undefined) {
      const same = (a: number[]) => [...new Set(a)].sort((x, y) => x - y).join(',');
      if (same(input.websiteIds) !== same(row.websiteIds)) {
        throw invalid('websiteIds', 'websiteIds cannot be changed through update', 'const', 'READ_ONLY_FIELD');
      }
    }
    const changes: Changes = { ...texts };
    const expiresAt = expiryOf(tx, row, input.expiresAt);
    if (expiresAt !== undefined) changes.expiresAt = expiresAt;

    if (balance !== undefined) row = await setBalance(tx, row, balance, comment ?? 'API balance adjustment');
    if (status !== undefined && status !== row.status) changes.status = status;
    if (Object.keys(changes).length) {
      [row] = await tx.db
        .update(giftcards)
        .set({ ...changes, updatedAt: ctx.now })
        .where(eq(giftcards.id, row.id))
        .returning();
    }
    return toDto(row, await historyOf(tx, row.id), ctx.now);
  });
}
