import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { and, asc, eq } from 'drizzle-orm';
import { API, buildTestApp, type Res, type TestApp } from '../../../../test/helpers.js';
import { createTestProduct } from '../../../../test/fixtures/catalog.js';
import { productLinks } from '../tables.js';

let t: TestApp;
let admin: string;
let customer: string;
let reader: string;
let writer: string;
let deleter: string;

let x: Record<string, any>;
let y: Record<string, any>;
let z: Record<string, any>;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  reader = await t.tokens.apiUser(['products/read']);
  writer = await t.tokens.apiUser(['products/write']);
  deleter = await t.tokens.apiUser(['products/delete']);
  x = await createTestProduct(t);
  y = await createTestProduct(t, { type: 'configurable' });
  z = await createTestProduct(t, { type: 'virtual' });
});
after(() => t.close());

const JSON_ONLY = { accept: 'application/json' };
const KINDS = [
  ['related', 'related'],
  ['cross-sell', 'cross_sell'],
  ['up-sell', 'up_sell'],
] as const;
const url = (id: number, kind: string) => `${API}/products/${id}/links/${kind}`;
/** A link row of product `owner` to `p`: its id is the composite "<productId>_<linkedProductId>" string. */
const item = (owner: number, p: Record<string, any>, position: number) => ({
  id: `${owner}_${p.id}`,
  linkedProductId: p.id,
  linkedProductSku: p.sku,
  linkedProductName: p.name,
  position,
});

function assertError(r: Res, status: number, error?: string) {
  assert.equal(r.status, status, r.text);
  if (error) assert.equal(r.body.error, error, r.text);
  assert.equal(typeof r.body.message, 'string');
}

async function snapshot(productId: number) {
  const rows = await t.database.db
    .select()
    .from(productLinks)
    .where(eq(productLinks.productId, productId))
    .orderBy(asc(productLinks.type), asc(productLinks.linkedProductId));
  return JSON.stringify(rows);
}

