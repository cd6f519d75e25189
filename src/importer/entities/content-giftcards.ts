/**
 * Gift cards of Maho (ids and codes kept) with their balances, websites and history. A card's currency is
 * the base currency of its (first) website, as Maho reads it.
 */
import { sql } from 'drizzle-orm';
import { rows } from '../../platform/db.js';
import { dec } from '../../platform/money.js';
import { giftcardHistory, giftcards } from '../../modules/giftcards/tables.js';
import {
  assertImportable,
  count,
  existingIds,
  groupBy,
  imported,
  inList,
  intArray,
  recordIds,
  sinceWhere,
  upsert,
  type EntityImporter,
  type ImportContext,
} from '../context.js';
import { date, decimal, int, text, trimmed } from '../source.js';
import { checkCount, countOf, EPOCH, targetWebsites, whenTable } from './content-shared.js';

const STATUSES = new Set(['active', 'used', 'expired', 'disabled']);
const ACTIONS = new Set(['created', 'used', 'refunded', 'adjusted', 'expired']);
const SKIPPED_BALANCE = 'gift cards: balance of skipped cards';

/** Base currency by website (0: the default), from the source's configuration. */
async function baseCurrencies(ctx: ImportContext): Promise<{ of(websiteId: number | undefined): string }> {
  const found = await ctx.source.query(
    "SELECT scope, scope_id, value FROM core_config_data WHERE path = 'currency/options/base' AND scope IN ('default', 'websites')",
  );
  const byWebsite = new Map<number, string>();
  let fallback = 'USD';
  for (const r of found) {
    const code = trimmed(r.value)?.toUpperCase();
    if (!code || !/^[A-Z]{3}$/.test(code)) continue;
    if (r.scope === 'default') fallback = code;
    else byWebsite.set(Number(r.scope_id), code);
  }
  return { of: (w) => (w !== undefined && byWebsite.get(w)) || fallback };
}

export const giftcardsImporter: EntityImporter = whenTable('giftcard', {
  name: 'gift cards',
  group: 'giftcards',
  count: (ctx) => countOf(ctx, 'giftcard', sinceWhere(ctx, 'giftcard')),
  async run(ctx, stats, tick) {
    await assertImportable(ctx.db, 'giftcards', 'gift cards');
    const websites = await targetWebsites(ctx.db);
    const currencies = await baseCurrencies(ctx);
    const junction = ctx.source.hasTable('giftcard_website');
    const s = sinceWhere(ctx, 'giftcard');
    for await (const batch of ctx.source.batches({ from: 'giftcard', key: 'giftcard_id', where: s.where, params: s.params })) {
      stats.found += batch.length;
      const ids = batch.map((r) => Number(r.giftcard_id));
      const links = junction
        ? groupBy(
            await ctx.source.query(`SELECT giftcard_id, website_id FROM giftcard_website WHERE giftcard_id IN (${inList(ids)})`, ids),
            'giftcard_id',
          )
        : new Map();
      const codes = batch.map((r) => trimmed(r.code)?.toUpperCase()).filter((c): c is string => !!c);
      const taken = new Set(
        (
          await rows<{ code: string }>(
            ctx.db,
            sql`SELECT upper(code) AS code FROM giftcards WHERE upper(code) IN (SELECT jsonb_array_elements_text(${JSON.stringify(codes)}::jsonb)) AND id <> ALL(${intArray(ids)}::int[])`,
          )
        ).map((r) => r.code),
      );
      const values: (typeof giftcards.$inferInsert)[] = [];
      for (const r of batch) {
        const id = Number(r.giftcard_id);
        const code = trimmed(r.code);
        const balance = decimal(r.balance);
        const status = trimmed(r.status)?.toLowerCase() ?? 'active';
        // the junction, or the single website column of earlier versions
        const sourceWebsites = [
          ...new Set(
            junction
              ? ((links.get(id) ?? []) as Record<string, unknown>[]).map((l) => Number(l.website_id))
              : int(r.website_id)
                ? [Number(r.website_id)]
                : [],
          ),
        ]
          .filter((w) => w > 0)
          .sort((a, b) => a - b);
        const kept = sourceWebsites.filter((w) => websites.has(w));
        const skip = (reason: string) => {
          ctx.report.skip(stats, id, reason);
          if (balance !== null)
            ctx.memo.set(
              SKIPPED_BALANCE,
              dec((ctx.memo.get(SKIPPED_BALANCE) as string | undefined) ?? 0)
                .add(balance)
                .toFixed(),
            );
        };
        if (!code) skip('no code');
        else if (balance === null || dec(balance).lt(0)) skip('no balance, or a negative one');
        else if (!STATUSES.has(status)) skip(`unknown status ${status}`);
        else if (sourceWebsites.length && !kept.length) skip('its websites were not imported');
        else if (taken.has(code.toUpperCase())) skip('same code as another gift card');
        else {
          taken.add(code.toUpperCase());
          const createdAt = date(r.created_at) ?? EPOCH;
          values.push({
            id,
            code,
            balance,
            initialBalance: decimal(r.initial_balance) ?? balance,
            currencyCode: currencies.of(sourceWebsites[0]),
            status,
            expiresAt: date(r.expires_at),
            websiteIds: kept,
            recipientName: text(r.recipient_name),
            recipientEmail: trimmed(r.recipient_email),
            senderName: text(r.sender_name),
            senderEmail: trimmed(r.sender_email),
            message: text(r.message),
            purchaseOrderId: int(r.purchase_order_id),
            purchaseOrderItemId: int(r.purchase_order_item_id),
            emailScheduledAt: date(r.email_scheduled_at),
            emailSentAt: date(r.email_sent_at),
            createdAt,
            updatedAt: date(r.updated_at) ?? createdAt,
          });
        }
      }
      count(stats, await upsert(ctx.db, giftcards, values, [giftcards.id]));
      await recordIds(
        ctx.db,
        'gift cards',
        values.map((v) => [v.id, v.id!]),
      );
      tick(stats.found);
    }
    ctx.sequences.add('giftcards');
  },
  async verify(ctx) {
    await checkCount(ctx, 'gift cards', 'giftcards', 'giftcard');
    if (ctx.since) return;
    const [s] = await ctx.source.query<{ n: string | null }>('SELECT SUM(balance) AS n FROM giftcard');
    const [t] = await rows<{ n: string }>(
      ctx.db,
      sql`SELECT COALESCE(sum(g.balance), 0)::text AS n FROM giftcards g WHERE ${imported('gift cards', sql`g.id`)}`,
    );
    const source = dec(s?.n ?? 0).sub(dec((ctx.memo.get(SKIPPED_BALANCE) as string | undefined) ?? 0));
    ctx.report.check('gift card balances (source less skipped cards)', source.toFixed(4), dec(t.n).toFixed(4));
  },
});

