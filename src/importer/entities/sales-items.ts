/**
 * Order items: one row per order line. Magento keeps a configurable or bundle product as a parent item with
 * child items; here that is one order item with the parent's id, its money summed over the children where they
 * carry it (see linesOf in sales-common.ts).
 */
import { dec } from '../../platform/money.js';
import { orderItems, type StockPart } from '../../modules/orders/tables.js';
import { count, existingIds, upsert, WriteBehind, type EntityImporter } from '../context.js';
import { bool, date, decimal, int, text, trimmed, type SourceRow } from '../source.js';
import {
  childrenOf,
  columnList,
  countChildren,
  fixed,
  giftMessages,
  inLineUnits,
  isRecord,
  least,
  linesOf,
  listOf,
  money,
  optionsOf,
  parentBatches,
  readAhead,
  sum,
  type GiftMessage,
  type SourceLine,
} from './sales-common.js';

/** What the shopper chose (Magento's info_buyRequest), in our buy request's terms. */
function buyRequestOf(options: Record<string, unknown>): Record<string, unknown> {
  const br = options.info_buyRequest;
  if (!isRecord(br)) return {};
  const out: Record<string, unknown> = {};
  const ids = (v: unknown) =>
    (Array.isArray(v) ? v : isRecord(v) ? Object.values(v) : [v]).map((x) => int(x)).filter((x): x is number => x !== null);
  if (isRecord(br.super_attribute)) {
    const m = Object.fromEntries(
      Object.entries(br.super_attribute)
        .map(([k, v]) => [k, int(v)])
        .filter(([, v]) => v !== null),
    );
    if (Object.keys(m).length) out.superAttribute = m;
  }
  if (isRecord(br.bundle_option)) {
    const m = Object.fromEntries(
      Object.entries(br.bundle_option)
        .map(([k, v]) => [k, ids(v)])
        .filter(([, v]) => (v as number[]).length),
    );
    if (Object.keys(m).length) out.bundleOption = m;
  }
  if (isRecord(br.bundle_option_qty)) {
    const m = Object.fromEntries(
      Object.entries(br.bundle_option_qty)
        .map(([k, v]) => [k, Number(v)])
        .filter(([, v]) => Number.isFinite(v)),
    );
    if (Object.keys(m).length) out.bundleOptionQty = m;
  }
  if (isRecord(br.options)) {
    const m: Record<string, string | number | number[]> = {};
    for (const [k, v] of Object.entries(br.options)) {
      if (typeof v === 'string' || typeof v === 'number') m[k] = v;
      else if (Array.isArray(v)) m[k] = ids(v);
    }
    if (Object.keys(m).length) out.options = m;
  }
  const links = br.links === undefined ? [] : ids(br.links);
  if (links.length) out.links = links;
  return out;
}

/** The options as shown ([{label, value}]): configurable attributes, bundle selections, custom options. */
function shownOptionsOf(options: Record<string, unknown>): { label: string; value: string }[] {
  const out: { label: string; value: string }[] = [];
  for (const a of listOf(options.attributes_info))
    if (isRecord(a)) out.push({ label: String(a.label ?? ''), value: String(a.value ?? '') });
  for (const o of listOf(options.bundle_options)) {
    if (!isRecord(o)) continue;
    const parts = listOf(o.value)
      .filter(isRecord)
      .map((v) => `${v.qty ?? 1} x ${v.title ?? ''}`);
    if (parts.length) out.push({ label: String(o.label ?? ''), value: parts.join(', ') });
  }
  for (const o of listOf(options.options))
    if (isRecord(o)) out.push({ label: String(o.label ?? ''), value: String(o.print_value ?? o.value ?? '') });
  return out;
}

