import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API, buildTestApp, type Res, type TestApp } from '../../../test/helpers.js';
import { deleteConfig, setConfig } from '../stores/service.js';
import { getTaxClass, taxClassNames } from './service.js';
import { taxClasses } from './tables.js';

let t: TestApp;
let admin: string;
let customer: string;
const tok: Record<'none' | 'read' | 'write' | 'delete', string> = { none: '', read: '', write: '', delete: '' };

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  tok.none = await t.tokens.apiUser(['tax-rates/all', 'tax-rules/all']);
  tok.read = await t.tokens.apiUser(['tax-classes/read']);
  tok.write = await t.tokens.apiUser(['tax-classes/read', 'tax-classes/write']);
  tok.delete = await t.tokens.apiUser(['tax-classes/delete']);
});
after(() => t.close());

function assertError(r: Res, status: number, error: string) {
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.error, error, r.text);
  assert.equal(typeof r.body.message, 'string');
  if (status !== 401) assert.equal(r.body.code, status);
}

async function create(className: string, classType?: string): Promise<{ id: number; className: string; classType: string }> {
  const r = await t.req('POST', `${API}/tax-classes`, {
    token: admin,
    body: classType === undefined ? { className } : { className, classType },
  });
  assert.equal(r.status, 201, r.text);
  return r.body;
}

const rowCount = async () => (await t.database.db.select().from(taxClasses)).length;

describe('GET /tax-classes', () => {
  test('lists the install classes by name as JSON-LD', async () => {
    const r = await t.req('GET', `${API}/tax-classes`, { token: admin });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body['@type'], 'Collection');
    assert.equal(r.body['@context'], '/api/contexts/TaxClass');
    assert.deepEqual(r.body.member, [
      { id: 3, className: 'Retail Customer', classType: 'CUSTOMER' },
      { id: 4, className: 'Shipping', classType: 'PRODUCT' },
      { id: 2, className: 'Taxable Goods', classType: 'PRODUCT' },
    ]);
    assert.equal(r.body.totalItems, 3);
  });

  test('filters by classType (any case) and search; pages', async () => {
    const p = await t.req('GET', `${API}/tax-classes?classType=product`, { token: admin, headers: { accept: 'application/json' } });
    assert.equal(p.status, 200);
    assert.deepEqual(
      p.body.map((c: { id: number }) => c.id),
      [4, 2],
    );
    const s = await t.req('GET', `${API}/tax-classes?search=ABLE`, { token: admin });
    assert.deepEqual(
      s.body.member.map((c: { id: number }) => c.id),
      [2],
    );
    const like = await t.req('GET', `${API}/tax-classes?search=%25`, { token: admin });
    assert.equal(like.body.totalItems, 0);
    const pg = await t.req('GET', `${API}/tax-classes?page=2&itemsPerPage=2`, { token: admin });
    assert.equal(pg.body.totalItems, 3);
    assert.deepEqual(
      pg.body.member.map((c: { id: number }) => c.id),
      [2],
    );
  });

  test('a bad classType filter or page type is a 400', async () => {
    assertError(await t.req('GET', `${API}/tax-classes?classType=SHIPPING`, { token: admin }), 400, 'bad_request');
    assertError(await t.req('GET', `${API}/tax-classes?page=x`, { token: admin }), 400, 'bad_request');
  });
});

describe('access', () => {
  test('anonymous 401, customer 403, API user without the permission 403', async () => {
    assertError(await t.req('GET', `${API}/tax-classes`), 401, 'unauthorized');
    assertError(await t.req('GET', `${API}/tax-classes/2`, { token: customer }), 403, 'forbidden');
    assertError(await t.req('GET', `${API}/tax-classes`, { token: tok.none }), 403, 'forbidden');
    assertError(await t.req('POST', `${API}/tax-classes`, { body: { className: 'x' } }), 401, 'unauthorized');
    assertError(await t.req('POST', `${API}/tax-classes`, { token: customer, body: { className: 'x' } }), 403, 'forbidden');
    assertError(await t.req('DELETE', `${API}/tax-classes/2`, { token: customer }), 403, 'forbidden');
  });

  test('read may read, write may create and update but not delete, delete may delete', async () => {
    assert.equal((await t.req('GET', `${API}/tax-classes/2`, { token: tok.read })).status, 200);
    assertError(await t.req('POST', `${API}/tax-classes`, { token: tok.read, body: { className: 'R' } }), 403, 'forbidden');
    const c = await t.req('POST', `${API}/tax-classes`, { token: tok.write, body: { className: 'By writer' } });
    assert.equal(c.status, 201, c.text);
    const u = await t.req('PUT', `${API}/tax-classes/${c.body.id}`, { token: tok.write, body: { className: 'By writer 2' } });
    assert.equal(u.status, 200);
    assertError(await t.req('DELETE', `${API}/tax-classes/${c.body.id}`, { token: tok.write }), 403, 'forbidden');
    assertError(await t.req('PUT', `${API}/tax-classes/${c.body.id}`, { token: tok.read, body: { className: 'x' } }), 403, 'forbidden');
    assert.equal((await t.req('DELETE', `${API}/tax-classes/${c.body.id}`, { token: tok.delete })).status, 204);
  });
});

