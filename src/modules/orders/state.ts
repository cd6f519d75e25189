/**
 * Order states, their default statuses, and which action each state allows. A refused action is a 409
 * `conflict` naming the current state and the action (the wire reference's choice for what Maho leaves as 500).
 */
import { badRequest, conflict, type AppError } from '../../platform/errors.js';

export type OrderState = 'new' | 'pending_payment' | 'processing' | 'complete' | 'closed' | 'canceled' | 'holded' | 'payment_review';

export const DEFAULT_STATUS: Record<OrderState, string> = {
  new: 'pending',
  pending_payment: 'pending_payment',
  processing: 'processing',
  complete: 'complete',
  closed: 'closed',
  canceled: 'canceled',
  holded: 'holded',
  payment_review: 'payment_review',
};

/** Statuses and their labels, per state (a comment may set any status of the order's current state). */
export const STATUSES: Record<OrderState, Record<string, string>> = {
  new: { pending: 'Pending' },
  pending_payment: { pending_payment: 'Pending Payment' },
  processing: { processing: 'Processing' },
  complete: { complete: 'Complete' },
  closed: { closed: 'Closed' },
  canceled: { canceled: 'Canceled' },
  holded: { holded: 'On Hold' },
  payment_review: { payment_review: 'Payment Review', fraud: 'Suspected Fraud' },
};

export type OrderAction = 'hold' | 'unhold' | 'cancel' | 'invoice' | 'ship' | 'refund';

const TERMINAL: ReadonlySet<string> = new Set(['canceled', 'complete', 'closed']);

/** Whether the order's state lets the action happen at all (quantities are checked by the action itself). */
export function stateAllows(state: string, action: OrderAction): boolean {
  switch (action) {
    case 'hold':
      return !TERMINAL.has(state) && state !== 'holded' && state !== 'payment_review';
    case 'unhold':
      return state === 'holded';
    case 'cancel':
    case 'invoice':
    case 'ship':
      return !TERMINAL.has(state) && state !== 'holded' && state !== 'payment_review';
    case 'refund':
      return state !== 'canceled' && state !== 'closed' && state !== 'holded' && state !== 'payment_review';
  }
}

const VERB: Record<OrderAction, string> = {
  hold: 'put on hold',
  unhold: 'released from hold',
  cancel: 'canceled',
  invoice: 'invoiced',
  ship: 'shipped',
  refund: 'refunded',
};

const REASON: Record<OrderAction, string> = {
  hold: 'ORDER_NOT_HOLDABLE',
  unhold: 'ORDER_NOT_ON_HOLD',
  cancel: 'ORDER_NOT_CANCELABLE',
  invoice: 'ORDER_NOT_INVOICEABLE',
  ship: 'ORDER_NOT_SHIPPABLE',
  refund: 'ORDER_NOT_REFUNDABLE',
};

/**
 * The error for an action the order does not allow now: a 409 for the lifecycle transitions (hold, unhold,
 * cancel), a 400 for documents (invoice, ship, refund), as the wire reference has them.
 */
export function refused(state: string, action: OrderAction, why?: string): AppError {
  const message = `The order cannot be ${VERB[action]}: ${why ?? `it is ${state}`}`;
  const opts = { reason: REASON[action], details: { state, action } };
  return action === 'hold' || action === 'unhold' || action === 'cancel' ? conflict(message, opts) : badRequest(message, opts);
}

export function assertAllowed(state: string, action: OrderAction): void {
  if (!stateAllows(state, action)) throw refused(state, action);
}

export function isStatusOfState(state: string, status: string): boolean {
  return Object.hasOwn(STATUSES[state as OrderState] ?? {}, status);
}

export function statusLabel(status: string): string {
  for (const s of Object.values(STATUSES)) if (Object.hasOwn(s, status)) return s[status];
  return status;
}

/** The quantities of one item, as numbers of units. */
export interface ItemProgress {
  qtyOrdered: number;
  qtyInvoiced: number;
  qtyShipped: number;
  qtyRefunded: number;
  qtyCanceled: number;
  isVirtual: boolean;
}

/**
 * Where an order that is neither canceled, held nor under review stands after a change of its quantities:
 * closed once everything invoiced is refunded and nothing is left to invoice or ship; complete once everything
 * is invoiced and shipped (or refunded or canceled); processing once anything was invoiced or shipped; new
 * before. A processing order stays processing when its only invoice is canceled or voided (as Maho, which sets
 * processing on an invoice's cancel): it never goes back to new.
 */
export function settledState(current: string, items: ItemProgress[], money: { totalPaid: number; totalRefunded: number }): OrderState {
  if (current === 'canceled' || current === 'holded' || current === 'payment_review' || current === 'closed') return current as OrderState;
  const left = (i: ItemProgress) => i.qtyOrdered - i.qtyCanceled;
  const allInvoiced = items.every((i) => i.qtyInvoiced >= left(i));
  const allShipped = items.every((i) => i.isVirtual || i.qtyShipped + i.qtyRefunded >= left(i));
  const allRefunded = items.every((i) => i.qtyRefunded >= i.qtyInvoiced) && items.some((i) => i.qtyRefunded > 0);
  if (allInvoiced && allRefunded && money.totalRefunded >= money.totalPaid) return 'closed';
  if (allInvoiced && allShipped) return items.every((i) => i.qtyCanceled >= i.qtyOrdered) ? 'canceled' : 'complete';
  if (items.some((i) => i.qtyInvoiced > 0 || i.qtyShipped > 0)) return 'processing';
  return current === 'pending_payment' || current === 'processing' ? current : 'new';
}
