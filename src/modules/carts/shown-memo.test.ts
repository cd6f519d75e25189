/**
 * A cart shown again unchanged is answered from memory (shown-memo.ts), and never after something that moves its
 * totals: each change is followed by a read that must give the full pipeline's answer, and a different one than
 * before the change (catalog and tax changes, the coupon's rule, state, limits and dates, gift card balances,
 * configuration and currency rates, the customer's group, stock, the cart itself, and writes of another
 * process). Reads running in parallel with changes answer what the database held when they read it: a read that
 * starts after a change was committed shows it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildSecondApp, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { placeTestOrder } from '../../../test/fixtures/checkout.js';
import type { Ctx } from '../../platform/context.js';
import { countStatements } from '../../platform/db.js';
import { dec, roundMoney } from '../../platform/money.js';
import { deleteConfig, setConfig, setCurrencyRate } from '../stores/service.js';
import { pricesDto } from './dto.js';
import { loadCart, shown, type CartRef } from './load.js';
import { cartContext, priceCart } from './pricing.js';

let t: TestApp;
let admin: string;
let customer: string;
let customerId: number;

const CA = {
  firstName: 'A',
  lastName: 'B',
  street: ['1 Main St'],
  city: 'Los Angeles',
  postcode: '90001',
  countryId: 'US',
  region: 'CA',
  telephone: '1',
};

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  customerId = (await t.req('GET', `${API}/customers/me`, { token: customer })).body.id;
});
after(() => t.close());

const asAdmin = async (method: string, url: string, body?: unknown) => {
  const r = await t.req(method, `${API}${url}`, { token: admin, body });
  assert.ok(r.status < 300, `${method} ${url}: ${r.status} ${r.text}`);
  return r.body;
};

interface Cart {
  ref: CartRef;
  url: string;
  token?: string;
}

async function cart(opts: {
  customer?: boolean;
  storeId?: number;
  items: [string, number][];
  coupon?: string;
  giftcard?: string;
}): Promise<Cart> {
  const token = opts.customer ? customer : undefined;
  const made = token
    ? await t.req('POST', `${API}/carts`, { token, body: {} })
    : await t.req('POST', `${API}/guest-carts`, { body: opts.storeId ? { storeId: opts.storeId } : {} });
  const ref: CartRef = token ? { kind: 'customer', id: made.body.id } : { kind: 'guest', maskedId: made.body.maskedId };
  const url = token ? `${API}/carts/${made.body.id}` : `${API}/guest-carts/${made.body.maskedId}`;
  for (const [sku, qty] of opts.items) assert.equal((await t.req('POST', `${url}/items`, { token, body: { sku, qty } })).status, 200);
  assert.equal((await t.req('PUT', `${url}/shipping-address`, { token, body: CA })).status, 200);
  assert.equal(
    (await t.req('PUT', `${url}/shipping-method`, { token, body: { carrierCode: 'flatrate', methodCode: 'flatrate' } })).status,
    200,
  );
  if (opts.coupon) assert.equal((await t.req('POST', `${url}/coupon`, { token, body: { couponCode: opts.coupon } })).status, 201);
  if (opts.giftcard) assert.equal((await t.req('POST', `${url}/giftcards`, { token, body: { giftcardCode: opts.giftcard } })).status, 200);
  return { ref, url, token };
}

/** The prices the full pipeline gives the cart now (nothing remembered, everything read again). */
async function fullPrices(c: Cart, ctx: Ctx = t.systemCtx()) {
  const loaded = (await loadCart(ctx, c.ref, true))!;
  return pricesDto(await priceCart(cartContext(ctx, loaded.cart), loaded.cart, loaded.items));
}

/** The prices GET .../totals answers. */
async function shownPrices(c: Cart) {
  const r = await t.req('GET', `${c.url}/totals`, { token: c.token });
  assert.equal(r.status, 200, r.text);
  return c.ref.kind === 'guest' ? r.body : r.body.prices;
}

