import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { AppError } from '../../platform/errors.js';
import { dec } from '../../platform/money.js';
import { deleteConfig, setConfig } from '../stores/service.js';
import { availablePaymentMethods, paymentAction, paymentTitle, validatePaymentData, type PaymentRequest } from './service.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp();
});
after(() => t.close());

/** Store-view overrides, removed afterwards (the demo's own values live at the default scope). */
async function withConfig(values: Record<string, string>, fn: () => Promise<void> | void): Promise<void> {
  const ctx = t.systemCtx();
  for (const [path, value] of Object.entries(values)) await setConfig(ctx.db, ctx.app.settings, path, value, 'stores', 1);
  try {
    await fn();
  } finally {
    for (const path of Object.keys(values)) await deleteConfig(ctx.db, ctx.app.settings, path, 'stores', 1);
  }
}

const req = (total: string, countryId: string | null = 'US', storeId = 1): PaymentRequest => ({
  storeId,
  countryId,
  baseGrandTotal: dec(total),
});
const codes = (total: string, countryId: string | null = 'US', storeId = 1) =>
  availablePaymentMethods(t.systemCtx(), req(total, countryId, storeId)).map((m) => m.code);

function badRequest(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof AppError, String(err));
    assert.equal(err.status, 400);
    assert.match(err.message, pattern);
    return true;
  });
}

describe('available payment methods', () => {
  test('demo store: check / money order and cash on delivery, offline, by sort order', () => {
    assert.deepEqual(availablePaymentMethods(t.systemCtx(), req('50')), [
      { code: 'checkmo', title: 'Check / Money order', sortOrder: 1, isOffline: true },
      { code: 'cashondelivery', title: 'Cash On Delivery', sortOrder: 3, isOffline: true },
    ]);
    assert.deepEqual(codes('50', null), ['checkmo', 'cashondelivery'], 'no billing country yet');
  });

  test('out of the box without the demo: check / money order only', async () => {
    await withConfig({ 'payment/cashondelivery/active': '0' }, () => {
      assert.deepEqual(codes('50'), ['checkmo']);
    });
  });

  test('every method when enabled; instructions where the method has them', async () => {
    await withConfig(
      { 'payment/banktransfer/active': '1', 'payment/banktransfer/instructions': ' IBAN DE00 1234 ', 'payment/purchaseorder/active': '1' },
      () => {
        assert.deepEqual(availablePaymentMethods(t.systemCtx(), req('50')), [
          { code: 'checkmo', title: 'Check / Money order', sortOrder: 1, isOffline: true },
          { code: 'banktransfer', title: 'Bank Transfer Payment', sortOrder: 2, isOffline: true, instructions: 'IBAN DE00 1234' },
          { code: 'cashondelivery', title: 'Cash On Delivery', sortOrder: 3, isOffline: true },
          { code: 'purchaseorder', title: 'Purchase Order', sortOrder: 4, isOffline: true },
        ]);
        // store-view config: the german store view keeps the defaults
        assert.deepEqual(codes('50', 'DE', 2), ['checkmo', 'cashondelivery']);
      },
    );
  });

  test('sort order then code; titles from config', async () => {
    await withConfig({ 'payment/checkmo/sort_order': '3', 'payment/checkmo/title': 'Cheque' }, () => {
      assert.deepEqual(
        availablePaymentMethods(t.systemCtx(), req('50')).map((m) => [m.code, m.title, m.sortOrder]),
        [
          ['cashondelivery', 'Cash On Delivery', 3],
          ['checkmo', 'Cheque', 3],
        ],
      );
      assert.equal(paymentTitle(t.systemCtx(), 'checkmo', 1), 'Cheque');
      assert.equal(paymentTitle(t.systemCtx(), 'checkmo', 2), 'Check / Money order');
    });
    assert.equal(paymentTitle(t.systemCtx(), 'free', 1), 'No Payment Information Required');
    assert.equal(paymentTitle(t.systemCtx(), 'paypal', 1), 'paypal');
  });

  test('minimum and maximum order totals, inclusive; empty or malformed means no limit', async () => {
    await withConfig({ 'payment/checkmo/min_order_total': '100', 'payment/cashondelivery/max_order_total': '40.50' }, () => {
      assert.deepEqual(codes('99.99'), []);
      assert.deepEqual(codes('100'), ['checkmo']);
      assert.deepEqual(codes('40.50'), ['cashondelivery']);
      assert.deepEqual(codes('40.51'), []);
    });
    await withConfig({ 'payment/checkmo/min_order_total': 'abc', 'payment/checkmo/max_order_total': ' ' }, () => {
      assert.deepEqual(codes('0.01'), ['checkmo', 'cashondelivery']);
      assert.deepEqual(codes('1000000'), ['checkmo', 'cashondelivery']);
    });
  });

  test('country restrictions', async () => {
    await withConfig({ 'payment/cashondelivery/allowspecific': '1', 'payment/cashondelivery/specificcountry': 'DE,at' }, () => {
      assert.deepEqual(codes('50', 'US'), ['checkmo']);
      assert.deepEqual(codes('50', 'DE'), ['checkmo', 'cashondelivery']);
      assert.deepEqual(codes('50', 'AT'), ['checkmo', 'cashondelivery']);
      assert.deepEqual(codes('50', null), ['checkmo'], 'restricted methods need the billing country');
    });
    await withConfig({ 'payment/cashondelivery/specificcountry': 'DE' }, () => {
      assert.deepEqual(codes('50', 'US'), ['checkmo', 'cashondelivery'], 'the list alone restricts nothing');
    });
  });

  test('a zero total offers only the free method; it is never offered above zero', async () => {
    assert.deepEqual(availablePaymentMethods(t.systemCtx(), req('0')), [
      { code: 'free', title: 'No Payment Information Required', sortOrder: 0, isOffline: true },
    ]);
    assert.deepEqual(codes('0.00', null), ['free']);
    assert.deepEqual(codes('0.0001'), ['checkmo', 'cashondelivery']);
    await withConfig({ 'payment/free/active': '0' }, () => {
      assert.deepEqual(codes('0'), []);
    });
  });

  test('inactive methods are not offered', async () => {
    await withConfig({ 'payment/checkmo/active': '0', 'payment/cashondelivery/active': 'no' }, () => {
      assert.deepEqual(codes('50'), []);
    });
  });
});

