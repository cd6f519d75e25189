/**
 * Concurrent changes to one cart apply one after the other; shoppers' coupon and gift-card attempts on carts
 * count against the same per-IP limits as /coupons/validate and the balance check; uploaded option files.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';

let t: TestApp;
let sku: string;

before(async () => {
  t = await buildTestApp({ env: { RATE_LIMITS: '1' } });
  sku = (await createTestProduct(t, { price: 10, stockData: { qty: 1000, isInStock: true } })).sku;
});
after(() => t.close());

let nextIp = 10;
const freshIp = () => `127.0.3.${nextIp++}`;

async function call(method: string, url: string, body: unknown, ip: string, token?: string) {
  const r = await t.app.inject({
    method: method as 'POST',
    url,
    remoteAddress: ip,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    payload: JSON.stringify(body),
  });
  return { status: r.statusCode, body: r.body ? JSON.parse(r.body) : undefined };
}

describe('concurrency', () => {
  test('20 parallel adds of one product to one cart end as one line of 20', async () => {
    const m = (await t.req('POST', `${API}/guest-carts`, { body: {} })).body.maskedId;
    const results = await Promise.all(
      Array.from({ length: 20 }, () => t.req('POST', `${API}/guest-carts/${m}/items`, { body: { sku, qty: 1 } })),
    );
    assert.deepEqual(
      results.map((r) => r.status),
      Array(20).fill(200),
    );
    const cart = await t.req('GET', `${API}/guest-carts/${m}`);
    assert.equal(cart.body.items.length, 1);
    assert.equal(cart.body.items[0].qty, 20);
  });

  test('parallel gift-card applies of one card to one cart apply it once', async () => {
    const m = (await t.req('POST', `${API}/guest-carts`, { body: {} })).body.maskedId;
    await t.req('POST', `${API}/guest-carts/${m}/items`, { body: { sku } });
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        call('POST', `${API}/guest-carts/${m}/giftcards`, { giftcardCode: 'GC-DEMO-0000-0000-0001' }, freshIp()),
      ),
    );
    assert.equal(results.filter((r) => r.status === 200).length, 1);
    assert.equal(results.filter((r) => r.status === 400).length, 4);
    assert.equal((await t.req('GET', `${API}/guest-carts/${m}`)).body.appliedGiftcards.length, 1);
  });
});

describe('rate limits', () => {
  test('the 21st coupon attempt within a minute from one IP is refused (cart apply and validate share it)', async () => {
    const ip = freshIp();
    const m = (await t.req('POST', `${API}/guest-carts`, { body: {} })).body.maskedId;
    for (let i = 0; i < 10; i++) assert.equal((await call('POST', `${API}/coupons/validate`, { code: `NOPE${i}` }, ip)).status, 201);
    for (let i = 0; i < 10; i++)
      assert.equal((await call('POST', `${API}/guest-carts/${m}/coupon`, { couponCode: `NOPE${i}` }, ip)).status, 400);
    const limited = await call('POST', `${API}/guest-carts/${m}/coupon`, { couponCode: 'WELCOME10' }, ip);
    assert.equal(limited.status, 429);
    assert.equal(limited.body.error, 'too_many_requests');
    // the back office is not limited
    const admin = await t.tokens.admin();
    const cart = (await call('POST', `${API}/carts`, {}, ip, admin)).body.id;
    assert.equal((await call('POST', `${API}/carts/${cart}/coupon`, { couponCode: 'NOPE' }, ip, admin)).status, 400);
  });

  test('the 11th gift-card attempt within a minute from one IP is refused', async () => {
    const ip = freshIp();
    const m = (await t.req('POST', `${API}/guest-carts`, { body: {} })).body.maskedId;
    for (let i = 0; i < 10; i++)
      assert.equal((await call('POST', `${API}/guest-carts/${m}/giftcards`, { giftcardCode: `NOPE-${i}` }, ip)).status, 400);
    assert.equal((await call('POST', `${API}/guest-carts/${m}/giftcards`, { giftcardCode: 'GC-DEMO-0000-0000-0001' }, ip)).status, 429);
  });
});

describe('file options', () => {
  test('a file option takes an uploaded file, checked by content; the line shows its name', async () => {
    const admin = await t.tokens.admin();
    const p = await createTestProduct(t, { price: 10, stockData: { qty: 10, isInStock: true } });
    const o = await t.req('POST', `${API}/products/${p.id}/custom-options`, {
      token: admin,
      body: { title: 'Artwork', type: 'file', required: true, price: 2, priceType: 'fixed', fileExtensions: 'png' },
    });
    assert.equal(o.status, 201, o.text);
    const m = (await t.req('POST', `${API}/guest-carts`, { body: {} })).body.maskedId;
    const png = Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da6364f8cf500f0003860180f1b8e5720000000049454e44ae426082',
      'hex',
    );
    let r = await t.req('POST', `${API}/guest-carts/${m}/items`, { body: { sku: p.sku } });
    assert.equal(r.status, 400, 'the file is required');
    r = await t.req('POST', `${API}/guest-carts/${m}/items`, {
      body: { sku: p.sku, optionsFiles: { [o.body.id]: { name: 'art.png', base64: 'PGh0bWw+' } } },
    });
    assert.equal(r.status, 400, 'not a PNG');
    r = await t.req('POST', `${API}/guest-carts/${m}/items`, {
      body: { sku: p.sku, options_files: { [o.body.id]: { name: 'art.png', base64: png.toString('base64') } } },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.items[0].price, 12);
    assert.deepEqual(r.body.items[0].options, [{ label: 'Artwork', value: 'art.png' }]);
  });
});