/** Reads the cart (warming the memory), makes the change, and checks the next read: the full pipeline's answer, a new one. */
async function changes(c: Cart, what: string, change: () => Promise<unknown>): Promise<void> {
  const before = await shownPrices(c);
  assert.deepEqual(await shownPrices(c), before, `${what}: unchanged before`);
  await change();
  const now = await shownPrices(c);
  assert.deepEqual(now, await fullPrices(c), `${what}: the full pipeline's answer`);
  assert.notDeepEqual(now, before, `${what}: the totals moved`);
}

describe('a cart shown again', () => {
  test('unchanged, it is answered from memory in one statement', async () => {
    const p = await createTestProduct(t, { price: 12.5, taxClassId: 2, stockData: { qty: 100, isInStock: true } });
    const c = await cart({ items: [[p.sku, 3]], coupon: 'WELCOME10' });
    const ctx = t.systemCtx();
    const first = await shown(ctx, (await loadCart(ctx, c.ref))!);
    const { n, result: second } = await countStatements(async () => shown(ctx, (await loadCart(ctx, c.ref))!));
    assert.equal(n, 1, 'the cart read alone');
    assert.equal(second.priced.totals, first.priced.totals, 'the priced cart remembered');
    assert.notEqual(second.priced.cart, first.priced.cart, 'with the cart as read now');
    assert.deepEqual(await shownPrices(c), await fullPrices(c));
    // table rates are read from the database at every pricing: never remembered
    await setConfig(t.database.db, t.services.settings, 'carriers/tablerate/active', '1');
    try {
      const a = await shown(ctx, (await loadCart(ctx, c.ref))!);
      const b = await shown(ctx, (await loadCart(ctx, c.ref))!);
      assert.notEqual(a.priced.totals, b.priced.totals);
    } finally {
      await deleteConfig(t.database.db, t.services.settings, 'carriers/tablerate/active');
    }
  });
});