describe('create, read, update, delete', () => {
  test('POST creates (201), type defaults to PRODUCT, accepts any case; unknown keys dropped', async () => {
    const a = await t.req('POST', `${API}/tax-classes`, { token: admin, body: { className: '  Books  ', id: 99, extra: 1 } });
    assert.equal(a.status, 201, a.text);
    assert.deepEqual(a.body, { id: a.body.id, className: 'Books', classType: 'PRODUCT' });
    assert.notEqual(a.body.id, 99);
    const b = await create('Wholesale Buyer', 'customer');
    assert.equal(b.classType, 'CUSTOMER');
    const g = await t.req('GET', `${API}/tax-classes/${b.id}`, { token: admin });
    assert.deepEqual(g.body, b);
  });

  test('bad input is a 400 and changes nothing', async () => {
    const before = await rowCount();
    for (const body of [
      {},
      { className: '' },
      { className: '   ' },
      { className: 5 },
      { className: 'x', classType: 'SHIPPING' },
      { className: 'x', classType: 3 },
      { className: 'x'.repeat(256) },
    ]) {
      assertError(await t.req('POST', `${API}/tax-classes`, { token: admin, body }), 400, 'bad_request');
    }
    assertError(
      await t.req('POST', `${API}/tax-classes`, { token: admin, raw: '{"className":', headers: { 'content-type': 'application/json' } }),
      400,
      'bad_request',
    );
    assertError(await t.req('PUT', `${API}/tax-classes/2`, { token: admin, body: { classType: 'OTHER' } }), 400, 'bad_request');
    assertError(await t.req('PUT', `${API}/tax-classes/2`, { token: admin, body: { className: '' } }), 400, 'bad_request');
    assert.equal(await rowCount(), before);
    assert.equal((await getTaxClass(t.systemCtx(), 2))?.className, 'Taxable Goods');
  });

  test('unknown ids are 404', async () => {
    assertError(await t.req('GET', `${API}/tax-classes/9999`, { token: admin }), 404, 'not_found');
    assertError(await t.req('PUT', `${API}/tax-classes/9999`, { token: admin, body: { className: 'x' } }), 404, 'not_found');
    assertError(await t.req('DELETE', `${API}/tax-classes/9999`, { token: admin }), 404, 'not_found');
    assertError(await t.req('GET', `${API}/tax-classes/abc`, { token: admin }), 400, 'bad_request');
  });

  test('PUT changes only what was sent; the type of an unused class may change', async () => {
    const c = await create('Temp class');
    const u = await t.req('PUT', `${API}/tax-classes/${c.id}`, { token: admin, body: { classType: 'CUSTOMER' } });
    assert.equal(u.status, 200, u.text);
    assert.deepEqual(u.body, { id: c.id, className: 'Temp class', classType: 'CUSTOMER' });
    const d = await t.req('DELETE', `${API}/tax-classes/${c.id}`, { token: admin });
    assert.equal(d.status, 204);
    assert.equal(d.text, '');
    assert.equal((await t.req('GET', `${API}/tax-classes/${c.id}`, { token: admin })).status, 404);
  });

  test('a class used by a customer group, a rule or a product cannot be deleted nor change type (409)', async () => {
    // class 3: customer groups and the install rule
    const r3 = await t.req('DELETE', `${API}/tax-classes/3`, { token: admin });
    assertError(r3, 409, 'conflict');
    assert.match(r3.body.message, /customer group/);
    assert.match(r3.body.message, /tax rule/);
    assertError(await t.req('PUT', `${API}/tax-classes/3`, { token: admin, body: { classType: 'PRODUCT' } }), 409, 'conflict');
    // the same type again is no change
    assert.equal((await t.req('PUT', `${API}/tax-classes/3`, { token: admin, body: { classType: 'CUSTOMER' } })).status, 200);

    const used = await create('Used by product');
    const p = await t.req('POST', `${API}/products`, {
      token: admin,
      body: { sku: 'tax-class-user', name: 'x', price: 1, taxClassId: used.id },
    });
    assert.equal(p.status, 201, p.text);
    const d = await t.req('DELETE', `${API}/tax-classes/${used.id}`, { token: admin });
    assertError(d, 409, 'conflict');
    assert.match(d.body.message, /1 product/);
    assertError(await t.req('PUT', `${API}/tax-classes/${used.id}`, { token: admin, body: { classType: 'CUSTOMER' } }), 409, 'conflict');
    assert.ok(await getTaxClass(t.systemCtx(), used.id));

    // the shipping tax class setting
    const ship = await create('Shipping tax');
    await setConfig(t.database.db, t.services.settings, 'tax/classes/shipping_tax_class', String(ship.id));
    const s = await t.req('DELETE', `${API}/tax-classes/${ship.id}`, { token: admin });
    assertError(s, 409, 'conflict');
    assert.match(s.body.message, /shipping_tax_class/);
    await deleteConfig(t.database.db, t.services.settings, 'tax/classes/shipping_tax_class');
    assert.equal((await t.req('DELETE', `${API}/tax-classes/${ship.id}`, { token: admin })).status, 204);
  });

  test('taxClassNames and getTaxClass keep working for other modules', async () => {
    const names = await taxClassNames(t.systemCtx(), [2, 3, 3, 9999]);
    assert.deepEqual([...names.entries()].sort(), [
      [2, 'Taxable Goods'],
      [3, 'Retail Customer'],
    ]);
    assert.equal(await getTaxClass(t.systemCtx(), 9999), undefined);
  });
});

