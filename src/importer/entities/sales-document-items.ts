/**
 * The item rows of invoices, shipments and credit memos, read through their documents' batches. A document's
 * rows for the child items of a configurable or bundle line become one row for that line (see
 * mergeDocumentRows in sales-common.ts).
 */
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { dec } from '../../platform/money.js';
import { creditMemoItems } from '../../modules/credit-memos/tables.js';
import { invoiceItems } from '../../modules/invoices/tables.js';
import { shipmentItems } from '../../modules/shipments/tables.js';
import { count, existingIds, upsert, WriteBehind, type EntityImporter } from '../context.js';
import { decimal, int, text, type SourceRow } from '../source.js';
import {
  childrenOf,
  columnList,
  countChildren,
  fixed,
  mergeDocumentRows,
  money,
  parentBatches,
  placementsOf,
  readAhead,
  type SourceLine,
} from './sales-common.js';

/** Money columns of invoice and credit memo items: our name → Magento's. */
const ITEM_MONEY = {
  price: 'price',
  basePrice: 'base_price',
  priceInclTax: 'price_incl_tax',
  basePriceInclTax: 'base_price_incl_tax',
  rowTotal: 'row_total',
  baseRowTotal: 'base_row_total',
  rowTotalInclTax: 'row_total_incl_tax',
  baseRowTotalInclTax: 'base_row_total_incl_tax',
  taxAmount: 'tax_amount',
  baseTaxAmount: 'base_tax_amount',
  discountAmount: 'discount_amount',
  baseDiscountAmount: 'base_discount_amount',
} as const;
/** The source columns of an item row the rows and their merging read (the tables have more). */
const ITEM_COLUMNS = [
  'entity_id',
  'parent_id',
  'order_item_id',
  'product_id',
  'sku',
  'name',
  'qty',
  'description',
  'weight',
  ...Object.values(ITEM_MONEY),
];
/** Unit prices, and the row totals they come from where a line's children carry the money. */
const PER_UNIT: Record<string, string> = {
  price: 'row_total',
  basePrice: 'base_row_total',
  priceInclTax: 'row_total_incl_tax',
  basePriceInclTax: 'base_row_total_incl_tax',
};
const ITEM_ADDITIVE = [
  'row_total',
  'base_row_total',
  'row_total_incl_tax',
  'base_row_total_incl_tax',
  'tax_amount',
  'base_tax_amount',
  'discount_amount',
  'base_discount_amount',
];

/** A merged document row's money: summed children where they carry it, unit prices from the row totals. */
function itemMoney(map: Record<string, string>, merged: ReturnType<typeof mergeDocumentRows>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key in map) {
    const col = map[key];
    const v = merged.sums?.[col] ?? money(merged.representative[col]);
    out[key] = col.includes('discount') ? v.replace(/^-/, '') : v;
  }
  if (merged.sums) {
    for (const [key, rowCol] of Object.entries(PER_UNIT)) {
      if (!(key in map)) continue;
      const own = decimal(merged.representative[map[key]]);
      out[key] =
        own !== null && !dec(own).isZero()
          ? own
          : merged.qty.isZero()
            ? '0'
            : fixed(
                dec(merged.sums[rowCol] ?? 0)
                  .div(merged.qty)
                  .toDecimalPlaces(4),
              );
    }
  }
  return out;
}