function lineRow(line: SourceLine, orderId: number, orderCreated: Date, gifts: Map<number, GiftMessage>): typeof orderItems.$inferInsert {
  const p = line.item;
  const kids = line.children;
  const type = trimmed(p.product_type) ?? 'simple';
  const options = optionsOf(p);
  const qtyOrdered = dec(money(p.qty_ordered));
  const byChildren = line.childrenCalculated && kids.length > 0;
  const fromChildren = (col: string) => fixed(least(kids.map((c) => inLineUnits(c[col], c, p))));
  const productId = int(p.product_id) ?? 0;
  let stockParts: StockPart[];
  if (type === 'configurable') stockParts = kids[0] && int(kids[0].product_id) ? [{ productId: Number(kids[0].product_id), per: '1' }] : [];
  else if (kids.length) {
    stockParts = kids
      .filter((c) => int(c.product_id))
      .map((c) => ({
        productId: Number(c.product_id),
        per: qtyOrdered.isZero() ? '1' : dec(money(c.qty_ordered)).div(qtyOrdered).toDecimalPlaces(4).toString(),
      }));
  } else stockParts = productId ? [{ productId, per: '1' }] : [];
  // money that adds up over a bundle's children: theirs summed where they carry it, else the line's own
  const add = (col: string) => (byChildren ? fixed(sum(kids, col)) : money(p[col]));
  const rowTotal = add('row_total');
  const baseRowTotal = add('base_row_total');
  const rowTotalInclTax = add('row_total_incl_tax');
  const baseRowTotalInclTax = add('base_row_total_incl_tax');
  // a unit price the line does not state: its row total over its quantity
  const unit = (col: string, row: string) => {
    const own = decimal(p[col]);
    if (own !== null && !(byChildren && dec(own).isZero())) return own;
    return qtyOrdered.isZero() ? '0' : fixed(dec(row).div(qtyOrdered).toDecimalPlaces(4));
  };
  const shown = shownOptionsOf(options);
  const child = type === 'configurable' ? kids[0] : undefined;
  // one literal naming every column: V8 builds it fast, where spreading or assigning in the money is many times slower
  return {
    id: line.id,
    orderId,
    productId,
    childProductId: child ? int(child.product_id) : null,
    productType: type,
    sku: text(p.sku) ?? text(child?.sku) ?? '',
    name: text(p.name) ?? text(child?.name) ?? '',
    description: text(p.description),
    buyRequest: buyRequestOf(options),
    productOptions: shown.length ? { options: shown } : {},
    stockParts,
    giftMessage: gifts.get(int(p.gift_message_id) ?? 0) ?? null,
    isVirtual: bool(p.is_virtual),
    isQtyDecimal: bool(p.is_qty_decimal),
    freeShipping: bool(p.free_shipping),
    noDiscount: bool(p.no_discount),
    weight: decimal(p.weight),
    rowWeight: decimal(p.row_weight),
    qtyOrdered: fixed(qtyOrdered),
    // a bundle's own counters are dummies where its children carry the quantities: count whole bundles
    qtyInvoiced: byChildren ? fromChildren('qty_invoiced') : money(p.qty_invoiced),
    qtyShipped: line.shipSeparately && kids.length ? fromChildren('qty_shipped') : money(p.qty_shipped),
    qtyRefunded: byChildren ? fromChildren('qty_refunded') : money(p.qty_refunded),
    qtyCanceled: byChildren ? fromChildren('qty_canceled') : money(p.qty_canceled),
    qtyBackordered: decimal(p.qty_backordered),
    price: unit('price', rowTotal),
    basePrice: unit('base_price', baseRowTotal),
    originalPrice: unit('original_price', rowTotal),
    baseOriginalPrice: unit('base_original_price', baseRowTotal),
    priceInclTax: unit('price_incl_tax', rowTotalInclTax),
    basePriceInclTax: unit('base_price_incl_tax', baseRowTotalInclTax),
    taxPercent: byChildren && dec(money(p.tax_percent)).isZero() ? money(kids[0].tax_percent) : money(p.tax_percent),
    discountPercent: money(p.discount_percent),
    rowTotal,
    baseRowTotal,
    rowTotalInclTax,
    baseRowTotalInclTax,
    taxAmount: add('tax_amount'),
    baseTaxAmount: add('base_tax_amount'),
    discountAmount: add('discount_amount'),
    baseDiscountAmount: add('base_discount_amount'),
    taxInvoiced: add('tax_invoiced'),
    baseTaxInvoiced: add('base_tax_invoiced'),
    discountInvoiced: add('discount_invoiced'),
    baseDiscountInvoiced: add('base_discount_invoiced'),
    rowInvoiced: add('row_invoiced'),
    baseRowInvoiced: add('base_row_invoiced'),
    taxRefunded: add('tax_refunded'),
    baseTaxRefunded: add('base_tax_refunded'),
    discountRefunded: add('discount_refunded'),
    baseDiscountRefunded: add('base_discount_refunded'),
    amountRefunded: add('amount_refunded'),
    baseAmountRefunded: add('base_amount_refunded'),
    createdAt: date(p.created_at) ?? orderCreated,
  };
}