for (const [kind, stored] of KINDS) {
  describe(`links/${kind}`, () => {
    test('POST adds (201), GET lists by position publicly, each kind apart from the others', async () => {
      const p = await createTestProduct(t);
      let r = await t.req('POST', url(p.id, kind), { token: admin, body: { linkedProductId: x.id, position: 3 } });
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(r.body, item(p.id, x, 3));
      r = await t.req('POST', url(p.id, kind), { token: admin, body: { linkedProductId: y.id } });
      assert.deepEqual(r.body, item(p.id, y, 0));
      const g = await t.req('GET', url(p.id, kind));
      assert.equal(g.status, 200);
      assert.equal(g.body['@type'], 'Collection');
      assert.deepEqual(g.body.member, [item(p.id, y, 0), item(p.id, x, 3)]);
      const rows = await t.database.db
        .select()
        .from(productLinks)
        .where(and(eq(productLinks.productId, p.id), eq(productLinks.type, stored)));
      assert.equal(rows.length, 2);
      for (const [other] of KINDS.filter(([k]) => k !== kind)) {
        assert.deepEqual((await t.req('GET', url(p.id, other), { headers: JSON_ONLY })).body, []);
      }
    });

    test('PUT replaces the list (an empty array clears it); DELETE removes one (204) and 404 when absent', async () => {
      const p = await createTestProduct(t);
      await t.req('POST', url(p.id, kind), { token: admin, body: { linkedProductId: x.id } });
      let r = await t.req('PUT', url(p.id, kind), {
        token: admin,
        body: [
          { linkedProductId: z.id, position: 2 },
          { linkedProductId: y.id, position: 1 },
        ],
        headers: JSON_ONLY,
      });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body, [item(p.id, y, 1), item(p.id, z, 2)]);
      r = await t.req('DELETE', `${url(p.id, kind)}/${y.id}`, { token: admin });
      assert.equal(r.status, 204);
      assert.equal(r.text, '');
      assertError(await t.req('DELETE', `${url(p.id, kind)}/${y.id}`, { token: admin }), 404, 'not_found');
      assertError(await t.req('DELETE', `${url(p.id, kind)}/${x.id}`, { token: admin }), 404, 'not_found');
      assert.deepEqual((await t.req('GET', url(p.id, kind), { headers: JSON_ONLY })).body, [item(p.id, z, 2)]);
      r = await t.req('PUT', url(p.id, kind), { token: admin, body: [] });
      assert.equal(r.status, 200);
      assert.equal(r.body.totalItems, 0);
    });

    test('refusals: self link 400, unknown product 400, duplicate 409 (POST) / 400 (PUT), bad input 400; nothing changes', async () => {
      const p = await createTestProduct(t);
      await t.req('POST', url(p.id, kind), { token: admin, body: { linkedProductId: x.id } });
      const before = await snapshot(p.id);
      let r = await t.req('POST', url(p.id, kind), { token: admin, body: { linkedProductId: p.id } });
      assertError(r, 400, 'bad_request');
      assert.match(r.body.message, /itself/);
      r = await t.req('POST', url(p.id, kind), { token: admin, body: { linkedProductId: 999999 } });
      assertError(r, 400, 'bad_request');
      assert.match(r.body.message, /does not exist/);
      r = await t.req('POST', url(p.id, kind), { token: admin, body: { linkedProductId: x.id, position: 9 } });
      assertError(r, 409, 'conflict');
      assertError(await t.req('POST', url(p.id, kind), { token: admin, body: {} }), 400, 'bad_request');
      assertError(await t.req('POST', url(p.id, kind), { token: admin, body: { linkedProductId: 'x' } }), 400, 'bad_request');
      assertError(
        await t.req('POST', url(p.id, kind), { token: admin, body: { linkedProductId: y.id, position: 'first' } }),
        400,
        'bad_request',
      );
      assertError(
        await t.req('POST', url(p.id, kind), { token: admin, raw: '{"linkedProductId":', headers: { 'content-type': 'application/json' } }),
        400,
        'bad_request',
      );
      const puts: [unknown, RegExp][] = [
        [[{ linkedProductId: y.id }, { linkedProductId: p.id }], /itself/],
        [[{ linkedProductId: y.id }, { linkedProductId: y.id }], /listed twice/],
        [[{ linkedProductId: 999999 }], /does not exist/],
        [{ linkedProductId: y.id }, /./],
        [[{ position: 1 }], /linkedProductId/],
      ];
      for (const [body, msg] of puts) {
        r = await t.req('PUT', url(p.id, kind), { token: admin, body });
        assertError(r, 400, 'bad_request');
        assert.match(r.body.message, msg, JSON.stringify(body));
      }
      assert.equal(await snapshot(p.id), before);
    });

    test('unknown product → 404', async () => {
      assertError(await t.req('GET', url(999999, kind)), 404, 'not_found');
      assertError(await t.req('POST', url(999999, kind), { token: admin, body: { linkedProductId: x.id } }), 404, 'not_found');
      assertError(await t.req('PUT', url(999999, kind), { token: admin, body: [] }), 404, 'not_found');
      assertError(await t.req('DELETE', `${url(999999, kind)}/${x.id}`, { token: admin }), 404, 'not_found');
    });

    test('access: GET public; writes anonymous 401, customer 403, products/read 403, products/write allowed', async () => {
      const p = await createTestProduct(t);
      await t.req('POST', url(p.id, kind), { token: admin, body: { linkedProductId: x.id } });
      for (const token of [undefined, customer, reader]) assert.equal((await t.req('GET', url(p.id, kind), { token })).status, 200);
      const before = await snapshot(p.id);
      const calls: [string, string, unknown][] = [
        ['POST', url(p.id, kind), { linkedProductId: y.id }],
        ['PUT', url(p.id, kind), []],
        ['DELETE', `${url(p.id, kind)}/${x.id}`, undefined],
      ];
      for (const [method, path, body] of calls) {
        assertError(await t.req(method, path, { body }), 401, 'unauthorized');
        assertError(await t.req(method, path, { token: customer, body }), 403, 'forbidden');
        assertError(await t.req(method, path, { token: reader, body }), 403, 'forbidden');
        // removing a link changes the product: products/delete alone is not enough, for DELETE either
        assertError(await t.req(method, path, { token: deleter, body }), 403, 'forbidden');
      }
      assert.equal(await snapshot(p.id), before);
      assert.equal((await t.req('POST', url(p.id, kind), { token: writer, body: { linkedProductId: y.id } })).status, 201);
      assert.equal((await t.req('PUT', url(p.id, kind), { token: writer, body: [{ linkedProductId: z.id }] })).status, 200);
      assert.equal((await t.req('DELETE', `${url(p.id, kind)}/${z.id}`, { token: writer })).status, 204);
    });
  });
}

