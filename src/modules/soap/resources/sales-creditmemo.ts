/**
 * `sales_order_creditmemo` (`order_creditmemo`) of the Magento 1 API: list (with filters), info, create,
 * addComment and cancel, over the credit memos service. Memos and orders are named by their increment ids, as
 * Magento names them; an API user limited to store views reaches only theirs.
 */
import { eq } from 'drizzle-orm';
import type { Ctx } from '../../../platform/context.js';
import { dec } from '../../../platform/money.js';
import { refundableShipping } from '../../credit-memos/amounts.js';
import { addCreditMemoComment, creditMemoRowsWhere, type CreditMemoColumns, type LegacyCreditMemoRow } from '../../credit-memos/legacy.js';
import { createCreditMemo, getCreditMemo, type CreditMemoCreateInput, type CreditMemoDto } from '../../credit-memos/service.js';
import { findOrderByIncrementId, mayAccessOrder, type OrderRow } from '../../orders/core.js';
import { isRecord } from '../encoding.js';
import { filterSql, FilterError, parseFilters, type FilterColumn } from '../filters.js';
import { defineResource, idArg, magentoDate, resourceFault, serviceFault, type LegacyValue } from '../resources.js';

const record = (o: Record<string, LegacyValue>) => new Map(Object.entries(o));
/** An amount as Magento prints it: the stored decimal with four places. */
const money = (v: string) => dec(v).toFixed(4);

/** A credit memo as Magento lists it: the memo's own fields (Magento's names), with its order's number. */
function memoRecord(m: LegacyCreditMemoRow): Map<string, LegacyValue> {
  return record({
    creditmemo_id: m.id,
    increment_id: m.incrementId,
    order_id: m.orderId,
    order_increment_id: m.orderIncrementId,
    invoice_id: m.invoiceId,
    store_id: m.storeId,
    state: m.state,
    creditmemo_status: m.creditmemoStatus,
    email_sent: m.emailSent ? 1 : 0,
    transaction_id: m.transactionId,
    order_currency_code: m.currency,
    base_currency_code: m.baseCurrency,
    subtotal: money(m.subtotal),
    base_subtotal: money(m.baseSubtotal),
    subtotal_incl_tax: money(m.subtotalInclTax),
    base_subtotal_incl_tax: money(m.baseSubtotalInclTax),
    tax_amount: money(m.taxAmount),
    base_tax_amount: money(m.baseTaxAmount),
    shipping_amount: money(m.shippingAmount),
    base_shipping_amount: money(m.baseShippingAmount),
    shipping_incl_tax: money(m.shippingInclTax),
    base_shipping_incl_tax: money(m.baseShippingInclTax),
    shipping_tax_amount: money(m.shippingTaxAmount),
    base_shipping_tax_amount: money(m.baseShippingTaxAmount),
    discount_amount: money(m.discountAmount),
    base_discount_amount: money(m.baseDiscountAmount),
    discount_description: m.discountDescription,
    adjustment_positive: money(m.adjustmentPositive),
    base_adjustment_positive: money(m.baseAdjustmentPositive),
    adjustment_negative: money(m.adjustmentNegative),
    base_adjustment_negative: money(m.baseAdjustmentNegative),
    adjustment: dec(m.adjustmentPositive).minus(m.adjustmentNegative).toFixed(4),
    base_adjustment: dec(m.baseAdjustmentPositive).minus(m.baseAdjustmentNegative).toFixed(4),
    hidden_tax_amount: '0.0000',
    base_hidden_tax_amount: '0.0000',
    grand_total: money(m.grandTotal),
    base_grand_total: money(m.baseGrandTotal),
    created_at: magentoDate(m.createdAt),
    updated_at: magentoDate(m.updatedAt),
  });
}

/** info: the memo's fields, then its items and its comments (newest first, as Magento reads them). */
function memoInfo(m: LegacyCreditMemoRow, dto: CreditMemoDto): Map<string, LegacyValue> {
  const out = memoRecord(m);
  out.set(
    'items',
    dto.items.map((i) =>
      record({
        item_id: i.id,
        parent_id: m.id,
        order_item_id: i.orderItemId,
        product_id: i.productId,
        sku: i.sku,
        name: i.name,
        description: i.description ?? null,
        qty: i.qty,
        price: i.price,
        base_price: i.basePrice,
        price_incl_tax: i.priceInclTax,
        base_price_incl_tax: i.basePriceInclTax,
        row_total: i.rowTotal,
        base_row_total: i.baseRowTotal,
        row_total_incl_tax: i.rowTotalInclTax,
        base_row_total_incl_tax: i.baseRowTotalInclTax,
        tax_amount: i.taxAmount,
        base_tax_amount: i.baseTaxAmount,
        discount_amount: i.discountAmount,
        base_discount_amount: i.baseDiscountAmount,
        hidden_tax_amount: '0.0000',
        base_hidden_tax_amount: '0.0000',
      }),
    ),
  );
  out.set(
    'comments',
    [...dto.comments].reverse().map((c) =>
      record({
        comment_id: c.id,
        parent_id: m.id,
        comment: c.comment,
        is_customer_notified: c.isCustomerNotified ? 1 : 0,
        is_visible_on_front: c.isVisibleOnFront ? 1 : 0,
        created_at: magentoDate(c.createdAt),
      }),
    ),
  );
  return out;
}

