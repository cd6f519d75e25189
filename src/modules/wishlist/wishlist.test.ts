/** The customer's wishlist: list, add (merging qty), remove, move to a cart, sync; who may use it; bad input. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { registerCustomer } from '../customers/service.js';

let t: TestApp;
let admin: string;
let customer: string;
let other: string;
let apiUser: string;
let inStock: Record<string, any>;
let scarce: Record<string, any>;
let disabled: Record<string, any>;
const W = `${API}/customers/me/wishlist`;

const list = async (token = customer) => {
  const r = await t.req('GET', W, { token });
  assert.equal(r.status, 200, r.text);
  return r.body;
};

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  await registerCustomer(t.systemCtx(), { email: 'wish-other@example.com', password: 'Password123!', firstname: 'O', lastname: 'Ther' });
  other = await t.tokens.customer('wish-other@example.com', 'Password123!');
  apiUser = await t.tokens.apiUser(['all']);
  inStock = await createTestProduct(t, { price: 20, specialPrice: 15, stockData: { qty: 100, isInStock: true } });
  scarce = await createTestProduct(t, { price: 5, stockData: { qty: 1, isInStock: true } });
  disabled = await createTestProduct(t, { price: 5, status: 2, stockData: { qty: 10, isInStock: true } });
});
after(() => t.close());

describe('wishlist', () => {
  test('access: anonymous 401, admin and API tokens 403 on every route', async () => {
    const routes: [string, string, unknown][] = [
      ['GET', W, undefined],
      ['POST', W, { productId: inStock.id }],
      ['DELETE', `${W}/1`, undefined],
      ['POST', `${W}/1/move-to-cart`, {}],
      ['POST', `${W}/sync`, { productIds: [inStock.id] }],
    ];
    for (const [m, url, body] of routes) {
      assert.equal((await t.req(m, url, { body })).status, 401, `${m} ${url} anonymous`);
      assert.equal((await t.req(m, url, { body, token: admin })).status, 403, `${m} ${url} admin`);
      assert.equal((await t.req(m, url, { body, token: apiUser })).status, 403, `${m} ${url} api user`);
    }
  });

  test('empty list, then add: 201 with product data; adding again raises the qty', async () => {
    const empty = await list();
    assert.equal(empty['@type'], 'Collection');
    assert.equal(empty.totalItems, 0);
    assert.deepEqual(empty.member, []);

    const r = await t.req('POST', W, { token: customer, body: { productId: inStock.id, qty: 2, description: 'for later' } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.productId, inStock.id);
    assert.equal(r.body.productSku, inStock.sku);
    assert.equal(r.body.productName, inStock.name);
    assert.equal(r.body.productPrice, 20);
    assert.equal(r.body.productFinalPrice, 15);
    assert.equal(r.body.productType, 'simple');
    assert.equal(r.body.qty, 2);
    assert.equal(r.body.description, 'for later');
    assert.equal(r.body.inStock, true);
    assert.match(r.body.addedAt, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    assert.match(r.body.productUrl, /\.html$/);

    const again = await t.req('POST', W, { token: customer, body: { productId: inStock.id } });
    assert.equal(again.status, 201, again.text);
    assert.equal(again.body.id, r.body.id);
    assert.equal(again.body.qty, 3);
    assert.equal(again.body.description, 'for later');

    const l = await list();
    assert.equal(l.totalItems, 1);
    assert.equal(l.member.length, 1);
    assert.equal(l.member[0].qty, 3);
    const plain = await t.req('GET', W, { token: customer, headers: { accept: 'application/json' } });
    assert.ok(Array.isArray(plain.body));
    assert.equal((await list(other)).totalItems, 0, "another customer's list is separate");
  });

  test('bad input: 400 or 404, nothing added', async () => {
    const before = (await list()).totalItems;
    for (const body of [
      {},
      { productId: 'x' },
      { productId: 0 },
      { productId: inStock.id, qty: 0 },
      { productId: inStock.id, qty: 10001 },
      { productId: inStock.id, qty: 1.5 },
    ]) {
      const r = await t.req('POST', W, { token: customer, body });
      assert.equal(r.status, 400, `${JSON.stringify(body)} ${r.text}`);
    }
    assert.equal((await t.req('POST', W, { token: customer, body: { productId: 999999 } })).status, 404);
    assert.equal((await t.req('POST', W, { token: customer, body: { productId: disabled.id } })).status, 404);
    assert.equal((await t.req('DELETE', `${W}/abc`, { token: customer })).status, 400);
    assert.equal((await t.req('POST', `${W}/sync`, { token: customer, body: { productIds: [] } })).status, 400);
    assert.equal(
      (await t.req('POST', `${W}/sync`, { token: customer, body: { productIds: Array.from({ length: 101 }, (_, i) => i + 1) } })).status,
      400,
    );
    assert.equal((await list()).totalItems, before);
  });

  test('remove: 204; a foreign or unknown item is 404', async () => {
    const mine = (await t.req('POST', W, { token: other, body: { productId: scarce.id } })).body;
    assert.equal((await t.req('DELETE', `${W}/${mine.id}`, { token: customer })).status, 404);
    assert.equal((await t.req('DELETE', `${W}/999999`, { token: other })).status, 404);
    assert.equal((await list(other)).totalItems, 1);
    const r = await t.req('DELETE', `${W}/${mine.id}`, { token: other });
    assert.equal(r.status, 204);
    assert.equal((await list(other)).totalItems, 0);
    assert.equal((await t.req('DELETE', `${W}/${mine.id}`, { token: other })).status, 404);
  });

  test('move to cart: added to the named cart and removed from the list; stock refusal is 400 and keeps it', async () => {
    const item = (await t.req('POST', W, { token: other, body: { productId: scarce.id, qty: 5 } })).body;
    const cart = await t.req('POST', `${API}/carts`, { token: other, body: {} });
    assert.equal(cart.status, 201, cart.text);
    // 5 wanted, 1 in stock
    const refused = await t.req('POST', `${W}/${item.id}/move-to-cart`, { token: other, body: { cartId: cart.body.id } });
    assert.equal(refused.status, 400, refused.text);
    assert.equal((await list(other)).totalItems, 1);
    assert.equal((await t.req('GET', `${API}/carts/${cart.body.id}`, { token: other })).body.itemsCount, 0);
    // a foreign item, or another customer's cart
    assert.equal((await t.req('POST', `${W}/${item.id}/move-to-cart`, { token: customer, body: {} })).status, 404);
    const foreignCart = (await t.req('POST', `${API}/carts`, { token: customer, body: {} })).body.id;
    assert.equal(
      (await t.req('POST', `${W}/${item.id}/move-to-cart`, { token: other, body: { qty: 1, cartId: foreignCart } })).status,
      400,
    );
    assert.equal((await t.req('POST', `${W}/${item.id}/move-to-cart`, { token: other, body: { qty: 0 } })).status, 400);
    assert.equal((await t.req('POST', `${W}/${item.id}/move-to-cart`, { token: other, body: { cartId: 'nope' } })).status, 400);
    assert.equal((await list(other)).totalItems, 1);

    const moved = await t.req('POST', `${W}/${item.id}/move-to-cart`, { token: other, body: { qty: 1, cartId: String(cart.body.id) } });
    assert.equal(moved.status, 201, moved.text);
    assert.equal(moved.body.id, item.id);
    assert.equal(moved.body.productId, scarce.id);
    assert.equal((await list(other)).totalItems, 0);
    const c = (await t.req('GET', `${API}/carts/${cart.body.id}`, { token: other })).body;
    assert.equal(c.itemsCount, 1);
    assert.equal(c.items[0].sku, scarce.sku);
  });

  test('move to cart without a cart id: a new cart of the customer; a masked guest cart works too', async () => {
    const p = await createTestProduct(t, { price: 3, stockData: { qty: 50, isInStock: true } });
    const a = (await t.req('POST', W, { token: other, body: { productId: p.id, qty: 2 } })).body;
    const moved = await t.req('POST', `${W}/${a.id}/move-to-cart`, { token: other, body: {} });
    assert.equal(moved.status, 201, moved.text);
    assert.equal((await list(other)).totalItems, 0);

    const b = (await t.req('POST', W, { token: other, body: { productId: p.id } })).body;
    const guest = (await t.req('POST', `${API}/guest-carts`, { body: {} })).body;
    const r = await t.req('POST', `${W}/${b.id}/move-to-cart`, { token: other, body: { cartId: guest.maskedId } });
    assert.equal(r.status, 201, r.text);
    const g = (await t.req('GET', `${API}/guest-carts/${guest.maskedId}`)).body;
    assert.equal(g.itemsQty, 1);
  });

  test('sync: adds the missing products once, skips unknown ids; answers with the first added or first existing', async () => {
    await registerCustomer(t.systemCtx(), { email: 'wish-sync@example.com', password: 'Password123!', firstname: 'S', lastname: 'Ync' });
    const s = await t.tokens.customer('wish-sync@example.com', 'Password123!');
    const p2 = await createTestProduct(t, { price: 7, stockData: { qty: 5, isInStock: true } });
    await t.req('POST', W, { token: s, body: { productId: inStock.id } });
    const r = await t.req('POST', `${W}/sync`, { token: s, body: { productIds: [999999, inStock.id, p2.id, p2.id, scarce.id] } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.productId, p2.id, 'the first one added');
    let l = await list(s);
    assert.equal(l.totalItems, 3);
    assert.deepEqual(l.member.map((m: any) => m.productId).sort(), [inStock.id, p2.id, scarce.id].sort());
    assert.ok(l.member.every((m: any) => m.qty === 1));

    const again = await t.req('POST', `${W}/sync`, { token: s, body: { productIds: [scarce.id, inStock.id] } });
    assert.equal(again.status, 201, again.text);
    assert.equal(again.body.productId, scarce.id, 'nothing added: the first existing');
    l = await list(s);
    assert.equal(l.totalItems, 3, 'no duplicates');
    assert.equal((await t.req('POST', `${W}/sync`, { token: s, body: { productIds: [999999] } })).status, 404);
  });

  test('an out-of-stock product can be wished for and shows inStock false', async () => {
    const out = await createTestProduct(t, { price: 4, stockData: { qty: 0, isInStock: false } });
    const r = await t.req('POST', W, { token: other, body: { productId: out.id } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.inStock, false);
    assert.equal((await list(other)).member.find((m: any) => m.productId === out.id).inStock, false);
    await t.req('DELETE', `${W}/${r.body.id}`, { token: other });
  });
});
