import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { asc, eq, inArray } from 'drizzle-orm';
import { API, buildTestApp, type Res, type TestApp } from '../../../../test/helpers.js';
import { createTestProduct } from '../../../../test/fixtures/catalog.js';
import { bundleOptions, bundleSelections, products } from '../tables.js';

let t: TestApp;
let admin: string;
let customer: string;
let reader: string;
let writer: string;
let deleter: string;

let simpleA: Record<string, any>;
let simpleB: Record<string, any>;
let virtualC: Record<string, any>;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  reader = await t.tokens.apiUser(['products/read']);
  writer = await t.tokens.apiUser(['products/write']);
  deleter = await t.tokens.apiUser(['products/delete']);
  simpleA = await createTestProduct(t, { price: 10 });
  simpleB = await createTestProduct(t, { price: 20 });
  virtualC = await createTestProduct(t, { type: 'virtual', price: 5 });
});
after(() => t.close());

const JSON_ONLY = { accept: 'application/json' };
const url = (id: number) => `${API}/products/${id}/bundle-options`;

function assertError(r: Res, status: number, error?: string) {
  assert.equal(r.status, status, r.text);
  if (error) assert.equal(r.body.error, error, r.text);
  assert.equal(typeof r.body.message, 'string');
}

async function snapshot(productId: number) {
  const opts = await t.database.db
    .select()
    .from(bundleOptions)
    .where(eq(bundleOptions.productId, productId))
    .orderBy(asc(bundleOptions.id));
  const sels = opts.length
    ? await t.database.db
        .select()
        .from(bundleSelections)
        .where(
          inArray(
            bundleSelections.optionId,
            opts.map((o) => o.id),
          ),
        )
        .orderBy(asc(bundleSelections.id))
    : [];
  return JSON.stringify({ opts, sels });
}

async function range(id: number) {
  const [r] = await t.database.db.select({ min: products.minPrice, max: products.maxPrice }).from(products).where(eq(products.id, id));
  return { min: r.min === null ? null : Number(r.min), max: r.max === null ? null : Number(r.max) };
}

async function bundle() {
  return createTestProduct(t, { type: 'bundle', priceType: 0, skuType: 0 });
}

/** A fixed-price bundle: its selections carry prices. */
async function fixedBundle() {
  return createTestProduct(t, { type: 'bundle', priceType: 1, skuType: 0, price: 50 });
}

async function hasRequiredOptions(id: number): Promise<boolean> {
  const r = await t.req('GET', `${API}/products/${id}`, { token: admin });
  assert.equal(r.status, 200, r.text);
  return r.body.hasRequiredOptions;
}

