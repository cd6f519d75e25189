/**
 * Newsletter subscribers (ids kept), one per email and store view, linked to their customer account when that
 * was imported. A subscription waiting for confirmation keeps its code (as the hash the confirm step checks),
 * so the link already mailed still confirms it.
 */
import { sql } from 'drizzle-orm';
import { sha256Hex } from '../../platform/auth/secrets.js';
import { rows } from '../../platform/db.js';
import { newsletterSubscribers } from '../../modules/newsletter/tables.js';
import { assertImportable, count, existingIds, intArray, recordIds, sinceWhere, upsert, type EntityImporter } from '../context.js';
import { date, int, trimmed } from '../source.js';
import { checkCount, countOf, EPOCH, targetStores, whenTable } from './content-shared.js';

/** Magento's subscriber_status → ours. */
const STATUS: Record<number, string> = { 1: 'subscribed', 2: 'not_active', 3: 'unsubscribed', 4: 'unconfirmed' };

export const newsletterImporter: EntityImporter = whenTable('newsletter_subscriber', {
  name: 'newsletter subscribers',
  group: 'newsletter',
  count: (ctx) => countOf(ctx, 'newsletter_subscriber', sinceWhere(ctx, 'newsletter_subscriber', 'change_status_at')),
  async run(ctx, stats, tick) {
    await assertImportable(ctx.db, 'newsletter_subscribers', 'newsletter subscribers');
    const stores = await targetStores(ctx.db);
    const since = sinceWhere(ctx, 'newsletter_subscriber', 'change_status_at');
    for await (const batch of ctx.source.batches({
      from: 'newsletter_subscriber',
      key: 'subscriber_id',
      where: since.where,
      params: since.params,
    })) {
      stats.found += batch.length;
      const ids = batch.map((r) => Number(r.subscriber_id));
      const accounts = await existingIds(
        ctx.db,
        'customers',
        batch.map((r) => Number(r.customer_id)),
      );
      // (email, store view) pairs another subscriber of ours holds
      const pairs = JSON.stringify(batch.map((r) => ({ e: trimmed(r.subscriber_email)?.toLowerCase() ?? '', s: Number(r.store_id) })));
      const held = new Set(
        (
          await rows<{ k: string }>(
            ctx.db,
            sql`SELECT lower(n.email) || '/' || n.store_id AS k FROM newsletter_subscribers n
                 JOIN jsonb_to_recordset(${pairs}::jsonb) AS x(e text, s int) ON lower(n.email) = x.e AND n.store_id = x.s
                WHERE n.id <> ALL(${intArray(ids)}::int[])`,
          )
        ).map((r) => r.k),
      );
      const values: (typeof newsletterSubscribers.$inferInsert)[] = [];
      for (const r of batch) {
        const id = Number(r.subscriber_id);
        const email = trimmed(r.subscriber_email)?.toLowerCase();
        const storeId = Number(r.store_id);
        const status = STATUS[int(r.subscriber_status) ?? 0];
        if (!email) ctx.report.skip(stats, id, 'no email');
        else if (!status) ctx.report.skip(stats, id, `unknown status ${shown(r.subscriber_status)}`);
        else if (!stores.has(storeId)) ctx.report.skip(stats, id, 'store view not imported');
        else if (held.has(`${email}/${storeId}`)) ctx.report.skip(stats, id, 'same email twice in one store view');
        else {
          held.add(`${email}/${storeId}`);
          const code = trimmed(r.subscriber_confirm_code);
          const changed = date(r.change_status_at) ?? EPOCH;
          values.push({
            id,
            email,
            customerId: accounts.has(Number(r.customer_id)) ? Number(r.customer_id) : null,
            storeId,
            status,
            confirmCodeHash: status === 'not_active' && code && code !== 'NULL' ? sha256Hex(code) : null,
            changeStatusAt: changed,
            createdAt: changed,
          });
        }
      }
      count(stats, await upsert(ctx.db, newsletterSubscribers, values, [newsletterSubscribers.id]));
      await recordIds(
        ctx.db,
        'newsletter subscribers',
        values.map((v) => [v.id, v.id!]),
      );
      tick(stats.found);
    }
    ctx.sequences.add('newsletter_subscribers');
  },
  verify: (ctx) => checkCount(ctx, 'newsletter subscribers', 'newsletter_subscribers', 'newsletter_subscriber'),
});

function shown(v: unknown): string {
  return v === null || v === undefined ? '(none)' : String(v);
}