/** The filters' fields: Magento's names of the memo's fields, over the credit memos table. */
const columns = ({ table: t, orderIncrementId }: CreditMemoColumns): Record<string, FilterColumn> => ({
  creditmemo_id: { column: t.id, type: 'number' },
  entity_id: { column: t.id, type: 'number' },
  increment_id: { column: t.incrementId },
  order_id: { column: t.orderId, type: 'number' },
  order_increment_id: { column: orderIncrementId },
  invoice_id: { column: t.invoiceId, type: 'number' },
  store_id: { column: t.storeId, type: 'number' },
  state: { column: t.state, type: 'number' },
  creditmemo_status: { column: t.creditmemoStatus, type: 'number' },
  email_sent: { column: t.emailSent, type: 'bool' },
  transaction_id: { column: t.transactionId },
  order_currency_code: { column: t.currency },
  base_currency_code: { column: t.baseCurrency },
  subtotal: { column: t.subtotal, type: 'number' },
  base_subtotal: { column: t.baseSubtotal, type: 'number' },
  grand_total: { column: t.grandTotal, type: 'number' },
  base_grand_total: { column: t.baseGrandTotal, type: 'number' },
  shipping_amount: { column: t.shippingAmount, type: 'number' },
  adjustment_positive: { column: t.adjustmentPositive, type: 'number' },
  adjustment_negative: { column: t.adjustmentNegative, type: 'number' },
  created_at: { column: t.createdAt, type: 'date' },
  updated_at: { column: t.updatedAt, type: 'date' },
});

/** An increment id argument (text or digits); anything else names nothing. */
function incrementArg(v: LegacyValue | undefined): string | undefined {
  const s = typeof v === 'string' ? v.trim() : typeof v === 'number' && Number.isFinite(v) ? String(v) : '';
  return s && s.length <= 50 ? s : undefined;
}

const flag = (v: LegacyValue | undefined) => ['1', 'true', 1, true].includes(v as string | number | boolean);

const invalid = (detail: string) => resourceFault(salesOrderCreditmemo, 'data_invalid', detail);

function textArg(v: LegacyValue | undefined, name: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw invalid(`${name} must be a string.`);
}

/** A number argument: absent, or a finite number ≥ 0 (digits as text too). */
function amountArg(v: LegacyValue | undefined, name: string): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? Number(v) : NaN;
  if (!Number.isFinite(n) || n < 0) throw invalid(`Invalid ${name}.`);
  return n;
}

/** A service error as the resource's fault; an order that allows no refund is cannot_create_creditmemo. */
function asFault(err: unknown, missing: 'not_exists' | 'order_not_exists' = 'not_exists'): never {
  return serviceFault(salesOrderCreditmemo, err, {
    missing,
    hideForbidden: true,
    invalid: 'data_invalid',
    reasons: { ORDER_NOT_REFUNDABLE: 'cannot_create_creditmemo' },
  });
}

async function memoArg(ctx: Ctx, v: LegacyValue | undefined): Promise<LegacyCreditMemoRow> {
  const number = incrementArg(v);
  const [row] = number ? await creditMemoRowsWhere(ctx, ({ table }) => eq(table.incrementId, number)) : [];
  if (!row) throw resourceFault(salesOrderCreditmemo, 'not_exists');
  return row;
}

async function orderArg(ctx: Ctx, v: LegacyValue | undefined): Promise<OrderRow> {
  const number = incrementArg(v);
  const order = number ? await findOrderByIncrementId(ctx, number) : undefined;
  if (!order || !mayAccessOrder(ctx, order)) throw resourceFault(salesOrderCreditmemo, 'order_not_exists');
  return order;
}

/**
 * `creditmemoData` as the service's body: `qtys` (order item id → qty, or a list of {order_item_id, qty}; lines
 * of qty 0 are left out, as Magento leaves them), `shipping_amount` (default: all the shipping not yet refunded,
 * Magento's default), `adjustment_positive` and `adjustment_negative`.
 */
