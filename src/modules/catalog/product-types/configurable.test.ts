import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { asc, eq } from 'drizzle-orm';
import { API, buildTestApp, type Res, type TestApp } from '../../../../test/helpers.js';
import { createTestProduct } from '../../../../test/fixtures/catalog.js';
import { configurableAttributes, configurableChildren, products } from '../tables.js';

let t: TestApp;
let admin: string;
let customer: string;
let reader: string;
let writer: string;
let deleter: string;

/** option ids by attribute code and label */
const opt: Record<string, Record<string, number>> = {};
const attrId: Record<string, number> = {};

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  reader = await t.tokens.apiUser(['products/read']);
  writer = await t.tokens.apiUser(['products/write']);
  deleter = await t.tokens.apiUser(['products/delete']);
  const r = await t.req('GET', `${API}/product-attributes?itemsPerPage=100`, { token: admin, headers: { accept: 'application/json' } });
  assert.equal(r.status, 200, r.text);
  for (const a of r.body as { id: number; attributeCode: string; options: { label: string; value: string }[] }[]) {
    attrId[a.attributeCode] = a.id;
    opt[a.attributeCode] = Object.fromEntries((a.options ?? []).map((o) => [o.label, Number(o.value)]));
  }
  assert.ok(opt.color.Red && opt.size.M, 'color and size attributes are installed');
});
after(() => t.close());

const url = (id: number) => `${API}/products/${id}/configurable`;

function assertError(r: Res, status: number, error?: string) {
  assert.equal(r.status, status, r.text);
  if (error) assert.equal(r.body.error, error, r.text);
  assert.equal(typeof r.body.message, 'string');
}

async function child(color?: string, size?: string, extra: Record<string, unknown> = {}) {
  const attrs: Record<string, number> = {};
  if (color) attrs.color = opt.color[color];
  if (size) attrs.size = opt.size[size];
  return createTestProduct(t, { customAttributesWrite: attrs, ...extra });
}

async function snapshot(productId: number) {
  const attrs = await t.database.db
    .select()
    .from(configurableAttributes)
    .where(eq(configurableAttributes.productId, productId))
    .orderBy(asc(configurableAttributes.attributeId));
  const kids = await t.database.db
    .select()
    .from(configurableChildren)
    .where(eq(configurableChildren.parentId, productId))
    .orderBy(asc(configurableChildren.childId));
  return JSON.stringify({ attrs, kids });
}

async function range(id: number) {
  const [r] = await t.database.db.select({ min: products.minPrice, max: products.maxPrice }).from(products).where(eq(products.id, id));
  return { min: r.min === null ? null : Number(r.min), max: r.max === null ? null : Number(r.max) };
}

const configurable = () => createTestProduct(t, { type: 'configurable' });

/** GET /configurable: a collection of exactly one element, which is returned. */
async function conf(id: number, token?: string): Promise<Record<string, any>> {
  const r = await t.req('GET', url(id), { token });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body['@type'], 'Collection');
  assert.equal(r.body.totalItems, 1);
  assert.equal(r.body.member.length, 1);
  return r.body.member[0];
}

async function hasRequiredOptions(id: number): Promise<boolean> {
  const r = await t.req('GET', `${API}/products/${id}`, { token: admin });
  assert.equal(r.status, 200, r.text);
  return r.body.hasRequiredOptions;
}

