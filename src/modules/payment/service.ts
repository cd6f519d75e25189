/**
 * Offline payment methods out of the box: check / money order, bank transfer, cash on delivery, purchase order
 * and the zero-total method. Each is configured per store (active, title, sort order, order-total limits,
 * countries, payment action). The carts module asks which are available and validates what the client sends.
 */
import type { Ctx } from '../../platform/context.js';
import { badRequest } from '../../platform/errors.js';
import { dec, type Decimal } from '../../platform/money.js';
import { declareConfig, declareConfigLabels, type ConfigSpec } from '../../platform/settings.js';

const PAYMENT_ACTION: ConfigSpec = {
  type: 'select',
  default: 'authorize',
  label: 'Payment Action',
  options: [
    { value: 'authorize', label: 'Authorize Only' },
    { value: 'authorize_capture', label: 'Authorize and Capture' },
  ],
};

/** What every method but the zero-total one declares alike. */
const method = (code: string, title: string, active: boolean, sortOrder: number): Record<string, ConfigSpec> => ({
  [`payment/${code}/active`]: { type: 'boolean', default: active, label: 'Enabled' },
  [`payment/${code}/title`]: { type: 'string', default: title, label: 'Title' },
  [`payment/${code}/sort_order`]: { type: 'integer', default: sortOrder, label: 'Sort Order' },
  [`payment/${code}/min_order_total`]: { type: 'decimal', default: '', label: 'Minimum Order Total', comment: 'empty: no minimum', min: 0 },
  [`payment/${code}/max_order_total`]: { type: 'decimal', default: '', label: 'Maximum Order Total', comment: 'empty: no maximum', min: 0 },
  [`payment/${code}/allowspecific`]: { type: 'boolean', default: false, label: 'Payment from Specific Countries Only' },
  [`payment/${code}/specificcountry`]: {
    type: 'multiselect',
    default: '',
    label: 'Payment from Specific Countries',
    pattern: /^[A-Z]{2}$/,
  },
  [`payment/${code}/payment_action`]: PAYMENT_ACTION,
});

declareConfigLabels({
  payment: 'Payment Methods',
  'payment/checkmo': 'Check / Money Order',
  'payment/banktransfer': 'Bank Transfer Payment',
  'payment/cashondelivery': 'Cash On Delivery Payment',
  'payment/purchaseorder': 'Purchase Order',
  'payment/free': 'Zero Subtotal Checkout',
});
declareConfig({
  ...method('checkmo', 'Check / Money order', true, 1),
  'payment/checkmo/payable_to': { type: 'string', default: '', label: 'Make Check Payable to' },
  'payment/checkmo/mailing_address': { type: 'text', default: '', label: 'Send Check to' },

  ...method('banktransfer', 'Bank Transfer Payment', false, 2),
  'payment/banktransfer/instructions': { type: 'text', default: '', label: 'Instructions' },

  ...method('cashondelivery', 'Cash On Delivery', false, 3),
  'payment/cashondelivery/instructions': { type: 'text', default: '', label: 'Instructions' },

  ...method('purchaseorder', 'Purchase Order', false, 4),

  'payment/free/active': { type: 'boolean', default: true, label: 'Enabled' },
  'payment/free/title': { type: 'string', default: 'No Payment Information Required', label: 'Title' },
  'payment/free/sort_order': { type: 'integer', default: 0, label: 'Sort Order' },
  'payment/free/payment_action': PAYMENT_ACTION,
});

/** Every method code this service knows; all are offline. */
export const PAYMENT_METHOD_CODES = ['checkmo', 'banktransfer', 'cashondelivery', 'purchaseorder', 'free'] as const;
export type PaymentMethodCode = (typeof PAYMENT_METHOD_CODES)[number];

/** methods that show instructions to the customer */
const WITH_INSTRUCTIONS: ReadonlySet<string> = new Set(['banktransfer', 'cashondelivery']);

export function isPaymentMethod(code: unknown): code is PaymentMethodCode {
  return typeof code === 'string' && (PAYMENT_METHOD_CODES as readonly string[]).includes(code);
}

export interface PaymentRequest {
  storeId: number;
  /** billing country (ISO-2) */
  countryId: string | null;
  baseGrandTotal: Decimal;
}

export interface PaymentMethod {
  code: string;
  title: string;
  sortOrder: number;
  isOffline: boolean;
  instructions?: string;
}

function known(code: string): PaymentMethodCode {
  if (!isPaymentMethod(code)) throw badRequest(`Unknown payment method: ${code}`, { reason: 'INVALID_PAYMENT_METHOD' });
  return code;
}

/** A configured order-total limit; empty or malformed means none. */
function limit(ctx: Ctx, path: string, storeId: number): Decimal | undefined {
  const raw = (ctx.app.settings.get(path, storeId) ?? '').trim();
  return /^(\d+(\.\d+)?|\.\d+)$/.test(raw) ? dec(raw) : undefined;
}