function creditmemoDataArg(v: LegacyValue | undefined, order: OrderRow): CreditMemoCreateInput {
  if (v !== undefined && v !== null && v !== '' && !isRecord(v) && !(Array.isArray(v) && !v.length)) {
    throw invalid('creditmemoData must be a struct.');
  }
  const data = isRecord(v) ? v : new Map<string, LegacyValue>();
  const qtys = data.get('qtys');
  let items: CreditMemoCreateInput['items'];
  if (qtys !== undefined && qtys !== null && qtys !== '' && !(Array.isArray(qtys) && !qtys.length)) {
    let pairs: [LegacyValue | undefined, LegacyValue | undefined][];
    if (isRecord(qtys)) pairs = [...qtys];
    else if (Array.isArray(qtys) && qtys.every(isRecord)) pairs = qtys.map((e) => [e.get('order_item_id'), e.get('qty')]);
    else throw invalid('qtys must map order item ids to quantities.');
    const lines = pairs.map(([id, qty]) => {
      const orderItemId = idArg(id as LegacyValue);
      if (orderItemId === undefined) throw invalid(`Invalid order item id: ${String(id)}.`);
      return { orderItemId, qty: amountArg(qty as LegacyValue, `qty for order item ${orderItemId}`) ?? 0 };
    });
    items = lines.filter((l) => l.qty > 0);
    // the service reads no items as "everything": a list of zeros refunds no item, which it cannot do
    if (pairs.length && !items.length) throw invalid('No items to refund.');
  }
  return {
    ...(items ? { items } : {}),
    shippingAmount: amountArg(data.get('shipping_amount'), 'shipping_amount') ?? refundableShipping(order).amount.toNumber(),
    adjustmentPositive: amountArg(data.get('adjustment_positive'), 'adjustment_positive'),
    adjustmentNegative: amountArg(data.get('adjustment_negative'), 'adjustment_negative'),
  };
}

export const salesOrderCreditmemo = defineResource({
  name: 'sales_order_creditmemo',
  title: 'Credit memo API',
  aliases: ['order_creditmemo'],
  faults: {
    not_exists: ['100', 'Requested credit memo does not exist'],
    invalid_filter: ['101', 'Invalid filter given. Details in error message'],
    data_invalid: ['102', 'Invalid data given. Details in error message'],
    order_not_exists: ['103', 'Requested order does not exist'],
    status_not_changed: ['104', 'Credit memo status not changed'],
    cannot_create_creditmemo: ['106', 'Credit memo for requested order can not be created.'],
  },
  methods: {
    list: {
      title: 'Retrieve list of credit memos by filters',
      permission: ['credit-memos', 'read'],
      params: ['filters'],
      run: async (ctx, [filters]) => {
        try {
          const parsed = parseFilters(filters);
          return (await creditMemoRowsWhere(ctx, (c) => filterSql(parsed, columns(c)))).map(memoRecord);
        } catch (err) {
          if (err instanceof FilterError) throw resourceFault(salesOrderCreditmemo, 'invalid_filter', err.message);
          throw err;
        }
      },
    },
    info: {
      title: 'Retrieve credit memo information',
      permission: ['credit-memos', 'read'],
      params: ['creditmemoIncrementId'],
      run: async (ctx, [creditmemoIncrementId]) => {
        const row = await memoArg(ctx, creditmemoIncrementId);
        try {
          return memoInfo(row, await getCreditMemo(ctx, row.id));
        } catch (err) {
          asFault(err);
        }
      },
    },
    create: {
      title: 'Create new credit memo for order',
      permission: ['credit-memos', 'create'],
      params: ['orderIncrementId', 'creditmemoData', 'comment', 'notifyCustomer', 'includeComment'],
      run: async (ctx, [orderIncrementId, creditmemoData, commentArg, notifyCustomer, includeComment]) => {
        const order = await orderArg(ctx, orderIncrementId);
        const body = creditmemoDataArg(creditmemoData, order);
        const comment = textArg(commentArg, 'comment')?.trim() || undefined;
        const notify = flag(notifyCustomer);
        // Magento mails the comment only with includeComment: otherwise it is kept on the memo, unmailed
        const mailed = !notify || flag(includeComment);
        try {
          const memo = await createCreditMemo(ctx, order.id, {
            ...body,
            ...(comment && mailed ? { comment } : {}),
            notifyCustomer: notify,
          });
          if (comment && !mailed) await addCreditMemoComment(ctx, memo.id, { comment, notifyCustomer: false });
          return memo.incrementId;
        } catch (err) {
          asFault(err, 'order_not_exists');
        }
      },
    },
    addComment: {
      title: 'Add new comment to credit memo',
      permission: ['credit-memos', 'write'],
      params: ['creditmemoIncrementId', 'comment', 'notifyCustomer', 'includeComment'],
      run: async (ctx, [creditmemoIncrementId, comment, notifyCustomer, includeComment]) => {
        const row = await memoArg(ctx, creditmemoIncrementId);
        try {
          await addCreditMemoComment(ctx, row.id, {
            comment: textArg(comment, 'comment') ?? '',
            notifyCustomer: flag(notifyCustomer),
            includeComment: flag(includeComment),
          });
        } catch (err) {
          asFault(err);
        }
        return true;
      },
    },
    cancel: {
      title: 'Cancel credit memo',
      permission: ['credit-memos', 'write'],
      params: ['creditmemoIncrementId'],
      run: async (ctx, [creditmemoIncrementId]) => {
        await memoArg(ctx, creditmemoIncrementId);
        // Magento cancels open memos only (canCancel); every memo here is refunded (offline) as it is created,
        // never open, so a memo answers as a refunded one does in Magento
        throw resourceFault(salesOrderCreditmemo, 'status_not_changed', 'Credit memo cannot be canceled.');
      },
    },
  },
});
