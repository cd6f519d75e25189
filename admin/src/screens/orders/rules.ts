/**
 * What may be done with an order now, as the API decides it (src/modules/orders/state.ts and the invoice, shipment
 * and credit memo services): the state allows the action, something is left for it, and the signed-in role holds
 * the permission. The page shows only these actions; the API checks again.
 */
import type { Answer, Row } from '../../api/client';

export type OrderDetail = Answer<'/api/rest/v2/orders/{id}', 'get'>;
export type OrderLine = OrderDetail['items'][number];
export type Shipment = Row<'/api/rest/v2/shipments'>;

const TERMINAL = new Set(['canceled', 'complete', 'closed']);

export type OrderAction = 'invoice' | 'ship' | 'refund' | 'cancel' | 'hold' | 'unhold' | 'comment';

/** Whether the order's state lets the action happen at all. */
export function stateAllows(state: string, action: OrderAction): boolean {
  switch (action) {
    case 'hold':
    case 'cancel':
    case 'invoice':
    case 'ship':
      return !TERMINAL.has(state) && state !== 'holded' && state !== 'payment_review';
    case 'unhold':
      return state === 'holded';
    case 'refund':
      return state !== 'canceled' && state !== 'closed' && state !== 'holded' && state !== 'payment_review';
    case 'comment':
      return true;
  }
}

const clean = (n: number) => Math.max(0, Math.round(n * 10_000) / 10_000);

/** What is left to invoice of a line: ordered − invoiced − canceled. */
export const leftToInvoice = (i: OrderLine) => clean(i.qtyOrdered - i.qtyInvoiced - i.qtyCanceled);
/** What is left to ship of a line: ordered − shipped − refunded − canceled (virtual lines never ship). */
export const leftToShip = (i: OrderLine) => (i.isVirtual ? 0 : clean(i.qtyOrdered - i.qtyShipped - i.qtyRefunded - i.qtyCanceled));
/** What may still be refunded of a line: invoiced − refunded. */
export const leftToRefund = (i: OrderLine) => clean(i.qtyInvoiced - i.qtyRefunded);

/** The permission each action needs: [resource, operation]. */
const PERMISSION: Record<OrderAction, [string, 'write' | 'create']> = {
  invoice: ['invoices', 'create'],
  ship: ['shipments', 'create'],
  refund: ['credit-memos', 'create'],
  cancel: ['orders', 'write'],
  hold: ['orders', 'write'],
  unhold: ['orders', 'write'],
  comment: ['orders', 'write'],
};

/** Whether something is left for the action (the state aside). */
function somethingLeft(order: OrderDetail, action: OrderAction): boolean {
  switch (action) {
    case 'invoice':
    case 'cancel':
      return order.items.some((i) => leftToInvoice(i) > 0);
    case 'ship':
      return !order.isVirtual && order.items.some((i) => leftToShip(i) > 0);
    case 'refund': {
      const p = order.prices;
      const paidLeft = p.totalPaid - p.totalRefunded + (p.giftcardAmount ?? 0);
      return order.items.some((i) => i.qtyInvoiced > 0) && paidLeft > 0.00001;
    }
    default:
      return true;
  }
}

/** The actions the page offers for this order to this role. */
export function allowedActions(order: OrderDetail, can: (resource: string, op: 'write' | 'create') => boolean): Set<OrderAction> {
  const out = new Set<OrderAction>();
  for (const action of Object.keys(PERMISSION) as OrderAction[]) {
    const [resource, op] = PERMISSION[action];
    if (can(resource, op) && stateAllows(order.state, action) && somethingLeft(order, action)) out.add(action);
  }
  return out;
}

/** A quantity typed in a dialog, as a number (blank is 0; anything else unreadable is NaN). */
export function qtyOf(typed: string | undefined): number {
  const s = (typed ?? '').trim().replace(',', '.');
  return s === '' ? 0 : Number(s);
}
