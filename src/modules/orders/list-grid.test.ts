/** GET /orders as the back office's grid asks it: free-text search and server-side sort, with their bad input and cost. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { invoiceOrder, placeTestOrder, TEST_ADDRESS } from '../../../test/fixtures/checkout.js';
import { countStatements } from '../../platform/db.js';
import type { OrderDto } from './schemas.js';

let t: TestApp;
let admin: string;
/** qty 1, 3, 2 of a 10.00 product (5.00 shipping each): grand totals 15, 45, 30 */
let ann: OrderDto;
let bob: OrderDto;
let cleo: OrderDto;
/** in store view 2 */
let dora: OrderDto;

async function order(first: string, last: string, email: string, qty: number, storeId?: number): Promise<OrderDto> {
  const p = await createTestProduct(t, { price: 10, stockData: { qty: 100, isInStock: true } });
  return placeTestOrder(t, {
    items: [{ sku: p.sku as string, qty }],
    address: { ...TEST_ADDRESS, firstName: first, lastName: last },
    guestEmail: email,
    storeId,
  });
}

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  ann = await order('Ann', 'Archer', 'ann.archer@example.com', 1);
  bob = await order('Bob', 'Baker', 'bob@shop.example.org', 3);
  cleo = await order('Cleo', 'Archer-Baker', 'cleo@example.com', 2);
  dora = await order('Dora', 'Diaz', 'dora@example.de', 4, 2);
  // processing: the status sorts apart from the pending ones
  await invoiceOrder(t, bob.id);
});
after(() => t.close());

const list = (query: Record<string, string>, token = admin) => t.req('GET', `${API}/orders`, { token, query });
const ids = async (query: Record<string, string>) => {
  const r = await list(query);
  assert.equal(r.status, 200, r.text);
  return (r.body.member as OrderDto[]).map((o) => o.id);
};

describe('GET /orders: search', () => {
  test('finds an order by part of its number, of the customer email, first or last name, in any case', async () => {
    assert.deepEqual(await ids({ search: bob.incrementId }), [bob.id]);
    assert.deepEqual(await ids({ search: bob.incrementId.slice(-3) }), [bob.id]);
    assert.deepEqual(await ids({ search: 'SHOP.EXAMPLE' }), [bob.id]);
    assert.deepEqual(await ids({ search: 'cleo' }), [cleo.id]);
    assert.deepEqual(await ids({ search: 'archer' }), [cleo.id, ann.id]);
    assert.deepEqual(await ids({ search: '  DIAZ ' }), [dora.id]);
  });

  test('every word must be found (in any of the fields); blank is no search', async () => {
    assert.deepEqual(await ids({ search: 'ann archer' }), [ann.id]);
    assert.deepEqual(await ids({ search: 'archer baker' }), [cleo.id]);
    assert.deepEqual(await ids({ search: 'ann baker' }), []);
    assert.equal((await list({ search: '   ' })).body.totalItems, 4);
  });

  test('LIKE wildcards in the search are taken literally', async () => {
    assert.deepEqual(await ids({ search: '%' }), []);
    assert.deepEqual(await ids({ search: 'a_n' }), []);
  });

  test('the search adds to the filters, the total counts what it finds', async () => {
    const r = await list({ search: 'example.com', state: 'new' });
    assert.equal(r.body.totalItems, 2);
    assert.deepEqual(await ids({ search: 'example', storeId: '2' }), [dora.id]);
    assert.deepEqual(await ids({ search: 'archer', emailLike: 'cleo' }), [cleo.id]);
  });

  test('a token limited to store view 1 finds nothing of store view 2', async () => {
    const scoped = await t.tokens.apiUser(['orders/read'], { allowedStoreIds: [1] });
    const r = await list({ search: 'diaz' }, scoped);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.totalItems, 0);
    assert.equal((await list({ search: 'archer' }, scoped)).body.totalItems, 2);
  });

  test('a search longer than 255 characters is a 400 naming the field', async () => {
    const r = await list({ search: 'x'.repeat(256) });
    assert.equal(r.status, 400, r.text);
    assert.match(r.text, /search/);
  });
});