interface ConfiguredMethod {
  method: PaymentMethod;
  min?: Decimal;
  max?: Decimal;
  /** allowed billing countries; undefined: all */
  countries?: Set<string>;
}

/** The active methods of a store view as its config sets them up (once per config snapshot). */
function configuredMethods(ctx: Ctx, storeId: number): ConfiguredMethod[] {
  return ctx.app.settings.memo(`payment.methods.${storeId}`, () => {
    const s = ctx.app.settings;
    const out: ConfiguredMethod[] = [];
    for (const code of PAYMENT_METHOD_CODES) {
      if (!s.getBool(`payment/${code}/active`, storeId)) continue;
      const method: PaymentMethod = {
        code,
        title: paymentTitle(ctx, code, storeId),
        sortOrder: s.getInt(`payment/${code}/sort_order`, storeId),
        isOffline: true,
      };
      if (WITH_INSTRUCTIONS.has(code)) {
        const instructions = s.get(`payment/${code}/instructions`, storeId)?.trim();
        if (instructions) method.instructions = instructions;
      }
      const countries = s.getBool(`payment/${code}/allowspecific`, storeId)
        ? new Set(s.getList(`payment/${code}/specificcountry`, storeId).map((c) => c.toUpperCase()))
        : undefined;
      out.push({
        method,
        min: limit(ctx, `payment/${code}/min_order_total`, storeId),
        max: limit(ctx, `payment/${code}/max_order_total`, storeId),
        countries,
      });
    }
    return out.sort(
      (x, y) => x.method.sortOrder - y.method.sortOrder || (x.method.code < y.method.code ? -1 : x.method.code > y.method.code ? 1 : 0),
    );
  });
}

/**
 * The methods a cart can pay with: active, within the method's order-total limits, allowed for the billing
 * country. A zero total offers only `free`; `free` is never offered above zero. By sort order, then code.
 */
export function availablePaymentMethods(ctx: Ctx, req: PaymentRequest): PaymentMethod[] {
  const zero = !req.baseGrandTotal.gt(0);
  const country = req.countryId?.trim().toUpperCase();
  const out: PaymentMethod[] = [];
  for (const c of configuredMethods(ctx, req.storeId)) {
    if ((c.method.code === 'free') !== zero) continue;
    if (c.min && req.baseGrandTotal.lt(c.min)) continue;
    if (c.max && req.baseGrandTotal.gt(c.max)) continue;
    if (c.countries && (!country || !c.countries.has(country))) continue;
    out.push({ ...c.method });
  }
  return out;
}

/**
 * What placement does with the payment: `authorize_capture` invoices the order and marks it paid at placement;
 * `authorize` (the default: Maho's offline methods capture nothing at placement) or anything else leaves the
 * order pending without an invoice, for the back office to invoice it (POST /orders/{id}/invoices).
 */
export function paymentAction(ctx: Ctx, code: string, storeId: number): 'authorize' | 'authorize_capture' {
  const c = known(code);
  return ctx.app.settings.get(`payment/${c}/payment_action`, storeId)?.trim() === 'authorize_capture' ? 'authorize_capture' : 'authorize';
}

/**
 * What a method keeps from the client's `additionalData`: a purchase order needs its number (`poNumber`, or
 * `po_number`, 1 to 64 characters); the other methods take nothing from the client.
 */
export function validatePaymentData(_ctx: Ctx, code: string, data: Record<string, unknown> | undefined): Record<string, unknown> {
  const c = known(code);
  if (c !== 'purchaseorder') return {};
  const raw = data?.poNumber ?? data?.po_number;
  if (raw === undefined || raw === null || (typeof raw === 'string' && !raw.trim())) {
    throw badRequest('A purchase order number (poNumber) is required', { reason: 'PO_NUMBER_REQUIRED', details: { field: 'poNumber' } });
  }
  if (typeof raw !== 'string' && typeof raw !== 'number') {
    throw badRequest('The purchase order number (poNumber) is text', { reason: 'INVALID_PO_NUMBER', details: { field: 'poNumber' } });
  }
  const po = String(raw).trim();
  if (po.length > 64 || /[\u0000-\u001f\u007f]/.test(po)) {
    throw badRequest('The purchase order number (poNumber) has 1 to 64 printable characters', {
      reason: 'INVALID_PO_NUMBER',
      details: { field: 'poNumber' },
    });
  }
  return { poNumber: po };
}

/** The method's title in a store view (the code for an unknown method). */
export function paymentTitle(ctx: Ctx, code: string, storeId: number): string {
  if (!isPaymentMethod(code)) return code;
  return ctx.app.settings.get(`payment/${code}/title`, storeId) || code;
}