describe('bundle options', () => {
  test('POST adds an option with selections (201) and GET shows it publicly in the wire shape', async () => {
    const b = await fixedBundle();
    const r = await t.req('POST', url(b.id), {
      token: admin,
      body: {
        title: ' Size pack ',
        type: 'radio',
        required: true,
        position: 2,
        selections: [
          { productId: simpleA.id, qty: 2, isDefault: true, position: 1, canChangeQty: true },
          { productId: virtualC.id, price: 3.5, priceType: 'percent', position: 0 },
        ],
        extra: 'ignored',
      },
    });
    assert.equal(r.status, 201, r.text);
    const option = r.body;
    assert.equal(option.title, 'Size pack');
    assert.equal(option.type, 'radio');
    assert.equal(option.required, true);
    assert.equal(option.position, 2);
    assert.equal(option.selections.length, 2);
    const [first, second] = option.selections;
    assert.deepEqual(first, {
      selectionId: first.selectionId,
      productId: virtualC.id,
      sku: virtualC.sku,
      name: virtualC.name,
      price: 3.5,
      priceType: 'percent',
      qty: 1,
      canChangeQty: false,
      isDefault: false,
      position: 0,
    });
    assert.deepEqual(second, {
      selectionId: second.selectionId,
      productId: simpleA.id,
      sku: simpleA.sku,
      name: simpleA.name,
      priceType: 'fixed',
      qty: 2,
      canChangeQty: true,
      isDefault: true,
      position: 1,
    });
    const g = await t.req('GET', url(b.id));
    assert.equal(g.status, 200);
    assert.equal(g.body['@type'], 'Collection');
    assert.equal(g.body.totalItems, 1);
    assert.deepEqual(g.body.member, [option]);
    const c = await t.req('GET', url(b.id), { token: customer, headers: JSON_ONLY });
    assert.deepEqual(c.body, [option]);
  });

  test('options are listed by position; defaults: type select, required true, position 0, qty 1', async () => {
    const b = await bundle();
    await t.req('POST', url(b.id), { token: admin, body: { title: 'Second', position: 5 } });
    const r = await t.req('POST', url(b.id), { token: admin, body: { title: 'First', selections: [{ productId: simpleB.id }] } });
    assert.equal(r.status, 201);
    assert.equal(r.body.type, 'select');
    assert.equal(r.body.required, true);
    assert.equal(r.body.position, 0);
    assert.equal(r.body.selections[0].qty, 1);
    const g = await t.req('GET', url(b.id), { headers: JSON_ONLY });
    assert.deepEqual(
      g.body.map((o: { title: string }) => o.title),
      ['First', 'Second'],
    );
  });

  test('PUT /{id} changes only the fields sent; selections replace when sent', async () => {
    const b = await bundle();
    const o = (
      await t.req('POST', url(b.id), { token: admin, body: { title: 'Pick', type: 'checkbox', selections: [{ productId: simpleA.id }] } })
    ).body;
    let r = await t.req('PUT', `${url(b.id)}/${o.id}`, { token: admin, body: { title: 'Picked' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.title, 'Picked');
    assert.equal(r.body.type, 'checkbox');
    assert.equal(r.body.selections.length, 1);
    r = await t.req('PUT', `${url(b.id)}/${o.id}`, {
      token: admin,
      body: {
        required: false,
        selections: [
          { productId: simpleB.id, isDefault: true },
          { productId: virtualC.id, isDefault: true },
        ],
      },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.required, false);
    assert.deepEqual(
      r.body.selections.map((s: { productId: number }) => s.productId),
      [simpleB.id, virtualC.id],
    );
    // two defaults are fine on a checkbox option, not on a radio one
    const before = await snapshot(b.id);
    r = await t.req('PUT', `${url(b.id)}/${o.id}`, { token: admin, body: { type: 'radio' } });
    assertError(r, 400, 'bad_request');
    assert.match(r.body.message, /at most one default/);
    assert.equal(await snapshot(b.id), before);
  });

  test('PUT on the collection path names the option by id (or optionId) in the body', async () => {
    const b = await bundle();
    const o = (await t.req('POST', url(b.id), { token: admin, body: { title: 'A' } })).body;
    let r = await t.req('PUT', url(b.id), { token: admin, body: { id: o.id, title: 'B' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.title, 'B');
    r = await t.req('PUT', url(b.id), { token: admin, body: { optionId: o.id, position: 3 } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.position, 3);
    r = await t.req('PUT', url(b.id), { token: admin, body: { title: 'C' } });
    assertError(r, 400, 'bad_request');
    assert.match(r.body.message, /id is required/);
  });

  test('DELETE removes an option by path, by ?id= or by body id; unknown or foreign ids are 404', async () => {
    const b = await bundle();
    const other = await bundle();
    const ids: number[] = [];
    for (const title of ['x', 'y', 'z'])
      ids.push((await t.req('POST', url(b.id), { token: admin, body: { title, selections: [{ productId: simpleA.id }] } })).body.id);
    const foreign = (await t.req('POST', url(other.id), { token: admin, body: { title: 'f' } })).body.id;
    assertError(await t.req('DELETE', `${url(b.id)}/${foreign}`, { token: admin }), 404, 'not_found');
    assertError(await t.req('DELETE', `${url(b.id)}/999999`, { token: admin }), 404, 'not_found');
    assertError(await t.req('DELETE', url(b.id), { token: admin }), 400, 'bad_request');
    let r = await t.req('DELETE', `${url(b.id)}/${ids[0]}`, { token: admin });
    assert.equal(r.status, 204);
    r = await t.req('DELETE', `${url(b.id)}?id=${ids[1]}`, { token: admin });
    assert.equal(r.status, 204);
    r = await t.req('DELETE', url(b.id), { token: admin, body: { id: ids[2] } });
    assert.equal(r.status, 204, r.text);
    assert.equal((await t.req('GET', url(b.id), { headers: JSON_ONLY })).body.length, 0);
    assert.equal((await t.req('GET', url(other.id), { headers: JSON_ONLY })).body.length, 1);
    const sels = await t.database.db.select().from(bundleSelections).where(inArray(bundleSelections.optionId, ids));
    assert.equal(sels.length, 0, 'selections go with their option');
    assertError(await t.req('PUT', `${url(b.id)}/${ids[0]}`, { token: admin, body: { title: 'gone' } }), 404, 'not_found');
  });

  test('only bundle products have options (400); unknown products are 404', async () => {
    for (const type of ['simple', 'configurable', 'grouped']) {
      const p = await createTestProduct(t, { type });
      assertError(await t.req('GET', url(p.id)), 400, 'bad_request');
      const r = await t.req('POST', url(p.id), { token: admin, body: { title: 'x' } });
      assertError(r, 400, 'bad_request');
      assert.match(r.body.message, /bundle/);
      assert.equal((await t.database.db.select().from(bundleOptions).where(eq(bundleOptions.productId, p.id))).length, 0);
    }
    assertError(await t.req('GET', url(999999)), 404, 'not_found');
    assertError(await t.req('POST', url(999999), { token: admin, body: { title: 'x' } }), 404, 'not_found');
  });

  describe('refused input changes nothing', () => {
    let b: Record<string, any>;
    let optionId: number;
    let conf: Record<string, any>;
    before(async () => {
      b = await bundle();
      conf = await createTestProduct(t, { type: 'configurable' });
      optionId = (await t.req('POST', url(b.id), { token: admin, body: { title: 'Keep', selections: [{ productId: simpleA.id }] } })).body
        .id;
    });
    const bad = (): [string, Record<string, unknown>, RegExp][] => [
      ['missing title', { type: 'select' }, /title/],
      ['blank title', { title: '   ' }, /title must not be empty/],
      ['unknown type', { title: 'x', type: 'dropdown' }, /type/],
      ['required as a string', { title: 'x', required: 'yes' }, /required/],
      ['selection of an unknown product', { title: 'x', selections: [{ productId: 999999 }] }, /product 999999 does not exist/],
      ['selection of a configurable product', { title: 'x', selections: [{ productId: conf.id }] }, /simple or virtual/],
      ['selection of the bundle itself', { title: 'x', selections: [{ productId: b.id }] }, /simple or virtual/],
      ['the same product twice', { title: 'x', selections: [{ productId: simpleA.id }, { productId: simpleA.id }] }, /listed twice/],
      ['qty 0', { title: 'x', selections: [{ productId: simpleA.id, qty: 0 }] }, /qty must be greater than 0/],
      [
        'a price on a dynamic-price bundle',
        { title: 'x', selections: [{ productId: simpleA.id, price: 1 }] },
        /selections\[0\]: .*dynamic-price bundle/,
      ],
      ['unknown price type', { title: 'x', selections: [{ productId: simpleA.id, priceType: 'relative' }] }, /priceType/],
      [
        'two defaults on a select option',
        {
          title: 'x',
          type: 'select',
          selections: [
            { productId: simpleA.id, isDefault: true },
            { productId: simpleB.id, isDefault: true },
          ],
        },
        /at most one default/,
      ],
      [
        'two defaults on a radio option',
        {
          title: 'x',
          type: 'radio',
          selections: [
            { productId: simpleA.id, isDefault: true },
            { productId: simpleB.id, isDefault: true },
          ],
        },
        /at most one default/,
      ],
      ['selections not an array', { title: 'x', selections: { productId: simpleA.id } }, /selections/],
      ['productId missing', { title: 'x', selections: [{ qty: 1 }] }, /productId/],
    ];
    test('POST', async () => {
      const before = await snapshot(b.id);
      for (const [name, body, msg] of bad()) {
        const r = await t.req('POST', url(b.id), { token: admin, body });
        assertError(r, 400, 'bad_request');
        assert.match(r.body.message, msg, name);
      }
      assert.equal(await snapshot(b.id), before);
    });
    test('PUT', async () => {
      const before = await snapshot(b.id);
      for (const [name, body, msg] of bad()) {
        if (name === 'missing title') continue;
        const r = await t.req('PUT', `${url(b.id)}/${optionId}`, { token: admin, body });
        assertError(r, 400, 'bad_request');
        assert.match(r.body.message, msg, name);
      }
      assert.equal(await snapshot(b.id), before);
    });
    test('malformed JSON and a non-object body → 400', async () => {
      const before = await snapshot(b.id);
      assertError(
        await t.req('POST', url(b.id), { token: admin, raw: '{"title":', headers: { 'content-type': 'application/json' } }),
        400,
        'bad_request',
      );
      assertError(await t.req('POST', url(b.id), { token: admin, body: [1] }), 400, 'bad_request');
      assert.equal(await snapshot(b.id), before);
    });
  });

  test('storefront callers see only selections of enabled products; a disabled bundle is 404 to them', async () => {
    const b = await bundle();
    const hidden = await createTestProduct(t, { price: 4 });
    await t.req('POST', url(b.id), {
      token: admin,
      body: { title: 'o', selections: [{ productId: simpleA.id }, { productId: hidden.id }] },
    });
    const d = await t.req('PUT', `${API}/products/${hidden.id}`, { token: admin, body: { isActive: false } });
    assert.equal(d.status, 200, d.text);
    const pub = await t.req('GET', url(b.id), { headers: JSON_ONLY });
    assert.deepEqual(
      pub.body[0].selections.map((s: { productId: number }) => s.productId),
      [simpleA.id],
    );
    const adm = await t.req('GET', url(b.id), { token: reader, headers: JSON_ONLY });
    assert.equal(adm.body[0].selections.length, 2);
    await t.req('PUT', `${API}/products/${b.id}`, { token: admin, body: { isActive: false } });
    assertError(await t.req('GET', url(b.id)), 404, 'not_found');
    assertError(await t.req('GET', url(b.id), { token: customer }), 404, 'not_found');
    assert.equal((await t.req('GET', url(b.id), { token: admin })).status, 200);
  });

  test("the bundle's price range follows its options and selections", async () => {
    const b = await bundle();
    const o = (
      await t.req('POST', url(b.id), {
        token: admin,
        body: { title: 'main', type: 'select', required: true, selections: [{ productId: simpleA.id }, { productId: simpleB.id }] },
      })
    ).body;
    assert.deepEqual(await range(b.id), { min: 10, max: 20 });
    const extra = (
      await t.req('POST', url(b.id), {
        token: admin,
        body: { title: 'extras', type: 'checkbox', required: false, selections: [{ productId: virtualC.id, qty: 2 }] },
      })
    ).body;
    assert.deepEqual(await range(b.id), { min: 10, max: 30 });
    await t.req('PUT', `${url(b.id)}/${o.id}`, { token: admin, body: { selections: [{ productId: simpleB.id }] } });
    assert.deepEqual(await range(b.id), { min: 20, max: 30 });
    await t.req('DELETE', `${url(b.id)}/${extra.id}`, { token: admin });
    assert.deepEqual(await range(b.id), { min: 20, max: 20 });
    const p = await t.req('GET', `${API}/products/${b.id}`, { token: admin });
    assert.equal(p.body.minimalPrice, 20);
  });

  test('hasRequiredOptions on GET /products/{id} follows the required options of the bundle', async () => {
    const b = await bundle();
    assert.equal(await hasRequiredOptions(b.id), false);
    const optional = (
      await t.req('POST', url(b.id), { token: admin, body: { title: 'extras', required: false, selections: [{ productId: simpleA.id }] } })
    ).body;
    assert.equal(await hasRequiredOptions(b.id), false, 'an optional option asks nothing of the shopper');
    const required = await t.req('POST', url(b.id), {
      token: admin,
      body: { title: 'main', required: true, selections: [{ productId: simpleB.id }] },
    });
    assert.equal(required.status, 201, required.text);
    assert.equal(await hasRequiredOptions(b.id), true);
    assert.equal((await t.req('PUT', `${url(b.id)}/${required.body.id}`, { token: admin, body: { required: false } })).status, 200);
    assert.equal(await hasRequiredOptions(b.id), false);
    assert.equal((await t.req('PUT', url(b.id), { token: admin, body: { id: optional.id, required: true } })).status, 200);
    assert.equal(await hasRequiredOptions(b.id), true);
    assert.equal((await t.req('DELETE', `${url(b.id)}?id=${optional.id}`, { token: admin })).status, 204);
    assert.equal(await hasRequiredOptions(b.id), false, 'removing the required option clears it');
    // a storefront read of the product says the same
    assert.equal(
      (await t.req('POST', url(b.id), { token: admin, body: { title: 'again', selections: [{ productId: simpleA.id }] } })).status,
      201,
    );
    assert.equal((await t.req('GET', `${API}/products/${b.id}`)).body.hasRequiredOptions, true);
  });

  describe('selection prices', () => {
    test('a fixed-price bundle takes fixed and percent prices (a percent up to 100, 4 decimal places)', async () => {
      const b = await fixedBundle();
      const r = await t.req('POST', url(b.id), {
        token: admin,
        body: {
          title: 'priced',
          selections: [
            { productId: simpleA.id, price: 100, priceType: 'percent' },
            { productId: simpleB.id, price: 12.3456, priceType: 'fixed' },
            { productId: virtualC.id },
          ],
        },
      });
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(
        r.body.selections.map((s: { productId: number; price?: number; priceType: string }) => [s.productId, s.price, s.priceType]),
        [
          [simpleA.id, 100, 'percent'],
          [simpleB.id, 12.3456, 'fixed'],
          [virtualC.id, undefined, 'fixed'],
        ],
      );
    });

    test('refused with a 400 naming the field; nothing changes', async () => {
      const dynamic = await bundle();
      const fixed = await fixedBundle();
      const keepD = (
        await t.req('POST', url(dynamic.id), { token: admin, body: { title: 'keep', selections: [{ productId: simpleA.id }] } })
      ).body;
      const keepF = (
        await t.req('POST', url(fixed.id), { token: admin, body: { title: 'keep', selections: [{ productId: simpleA.id, price: 5 }] } })
      ).body;
      const cases: [Record<string, any>, number, Record<string, unknown>, RegExp][] = [
        [dynamic, keepD.id, { productId: simpleA.id, price: 5 }, /dynamic-price bundle.*fixed-price bundle/],
        [dynamic, keepD.id, { productId: simpleA.id, price: 0 }, /dynamic-price bundle/],
        [dynamic, keepD.id, { productId: simpleA.id, priceType: 'percent' }, /dynamic-price bundle/],
        [dynamic, keepD.id, { productId: simpleA.id, price: 10, priceType: 'percent' }, /dynamic-price bundle/],
        [
          fixed,
          keepF.id,
          { productId: simpleA.id, price: 100.01, priceType: 'percent' },
          /selections\[0\]\.price must be at most 100 for a percent price/,
        ],
        [fixed, keepF.id, { productId: simpleA.id, price: 250, priceType: 'percent' }, /at most 100/],
        [fixed, keepF.id, { productId: simpleA.id, price: -1 }, /price must be at least 0/],
        [fixed, keepF.id, { productId: simpleA.id, price: 1.00001 }, /selections\[0\]\.price must have at most 4 decimal places/],
        [fixed, keepF.id, { productId: simpleA.id, price: 1e-9 }, /at most 4 decimal places/],
        [fixed, keepF.id, { productId: simpleA.id, qty: 1.00001 }, /selections\[0\]\.qty must have at most 4 decimal places/],
      ];
      const before = [await snapshot(dynamic.id), await snapshot(fixed.id)];
      for (const [b, optionId, selection, msg] of cases) {
        const post = await t.req('POST', url(b.id), { token: admin, body: { title: 'x', selections: [selection] } });
        assertError(post, 400, 'bad_request');
        assert.match(post.body.message, msg, JSON.stringify(selection));
        const put = await t.req('PUT', `${url(b.id)}/${optionId}`, { token: admin, body: { selections: [selection] } });
        assertError(put, 400, 'bad_request');
        assert.match(put.body.message, msg, JSON.stringify(selection));
      }
      assert.deepEqual([await snapshot(dynamic.id), await snapshot(fixed.id)], before);
    });

    test('a dynamic-price bundle accepts the "fixed" priceType its reads report (a client sending back what it read)', async () => {
      const b = await bundle();
      const made = await t.req('POST', url(b.id), { token: admin, body: { title: 'o', selections: [{ productId: simpleA.id, qty: 2 }] } });
      assert.equal(made.status, 201, made.text);
      const [sel] = made.body.selections;
      assert.equal(sel.priceType, 'fixed');
      const back = await t.req('PUT', `${url(b.id)}/${made.body.id}`, { token: admin, body: { selections: [sel] } });
      assert.equal(back.status, 200, back.text);
      assert.equal(back.body.selections[0].qty, 2);
      assert.equal(back.body.selections[0].price, undefined);
    });
  });

  describe('access', () => {
    let b: Record<string, any>;
    let optionId: number;
    before(async () => {
      b = await bundle();
      optionId = (await t.req('POST', url(b.id), { token: admin, body: { title: 'locked', selections: [{ productId: simpleA.id }] } })).body
        .id;
    });
    test('GET is public', async () => {
      for (const token of [undefined, customer, reader]) assert.equal((await t.req('GET', url(b.id), { token })).status, 200);
    });
    test('writes: anonymous 401, customer 403, products/read only 403; nothing changes', async () => {
      const before = await snapshot(b.id);
      const calls: [string, string, unknown][] = [
        ['POST', url(b.id), { title: 'n' }],
        ['PUT', url(b.id), { id: optionId, title: 'n' }],
        ['DELETE', `${url(b.id)}?id=${optionId}`, undefined],
        ['PUT', `${url(b.id)}/${optionId}`, { title: 'n' }],
        ['DELETE', `${url(b.id)}/${optionId}`, undefined],
      ];
      for (const [method, path, body] of calls) {
        assertError(await t.req(method, path, { body }), 401, 'unauthorized');
        assertError(await t.req(method, path, { token: customer, body }), 403, 'forbidden');
        assertError(await t.req(method, path, { token: reader, body }), 403, 'forbidden');
        // removing an option changes the bundle: products/delete alone is not enough, for DELETE either
        assertError(await t.req(method, path, { token: deleter, body }), 403, 'forbidden');
      }
      assert.equal(await snapshot(b.id), before);
    });
    test('products/write is enough for every write, DELETE by path and by ?id= included', async () => {
      let r = await t.req('POST', url(b.id), { token: writer, body: { title: 'w' } });
      assert.equal(r.status, 201, r.text);
      r = await t.req('PUT', `${url(b.id)}/${r.body.id}`, { token: writer, body: { title: 'w2' } });
      assert.equal(r.status, 200, r.text);
      r = await t.req('DELETE', `${url(b.id)}/${r.body.id}`, { token: writer });
      assert.equal(r.status, 204);
      const second = await t.req('POST', url(b.id), { token: writer, body: { title: 'w3' } });
      r = await t.req('DELETE', `${url(b.id)}?id=${second.body.id}`, { token: writer });
      assert.equal(r.status, 204);
    });
  });
});
