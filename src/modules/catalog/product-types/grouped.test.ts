import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { asc, eq } from 'drizzle-orm';
import { API, buildTestApp, type Res, type TestApp } from '../../../../test/helpers.js';
import { createTestProduct } from '../../../../test/fixtures/catalog.js';
import { groupedChildren, products } from '../tables.js';

let t: TestApp;
let admin: string;
let customer: string;
let reader: string;
let writer: string;
let deleter: string;

let a: Record<string, any>;
let b: Record<string, any>;
let v: Record<string, any>;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  reader = await t.tokens.apiUser(['products/read']);
  writer = await t.tokens.apiUser(['products/write']);
  deleter = await t.tokens.apiUser(['products/delete']);
  a = await createTestProduct(t, { price: 12 });
  b = await createTestProduct(t, { price: 30 });
  v = await createTestProduct(t, { type: 'virtual', price: 7 });
});
after(() => t.close());

const JSON_ONLY = { accept: 'application/json' };
const url = (id: number) => `${API}/products/${id}/grouped`;
const grouped = () => createTestProduct(t, { type: 'grouped' });

function assertError(r: Res, status: number, error?: string) {
  assert.equal(r.status, status, r.text);
  if (error) assert.equal(r.body.error, error, r.text);
  assert.equal(typeof r.body.message, 'string');
}

async function snapshot(parentId: number) {
  const rows = await t.database.db
    .select()
    .from(groupedChildren)
    .where(eq(groupedChildren.parentId, parentId))
    .orderBy(asc(groupedChildren.childId));
  return JSON.stringify(rows);
}

async function range(id: number) {
  const [r] = await t.database.db.select({ min: products.minPrice, max: products.maxPrice }).from(products).where(eq(products.id, id));
  return { min: r.min === null ? null : Number(r.min), max: r.max === null ? null : Number(r.max) };
}