export const giftcardHistoryImporter: EntityImporter = whenTable('giftcard_history', {
  name: 'gift card history',
  group: 'giftcards',
  count: (ctx) => countOf(ctx, 'giftcard_history'),
  async run(ctx, stats, tick) {
    await assertImportable(ctx.db, 'giftcard_history', 'gift card history');
    for await (const batch of ctx.source.batches({ from: 'giftcard_history', key: 'history_id' })) {
      stats.found += batch.length;
      const cards = await existingIds(
        ctx.db,
        'giftcards',
        batch.map((r) => Number(r.giftcard_id)),
      );
      const values: (typeof giftcardHistory.$inferInsert)[] = [];
      for (const r of batch) {
        const id = Number(r.history_id);
        const action = trimmed(r.action)?.toLowerCase() ?? '';
        if (!cards.has(Number(r.giftcard_id))) ctx.report.skip(stats, id, 'its gift card was not imported');
        else if (!ACTIONS.has(action)) ctx.report.skip(stats, id, `unknown action ${action || '(none)'}`);
        else {
          values.push({
            id,
            giftcardId: Number(r.giftcard_id),
            action,
            amount: decimal(r.base_amount ?? r.amount) ?? '0',
            balanceBefore: decimal(r.balance_before) ?? '0',
            balanceAfter: decimal(r.balance_after) ?? '0',
            orderId: int(r.order_id) || null,
            comment: text(r.comment),
            createdAt: date(r.created_at) ?? EPOCH,
          });
        }
      }
      count(stats, await upsert(ctx.db, giftcardHistory, values, [giftcardHistory.id]));
      await recordIds(
        ctx.db,
        'gift card history',
        values.map((v) => [v.id, v.id!]),
      );
      tick(stats.found);
    }
    ctx.sequences.add('giftcard_history');
  },
  verify: (ctx) => checkCount(ctx, 'gift card history', 'giftcard_history', 'giftcard_history'),
});

export const GIFTCARD_IMPORTERS: EntityImporter[] = [giftcardsImporter, giftcardHistoryImporter];
