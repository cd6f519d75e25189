/**
 * Invoices, shipments (with tracks) and credit memos, with their items (sales-document-items.ts) and comments
 * (sales-document-comments.ts), ids and increment ids kept. A document of an order that was not imported is
 * skipped. A document's rows for the child items of a configurable or bundle line become one row for that line
 * (see mergeDocumentRows): Magento bills and refunds a bundle with dynamic price through its children and ships
 * a bundle shipped separately through them.
 */
import { sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { rows } from '../../platform/db.js';
import { creditMemos } from '../../modules/credit-memos/tables.js';
import { invoices } from '../../modules/invoices/tables.js';
import { shipmentTracks, shipments } from '../../modules/shipments/tables.js';
import {
  assertImportable,
  count,
  existingIds,
  intArray,
  sinceWhere,
  upsert,
  upsertKept,
  WriteBehind,
  type EntityImporter,
  type ImportContext,
} from '../context.js';
import { bool, date, decimal, int, text, trimmed, type SourceRow } from '../source.js';
import {
  checkCounts,
  columnList,
  continueNumbering,
  countSince,
  discount,
  importableOrdersWhere,
  listOf,
  money,
  parentBatches,
  readAhead,
  unserialize,
  type DocumentKind,
} from './sales-common.js';
import { creditMemoCommentsImporter, invoiceCommentsImporter, shipmentCommentsImporter } from './sales-document-comments.js';
import { creditMemoItemsImporter, invoiceItemsImporter, shipmentItemsImporter } from './sales-document-items.js';

interface OrderInfo {
  id: number;
  storeId: number;
  currency: string;
  baseCurrency: string;
  createdAt: Date;
}

async function importedOrders(ctx: ImportContext, ids: number[]): Promise<Map<number, OrderInfo>> {
  const found = await rows<OrderInfo>(
    ctx.db,
    sql`SELECT id, store_id AS "storeId", currency, base_currency AS "baseCurrency", created_at AS "createdAt" FROM orders WHERE id = ANY(${intArray(new Set(ids))}::int[])`,
  );
  return new Map(found.map((o) => [Number(o.id), o]));
}

/** A document's state (1 open, 2 paid or refunded, 3 canceled), as Magento numbers them too. */
const stateOf = (v: unknown) => {
  const n = int(v);
  return n === 1 || n === 2 || n === 3 ? n : 1;
};

/** The source columns headOf and documentSkip read. */
const HEAD_COLUMNS = ['entity_id', 'increment_id', 'order_id', 'created_at', 'updated_at'];

/** Common columns of a document head. */
function headOf(d: SourceRow, order: OrderInfo) {
  const createdAt = date(d.created_at) ?? new Date(order.createdAt);
  return {
    id: Number(d.entity_id),
    incrementId: String(d.increment_id).trim(),
    orderId: order.id,
    // a document belongs to its order's store view here
    storeId: order.storeId,
    createdAt,
    updatedAt: date(d.updated_at) ?? createdAt,
  };
}

function documentSkip(d: SourceRow, orders: Map<number, OrderInfo>): string | undefined {
  if (!orders.has(Number(d.order_id))) return 'its order was not imported';
  if (!trimmed(d.increment_id)) return 'no increment id';
  return undefined;
}

/** The money a document states in both currencies, by our column name → Magento's. */
const DOC_MONEY = {
  subtotal: 'subtotal',
  baseSubtotal: 'base_subtotal',
  subtotalInclTax: 'subtotal_incl_tax',
  baseSubtotalInclTax: 'base_subtotal_incl_tax',
  taxAmount: 'tax_amount',
  baseTaxAmount: 'base_tax_amount',
  shippingAmount: 'shipping_amount',
  baseShippingAmount: 'base_shipping_amount',
  shippingInclTax: 'shipping_incl_tax',
  baseShippingInclTax: 'base_shipping_incl_tax',
  shippingTaxAmount: 'shipping_tax_amount',
  baseShippingTaxAmount: 'base_shipping_tax_amount',
  discountAmount: 'discount_amount',
  baseDiscountAmount: 'base_discount_amount',
  grandTotal: 'grand_total',
  baseGrandTotal: 'base_grand_total',
} as const;

const DOC_MONEY_COLUMNS = Object.entries(DOC_MONEY);

/**
 * A document's money (DOC_MONEY), as an object to add to its row with Object.assign: V8 copies an object spread
 * into a literal after its first one slowly, property by property.
 */
function moneyOf(d: SourceRow): Record<keyof typeof DOC_MONEY, string> {
  const out: Record<string, string> = {};
  for (const [k, col] of DOC_MONEY_COLUMNS) out[k] = col.includes('discount') ? discount(d[col]) : money(d[col]);
  return out as Record<keyof typeof DOC_MONEY, string>;
}

/** A document's heads, imported a batch at a time. */
function headImporter<T extends PgTable & { id: PgColumn }, P = undefined>(opts: {
  name: string;
  kind: DocumentKind;
  source: string;
  table: T;
  tableName: string;
  /** what the rows of a batch look up besides their orders */
  prepare?: (ctx: ImportContext, batch: SourceRow[]) => Promise<P>;
  row: (d: SourceRow, order: OrderInfo, prepared: P) => T['$inferInsert'];
  /** the source columns `row` reads besides the head's (HEAD_COLUMNS) */
  columns: string[];
  moneyColumn?: string;
}): EntityImporter {
  return {
    name: opts.name,
    group: 'sales',
    fills: [opts.tableName],
    count: (ctx) => countSince(ctx, opts.source),
    async run(ctx, stats, tick) {
      if (!ctx.source.hasTable(opts.source)) return;
      await assertImportable(ctx.db, opts.tableName, opts.name);
      const behind = new WriteBehind();
      try {
        // what a batch looks up in the target was written by earlier entities: it is read ahead with the batch
        const load = (batch: SourceRow[]) =>
          Promise.all([
            behind.read(() =>
              importedOrders(
                ctx,
                batch.map((d) => Number(d.order_id)),
              ),
            ),
            (opts.prepare ? behind.read(() => opts.prepare!(ctx, batch)) : undefined) as Promise<P>,
          ]);
        const columns = columnList(ctx, opts.source, [...HEAD_COLUMNS, ...opts.columns]);
        for await (const [batch, [orders, prepared]] of readAhead(parentBatches(ctx, opts.source, columns), load)) {
          stats.found += batch.length;
          const values: T['$inferInsert'][] = [];
          for (const d of batch) {
            const reason = documentSkip(d, orders);
            if (reason) ctx.report.skip(stats, d.entity_id, reason);
            else values.push(opts.row(d, orders.get(Number(d.order_id))!, prepared));
          }
          const found = stats.found;
          await behind.add(async () => {
            await upsertKept(ctx.db, stats, opts.table, opts.name, values);
            tick(found);
          });
        }
      } finally {
        await behind.flush();
      }
      ctx.sequences.add(opts.tableName);
      await continueNumbering(ctx, opts.kind, opts.tableName);
    },
    async verify(ctx) {
      if (!ctx.source.hasTable(opts.source) || !ctx.source.hasTable('sales_flat_order')) return;
      const where = await importableOrdersWhere(ctx);
      await checkCounts(
        ctx,
        opts.name,
        opts.name,
        opts.tableName,
        `SELECT COUNT(*) AS n${opts.moneyColumn ? `, SUM(d.${opts.moneyColumn}) AS total` : ', NULL AS total'} FROM ${opts.source} d JOIN sales_flat_order o ON o.entity_id = d.order_id
          WHERE ${where} AND d.increment_id IS NOT NULL AND TRIM(d.increment_id) <> ''`,
        opts.moneyColumn,
      );
    },
  };
}

export const invoicesImporter = headImporter({
  name: 'invoices',
  kind: 'invoice',
  source: 'sales_flat_invoice',
  table: invoices,
  tableName: 'invoices',
  moneyColumn: 'base_grand_total',
  columns: [
    'state',
    'order_currency_code',
    'base_currency_code',
    'total_qty',
    ...Object.values(DOC_MONEY),
    'giftcard_amount',
    'base_giftcard_amount',
    'discount_description',
    'transaction_id',
    'email_sent',
    'can_void_flag',
    'is_used_for_refund',
  ],
  row: (d, order): typeof invoices.$inferInsert =>
    Object.assign(
      headOf(d, order),
      {
        state: stateOf(d.state),
        currency: trimmed(d.order_currency_code) ?? order.currency,
        baseCurrency: trimmed(d.base_currency_code) ?? order.baseCurrency,
        totalQty: money(d.total_qty),
        giftcardAmount: money(d.giftcard_amount),
        baseGiftcardAmount: money(d.base_giftcard_amount),
        discountDescription: text(d.discount_description),
        transactionId: trimmed(d.transaction_id),
        emailSent: bool(d.email_sent),
        canVoidFlag: bool(d.can_void_flag),
        isUsedForRefund: bool(d.is_used_for_refund),
      },
      moneyOf(d),
    ),
});

/** Magento's packages of a shipment (serialized), as a list. */
function packagesOf(v: unknown): unknown[] {
  return listOf(unserialize(v));
}

export const shipmentsImporter = headImporter({
  name: 'shipments',
  kind: 'shipment',
  source: 'sales_flat_shipment',
  table: shipments,
  tableName: 'shipments',
  columns: ['total_qty', 'total_weight', 'shipment_status', 'packages', 'email_sent'],
  row: (d, order): typeof shipments.$inferInsert =>
    Object.assign(headOf(d, order), {
      totalQty: money(d.total_qty),
      totalWeight: decimal(d.total_weight),
      shipmentStatus: int(d.shipment_status),
      packages: packagesOf(d.packages),
      emailSent: bool(d.email_sent),
    }),
});

export const creditMemosImporter = headImporter({
  name: 'credit memos',
  kind: 'creditmemo',
  source: 'sales_flat_creditmemo',
  table: creditMemos,
  tableName: 'credit_memos',
  moneyColumn: 'base_grand_total',
  columns: [
    'invoice_id',
    'state',
    'order_currency_code',
    'base_currency_code',
    'transaction_id',
    ...Object.values(DOC_MONEY),
    'adjustment_positive',
    'base_adjustment_positive',
    'adjustment_negative',
    'base_adjustment_negative',
    'discount_description',
    'creditmemo_status',
    'email_sent',
  ],
  // the invoice a credit memo refunds, where it was imported
  prepare: (ctx, batch) =>
    existingIds(
      ctx.db,
      'invoices',
      batch.map((d) => int(d.invoice_id)).filter((i): i is number => !!i),
    ),
  row: (d, order, invoiceIds): typeof creditMemos.$inferInsert =>
    Object.assign(
      headOf(d, order),
      {
        invoiceId: int(d.invoice_id) && invoiceIds.has(Number(d.invoice_id)) ? Number(d.invoice_id) : null,
        state: stateOf(d.state),
        currency: trimmed(d.order_currency_code) ?? order.currency,
        baseCurrency: trimmed(d.base_currency_code) ?? order.baseCurrency,
        // Magento keeps the gateway's transaction id of a refund made online
        offline: !trimmed(d.transaction_id),
        adjustmentPositive: money(d.adjustment_positive),
        baseAdjustmentPositive: money(d.base_adjustment_positive),
        adjustmentNegative: money(d.adjustment_negative),
        baseAdjustmentNegative: money(d.base_adjustment_negative),
        discountDescription: text(d.discount_description),
        transactionId: trimmed(d.transaction_id),
        creditmemoStatus: int(d.creditmemo_status),
        emailSent: bool(d.email_sent),
      },
      moneyOf(d),
    ),
});

export const shipmentTracksImporter: EntityImporter = {
  name: 'shipment tracks',
  group: 'sales',
  fills: ['shipment_tracks'],
  count: (ctx) => countSince(ctx, 'sales_flat_shipment_track'),
  async run(ctx, stats, tick) {
    if (!ctx.source.hasTable('sales_flat_shipment_track')) return;
    const since = sinceWhere(ctx, 'sales_flat_shipment_track');
    for await (const [batch] of readAhead(
      ctx.source.batches({ from: 'sales_flat_shipment_track', key: 'entity_id', where: since.where, params: since.params }),
      async () => undefined,
    )) {
      stats.found += batch.length;
      const found = await rows<{ id: number; orderId: number; createdAt: Date }>(
        ctx.db,
        sql`SELECT id, order_id AS "orderId", created_at AS "createdAt" FROM shipments WHERE id = ANY(${intArray(new Set(batch.map((t) => Number(t.parent_id))))}::int[])`,
      );
      const parents = new Map(found.map((s) => [Number(s.id), s]));
      const values: (typeof shipmentTracks.$inferInsert)[] = [];
      for (const t of batch) {
        const shipment = parents.get(Number(t.parent_id));
        // Magento 1.4 named the column `number`
        const trackNumber = text(t.track_number ?? t.number);
        if (!shipment) ctx.report.skip(stats, t.entity_id, 'its shipment was not imported');
        else if (!trackNumber) ctx.report.skip(stats, t.entity_id, 'no tracking number');
        else {
          const carrier = trimmed(t.carrier_code) ?? 'custom';
          const createdAt = date(t.created_at) ?? new Date(shipment.createdAt);
          values.push({
            id: Number(t.entity_id),
            shipmentId: shipment.id,
            orderId: shipment.orderId,
            carrierCode: carrier,
            title: text(t.title) ?? carrier,
            trackNumber,
            description: text(t.description),
            weight: decimal(t.weight),
            qty: decimal(t.qty),
            createdAt,
            updatedAt: date(t.updated_at) ?? createdAt,
          });
        }
      }
      count(stats, await upsert(ctx.db, shipmentTracks, values, [shipmentTracks.id]));
      tick(stats.found);
    }
    ctx.sequences.add('shipment_tracks');
  },
};

/** Invoices, shipments and credit memos with what hangs off them, in dependency order. */
export const DOCUMENT_IMPORTERS: EntityImporter[] = [
  invoicesImporter,
  invoiceItemsImporter,
  invoiceCommentsImporter,
  shipmentsImporter,
  shipmentItemsImporter,
  shipmentTracksImporter,
  shipmentCommentsImporter,
  creditMemosImporter,
  creditMemoItemsImporter,
  creditMemoCommentsImporter,
];