/** The columns of sales_flat_order_item a line is made of (the table has many more). */
const ITEM_COLUMNS = [
  'amount_refunded',
  'base_amount_refunded',
  'base_discount_amount',
  'base_discount_invoiced',
  'base_discount_refunded',
  'base_original_price',
  'base_price',
  'base_price_incl_tax',
  'base_row_invoiced',
  'base_row_total',
  'base_row_total_incl_tax',
  'base_tax_amount',
  'base_tax_invoiced',
  'base_tax_refunded',
  'created_at',
  'description',
  'discount_amount',
  'discount_invoiced',
  'discount_percent',
  'discount_refunded',
  'free_shipping',
  'gift_message_id',
  'is_qty_decimal',
  'is_virtual',
  'item_id',
  'name',
  'no_discount',
  'order_id',
  'original_price',
  'parent_item_id',
  'price',
  'price_incl_tax',
  'product_id',
  'product_options',
  'product_type',
  'qty_backordered',
  'qty_canceled',
  'qty_invoiced',
  'qty_ordered',
  'qty_refunded',
  'qty_shipped',
  'row_invoiced',
  'row_total',
  'row_total_incl_tax',
  'row_weight',
  'sku',
  'store_id',
  'tax_amount',
  'tax_invoiced',
  'tax_percent',
  'tax_refunded',
  'updated_at',
  'weight',
];

export const orderItemsImporter: EntityImporter = {
  name: 'order items',
  group: 'sales',
  fills: ['order_items'],
  count: (ctx) => countChildren(ctx, 'sales_flat_order', 'sales_flat_order_item', 'order_id'),
  async run(ctx, stats, tick) {
    if (!ctx.source.hasTable('sales_flat_order_item')) return;
    const behind = new WriteBehind();
    const load = async (batch: SourceRow[]) => {
      const imported = behind.read(() =>
        existingIds(
          ctx.db,
          'orders',
          batch.map((o) => Number(o.entity_id)),
        ),
      );
      const items = await childrenOf(
        ctx,
        'sales_flat_order_item',
        'order_id',
        batch.map((o) => Number(o.entity_id)),
        'item_id',
        columnList(ctx, 'sales_flat_order_item', ITEM_COLUMNS),
      );
      return {
        items,
        imported: await imported,
        gifts: await giftMessages(
          ctx,
          [...items.values()].flat().map((i) => i.gift_message_id),
        ),
      };
    };
    try {
      for await (const [batch, { items, imported, gifts }] of readAhead(
        parentBatches(ctx, 'sales_flat_order', 'entity_id, created_at'),
        load,
      )) {
        const values: (typeof orderItems.$inferInsert)[] = [];
        for (const o of batch) {
          const orderId = Number(o.entity_id);
          const list = items.get(orderId) ?? [];
          stats.found += list.length;
          if (!imported.has(orderId)) {
            for (const i of list) ctx.report.skip(stats, i.item_id, 'its order was not imported');
            continue;
          }
          for (const line of linesOf(list)) {
            values.push(lineRow(line, orderId, date(o.created_at) ?? new Date(0), gifts));
            for (const c of line.children) ctx.report.skip(stats, c.item_id, 'configurable or bundle child: kept on its parent line');
          }
        }
        const found = stats.found;
        await behind.add(async () => {
          count(stats, await upsert(ctx.db, orderItems, values, [orderItems.id]));
          tick(found);
        });
      }
    } finally {
      await behind.flush();
    }
    ctx.sequences.add('order_items');
  },
};