test('link rows have composite string ids "<productId>_<linkedProductId>" and integer linkedProductIds (JSON-LD and JSON)', async () => {
  const p = await createTestProduct(t);
  const r = await t.req('POST', url(p.id, 'up-sell'), { token: admin, body: { linkedProductId: z.id, position: 1 } });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.body.id, `${p.id}_${z.id}`);
  assert.equal(r.body.linkedProductId, z.id);
  const ld = await t.req('GET', url(p.id, 'up-sell'));
  assert.deepEqual(
    ld.body.member.map((l: { id: unknown; linkedProductId: unknown }) => [l.id, l.linkedProductId]),
    [[`${p.id}_${z.id}`, z.id]],
  );
  const plain = await t.req('PUT', url(p.id, 'up-sell'), { token: admin, body: [{ linkedProductId: x.id }], headers: JSON_ONLY });
  assert.equal(plain.status, 200, plain.text);
  assert.deepEqual(plain.body, [item(p.id, x, 0)]);
  assert.equal(typeof plain.body[0].id, 'string');
});

describe('what storefront callers see', () => {
  test('only linked products that are enabled and visible in the catalog; backend readers see all', async () => {
    const p = await createTestProduct(t);
    const visible = await createTestProduct(t);
    const disabled = await createTestProduct(t, { isActive: false });
    const searchOnly = await createTestProduct(t, { visibility: 'search' });
    const hiddenOne = await createTestProduct(t, { visibility: 'not_visible' });
    const catalogOnly = await createTestProduct(t, { visibility: 'catalog' });
    const all = [visible, disabled, searchOnly, hiddenOne, catalogOnly];
    const r = await t.req('PUT', url(p.id, 'related'), { token: admin, body: all.map((q, i) => ({ linkedProductId: q.id, position: i })) });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.totalItems, 5, 'the writer sees every link');
    for (const token of [undefined, customer]) {
      const g = await t.req('GET', url(p.id, 'related'), { token, headers: JSON_ONLY });
      assert.deepEqual(
        g.body.map((l: { linkedProductId: number }) => l.linkedProductId),
        [visible.id, catalogOnly.id],
      );
    }
    const adm = await t.req('GET', url(p.id, 'related'), { token: reader, headers: JSON_ONLY });
    assert.deepEqual(
      adm.body.map((l: { id: string }) => l.id),
      all.map((q) => `${p.id}_${q.id}`),
    );
  });

  test('links of a disabled product are 404 to storefront callers', async () => {
    const p = await createTestProduct(t, { isActive: false });
    assertError(await t.req('GET', url(p.id, 'up-sell')), 404, 'not_found');
    assert.equal((await t.req('GET', url(p.id, 'up-sell'), { token: admin })).status, 200);
  });

  test('the same link added twice at once: one 201, one 409', async () => {
    const p = await createTestProduct(t);
    const [r1, r2] = await Promise.all([
      t.req('POST', url(p.id, 'related'), { token: admin, body: { linkedProductId: x.id } }),
      t.req('POST', url(p.id, 'related'), { token: admin, body: { linkedProductId: x.id } }),
    ]);
    assert.deepEqual([r1.status, r2.status].sort(), [201, 409]);
  });

  test('an unknown kind of link is 404', async () => {
    assertError(await t.req('GET', url(x.id, 'similar')), 404, 'not_found');
  });

  test('deleting a linked product removes the link', async () => {
    const p = await createTestProduct(t);
    const gone = await createTestProduct(t);
    await t.req('POST', url(p.id, 'cross-sell'), { token: admin, body: { linkedProductId: gone.id } });
    const d = await t.req('DELETE', `${API}/products/${gone.id}`, { token: admin });
    assert.equal(d.status, 204, d.text);
    assert.deepEqual((await t.req('GET', url(p.id, 'cross-sell'), { token: admin, headers: JSON_ONLY })).body, []);
  });
});