describe('configurable products', () => {
  test('a new configurable product has no super attributes and no children (public GET)', async () => {
    const p = await configurable();
    assert.deepEqual(await conf(p.id), { id: p.id, superAttributes: [], childProductIds: [] });
  });

  test('GET is a collection of one element {id, superAttributes, childProductIds}: JSON-LD member/totalItems, a one-item array as JSON', async () => {
    const p = await configurable();
    const a = await child('Red', 'S');
    const put = await t.req('PUT', url(p.id), { token: admin, body: { superAttributes: ['color', 'size'], childProductIds: [a.id] } });
    assert.equal(put.status, 200, put.text);
    const element = { id: p.id, superAttributes: ['color', 'size'], childProductIds: [a.id] };
    assert.deepEqual(put.body, element, 'PUT answers the element itself');
    const ld = await t.req('GET', url(p.id));
    assert.equal(ld.status, 200, ld.text);
    assert.match(String(ld.headers['content-type']), /application\/ld\+json/);
    assert.deepEqual(ld.body, {
      '@context': '/api/contexts/ConfigurableProduct',
      '@id': `/api/rest/v2/products/${p.id}/configurable`,
      '@type': 'Collection',
      totalItems: 1,
      member: [element],
    });
    const plain = await t.req('GET', url(p.id), { headers: { accept: 'application/json' } });
    assert.equal(plain.status, 200, plain.text);
    assert.deepEqual(plain.body, [element]);
  });

  test('PUT sets super attributes and children; GET returns them', async () => {
    const p = await configurable();
    const a = await child('Red', 'S');
    const b = await child('Red', 'M');
    const c = await child('Blue', 'S', { type: 'virtual' });
    const r = await t.req('PUT', url(p.id), {
      token: admin,
      body: { superAttributes: ['size', 'color'], childProductIds: [c.id, a.id, b.id] },
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { id: p.id, superAttributes: ['size', 'color'], childProductIds: [a.id, b.id, c.id].sort((x, y) => x - y) });
    assert.deepEqual(await conf(p.id, customer), r.body);
    // only the key sent changes
    const r2 = await t.req('PUT', url(p.id), { token: admin, body: { childProductIds: [a.id] } });
    assert.deepEqual(r2.body, { id: p.id, superAttributes: ['size', 'color'], childProductIds: [a.id] });
    const r3 = await t.req('PUT', url(p.id), { token: admin, body: { superAttributes: [attrId.color] } });
    assert.equal(r3.status, 200, r3.text);
    assert.deepEqual(r3.body, { id: p.id, superAttributes: ['color'], childProductIds: [a.id] });
    const r4 = await t.req('PUT', url(p.id), { token: admin, body: {} });
    assert.deepEqual(r4.body, r3.body);
  });

  describe('PUT refusals change nothing', () => {
    let p: Record<string, any>;
    let redS: Record<string, any>;
    let redS2: Record<string, any>;
    let blueM: Record<string, any>;
    let colorOnly: Record<string, any>;
    let bundle: Record<string, any>;
    let otherConf: Record<string, any>;
    before(async () => {
      p = await configurable();
      redS = await child('Red', 'S');
      redS2 = await child('Red', 'S');
      blueM = await child('Blue', 'M');
      colorOnly = await child('Green');
      bundle = await createTestProduct(t, { type: 'bundle' });
      otherConf = await configurable();
      const r = await t.req('PUT', url(p.id), { token: admin, body: { superAttributes: ['color', 'size'], childProductIds: [redS.id] } });
      assert.equal(r.status, 200, r.text);
    });
    const cases = (): [string, Record<string, unknown>, RegExp][] => [
      ['unknown attribute', { superAttributes: ['nope'] }, /attribute nope does not exist/],
      ['unknown attribute id', { superAttributes: [999999] }, /does not exist/],
      ['a select attribute that may not be configurable', { superAttributes: ['manufacturer'] }, /cannot be a super attribute/],
      ['a multiselect attribute', { superAttributes: ['material'] }, /cannot be a super attribute/],
      ['a text attribute', { superAttributes: ['barcode'] }, /cannot be a super attribute/],
      ['the same attribute twice', { superAttributes: ['color', 'color'] }, /listed twice/],
      [
        'a child without a value of a super attribute',
        { childProductIds: [redS.id, colorOnly.id] },
        /no value for the super attribute size/,
      ],
      ['a new super attribute the children lack', { superAttributes: ['color', 'size', 'gender'] }, /cannot be a super attribute|no value/],
      ['two children with the same combination', { childProductIds: [redS.id, redS2.id] }, /same combination/],
      ['an unknown child', { childProductIds: [999999] }, /product 999999 does not exist/],
      ['a bundle child', { childProductIds: [bundle.id] }, /simple or virtual/],
      ['a configurable child', { childProductIds: [otherConf.id] }, /simple or virtual/],
      ['the same child twice', { childProductIds: [blueM.id, blueM.id] }, /listed twice/],
      ['dropping size makes two children equal', { superAttributes: ['color'], childProductIds: [redS.id, redS2.id] }, /same combination/],
      ['child ids as strings', { childProductIds: ['1'] }, /childProductIds/],
      ['superAttributes not an array', { superAttributes: 'color' }, /superAttributes/],
    ];
    test('each bad body → 400', async () => {
      const before = await snapshot(p.id);
      for (const [name, body, msg] of cases()) {
        const r = await t.req('PUT', url(p.id), { token: admin, body });
        assertError(r, 400, 'bad_request');
        assert.match(r.body.message, msg, name);
      }
      const r = await t.req('PUT', url(p.id), {
        token: admin,
        raw: '{"superAttributes":[',
        headers: { 'content-type': 'application/json' },
      });
      assertError(r, 400, 'bad_request');
      assert.equal(await snapshot(p.id), before);
    });
  });

  describe('children', () => {
    let p: Record<string, any>;
    let a: Record<string, any>;
    before(async () => {
      p = await configurable();
      a = await child('Black', 'L');
      await t.req('PUT', url(p.id), { token: admin, body: { superAttributes: ['color', 'size'], childProductIds: [a.id] } });
    });
    test('POST /children adds {childId} (201); childProductId and child_product_id are accepted', async () => {
      const b = await child('Black', 'XL');
      const c = await child('White', 'XL');
      const d = await child('White', 'L', { type: 'virtual' });
      let r = await t.req('POST', `${url(p.id)}/children`, { token: admin, body: { childId: b.id } });
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(r.body, { id: p.id, superAttributes: ['color', 'size'], childProductIds: [a.id, b.id] });
      r = await t.req('POST', `${url(p.id)}/children`, { token: admin, body: { childProductId: c.id } });
      assert.equal(r.status, 201, r.text);
      r = await t.req('POST', `${url(p.id)}/children`, { token: admin, body: { child_product_id: d.id, childId: d.id } });
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(r.body.childProductIds, [a.id, b.id, c.id, d.id]);
    });
    test('POST /children refusals: missing (400), aliases that disagree (400), unknown (400), wrong type (400), same combination (400), already a child (409)', async () => {
      const twin = await child('Black', 'L');
      const other = await child('Grey', 'S');
      const grouped = await createTestProduct(t, { type: 'grouped' });
      const before = await snapshot(p.id);
      const post = (body: unknown) => t.req('POST', `${url(p.id)}/children`, { token: admin, body });
      let r = await post({});
      assertError(r, 400, 'bad_request');
      assert.match(r.body.message, /childId is required/);
      assertError(await post({ childId: other.id, childProductId: twin.id }), 400, 'bad_request');
      r = await post({ childId: 999999 });
      assertError(r, 400, 'bad_request');
      assert.match(r.body.message, /does not exist/);
      assertError(await post({ childId: grouped.id }), 400, 'bad_request');
      assertError(await post({ childId: p.id }), 400, 'bad_request');
      r = await post({ childId: twin.id });
      assertError(r, 400, 'bad_request');
      assert.match(r.body.message, /same combination/);
      assertError(await post({ childId: 'x' }), 400, 'bad_request');
      r = await post({ childId: a.id });
      assertError(r, 409, 'conflict');
      assert.equal(await snapshot(p.id), before);
    });
    test('DELETE /children/{childId} removes a child (204); a product that is not a child is 404', async () => {
      const e = await child('Beige', 'XS');
      await t.req('POST', `${url(p.id)}/children`, { token: admin, body: { childId: e.id } });
      let r = await t.req('DELETE', `${url(p.id)}/children/${e.id}`, { token: admin });
      assert.equal(r.status, 204);
      assert.equal(r.text, '');
      assert.ok(!(await conf(p.id)).childProductIds.includes(e.id));
      const before = await snapshot(p.id);
      r = await t.req('DELETE', `${url(p.id)}/children/${e.id}`, { token: admin });
      assertError(r, 404, 'not_found');
      assertError(await t.req('DELETE', `${url(p.id)}/children/999999`, { token: admin }), 404, 'not_found');
      assert.equal(await snapshot(p.id), before);
      // the child product itself is untouched
      assert.equal((await t.req('GET', `${API}/products/${e.id}`, { token: admin })).status, 200);
    });
  });

  test('a product that is not configurable is a 400 on every route; an unknown one 404', async () => {
    const s = await child('Red', 'XS');
    const other = await child('Red', 'XL');
    for (const type of ['simple', 'bundle', 'grouped']) {
      const p = type === 'simple' ? s : await createTestProduct(t, { type });
      assertError(await t.req('GET', url(p.id)), 400, 'bad_request');
      assertError(await t.req('PUT', url(p.id), { token: admin, body: { childProductIds: [other.id] } }), 400, 'bad_request');
      assertError(await t.req('POST', `${url(p.id)}/children`, { token: admin, body: { childId: other.id } }), 400, 'bad_request');
      assertError(await t.req('DELETE', `${url(p.id)}/children/${other.id}`, { token: admin }), 400, 'bad_request');
      assert.equal((await t.database.db.select().from(configurableChildren).where(eq(configurableChildren.parentId, p.id))).length, 0);
    }
    assertError(await t.req('GET', url(999999)), 404, 'not_found');
    assertError(await t.req('PUT', url(999999), { token: admin, body: {} }), 404, 'not_found');
  });

  test("the parent's price range follows its children", async () => {
    const p = await configurable();
    const cheap = await child('Red', 'S', { price: 15 });
    const dear = await child('Red', 'M', { price: 25 });
    const mid = await child('Red', 'L', { price: 20 });
    await t.req('PUT', url(p.id), { token: admin, body: { superAttributes: ['color', 'size'], childProductIds: [cheap.id, dear.id] } });
    assert.deepEqual(await range(p.id), { min: 15, max: 25 });
    await t.req('POST', `${url(p.id)}/children`, { token: admin, body: { childId: mid.id } });
    await t.req('DELETE', `${url(p.id)}/children/${cheap.id}`, { token: admin });
    assert.deepEqual(await range(p.id), { min: 20, max: 25 });
    await t.req('DELETE', `${url(p.id)}/children/${dear.id}`, { token: admin });
    assert.deepEqual(await range(p.id), { min: 20, max: 20 });
    const r = await t.req('GET', `${API}/products/${p.id}`, { token: admin });
    assert.equal(r.body.minimalPrice, 20);
  });

  test('storefront callers see only enabled children; a disabled parent is 404 to them', async () => {
    const p = await configurable();
    const on = await child('Green', 'S');
    const off = await child('Green', 'M');
    await t.req('PUT', url(p.id), { token: admin, body: { superAttributes: ['color', 'size'], childProductIds: [on.id, off.id] } });
    await t.req('PUT', `${API}/products/${off.id}`, { token: admin, body: { isActive: false } });
    assert.deepEqual((await conf(p.id)).childProductIds, [on.id]);
    assert.deepEqual((await conf(p.id, reader)).childProductIds, [on.id, off.id]);
    await t.req('PUT', `${API}/products/${p.id}`, { token: admin, body: { isActive: false } });
    assertError(await t.req('GET', url(p.id)), 404, 'not_found');
    assert.equal((await t.req('GET', url(p.id), { token: admin })).status, 200);
  });

  test('two children with the same combination added at once: one is added, the other refused', async () => {
    const p = await configurable();
    await t.req('PUT', url(p.id), { token: admin, body: { superAttributes: ['color', 'size'] } });
    const one = await child('White', 'XXL');
    const two = await child('White', 'XXL');
    const [r1, r2] = await Promise.all([
      t.req('POST', `${url(p.id)}/children`, { token: admin, body: { childId: one.id } }),
      t.req('POST', `${url(p.id)}/children`, { token: admin, body: { childId: two.id } }),
    ]);
    assert.deepEqual([r1.status, r2.status].sort(), [201, 400]);
    assert.equal((await conf(p.id)).childProductIds.length, 1);
  });

  describe('children without super attributes (as in Maho)', () => {
    /** a child sold only through its configurable, in stock */
    const variant = (color: string, size: string, price: number) =>
      child(color, size, { price, visibility: 'not_visible', stockData: { qty: 10, isInStock: true } });

    test('PUT links children with an empty superAttributes list, unchecked; the full list replaces the old one', async () => {
      const p = await configurable();
      const a = await variant('Red', 'S', 12);
      const b = await variant('Red', 'S', 15);
      const c = await child();
      let r = await t.req('PUT', url(p.id), { token: admin, body: { superAttributes: [], childProductIds: [a.id, b.id] } });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body, { id: p.id, superAttributes: [], childProductIds: [a.id, b.id] });
      assert.deepEqual(await conf(p.id, admin), { id: p.id, superAttributes: [], childProductIds: [a.id, b.id] });
      assert.deepEqual(await range(p.id), { min: 12, max: 15 }, 'the price range follows the children');
      // the whole list replaces the old one: a is gone, c (no attribute values at all) is linked
      r = await t.req('PUT', url(p.id), { token: admin, body: { superAttributes: [], childProductIds: [b.id, c.id] } });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body.childProductIds, [b.id, c.id]);
      const kids = await t.database.db.select().from(configurableChildren).where(eq(configurableChildren.parentId, p.id));
      assert.deepEqual(
        kids.map((k) => k.childId).sort((x, y) => x - y),
        [b.id, c.id],
      );
      // without the superAttributes key, and one at a time, the same
      r = await t.req('PUT', url(p.id), { token: admin, body: { childProductIds: [a.id, b.id, c.id] } });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body.childProductIds, [a.id, b.id, c.id]);
      const d = await variant('Red', 'S', 9);
      r = await t.req('POST', `${url(p.id)}/children`, { token: admin, body: { childId: d.id } });
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(r.body, { id: p.id, superAttributes: [], childProductIds: [a.id, b.id, c.id, d.id] });
      // the children are still checked as products: an unknown id or a configurable is refused, nothing changes
      const before = await snapshot(p.id);
      assertError(
        await t.req('PUT', url(p.id), { token: admin, body: { superAttributes: [], childProductIds: [a.id, 999999] } }),
        400,
        'bad_request',
      );
      assertError(
        await t.req('PUT', url(p.id), { token: admin, body: { superAttributes: [], childProductIds: [(await configurable()).id] } }),
        400,
        'bad_request',
      );
      assert.equal(await snapshot(p.id), before);
    });

    test('the product, its configurable setup and listings read fine: no options to choose, the children as variants', async () => {
      const p = await configurable();
      const a = await variant('Blue', 'S', 20);
      const b = await variant('Blue', 'M', 22);
      assert.equal(
        (await t.req('PUT', url(p.id), { token: admin, body: { superAttributes: [], childProductIds: [a.id, b.id] } })).status,
        200,
      );
      for (const token of [undefined, admin]) {
        assert.deepEqual(await conf(p.id, token), { id: p.id, superAttributes: [], childProductIds: [a.id, b.id] });
        const read = await t.req('GET', `${API}/products/${p.id}`, { token });
        assert.equal(read.status, 200, read.text);
        assert.deepEqual(read.body.configurableOptions, []);
        assert.deepEqual(
          read.body.variants.map((v: { id: number; attributes: unknown }) => [v.id, v.attributes]),
          [
            [a.id, {}],
            [b.id, {}],
          ],
        );
        assert.equal(read.body.hasRequiredOptions, false);
      }
      const list = await t.req('GET', `${API}/products`, { query: { sku: p.sku }, headers: { accept: 'application/json' } });
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(
        list.body.map((x: { id: number }) => x.id),
        [p.id],
        'listed like any product',
      );
    });

    test('it cannot go into a cart until super attributes are set (400, cart unchanged); carts holding it still read', async () => {
      const p = await configurable();
      const a = await variant('Red', 'S', 30);
      const b = await variant('Red', 'M', 31);
      assert.equal(
        (await t.req('PUT', url(p.id), { token: admin, body: { superAttributes: [], childProductIds: [a.id, b.id] } })).status,
        200,
      );
      const m = (await t.req('POST', `${API}/guest-carts`, { body: {} })).body.maskedId as string;
      const add = (body: unknown) => t.req('POST', `${API}/guest-carts/${m}/items`, { body });
      const attempts = [
        { sku: p.sku, qty: 1 },
        { productId: p.id, qty: 1 },
        { sku: p.sku, qty: 1, superAttribute: { [attrId.color]: opt.color.Red } },
        { sku: a.sku, qty: 1 }, // a child's SKU adds its parent
      ];
      for (const body of attempts) {
        const r = await add(body);
        assertError(r, 400, 'bad_request');
        assert.match(r.body.message, /not available/, JSON.stringify(body));
      }
      let cart = await t.req('GET', `${API}/guest-carts/${m}`);
      assert.equal(cart.status, 200, cart.text);
      assert.equal(cart.body.itemsCount, 0);
      // with the super attributes set the same product goes in, by choice or by the child's SKU
      let r = await t.req('PUT', url(p.id), { token: admin, body: { superAttributes: ['color', 'size'] } });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body.childProductIds, [a.id, b.id], 'setting the attributes keeps the checked children');
      r = await add({ sku: p.sku, qty: 1, superAttribute: { [attrId.color]: opt.color.Red, [attrId.size]: opt.size.M } });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.items[0].sku, b.sku);
      r = await add({ sku: a.sku, qty: 1 });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.itemsCount, 2);
      // taking the attributes away again: the cart still reads (its lines can no longer be bought), new adds are refused
      assert.equal((await t.req('PUT', url(p.id), { token: admin, body: { superAttributes: [] } })).status, 200);
      cart = await t.req('GET', `${API}/guest-carts/${m}`);
      assert.equal(cart.status, 200, cart.text);
      assert.equal(cart.body.itemsCount, 2);
      assertError(await add({ sku: b.sku, qty: 1 }), 400, 'bad_request');
    });

    test('super attributes that the linked children do not tell apart are refused, and nothing changes', async () => {
      const p = await configurable();
      const a = await child('Blue', 'S');
      const b = await child('Blue', 'M');
      await t.req('PUT', url(p.id), { token: admin, body: { superAttributes: [], childProductIds: [a.id, b.id] } });
      const before = await snapshot(p.id);
      const r = await t.req('PUT', url(p.id), { token: admin, body: { superAttributes: ['color'] } });
      assertError(r, 400, 'bad_request');
      assert.match(r.body.message, /same combination/);
      assert.equal(await snapshot(p.id), before);
      // removing the super attributes of a product with children keeps the children
      const set = await t.req('PUT', url(p.id), { token: admin, body: { superAttributes: ['color', 'size'] } });
      assert.equal(set.status, 200, set.text);
      const cleared = await t.req('PUT', url(p.id), { token: admin, body: { superAttributes: [] } });
      assert.equal(cleared.status, 200, cleared.text);
      assert.deepEqual(cleared.body, { id: p.id, superAttributes: [], childProductIds: [a.id, b.id] });
    });
  });

  test('hasRequiredOptions on GET /products/{id} is true while the product has super attributes', async () => {
    const p = await configurable();
    assert.equal(await hasRequiredOptions(p.id), false);
    let r = await t.req('PUT', url(p.id), { token: admin, body: { superAttributes: ['color'] } });
    assert.equal(r.status, 200, r.text);
    assert.equal(await hasRequiredOptions(p.id), true);
    assert.equal((await t.req('GET', `${API}/products/${p.id}`)).body.hasRequiredOptions, true, 'the storefront view too');
    const a = await child('Red', 'S');
    r = await t.req('POST', `${url(p.id)}/children`, { token: admin, body: { childId: a.id } });
    assert.equal(r.status, 201, r.text);
    assert.equal(await hasRequiredOptions(p.id), true);
    r = await t.req('PUT', url(p.id), { token: admin, body: { superAttributes: [], childProductIds: [] } });
    assert.equal(r.status, 200, r.text);
    assert.equal(await hasRequiredOptions(p.id), false);
  });

  describe('access', () => {
    let p: Record<string, any>;
    let kid: Record<string, any>;
    let newKid: Record<string, any>;
    before(async () => {
      p = await configurable();
      kid = await child('Blue', 'XS');
      newKid = await child('Blue', 'XXL');
      await t.req('PUT', url(p.id), { token: admin, body: { superAttributes: ['color', 'size'], childProductIds: [kid.id] } });
    });
    test('GET is public', async () => {
      for (const token of [undefined, customer, reader]) assert.equal((await t.req('GET', url(p.id), { token })).status, 200);
    });
    test('writes: anonymous 401, customer 403, products/read only 403, products/delete only 403; nothing changes', async () => {
      const before = await snapshot(p.id);
      const calls: [string, string, unknown][] = [
        ['PUT', url(p.id), { childProductIds: [] }],
        ['POST', `${url(p.id)}/children`, { childId: newKid.id }],
        ['DELETE', `${url(p.id)}/children/${kid.id}`, undefined],
      ];
      for (const [method, path, body] of calls) {
        assertError(await t.req(method, path, { body }), 401, 'unauthorized');
        assertError(await t.req(method, path, { token: customer, body }), 403, 'forbidden');
        assertError(await t.req(method, path, { token: reader, body }), 403, 'forbidden');
        // removing a child changes the product: products/delete alone is not enough, for DELETE either
        assertError(await t.req(method, path, { token: deleter, body }), 403, 'forbidden');
      }
      assert.equal(await snapshot(p.id), before);
    });
    test('products/write is enough', async () => {
      assert.equal((await t.req('POST', `${url(p.id)}/children`, { token: writer, body: { childId: newKid.id } })).status, 201);
      assert.equal((await t.req('DELETE', `${url(p.id)}/children/${newKid.id}`, { token: writer })).status, 204);
      assert.equal((await t.req('PUT', url(p.id), { token: writer, body: { childProductIds: [kid.id] } })).status, 200);
    });
  });
});