describe('grouped products', () => {
  test('POST adds a child (201), GET lists children by position publicly', async () => {
    const g = await grouped();
    let r = await t.req('POST', url(g.id), { token: admin, body: { childProductId: a.id, qty: 2, position: 5 } });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body, {
      id: `${g.id}_${a.id}`,
      childProductId: a.id,
      childProductSku: a.sku,
      childProductName: a.name,
      qty: 2,
      position: 5,
    });
    r = await t.req('POST', url(g.id), { token: admin, body: { childProductId: v.id } });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body, {
      id: `${g.id}_${v.id}`,
      childProductId: v.id,
      childProductSku: v.sku,
      childProductName: v.name,
      qty: 0,
      position: 0,
    });
    const l = await t.req('GET', url(g.id));
    assert.equal(l.status, 200);
    assert.equal(l.body['@type'], 'Collection');
    assert.equal(l.body.totalItems, 2);
    assert.deepEqual(
      l.body.member.map((m: { childProductId: number }) => m.childProductId),
      [v.id, a.id],
    );
  });

  test('PUT replaces all children with the array; an empty array removes them', async () => {
    const g = await grouped();
    await t.req('POST', url(g.id), { token: admin, body: { childProductId: a.id } });
    let r = await t.req('PUT', url(g.id), {
      token: admin,
      body: [
        { childProductId: b.id, qty: 1.5, position: 2 },
        { childProductId: v.id, position: 1 },
      ],
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.member, [
      { id: `${g.id}_${v.id}`, childProductId: v.id, childProductSku: v.sku, childProductName: v.name, qty: 0, position: 1 },
      { id: `${g.id}_${b.id}`, childProductId: b.id, childProductSku: b.sku, childProductName: b.name, qty: 1.5, position: 2 },
    ]);
    r = await t.req('PUT', url(g.id), { token: admin, body: [], headers: JSON_ONLY });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, []);
    assert.equal(await snapshot(g.id), '[]');
  });

  test('DELETE /grouped/{childProductId} removes a child (204); not a child → 404', async () => {
    const g = await grouped();
    await t.req('POST', url(g.id), { token: admin, body: { childProductId: a.id } });
    await t.req('POST', url(g.id), { token: admin, body: { childProductId: b.id } });
    let r = await t.req('DELETE', `${url(g.id)}/${a.id}`, { token: admin });
    assert.equal(r.status, 204);
    assert.equal(r.text, '');
    const before = await snapshot(g.id);
    r = await t.req('DELETE', `${url(g.id)}/${a.id}`, { token: admin });
    assertError(r, 404, 'not_found');
    assertError(await t.req('DELETE', `${url(g.id)}/999999`, { token: admin }), 404, 'not_found');
    assertError(await t.req('DELETE', `${url(g.id)}/abc`, { token: admin }), 400, 'bad_request');
    assert.equal(await snapshot(g.id), before);
  });

  test('rows have composite string ids "<productId>_<childProductId>" and integer childProductIds, in JSON-LD and JSON', async () => {
    const g = await grouped();
    const r = await t.req('PUT', url(g.id), { token: admin, body: [{ childProductId: a.id }], headers: JSON_ONLY });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      r.body.map((c: { id: unknown; childProductId: unknown }) => [c.id, c.childProductId]),
      [[`${g.id}_${a.id}`, a.id]],
    );
    const ld = await t.req('GET', url(g.id));
    assert.equal(ld.body.member[0].id, `${g.id}_${a.id}`);
    assert.equal(typeof ld.body.member[0].childProductId, 'number');
  });

  describe('refusals change nothing', () => {
    let g: Record<string, any>;
    let conf: Record<string, any>;
    let other: Record<string, any>;
    before(async () => {
      g = await grouped();
      conf = await createTestProduct(t, { type: 'configurable' });
      other = await grouped();
      await t.req('POST', url(g.id), { token: admin, body: { childProductId: a.id, qty: 1 } });
    });
    test('POST', async () => {
      const before = await snapshot(g.id);
      const cases: [unknown, number, RegExp][] = [
        [{}, 400, /childProductId/],
        [{ childProductId: 999999 }, 400, /does not exist/],
        [{ childProductId: conf.id }, 400, /simple or virtual/],
        [{ childProductId: other.id }, 400, /simple or virtual/],
        [{ childProductId: g.id }, 400, /simple or virtual/],
        [{ childProductId: b.id, qty: -1 }, 400, /qty must be at least 0/],
        [{ childProductId: b.id, qty: 'two' }, 400, /qty/],
        [{ childProductId: b.id, qty: 0.00001 }, 400, /qty must have at most 4 decimal places/],
        [{ childProductId: b.id, position: 1.5 }, 400, /position/],
        [{ childProductId: '5' }, 400, /childProductId/],
        [[{ childProductId: b.id }], 400, /./],
        [{ childProductId: a.id }, 409, /already a child/],
      ];
      for (const [body, status, msg] of cases) {
        const r = await t.req('POST', url(g.id), { token: admin, body });
        assertError(r, status);
        assert.match(r.body.message, msg, JSON.stringify(body));
      }
      assertError(
        await t.req('POST', url(g.id), { token: admin, raw: '{"childProductId":', headers: { 'content-type': 'application/json' } }),
        400,
        'bad_request',
      );
      assert.equal(await snapshot(g.id), before);
    });
    test('PUT', async () => {
      const before = await snapshot(g.id);
      const cases: [unknown, RegExp][] = [
        [[{ childProductId: b.id }, { childProductId: b.id }], /listed twice/],
        [[{ childProductId: b.id }, { childProductId: 999999 }], /does not exist/],
        [[{ childProductId: conf.id }], /simple or virtual/],
        [[{ childProductId: b.id, qty: -0.5 }], /qty must be at least 0/],
        [[{ childProductId: b.id, qty: 1.23456 }], /\[0\]\.qty must have at most 4 decimal places/],
        [{ childProductId: b.id }, /./],
        [[{ qty: 1 }], /childProductId/],
      ];
      for (const [body, msg] of cases) {
        const r = await t.req('PUT', url(g.id), { token: admin, body });
        assertError(r, 400, 'bad_request');
        assert.match(r.body.message, msg, JSON.stringify(body));
      }
      assert.equal(await snapshot(g.id), before);
    });
  });

  test('only grouped products have grouped children (400); unknown products 404', async () => {
    for (const type of ['simple', 'bundle', 'configurable']) {
      const p = await createTestProduct(t, { type });
      assertError(await t.req('GET', url(p.id)), 400, 'bad_request');
      assertError(await t.req('POST', url(p.id), { token: admin, body: { childProductId: a.id } }), 400, 'bad_request');
      assertError(await t.req('PUT', url(p.id), { token: admin, body: [{ childProductId: a.id }] }), 400, 'bad_request');
      assertError(await t.req('DELETE', `${url(p.id)}/${a.id}`, { token: admin }), 400, 'bad_request');
      assert.equal(await snapshot(p.id), '[]');
    }
    assertError(await t.req('GET', url(999999)), 404, 'not_found');
    assertError(await t.req('POST', url(999999), { token: admin, body: { childProductId: a.id } }), 404, 'not_found');
  });

  test("the grouped product's price range follows its children", async () => {
    const g = await grouped();
    await t.req('POST', url(g.id), { token: admin, body: { childProductId: a.id } });
    assert.deepEqual(await range(g.id), { min: 12, max: 12 });
    await t.req('POST', url(g.id), { token: admin, body: { childProductId: b.id } });
    await t.req('POST', url(g.id), { token: admin, body: { childProductId: v.id } });
    assert.deepEqual(await range(g.id), { min: 7, max: 30 });
    await t.req('DELETE', `${url(g.id)}/${v.id}`, { token: admin });
    assert.deepEqual(await range(g.id), { min: 12, max: 30 });
    await t.req('PUT', url(g.id), { token: admin, body: [{ childProductId: b.id }] });
    assert.deepEqual(await range(g.id), { min: 30, max: 30 });
    const r = await t.req('GET', `${API}/products/${g.id}`, { token: admin });
    assert.equal(r.body.minimalPrice, 30);
  });

  test('storefront callers see only enabled children; a disabled grouped product is 404 to them', async () => {
    const g = await grouped();
    const off = await createTestProduct(t, { price: 3 });
    await t.req('PUT', url(g.id), { token: admin, body: [{ childProductId: a.id }, { childProductId: off.id }] });
    await t.req('PUT', `${API}/products/${off.id}`, { token: admin, body: { isActive: false } });
    assert.deepEqual(
      (await t.req('GET', url(g.id), { headers: JSON_ONLY })).body.map((c: { childProductId: number }) => c.childProductId),
      [a.id],
    );
    assert.equal((await t.req('GET', url(g.id), { token: reader, headers: JSON_ONLY })).body.length, 2);
    await t.req('PUT', `${API}/products/${g.id}`, { token: admin, body: { isActive: false } });
    assertError(await t.req('GET', url(g.id)), 404, 'not_found');
    assert.equal((await t.req('GET', url(g.id), { token: admin })).status, 200);
  });

  describe('access', () => {
    let g: Record<string, any>;
    before(async () => {
      g = await grouped();
      await t.req('POST', url(g.id), { token: admin, body: { childProductId: a.id } });
    });
    test('GET is public', async () => {
      for (const token of [undefined, customer, reader]) assert.equal((await t.req('GET', url(g.id), { token })).status, 200);
    });
    test('writes: anonymous 401, customer 403, products/read only 403; nothing changes', async () => {
      const before = await snapshot(g.id);
      const calls: [string, string, unknown][] = [
        ['POST', url(g.id), { childProductId: b.id }],
        ['PUT', url(g.id), []],
        ['DELETE', `${url(g.id)}/${a.id}`, undefined],
      ];
      for (const [method, path, body] of calls) {
        assertError(await t.req(method, path, { body }), 401, 'unauthorized');
        assertError(await t.req(method, path, { token: customer, body }), 403, 'forbidden');
        assertError(await t.req(method, path, { token: reader, body }), 403, 'forbidden');
        // removing a child changes the grouped product: products/delete alone is not enough, for DELETE either
        assertError(await t.req(method, path, { token: deleter, body }), 403, 'forbidden');
      }
      assert.equal(await snapshot(g.id), before);
    });
    test('products/write is enough', async () => {
      assert.equal((await t.req('POST', url(g.id), { token: writer, body: { childProductId: b.id } })).status, 201);
      assert.equal((await t.req('DELETE', `${url(g.id)}/${b.id}`, { token: writer })).status, 204);
      assert.equal((await t.req('PUT', url(g.id), { token: writer, body: [{ childProductId: a.id }] })).status, 200);
    });
  });
});