describe('every change that moves the totals shows at once', () => {
  test('catalog, tax, coupon, gift card, configuration, group, stock and the cart itself', async () => {
    const p = await createTestProduct(t, { price: 20, taxClassId: 2, weight: 1, stockData: { qty: 100, isInStock: true } });
    const q = await createTestProduct(t, { price: 7.5, taxClassId: 2, weight: 1, stockData: { qty: 100, isInStock: true } });
    const rule = await asAdmin('POST', '/coupons', { code: 'MEMO-PCT', discountType: 'percent', discountAmount: 10, isActive: true });
    const card = await asAdmin('POST', '/giftcards', { code: 'GC-MEMO-0001', initialBalance: 15, currencyCode: 'USD' });
    const c = await cart({
      customer: true,
      items: [
        [p.sku, 2],
        [q.sku, 1],
      ],
      coupon: 'MEMO-PCT',
      giftcard: 'GC-MEMO-0001',
    });
    const rate = (await asAdmin('GET', '/tax-rates?itemsPerPage=100')).member.find((r: { taxRegionId?: number }) => r.taxRegionId);
    assert.ok(rate, 'the demo rate of California');

    await changes(c, 'price', () => asAdmin('PUT', `/products/${p.id}`, { price: 22 }));
    await changes(c, 'tier price', () =>
      asAdmin('POST', `/products/${q.id}/tier-prices`, [{ customerGroupId: null, websiteId: 0, qty: 1, price: 6 }]),
    );
    await changes(c, 'rule amount', () => asAdmin('PUT', `/coupons/${rule.id}`, { discountAmount: 15 }));
    await changes(c, 'rule off', () => asAdmin('PUT', `/coupons/${rule.id}`, { isActive: false }));
    await changes(c, 'rule on', () => asAdmin('PUT', `/coupons/${rule.id}`, { isActive: true }));
    await changes(c, 'rule for other groups', () => asAdmin('PUT', `/coupons/${rule.id}`, { customerGroupIds: [2] }));
    await changes(c, 'customer group', () => asAdmin('PUT', `/customers/${customerId}`, { groupId: 2 }));
    await changes(c, 'group price', () =>
      asAdmin('POST', `/products/${p.id}/tier-prices`, [{ customerGroupId: 2, websiteId: 0, qty: 1, price: 19 }]),
    );
    // the group alone (the rule applies to both): the group price goes
    await asAdmin('PUT', `/coupons/${rule.id}`, { customerGroupIds: [0, 1, 2, 3] });
    await changes(c, 'customer group again', () => asAdmin('PUT', `/customers/${customerId}`, { groupId: 1 }));
    await changes(c, 'gift card balance', () => asAdmin('PUT', `/giftcards/${card.id}`, { balance: 4 }));
    await changes(c, 'gift card disabled', () => asAdmin('PUT', `/giftcards/${card.id}`, { status: 'disabled' }));
    await changes(c, 'tax rate', () => asAdmin('PUT', `/tax-rates/${rate.id}`, { rate: 9.5 }));
    await changes(c, 'configuration', () => setConfig(t.database.db, t.services.settings, 'tax/classes/shipping_tax_class', '2'));
    await deleteConfig(t.database.db, t.services.settings, 'tax/classes/shipping_tax_class');
    // stock is no price, yet the whole cart shows it at once
    const status = async () =>
      (await t.req('GET', c.url, { token: c.token })).body.items.find((i: { sku: string }) => i.sku === q.sku).stockStatus;
    assert.equal(await status(), 'in_stock');
    assert.equal(await status(), 'in_stock');
    await asAdmin('PUT', '/inventory', { sku: q.sku, qty: 0, isInStock: false });
    assert.equal(await status(), 'out_of_stock');
    await asAdmin('PUT', '/inventory', { sku: q.sku, qty: 50, isInStock: true });
    assert.equal(await status(), 'in_stock');
    const item = (await t.req('GET', c.url, { token: c.token })).body.items[0].id;
    await changes(c, 'qty', () => t.req('PUT', `${c.url}/items/${item}`, { token: c.token, body: { qty: 5 } }));
    await changes(c, 'address', () =>
      t.req('PUT', `${c.url}/shipping-address`, { token: c.token, body: { ...CA, region: 'TX', city: 'Austin', postcode: '73301' } }),
    );
    await changes(c, 'shipping', () => setConfig(t.database.db, t.services.settings, 'carriers/flatrate/type', 'O'));
    await deleteConfig(t.database.db, t.services.settings, 'carriers/flatrate/type');
  });

  test('the coupon used up by other orders, and the coupon past its expiration', async () => {
    const p = await createTestProduct(t, { price: 30, taxClassId: 2, stockData: { qty: 100, isInStock: true } });
    const in1h = new Date(Date.now() + 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
    const limited = await asAdmin('POST', '/coupons', {
      code: 'MEMO-ONCE',
      discountType: 'fixed',
      discountAmount: 2,
      usageLimit: 1,
      isActive: true,
    });
    const mine = await asAdmin('POST', '/coupons', {
      code: 'MEMO-MINE',
      discountType: 'fixed',
      discountAmount: 3,
      usagePerCustomer: 1,
      isActive: true,
    });
    await asAdmin('POST', '/coupons', {
      code: 'MEMO-HOUR',
      discountType: 'fixed',
      discountAmount: 4,
      expirationDate: in1h,
      isActive: true,
    });
    const a = await cart({ items: [[p.sku, 1]], coupon: 'MEMO-ONCE' });
    await changes(a, 'usage limit', () => placeTestOrder(t, { items: [{ sku: p.sku }], couponCode: limited.code }));
    const b = await cart({ customer: true, items: [[p.sku, 1]], coupon: 'MEMO-MINE' });
    await changes(b, 'uses of the customer', () =>
      placeTestOrder(t, { customerToken: customer, items: [{ sku: p.sku }], couponCode: mine.code }),
    );

    const h = await cart({ items: [[p.sku, 1]], coupon: 'MEMO-HOUR' });
    const ctx = t.systemCtx();
    const later = { ...ctx, now: new Date(ctx.now.getTime() + 2 * 3_600_000) };
    const now1 = await shown(ctx, (await loadCart(ctx, h.ref))!);
    const now2 = await shown(ctx, (await loadCart(ctx, h.ref))!);
    assert.equal(now2.priced.totals, now1.priced.totals, 'remembered');
    assert.equal(now1.priced.totals.discountAmount.toString(), '4');
    const then = await shown(later, (await loadCart(later, h.ref))!);
    assert.equal(then.priced.totals.discountAmount.toString(), '0', 'expired two hours later');
    assert.equal(then.priced.couponRefusal, 'Coupon has expired');
    assert.deepEqual(pricesDto(then.priced), await fullPrices(h, later));
  });

  test('a currency rate and a second process’s writes', async () => {
    const p = await createTestProduct(t, { price: 19.99, taxClassId: 2, stockData: { qty: 100, isInStock: true } });
    const eur = await cart({ storeId: 2, items: [[p.sku, 3]] });
    await changes(eur, 'currency rate', () => setCurrencyRate(t.database.db, t.services.settings, 'USD', 'EUR', '0.95'));

    const other = await buildSecondApp(t);
    try {
      const c = await cart({ items: [[p.sku, 1]], coupon: 'WELCOME10' });
      const via = (method: string, url: string, body?: unknown) =>
        other.app.inject({
          method: method as 'PUT',
          url: `${API}${url}`,
          headers: { authorization: `Bearer ${admin}` },
          payload: body as object,
        });
      const item = (await t.req('GET', c.url)).body.items[0].id;
      await changes(c, 'qty, from another process', () =>
        other.app.inject({ method: 'PUT', url: `${c.url}/items/${item}`, payload: { qty: 4 } }),
      );
      await changes(c, 'price, from another process', () => via('PUT', `/products/${p.id}`, { price: 21 }));
      const welcome = (await asAdmin('GET', '/coupons?itemsPerPage=100')).member.find((x: { code: string }) => x.code === 'WELCOME10');
      await changes(c, 'rule, from another process', () => via('PUT', `/coupons/${welcome.id}`, { discountAmount: 12 }));
    } finally {
      await other.app.close();
    }
  });
});

describe('reads in parallel with changes', () => {
  test('a read that starts after a change was committed shows it; one that overlaps it shows either side', async () => {
    const p = await createTestProduct(t, { price: 50, taxClassId: 2, stockData: { qty: 100, isInStock: true } });
    const rule = await asAdmin('POST', '/coupons', { code: 'MEMO-RACE', discountType: 'percent', discountAmount: 1, isActive: true });
    const card = await asAdmin('POST', '/giftcards', { code: 'GC-MEMO-RACE', initialBalance: 500, currencyCode: 'USD' });
    const c = await cart({ items: [[p.sku, 2]], coupon: 'MEMO-RACE', giftcard: 'GC-MEMO-RACE' });
    let before = { pct: 1, price: 50, balance: 500 };
    for (let k = 2; k <= 13; k++) {
      const next = { pct: k, price: k % 3 === 0 ? 50 + k : before.price, balance: 500 - k };
      // reads in flight while the rule, the card and (every third time) the price change
      const inFlight = Array.from({ length: 8 }, () => shownPrices(c));
      await Promise.all([
        asAdmin('PUT', `/coupons/${rule.id}`, { discountAmount: next.pct }),
        asAdmin('PUT', `/giftcards/${card.id}`, { balance: next.balance }),
        next.price !== before.price ? asAdmin('PUT', `/products/${p.id}`, { price: next.price }) : Promise.resolve(),
      ]);
      const expected = await fullPrices(c);
      assert.equal(expected.subtotal, 2 * next.price);
      assert.equal(
        expected.discountAmount,
        Number(
          roundMoney(
            dec(2 * next.price)
              .mul(next.pct)
              .div(100),
          ),
        ),
      );
      for (const a of await Promise.all(Array.from({ length: 4 }, () => shownPrices(c)))) {
        assert.deepEqual(a, expected, `change ${k}: a read after the changes`);
      }
      // an overlapping read saw each of the three before or after its change
      for (const seen of await Promise.all(inFlight)) {
        const prices = [before.price, next.price];
        const pcts = [before.pct, next.pct];
        assert.ok(
          prices.some((x) => seen.subtotal === 2 * x),
          `change ${k}: subtotal ${seen.subtotal}`,
        );
        const discounts = prices.flatMap((x) =>
          pcts.map((q) =>
            Number(
              roundMoney(
                dec(2 * x)
                  .mul(q)
                  .div(100),
              ),
            ),
          ),
        );
        assert.ok(discounts.includes(seen.discountAmount), `change ${k}: discount ${seen.discountAmount} of ${discounts}`);
      }
      before = next;
    }
  });
});
