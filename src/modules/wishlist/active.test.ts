/**
 * wishlist/general/active = 0 (advertised as wishlistEnabled in the store config): every wishlist operation
 * answers 404 WISHLIST_DISABLED, as Maho's wishlist controller answers its no-route page, and changes nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { deleteConfig, setConfig } from '../stores/service.js';

let t: TestApp;
let customer: string;
const W = `${API}/customers/me/wishlist`;

before(async () => {
  t = await buildTestApp();
  customer = await t.tokens.customer();
});
after(() => t.close());

describe('wishlist switch', () => {
  test('with wishlist/general/active = 0 every operation is a 404 and nothing changes', async () => {
    const p = await createTestProduct(t, { price: 5, stockData: { qty: 10, isInStock: true } });
    const added = await t.req('POST', W, { token: customer, body: { productId: p.id } });
    assert.equal(added.status, 201, added.text);
    const itemId = added.body.id as number;
    await setConfig(t.database.db, t.services.settings, 'wishlist/general/active', '0');
    try {
      assert.equal((await t.req('GET', `${API}/store-config`)).body.wishlistEnabled, false);
      const routes: [string, string, unknown][] = [
        ['GET', W, undefined],
        ['POST', W, { productId: p.id }],
        ['DELETE', `${W}/${itemId}`, undefined],
        ['POST', `${W}/${itemId}/move-to-cart`, {}],
        ['POST', `${W}/sync`, { productIds: [p.id] }],
      ];
      for (const [method, url, body] of routes) {
        const r = await t.req(method, url, { token: customer, body });
        assert.equal(r.status, 404, `${method} ${url}: ${r.text}`);
        assert.equal(r.body.error, 'not_found');
        assert.match(r.body.message, /wishlist is disabled/i);
      }
      const gql = await t.gql('{ myWishlistItems { totalCount } }', customer);
      assert.equal(gql.errors?.[0]?.extensions?.code, 'WISHLIST_DISABLED', JSON.stringify(gql));
    } finally {
      await deleteConfig(t.database.db, t.services.settings, 'wishlist/general/active');
    }
    const list = await t.req('GET', W, { token: customer });
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.member.map((i: { id: number }) => i.id),
      [itemId],
    );
    assert.equal(list.body.member[0].qty, 1);
  });
});
