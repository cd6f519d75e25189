/** The comments of invoices, shipments and credit memos, read through their documents' batches. */
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { creditMemoComments } from '../../modules/credit-memos/tables.js';
import { invoiceComments } from '../../modules/invoices/tables.js';
import { shipmentComments } from '../../modules/shipments/tables.js';
import { count, existingIds, upsert, type EntityImporter } from '../context.js';
import { bool, date, str, type SourceRow } from '../source.js';
import { childrenOf, countChildren, parentBatches, readAhead } from './sales-common.js';

/** Comments of a kind of document (sales_flat_<kind>_comment), read through their documents' batches. */
function commentsImporter<T extends PgTable & { id: PgColumn }>(opts: {
  name: string;
  parentSource: string;
  source: string;
  parentTable: string;
  table: T;
  tableName: string;
  row: (parentId: number, c: SourceRow, comment: string, createdAt: Date) => T['$inferInsert'];
}): EntityImporter {
  return {
    name: opts.name,
    group: 'sales',
    count: (ctx) => countChildren(ctx, opts.parentSource, opts.source, 'parent_id'),
    async run(ctx, stats, tick) {
      if (!ctx.source.hasTable(opts.source) || !ctx.source.hasTable(opts.parentSource)) return;
      const load = (batch: SourceRow[]) =>
        childrenOf(
          ctx,
          opts.source,
          'parent_id',
          batch.map((d) => Number(d.entity_id)),
        );
      for await (const [batch, comments] of readAhead(parentBatches(ctx, opts.parentSource, 'entity_id, created_at'), load)) {
        const ids = batch.map((d) => Number(d.entity_id));
        const parents = await existingIds(ctx.db, opts.parentTable, ids);
        const values: T['$inferInsert'][] = [];
        for (const d of batch) {
          for (const c of comments.get(Number(d.entity_id)) ?? []) {
            stats.found++;
            // a blank comment is left out; the others keep their text as stored
            const comment = str(c.comment)?.trim() ? str(c.comment)! : null;
            if (!parents.has(Number(d.entity_id))) ctx.report.skip(stats, c.entity_id, 'its document was not imported');
            else if (!comment) ctx.report.skip(stats, c.entity_id, 'empty comment');
            else values.push(opts.row(Number(d.entity_id), c, comment, date(c.created_at) ?? date(d.created_at) ?? new Date(0)));
          }
        }
        count(stats, await upsert(ctx.db, opts.table, values, [opts.table.id]));
        tick(stats.found);
      }
      ctx.sequences.add(opts.tableName);
    },
  };
}

const commentFlags = (c: SourceRow) => ({
  isCustomerNotified: Number(c.is_customer_notified) === 1,
  isVisibleOnFront: bool(c.is_visible_on_front),
});

export const invoiceCommentsImporter = commentsImporter({
  name: 'invoice comments',
  parentSource: 'sales_flat_invoice',
  source: 'sales_flat_invoice_comment',
  parentTable: 'invoices',
  table: invoiceComments,
  tableName: 'invoice_comments',
  row: (invoiceId, c, comment, createdAt) => ({ id: Number(c.entity_id), invoiceId, comment, ...commentFlags(c), createdAt }),
});

export const shipmentCommentsImporter = commentsImporter({
  name: 'shipment comments',
  parentSource: 'sales_flat_shipment',
  source: 'sales_flat_shipment_comment',
  parentTable: 'shipments',
  table: shipmentComments,
  tableName: 'shipment_comments',
  row: (shipmentId, c, comment, createdAt) => ({ id: Number(c.entity_id), shipmentId, comment, ...commentFlags(c), createdAt }),
});

export const creditMemoCommentsImporter = commentsImporter({
  name: 'credit memo comments',
  parentSource: 'sales_flat_creditmemo',
  source: 'sales_flat_creditmemo_comment',
  parentTable: 'credit_memos',
  table: creditMemoComments,
  tableName: 'credit_memo_comments',
  row: (creditMemoId, c, comment, createdAt) => ({ id: Number(c.entity_id), creditMemoId, comment, ...commentFlags(c), createdAt }),
});