describe('GET /orders: sort', () => {
  test('by grand total, both ways', async () => {
    assert.deepEqual(await ids({ sortBy: 'grandTotal', sortDir: 'asc', storeId: '1' }), [ann.id, cleo.id, bob.id]);
    assert.deepEqual(await ids({ sortBy: 'grandTotal', sortDir: 'DESC', storeId: '1' }), [bob.id, cleo.id, ann.id]);
    const totals = (await list({ sortBy: 'grandTotal', storeId: '1' })).body.member.map((o: OrderDto) => o.prices.grandTotal);
    assert.deepEqual(totals, [45, 30, 15]);
  });

  test('by number and by date, oldest first when asked; newest first by default', async () => {
    assert.deepEqual(await ids({ sortBy: 'incrementId', sortDir: 'asc' }), [ann.id, bob.id, cleo.id, dora.id].sort(byNumber));
    assert.deepEqual(await ids({ sortBy: 'createdAt', sortDir: 'asc' }), [ann.id, bob.id, cleo.id, dora.id]);
    assert.deepEqual(await ids({}), [dora.id, cleo.id, bob.id, ann.id]);
    assert.deepEqual(await ids({ sortDir: 'asc' }), [ann.id, bob.id, cleo.id, dora.id]);
  });

  test('by status: processing after pending when ascending, the id breaks ties in the same direction', async () => {
    assert.deepEqual(await ids({ sortBy: 'status', sortDir: 'asc' }), [ann.id, cleo.id, dora.id, bob.id]);
    assert.deepEqual(await ids({ sortBy: 'status', sortDir: 'desc' }), [bob.id, dora.id, cleo.id, ann.id]);
    assert.deepEqual(await ids({ sortBy: 'state', sortDir: 'desc' }), [bob.id, dora.id, cleo.id, ann.id]);
  });

  test('pages of a sorted list do not overlap and cover every order', async () => {
    const seen: number[] = [];
    for (let page = 1; page <= 4; page++)
      seen.push(...(await ids({ sortBy: 'status', sortDir: 'asc', itemsPerPage: '1', page: String(page) })));
    assert.deepEqual(seen, [ann.id, cleo.id, dora.id, bob.id]);
  });

  test('an unknown sort key or direction is a 400 and lists nothing', async () => {
    const bad: Record<string, string>[] = [{ sortBy: 'customerEmail' }, { sortBy: 'grandTotal', sortDir: 'up' }, { sortBy: '' }];
    for (const query of bad) {
      const r = await list(query);
      assert.equal(r.status, 400, `${JSON.stringify(query)}: ${r.text}`);
      assert.equal(r.body.member, undefined);
    }
  });
});

describe('GET /orders: cost', () => {
  test('a searched and sorted page reads in the same few statements for one order or several', async () => {
    const measure = async (query: Record<string, string>) => {
      const { n, result } = await countStatements(() => list(query));
      assert.equal(result.status, 200, result.text);
      return { n, found: result.body.member.length as number };
    };
    // each query asked for the first time: not from the page cache
    const one = await measure({ search: 'cleo', sortBy: 'grandTotal', sortDir: 'asc' });
    const many = await measure({ search: 'example', sortBy: 'grandTotal', sortDir: 'asc' });
    assert.equal(one.found, 1);
    assert.equal(many.found, 4);
    assert.equal(many.n, one.n);
    // the token, the orders version, then the page, its count and its items
    assert.ok(one.n <= 5, `${one.n} statements`);
    // read again: from the cache
    const again = await measure({ search: 'example', sortBy: 'grandTotal', sortDir: 'asc' });
    assert.ok(again.n < many.n, `${again.n} statements cached, ${many.n} cold`);
  });
});

function byNumber(a: number, b: number): number {
  const num = (id: number) => [ann, bob, cleo, dora].find((o) => o.id === id)!.incrementId;
  return num(a).localeCompare(num(b));
}
