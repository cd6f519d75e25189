/**
 * Spending gift cards, for carts and orders: which cards a shopper can use now (usableGiftcard, giftcardsByCodes,
 * and usableGiftcardsFor for many carts at once), and debits and credits. A debit is a single conditional UPDATE,
 * so concurrent orders can never spend more than the balance (the CHECK balance >= 0 backs that up).
 */
import { and, inArray, sql, type SQL } from 'drizzle-orm';
import { withTx, type Ctx } from '../../platform/context.js';
import { rows as dbRows } from '../../platform/db.js';
import { AppError, badRequest } from '../../platform/errors.js';
import { Decimal, dec, toWire } from '../../platform/money.js';
import {
  byCode,
  COMMENT_MAX,
  findByCode,
  lookupCode,
  optText,
  PLACES,
  unusableReason,
  usableAtWhere,
  usableNowWhere,
  usableOf,
  usableWhere,
  type UsableGiftcard,
} from './cards.js';
import { giftcardHistory, giftcards } from './tables.js';

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
    .where(
      and(
        sql`upper(${giftcards.code}) in (${sql.join(
          wanted.map((c) => sql`${c}`),
          sql`, `,
        )})`,
        usableWhere(ctx),
      ),
    );
  const byUpper = new Map(found.map((r) => [r.code.toUpperCase(), r]));
  return wanted.flatMap((c) => {
    const r = byUpper.get(c);
    return r ? [usableOf(r)] : [];
  });
}

/**
 * What giftcardsByCodes reads for a cart, as SQL for the cart's own read (one statement): the cards of the codes
 * (`codes` a text[] expression, matched as stored: see giftcardsFromFacts) a shopper can spend at `now` (a
 * timestamptz expression) in any website, as a JSON array of GiftcardFacts; null when there are none.
 */
export function giftcardFactsSql(codes: SQL, now: SQL): SQL {
  return sql`(SELECT json_agg(json_build_array(${giftcards.id}, ${giftcards.code}, ${giftcards.balance}::text, ${giftcards.currencyCode},
      ${giftcards.websiteIds})) FROM ${giftcards} WHERE upper(${giftcards.code}) = ANY(${codes}) AND ${usableAtWhere(now)})`;
}

/** A card of giftcardFactsSql: id, code, balance, currency, website ids. */
export type GiftcardFacts = [number, string, string, string, number[]];

/**
 * giftcardsByCodes from what giftcardFactsSql read with the cart (`facts`), in `ctx`'s website; undefined when
 * the facts cannot answer for these codes (one that is not stored as it is looked up), so that the caller asks
 * giftcardsByCodes.
 */
export function giftcardsFromFacts(ctx: Ctx, codes: readonly string[], facts: GiftcardFacts[] | null): UsableGiftcard[] | undefined {
  if (codes.some((c) => lookupCode(c) !== c)) return undefined;
  const byUpper = new Map<string, GiftcardFacts>();
  for (const f of facts ?? []) if (f[4].includes(ctx.store.websiteId)) byUpper.set(f[1].toUpperCase(), f);
  return [...new Set(codes)].flatMap((c) => {
    const f = byUpper.get(c);
    return f ? [{ id: f[0], code: f[1], balance: dec(f[2]), currencyCode: f[3] }] : [];
  });
}

/**
 * giftcardsByCodes for many carts at once (a list of carts), each in its own website: one query whatever their
 * number. The answers are in the order of `asks`, each card once and in the order of its codes.
 */
export async function usableGiftcardsFor(
  ctx: Ctx,
  asks: readonly { codes: readonly string[]; websiteId: number }[],
): Promise<UsableGiftcard[][]> {
  const wanted = asks.map((a) => [...new Set(a.codes.map(lookupCode).filter((c): c is string => c !== undefined))]);
  const all = [...new Set(wanted.flat())];
  if (!all.length) return asks.map(() => []);
  const found = await ctx.db
    .select()
    .from(giftcards)
    .where(and(inArray(sql`upper(${giftcards.code})`, all), usableNowWhere(ctx)));
  const byUpper = new Map(found.map((r) => [r.code.toUpperCase(), r]));
  return asks.map((a, i) =>
    wanted[i].flatMap((c) => {
      const r = byUpper.get(c);
      return r && r.websiteIds.includes(a.websiteId) ? [usableOf(r)] : [];
    }),
  );
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