describe('GraphQL', () => {
  const gql = (query: string, token?: string, variables?: Record<string, unknown>) =>
    t.req('POST', '/api/graphql', { token, body: { query, variables } });

  test('taxClasses and taxClass, with the same access rules', async () => {
    const r = await gql(
      '{ taxClasses(classType: "CUSTOMER") { totalCount edges { node { id _id className classType } } } taxClass(id: "/api/rest/v2/tax-classes/2") { className } }',
      admin,
    );
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.errors, undefined, r.text);
    const nodes = r.body.data.taxClasses.edges.map((e: { node: { _id: number; id: string; classType: string } }) => e.node);
    assert.ok(nodes.some((c: { _id: number; id: string }) => c._id === 3 && c.id === '/api/rest/v2/tax-classes/3'));
    assert.ok(nodes.every((c: { classType: string }) => c.classType === 'CUSTOMER'));
    assert.equal(r.body.data.taxClass.className, 'Taxable Goods');
    const anon = await gql('{ taxClass(id: 2) { className } }');
    assert.equal(anon.body.errors[0].extensions.status, 401);
    const cust = await gql('{ taxClass(id: 2) { className } }', customer);
    assert.equal(cust.body.errors[0].extensions.status, 403);
    const missing = await gql('{ taxClass(id: 9999) { className } }', admin);
    assert.equal(missing.body.errors[0].extensions.status, 404);
  });

  test('createTaxClass / updateTaxClass / deleteTaxClass mirror REST', async () => {
    const c = await gql(
      'mutation { createTaxClass(input: { className: "GQL class", classType: "CUSTOMER" }) { taxClass { _id className classType } } }',
      admin,
    );
    assert.equal(c.body.errors, undefined, c.text);
    const id = c.body.data.createTaxClass.taxClass._id;
    assert.equal(c.body.data.createTaxClass.taxClass.classType, 'CUSTOMER');
    const u = await gql(
      `mutation { updateTaxClass(input: { id: "${id}", className: "GQL 2", classType: null }) { taxClass { className classType } } }`,
      admin,
    );
    assert.deepEqual(u.body.data.updateTaxClass.taxClass, { className: 'GQL 2', classType: 'CUSTOMER' });
    const bad = await gql('mutation { createTaxClass(input: { className: "x", classType: "NOPE" }) { taxClass { id } } }', admin);
    assert.equal(bad.body.errors[0].extensions.status, 400);
    const denied = await gql(`mutation { deleteTaxClass(input: { id: "/api/rest/v2/tax-classes/${id}" }) { taxClass { id } } }`, tok.write);
    assert.equal(denied.body.errors[0].extensions.status, 403);
    const d = await gql(`mutation { deleteTaxClass(input: { id: "/api/rest/v2/tax-classes/${id}" }) { taxClass { id } } }`, admin);
    assert.equal(d.body.errors, undefined, d.text);
    assert.equal(d.body.data.deleteTaxClass.taxClass.id, `/api/rest/v2/tax-classes/${id}`);
  });
});