/** A document's item rows, read through their documents' batches and merged per order line. */
function itemsImporter<T extends PgTable & { id: PgColumn }>(opts: {
  name: string;
  parentSource: string;
  source: string;
  parentTable: string;
  table: T;
  tableName: string;
  /** the children of a line carry this document's quantities and money */
  childrenCarry: (line: SourceLine) => boolean;
  additive: string[];
  row: (parentId: number, lineId: number, merged: ReturnType<typeof mergeDocumentRows>) => T['$inferInsert'];
}): EntityImporter {
  return {
    name: opts.name,
    group: 'sales',
    fills: [opts.tableName],
    count: (ctx) => countChildren(ctx, opts.parentSource, opts.source, 'parent_id'),
    async run(ctx, stats, tick) {
      if (!ctx.source.hasTable(opts.source)) return;
      const behind = new WriteBehind();
      const columns = columnList(ctx, opts.source, ITEM_COLUMNS);
      const load = (batch: SourceRow[]) =>
        Promise.all([
          childrenOf(
            ctx,
            opts.source,
            'parent_id',
            batch.map((d) => Number(d.entity_id)),
            'entity_id',
            columns,
          ),
          placementsOf(
            ctx,
            batch.map((d) => Number(d.order_id)),
          ).then(async (lineOf) => ({
            lineOf,
            lines: await behind.read(() => existingIds(ctx.db, 'order_items', [...new Set([...lineOf.values()].map((l) => l.id))])),
          })),
          behind.read(() =>
            existingIds(
              ctx.db,
              opts.parentTable,
              batch.map((d) => Number(d.entity_id)),
            ),
          ),
        ]);
      try {
        for await (const [batch, [items, { lineOf, lines }, parents]] of readAhead(
          parentBatches(ctx, opts.parentSource, 'entity_id, order_id'),
          load,
        )) {
          const found = [...items.values()].flat();
          stats.found += found.length;
          const values: T['$inferInsert'][] = [];
          for (const d of batch) {
            const parentId = Number(d.entity_id);
            const list = items.get(parentId) ?? [];
            if (!parents.has(parentId)) {
              for (const i of list) ctx.report.skip(stats, i.entity_id, `its ${opts.name.replace(/ items$/, '')} was not imported`);
              continue;
            }
            // rows per order line, in the order of their first row
            const byLine = new Map<number, { line: SourceLine; rows: SourceRow[] }>();
            for (const i of list) {
              const line = lineOf.get(int(i.order_item_id) ?? 0);
              if (!line) ctx.report.skip(stats, i.entity_id, 'its order item is not in the source');
              else if (!lines.has(line.id)) ctx.report.skip(stats, i.entity_id, 'its order item was not imported');
              else {
                let g = byLine.get(line.id);
                if (!g) byLine.set(line.id, (g = { line, rows: [] }));
                g.rows.push(i);
              }
            }
            for (const [lineId, g] of byLine) {
              const merged = mergeDocumentRows(g.line, g.rows, opts.childrenCarry(g.line), opts.additive);
              values.push(opts.row(parentId, lineId, merged));
              for (const r of g.rows)
                if (r !== merged.representative)
                  ctx.report.skip(stats, r.entity_id, 'configurable or bundle child: kept on its parent line');
            }
          }
          const done = stats.found;
          await behind.add(async () => {
            count(stats, await upsert(ctx.db, opts.table, values, [opts.table.id]));
            tick(done);
          });
        }
      } finally {
        await behind.flush();
      }
      ctx.sequences.add(opts.tableName);
    },
  };
}

/** Product, sku and name of a merged row (the line's own row where there is one). */
function itemIdentity(merged: ReturnType<typeof mergeDocumentRows>, lineId: number) {
  const r = merged.representative;
  const line = merged.line.item;
  const own = Number(r.order_item_id) === lineId;
  return {
    id: Number(r.entity_id),
    orderItemId: lineId,
    productId: (own ? int(r.product_id) : null) ?? int(line.product_id) ?? int(r.product_id) ?? 0,
    sku: (own ? text(r.sku) : null) ?? text(line.sku) ?? text(r.sku) ?? '',
    name: (own ? text(r.name) : null) ?? text(line.name) ?? text(r.name) ?? '',
    qty: fixed(merged.qty),
  };
}

export const invoiceItemsImporter = itemsImporter({
  name: 'invoice items',
  parentSource: 'sales_flat_invoice',
  source: 'sales_flat_invoice_item',
  parentTable: 'invoices',
  table: invoiceItems,
  tableName: 'invoice_items',
  childrenCarry: (line) => line.childrenCalculated,
  additive: ITEM_ADDITIVE,
  row: (invoiceId, lineId, merged): typeof invoiceItems.$inferInsert =>
    Object.assign(
      itemIdentity(merged, lineId),
      { invoiceId },
      itemMoney(ITEM_MONEY, merged) as Pick<typeof invoiceItems.$inferInsert, 'price'>,
    ),
});

export const shipmentItemsImporter = itemsImporter({
  name: 'shipment items',
  parentSource: 'sales_flat_shipment',
  source: 'sales_flat_shipment_item',
  parentTable: 'shipments',
  table: shipmentItems,
  tableName: 'shipment_items',
  childrenCarry: (line) => line.shipSeparately,
  additive: ['row_total'],
  row: (shipmentId, lineId, merged): typeof shipmentItems.$inferInsert =>
    Object.assign(
      itemIdentity(merged, lineId),
      { shipmentId, description: text(merged.representative.description), weight: decimal(merged.representative.weight) },
      itemMoney({ price: 'price', rowTotal: 'row_total' }, merged) as { price: string; rowTotal: string },
    ),
});

export const creditMemoItemsImporter = itemsImporter({
  name: 'credit memo items',
  parentSource: 'sales_flat_creditmemo',
  source: 'sales_flat_creditmemo_item',
  parentTable: 'credit_memos',
  table: creditMemoItems,
  tableName: 'credit_memo_items',
  childrenCarry: (line) => line.childrenCalculated,
  additive: ITEM_ADDITIVE,
  row: (creditMemoId, lineId, merged): typeof creditMemoItems.$inferInsert =>
    Object.assign(
      itemIdentity(merged, lineId),
      {
        creditMemoId,
        description: text(merged.representative.description),
        // Magento does not keep whether a refunded item went back to stock
        backToStock: false,
      },
      itemMoney(ITEM_MONEY, merged) as Pick<typeof creditMemoItems.$inferInsert, 'price'>,
    ),
});
