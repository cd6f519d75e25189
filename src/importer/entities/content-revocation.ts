/**
 * Revocation declarations of Maho (ids kept). The order is found by its id or, when a declaration has none,
 * by its reference (increment id); the declaration is linked to the order's customer when that was imported.
 * Orders keep their ids, so a declaration imported before the orders points at the right one.
 */
import { revocationRequests } from '../../modules/revocation/tables.js';
import { assertImportable, count, existingIds, inList, recordIds, upsert, type EntityImporter } from '../context.js';
import { bool, date, int, text, trimmed, type SourceRow } from '../source.js';
import { checkCount, countOf, EPOCH, targetStores, whenTable } from './content-shared.js';

const PROCESSED = new Set(['accepted', 'rejected', 'info_requested']);

export const revocationImporter: EntityImporter = whenTable('revocation_request', {
  name: 'revocation requests',
  group: 'revocation',
  count: (ctx) => countOf(ctx, 'revocation_request'),
  async run(ctx, stats, tick) {
    await assertImportable(ctx.db, 'revocation_requests', 'revocation requests');
    const stores = await targetStores(ctx.db);
    const orders = ctx.source.hasTable('sales_flat_order');
    for await (const batch of ctx.source.batches({ from: 'revocation_request', key: 'request_id' })) {
      stats.found += batch.length;
      const byId = new Map<number, SourceRow>();
      const byReference = new Map<string, SourceRow>();
      if (orders) {
        const ids = [...new Set(batch.map((r) => int(r.order_id)).filter((n): n is number => !!n))];
        const refs = [
          ...new Set(
            batch
              .filter((r) => !int(r.order_id))
              .map((r) => trimmed(r.order_reference))
              .filter((s): s is string => !!s),
          ),
        ];
        if (ids.length) {
          for (const o of await ctx.source.query(
            `SELECT entity_id, increment_id, customer_id, store_id FROM sales_flat_order WHERE entity_id IN (${inList(ids)})`,
            ids,
          ))
            byId.set(Number(o.entity_id), o);
        }
        if (refs.length) {
          for (const o of await ctx.source.query(
            `SELECT entity_id, increment_id, customer_id, store_id FROM sales_flat_order WHERE increment_id IN (${inList(refs)})`,
            refs,
          )) {
            byReference.set(String(o.increment_id), o);
          }
        }
      }
      const customers = await existingIds(
        ctx.db,
        'customers',
        [...byId.values(), ...byReference.values()].map((o) => int(o.customer_id) ?? 0),
      );
      const values: (typeof revocationRequests.$inferInsert)[] = [];
      for (const r of batch) {
        const id = Number(r.request_id);
        const order = int(r.order_id) ? byId.get(Number(r.order_id)) : byReference.get(trimmed(r.order_reference) ?? '');
        const orderId = int(r.order_id) || (order ? Number(order.entity_id) : null);
        const storeId = int(r.store_id) ?? (order ? int(order.store_id) : null);
        const email = trimmed(r.email)?.toLowerCase();
        const customerId = order ? int(order.customer_id) : null;
        const processed = trimmed(r.processed_status)?.toLowerCase() ?? null;
        if (!orderId) ctx.report.skip(stats, id, 'its order was not found');
        else if (!email) ctx.report.skip(stats, id, 'no email');
        else if (storeId === null || !stores.has(storeId)) ctx.report.skip(stats, id, 'store view not imported');
        else {
          const verified = bool(r.verified);
          values.push({
            id,
            orderId,
            orderReference: trimmed(r.order_reference) ?? (order ? String(order.increment_id) : String(orderId)),
            reason: text(r.reason),
            customerName: text(r.customer_name) ?? '',
            email,
            customerId: customerId && customers.has(customerId) ? customerId : null,
            verified,
            storeId,
            receivedAt: date(r.received_at) ?? EPOCH,
            processedStatus: processed && PROCESSED.has(processed) ? processed : null,
            processedAt: date(r.processed_at),
            adminNote: text(r.admin_note),
            suppressedAt: date(r.suppressed_at),
            suppressedReason: text(r.suppressed_reason),
            ip: trimmed(r.ip),
            userAgent: text(r.user_agent),
            // a signed-in owner's declaration is what arrives through the API here; a guest's, the web form
            channel: verified ? 'api' : 'web_form',
          });
        }
      }
      count(stats, await upsert(ctx.db, revocationRequests, values, [revocationRequests.id]));
      await recordIds(
        ctx.db,
        'revocation requests',
        values.map((v) => [v.id, v.id!]),
      );
      tick(stats.found);
    }
    ctx.sequences.add('revocation_requests');
  },
  verify: (ctx) => checkCount(ctx, 'revocation requests', 'revocation_requests', 'revocation_request'),
});