describe('payment actions, data and titles', () => {
  test('payment action defaults: no capture at placement (as Maho); authorize_capture when configured', async () => {
    const ctx = t.systemCtx();
    for (const code of ['checkmo', 'banktransfer', 'cashondelivery', 'purchaseorder', 'free'])
      assert.equal(paymentAction(ctx, code, 1), 'authorize', code);
    await withConfig(
      { 'payment/checkmo/payment_action': 'authorize_capture', 'payment/cashondelivery/payment_action': 'authorize' },
      () => {
        assert.equal(paymentAction(ctx, 'checkmo', 1), 'authorize_capture');
        assert.equal(paymentAction(ctx, 'cashondelivery', 1), 'authorize');
        assert.equal(paymentAction(ctx, 'checkmo', 2), 'authorize', 'another store view');
      },
    );
    badRequest(() => paymentAction(ctx, 'paypal', 1), /Unknown payment method: paypal/);
  });

  test('purchase order needs its number (poNumber or po_number, 1 to 64 characters)', () => {
    const ctx = t.systemCtx();
    assert.deepEqual(validatePaymentData(ctx, 'purchaseorder', { poNumber: ' PO-1234 ', extra: 'dropped' }), { poNumber: 'PO-1234' });
    assert.deepEqual(validatePaymentData(ctx, 'purchaseorder', { po_number: 'A1' }), { poNumber: 'A1' });
    assert.deepEqual(validatePaymentData(ctx, 'purchaseorder', { poNumber: 4711 }), { poNumber: '4711' });
    assert.deepEqual(validatePaymentData(ctx, 'purchaseorder', { poNumber: 'x'.repeat(64) }), { poNumber: 'x'.repeat(64) });
    for (const data of [undefined, {}, { poNumber: '' }, { poNumber: '   ' }, { poNumber: null }, { ponumber: 'A1' }]) {
      badRequest(() => validatePaymentData(ctx, 'purchaseorder', data), /purchase order number \(poNumber\) is required/);
    }
    badRequest(() => validatePaymentData(ctx, 'purchaseorder', { poNumber: 'x'.repeat(65) }), /1 to 64/);
    badRequest(() => validatePaymentData(ctx, 'purchaseorder', { poNumber: 'a\nb' }), /1 to 64/);
    badRequest(() => validatePaymentData(ctx, 'purchaseorder', { poNumber: ['A1'] }), /is text/);
    badRequest(() => validatePaymentData(ctx, 'purchaseorder', { poNumber: { a: 1 } }), /is text/);
  });

  test('other methods take nothing from the client', () => {
    const ctx = t.systemCtx();
    assert.deepEqual(validatePaymentData(ctx, 'checkmo', { payableTo: 'Mallory', mailingAddress: 'Elsewhere' }), {});
    for (const code of ['banktransfer', 'cashondelivery', 'free'])
      assert.deepEqual(validatePaymentData(ctx, code, { anything: 1 }), {}, code);
    assert.deepEqual(validatePaymentData(ctx, 'checkmo', undefined), {});
    badRequest(() => validatePaymentData(ctx, 'paypal', {}), /Unknown payment method/);
  });
});
