/** GET /reports/abandoned-carts over HTTP: which carts, their estimated value, paging, access, one statement. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { countStatements } from '../../platform/db.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let admin: string;
/** carts made here: id, how many hours ago they were last touched, active, value */
const made: { id: number; hoursAgo: number; active: boolean; items: boolean; value: string; email?: string; storeId: number }[] = [];

async function cart(storeId: number, lines: { sku: string; qty: number }[], hoursAgo: number, active = true, email?: string) {
  const created = await t.req('POST', `${API}/guest-carts`, { body: { storeId } });
  assert.equal(created.status, 201, created.text);
  const masked = created.body.maskedId;
  for (const l of lines) {
    const r = await t.req('POST', `${API}/guest-carts/${masked}/items`, {
      body: l,
      query: storeId === 2 ? { store: 'german' } : undefined,
    });
    assert.equal(r.status, 200, r.text);
  }
  const id = Number(created.body.id);
  await t.database.db.execute(sql`UPDATE carts SET updated_at = now() - make_interval(hours => ${hoursAgo}::int), is_active = ${active},
    customer_email = ${email ?? null} WHERE id = ${id}`);
  return id;
}

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  const a = await createTestProduct(t, { price: 12.5, stockData: { qty: 100, isInStock: true } });
  const b = await createTestProduct(t, { price: 3, stockData: { qty: 100, isInStock: true } });
  const add = async (
    storeId: number,
    lines: { sku: string; qty: number }[],
    hoursAgo: number,
    value: string,
    active = true,
    email?: string,
  ) =>
    made.push({
      id: await cart(storeId, lines, hoursAgo, active, email),
      hoursAgo,
      active,
      items: lines.length > 0,
      value,
      email,
      storeId,
    });
  await add(1, [{ sku: a.sku, qty: 2 }], 30, '25.00', true, 'left@example.com');
  await add(
    1,
    [
      { sku: a.sku, qty: 1 },
      { sku: b.sku, qty: 3 },
    ],
    50,
    '21.50',
  );
  await add(2, [{ sku: b.sku, qty: 1 }], 100, '3.00');
  await add(1, [{ sku: b.sku, qty: 1 }], 2, '3.00'); // recent
  await add(1, [{ sku: a.sku, qty: 1 }], 40, '12.50', false); // ordered (inactive)
  await add(1, [], 40, '0.00'); // empty
});
after(() => t.close());

function expected(hours: number, stores = [1, 2]) {
  const list = made
    .filter((c) => c.active && c.items && c.hoursAgo >= hours && stores.includes(c.storeId))
    .sort((x, y) => x.hoursAgo - y.hoursAgo);
  return { count: list.length, value: list.reduce((s, c) => s + Math.round(Number(c.value) * 100), 0), ids: list.map((c) => c.id) };
}

test('carts with items untouched for the hours asked (default 24), with their estimated value', async () => {
  for (const [q, hours] of [
    ['', 24],
    ['?hours=45', 45],
    ['?hours=1', 1],
  ] as const) {
    const r = await t.req('GET', `${API}/reports/abandoned-carts${q}`, { token: admin });
    assert.equal(r.status, 200, r.text);
    const want = expected(hours);
    assert.equal(r.body.hours, hours);
    assert.equal(r.body.count, want.count);
    assert.equal(Math.round(Number(r.body.value) * 100), want.value);
    assert.deepEqual(
      r.body.carts.map((c: { cartId: number }) => c.cartId),
      want.ids,
    );
  }
  const r = await t.req('GET', `${API}/reports/abandoned-carts`, { token: admin });
  const first = r.body.carts[0];
  assert.equal(first.email, 'left@example.com');
  assert.equal(first.subtotal, '25.00');
  assert.equal(first.items, 1);
  assert.equal(first.qty, '2');
  assert.match(first.updatedAt, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  const page2 = await t.req('GET', `${API}/reports/abandoned-carts?itemsPerPage=1&page=2`, { token: admin });
  assert.equal(page2.body.count, expected(24).count);
  assert.deepEqual(
    page2.body.carts.map((c: { cartId: number }) => c.cartId),
    expected(24).ids.slice(1, 2),
  );
  const store2 = await t.req('GET', `${API}/reports/abandoned-carts?storeId=2`, { token: admin });
  assert.equal(store2.body.count, expected(24, [2]).count);
});

test('input, access, scope, one statement', async () => {
  for (const q of ['hours=0', 'hours=x', 'hours=9000', 'storeId=99']) {
    const r = await t.req('GET', `${API}/reports/abandoned-carts?${q}`, { token: admin });
    assert.equal(r.status, 400, `${q}: ${r.text}`);
  }
  assert.equal((await t.req('GET', `${API}/reports/abandoned-carts`)).status, 401);
  assert.equal((await t.req('GET', `${API}/reports/abandoned-carts`, { token: await t.tokens.customer() })).status, 403);
  assert.equal((await t.req('GET', `${API}/reports/abandoned-carts`, { token: await t.tokens.apiUser(['carts/read']) })).status, 403);
  const limited = await t.tokens.apiUser(['reports/read'], { allowedStoreIds: [2] });
  assert.equal((await t.req('GET', `${API}/reports/abandoned-carts?storeId=1&store=german`, { token: limited })).status, 403);
  const own = await t.req('GET', `${API}/reports/abandoned-carts?store=german`, { token: limited });
  assert.equal(own.status, 200, own.text);
  assert.equal(own.body.count, expected(24, [2]).count);
  const url = `${API}/reports/abandoned-carts`;
  const auth = await countStatements(() => t.req('GET', `${url}?storeId=99`, { token: admin }));
  await t.req('GET', url, { token: admin });
  const { n } = await countStatements(() => t.req('GET', url, { token: admin }));
  assert.equal(n - auth.n, 1);
});
