import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API, buildTestApp, type Res, type TestApp } from '../../../test/helpers.js';
import { install } from './service.js';
import { taxRates, taxRules } from './tables.js';

let t: TestApp;
let admin: string;
let customer: string;
const rateTok: Record<'none' | 'read' | 'write' | 'delete', string> = { none: '', read: '', write: '', delete: '' };
const ruleTok: Record<'none' | 'read' | 'write' | 'delete', string> = { none: '', read: '', write: '', delete: '' };

const CA = 12;
const NY = 43;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  rateTok.none = await t.tokens.apiUser(['tax-classes/all', 'tax-rules/all']);
  rateTok.read = await t.tokens.apiUser(['tax-rates/read']);
  rateTok.write = await t.tokens.apiUser(['tax-rates/write']);
  rateTok.delete = await t.tokens.apiUser(['tax-rates/delete']);
  ruleTok.none = await t.tokens.apiUser(['tax-classes/all', 'tax-rates/all']);
  ruleTok.read = await t.tokens.apiUser(['tax-rules/read']);
  ruleTok.write = await t.tokens.apiUser(['tax-rules/write']);
  ruleTok.delete = await t.tokens.apiUser(['tax-rules/delete']);
});
after(() => t.close());

function assertError(r: Res, status: number, error: string) {
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.error, error, r.text);
  assert.equal(typeof r.body.message, 'string');
  if (status !== 401) assert.equal(r.body.code, status);
}

async function createRate(body: Record<string, unknown>) {
  const r = await t.req('POST', `${API}/tax-rates`, { token: admin, body });
  assert.equal(r.status, 201, r.text);
  return r.body;
}

async function createRule(body: Record<string, unknown>) {
  const r = await t.req('POST', `${API}/tax-rules`, { token: admin, body });
  assert.equal(r.status, 201, r.text);
  return r.body;
}

const count = async (table: typeof taxRates | typeof taxRules) => (await t.database.db.select().from(table)).length;

async function rateByCode(code: string) {
  const r = await t.req('GET', `${API}/tax-rates?itemsPerPage=100`, { token: admin, headers: { accept: 'application/json' } });
  return r.body.find((x: { code: string }) => x.code === code);
}

describe('install and demo data', () => {
  test('US rates, the retail rule and the demo DE rate and rule are present', async () => {
    const r = await t.req('GET', `${API}/tax-rates`, { token: admin });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body['@context'], '/api/contexts/TaxRate');
    const byCode = Object.fromEntries(r.body.member.map((x: { code: string }) => [x.code, x]));
    assert.deepEqual(byCode['US-CA-*-Rate 1'], {
      id: byCode['US-CA-*-Rate 1'].id,
      code: 'US-CA-*-Rate 1',
      taxCountryId: 'US',
      taxRegionId: CA,
      taxPostcode: '*',
      rate: 8.25,
      zipIsRange: false,
      titles: [],
    });
    assert.equal(byCode['US-NY-*-Rate 1'].rate, 8.375);
    assert.equal(byCode['US-NY-*-Rate 1'].taxRegionId, NY);
    assert.equal(byCode['DE-*-*-Rate 1'].rate, 19);
    assert.equal(byCode['DE-*-*-Rate 1'].taxRegionId, undefined);

    const rules = await t.req('GET', `${API}/tax-rules`, { token: admin });
    const retail = rules.body.member.find((x: { code: string }) => x.code === 'Retail Customer-Taxable Goods-Rate 1');
    assert.deepEqual(retail, {
      id: retail.id,
      code: 'Retail Customer-Taxable Goods-Rate 1',
      priority: 0,
      position: 0,
      calculateSubtotal: false,
      customerTaxClassIds: [3],
      productTaxClassIds: [2],
      taxRateIds: [byCode['US-CA-*-Rate 1'].id, byCode['US-NY-*-Rate 1'].id],
    });
    const de = rules.body.member.find((x: { code: string }) => x.code === 'Retail Customer-Taxable Goods-DE');
    assert.deepEqual(de.taxRateIds, [byCode['DE-*-*-Rate 1'].id]);
  });

  test('install runs again without harm (databases at version 1)', async () => {
    const rates = await count(taxRates);
    const rules = await count(taxRules);
    await install(t.database.db);
    assert.equal(await count(taxRates), rates);
    assert.equal(await count(taxRules), rules);
  });
});

describe('tax rates', () => {
  test('access: anonymous 401, customer 403, without permission 403, read/write/delete grants', async () => {
    assertError(await t.req('GET', `${API}/tax-rates`), 401, 'unauthorized');
    assertError(await t.req('GET', `${API}/tax-rates`, { token: customer }), 403, 'forbidden');
    assertError(await t.req('GET', `${API}/tax-rates`, { token: rateTok.none }), 403, 'forbidden');
    assert.equal((await t.req('GET', `${API}/tax-rates`, { token: rateTok.read })).status, 200);
    const body = { code: 'ACL-rate', taxCountryId: 'US', rate: 1 };
    assertError(await t.req('POST', `${API}/tax-rates`, { token: rateTok.read, body }), 403, 'forbidden');
    const c = await t.req('POST', `${API}/tax-rates`, { token: rateTok.write, body });
    assert.equal(c.status, 201, c.text);
    assert.equal((await t.req('PUT', `${API}/tax-rates/${c.body.id}`, { token: rateTok.write, body: { rate: 2 } })).status, 200);
    assertError(await t.req('DELETE', `${API}/tax-rates/${c.body.id}`, { token: rateTok.write }), 403, 'forbidden');
    assertError(await t.req('GET', `${API}/tax-rates/${c.body.id}`, { token: rateTok.delete }), 403, 'forbidden');
    assert.equal((await t.req('DELETE', `${API}/tax-rates/${c.body.id}`, { token: rateTok.delete })).status, 204);
  });

  test('create with defaults, ISO-3 / lower-case country, region 0 = none; read back', async () => {
    const r = await createRate({ code: 'FR std', taxCountryId: 'fra', rate: 20, taxRegionId: 0, titles: [{ storeId: 1, title: 'TVA' }] });
    assert.deepEqual(r, {
      id: r.id,
      code: 'FR std',
      taxCountryId: 'FR',
      taxPostcode: '*',
      rate: 20,
      zipIsRange: false,
      titles: [{ storeId: 1, title: 'TVA' }],
    });
    assert.deepEqual((await t.req('GET', `${API}/tax-rates/${r.id}`, { token: admin })).body, r);
    const us = await createRate({ code: 'US-TX', taxCountryId: 'US', taxRegionId: 57, taxPostcode: '75*', rate: 6.25 });
    assert.equal(us.taxRegionId, 57);
    assert.equal(us.taxPostcode, '75*');
  });

  test('zip ranges: numbers or digit strings, from <= to; the postcode reads from-to', async () => {
    const r = await createRate({ code: 'US-range', taxCountryId: 'US', rate: 1, zipIsRange: true, zipFrom: 90000, zipTo: '90299' });
    assert.equal(r.taxPostcode, '90000-90299');
    assert.equal(r.zipFrom, '90000');
    assert.equal(r.zipTo, '90299');
    assert.equal(r.zipIsRange, true);
    for (const body of [
      { code: 'bad-r1', taxCountryId: 'US', rate: 1, zipIsRange: true, zipFrom: 5, zipTo: 1 },
      { code: 'bad-r2', taxCountryId: 'US', rate: 1, zipIsRange: true, zipFrom: '12a', zipTo: '99' },
      { code: 'bad-r3', taxCountryId: 'US', rate: 1, zipIsRange: true, zipFrom: '1' },
    ]) {
      assertError(await t.req('POST', `${API}/tax-rates`, { token: admin, body }), 400, 'bad_request');
    }
    const off = await t.req('PUT', `${API}/tax-rates/${r.id}`, { token: admin, body: { zipIsRange: false } });
    assert.equal(off.status, 200, off.text);
    assert.equal(off.body.taxPostcode, '*');
    assert.equal(off.body.zipFrom, undefined);
  });

  test('bad input is a 400 and changes nothing', async () => {
    const before = await count(taxRates);
    for (const body of [
      {},
      { taxCountryId: 'US', rate: 1 },
      { code: 'x', rate: 1 },
      { code: 'x', taxCountryId: 'US' },
      { code: 'x', taxCountryId: 'ZZ', rate: 1 },
      { code: 'x', taxCountryId: 'US', rate: -1 },
      { code: 'x', taxCountryId: 'US', rate: 100.5 },
      { code: 'x', taxCountryId: 'US', rate: '8' },
      { code: 'x', taxCountryId: 'DE', rate: 1, taxRegionId: CA },
      { code: 'x', taxCountryId: 'US', rate: 1, taxRegionId: 99999 },
      { code: 'x', taxCountryId: 'FR', rate: 1, taxRegionId: 79 },
      { code: 'x', taxCountryId: 'US', rate: 1, titles: [{ storeId: 999, title: 'x' }] },
      {
        code: 'x',
        taxCountryId: 'US',
        rate: 1,
        titles: [
          { storeId: 1, title: 'a' },
          { storeId: 1, title: 'b' },
        ],
      },
      { code: 'x', taxCountryId: 'US', rate: 1, titles: 'x' },
      { code: 'x', taxCountryId: 'US', rate: 1, taxPostcode: '9*0' },
      { code: '', taxCountryId: 'US', rate: 1 },
    ]) {
      assertError(await t.req('POST', `${API}/tax-rates`, { token: admin, body }), 400, 'bad_request');
    }
    assertError(
      await t.req('POST', `${API}/tax-rates`, { token: admin, raw: '{', headers: { 'content-type': 'application/json' } }),
      400,
      'bad_request',
    );
    assert.equal(await count(taxRates), before);
  });

  test('duplicate codes (any case) are 409', async () => {
    const a = await createRate({ code: 'Dup rate', taxCountryId: 'US', rate: 1 });
    assertError(
      await t.req('POST', `${API}/tax-rates`, { token: admin, body: { code: 'DUP RATE', taxCountryId: 'US', rate: 2 } }),
      409,
      'conflict',
    );
    const b = await createRate({ code: 'Dup rate 2', taxCountryId: 'US', rate: 1 });
    assertError(await t.req('PUT', `${API}/tax-rates/${b.id}`, { token: admin, body: { code: 'dup rate' } }), 409, 'conflict');
    // renaming to its own code in another case is fine
    const self = await t.req('PUT', `${API}/tax-rates/${a.id}`, { token: admin, body: { code: 'DUP rate' } });
    assert.equal(self.status, 200, self.text);
  });

  test('PUT changes only what was sent; titles are kept unless sent', async () => {
    const r = await createRate({ code: 'Titled', taxCountryId: 'US', taxRegionId: NY, rate: 4, titles: [{ storeId: 1, title: 'NY tax' }] });
    const u = await t.req('PUT', `${API}/tax-rates/${r.id}`, { token: admin, body: { rate: 4.5, id: 1 } });
    assert.equal(u.status, 200, u.text);
    assert.deepEqual(u.body, { ...r, rate: 4.5 });
    assertError(await t.req('PUT', `${API}/tax-rates/${r.id}`, { token: admin, body: { taxCountryId: 'DE' } }), 400, 'bad_request');
    const moved = await t.req('PUT', `${API}/tax-rates/${r.id}`, {
      token: admin,
      body: { taxCountryId: 'DE', taxRegionId: null, titles: [] },
    });
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.body.taxRegionId, undefined);
    assert.deepEqual(moved.body.titles, []);
    assertError(await t.req('PUT', `${API}/tax-rates/9999`, { token: admin, body: { rate: 1 } }), 404, 'not_found');
  });

  test('filter taxCountryId; list sorted by code', async () => {
    const r = await t.req('GET', `${API}/tax-rates?taxCountryId=us`, { token: admin, headers: { accept: 'application/json' } });
    assert.equal(r.status, 200);
    assert.ok(r.body.length >= 2);
    assert.ok(r.body.every((x: { taxCountryId: string }) => x.taxCountryId === 'US'));
    const codes = r.body.map((x: { code: string }) => x.code.toLowerCase());
    assert.deepEqual(codes, [...codes].sort());
    const none = await t.req('GET', `${API}/tax-rates?taxCountryId=ZZ`, { token: admin });
    assert.equal(none.body.totalItems, 0);
  });

  test('deleting a rate takes it out of every rule; the rule stays', async () => {
    const rate = await createRate({ code: 'Doomed', taxCountryId: 'US', rate: 3 });
    const keep = await createRate({ code: 'Kept', taxCountryId: 'US', rate: 3 });
    const rule = await createRule({
      code: 'Uses doomed',
      customerTaxClassIds: [3],
      productTaxClassIds: [2],
      taxRateIds: [rate.id, keep.id],
    });
    const lone = await createRule({ code: 'Only doomed', customerTaxClassIds: [3], productTaxClassIds: [4], taxRateIds: [rate.id] });
    assert.equal((await t.req('DELETE', `${API}/tax-rates/${rate.id}`, { token: admin })).status, 204);
    assert.deepEqual((await t.req('GET', `${API}/tax-rules/${rule.id}`, { token: admin })).body.taxRateIds, [keep.id]);
    assert.deepEqual((await t.req('GET', `${API}/tax-rules/${lone.id}`, { token: admin })).body.taxRateIds, []);
    assertError(await t.req('DELETE', `${API}/tax-rates/${rate.id}`, { token: admin }), 404, 'not_found');
  });
});

describe('tax rules', () => {
  test('access: anonymous 401, customer 403, without permission 403, read/write/delete grants', async () => {
    const ca = await rateByCode('US-CA-*-Rate 1');
    assertError(await t.req('GET', `${API}/tax-rules`), 401, 'unauthorized');
    assertError(await t.req('GET', `${API}/tax-rules`, { token: customer }), 403, 'forbidden');
    assertError(await t.req('GET', `${API}/tax-rules`, { token: ruleTok.none }), 403, 'forbidden');
    assert.equal((await t.req('GET', `${API}/tax-rules`, { token: ruleTok.read })).status, 200);
    const body = { code: 'ACL-rule', customerTaxClassIds: [3], productTaxClassIds: [2], taxRateIds: [ca.id] };
    assertError(await t.req('POST', `${API}/tax-rules`, { token: ruleTok.read, body }), 403, 'forbidden');
    const c = await t.req('POST', `${API}/tax-rules`, { token: ruleTok.write, body });
    assert.equal(c.status, 201, c.text);
    assert.equal((await t.req('PUT', `${API}/tax-rules/${c.body.id}`, { token: ruleTok.write, body: { priority: 1 } })).status, 200);
    assertError(await t.req('DELETE', `${API}/tax-rules/${c.body.id}`, { token: ruleTok.write }), 403, 'forbidden');
    assert.equal((await t.req('DELETE', `${API}/tax-rules/${c.body.id}`, { token: ruleTok.delete })).status, 204);
  });

  test('create with defaults; ids deduplicated; PUT partial', async () => {
    const ca = await rateByCode('US-CA-*-Rate 1');
    const r = await createRule({ code: 'Defaults', customerTaxClassIds: [3, 3], productTaxClassIds: [2, 4], taxRateIds: [ca.id] });
    assert.deepEqual(r, {
      id: r.id,
      code: 'Defaults',
      priority: 0,
      position: 0,
      calculateSubtotal: false,
      customerTaxClassIds: [3],
      productTaxClassIds: [2, 4],
      taxRateIds: [ca.id],
    });
    const u = await t.req('PUT', `${API}/tax-rules/${r.id}`, {
      token: admin,
      body: { priority: 2, calculateSubtotal: true, productTaxClassIds: [4] },
    });
    assert.equal(u.status, 200, u.text);
    assert.deepEqual(u.body, { ...r, priority: 2, calculateSubtotal: true, productTaxClassIds: [4] });
    assert.deepEqual((await t.req('GET', `${API}/tax-rules/${r.id}`, { token: admin })).body, u.body);
  });

  test('bad input is a 400 and changes nothing: missing lists, wrong class types, unknown ids', async () => {
    const ca = await rateByCode('US-CA-*-Rate 1');
    const before = await count(taxRules);
    const ok = { code: 'Bad', customerTaxClassIds: [3], productTaxClassIds: [2], taxRateIds: [ca.id] };
    for (const body of [
      {},
      { ...ok, code: undefined },
      { ...ok, customerTaxClassIds: [] },
      { ...ok, productTaxClassIds: undefined },
      { ...ok, taxRateIds: [] },
      { ...ok, customerTaxClassIds: [2] },
      { ...ok, productTaxClassIds: [3] },
      { ...ok, productTaxClassIds: [9999] },
      { ...ok, taxRateIds: [9999] },
      { ...ok, priority: -1 },
      { ...ok, priority: 'high' },
      { ...ok, customerTaxClassIds: ['3'] },
    ]) {
      const r = await t.req('POST', `${API}/tax-rules`, { token: admin, body });
      assertError(r, 400, 'bad_request');
    }
    const wrongType = await t.req('POST', `${API}/tax-rules`, { token: admin, body: { ...ok, customerTaxClassIds: [2] } });
    assert.match(wrongType.body.message, /CUSTOMER/);
    assert.equal(await count(taxRules), before);
    const rule = await createRule({ ...ok, code: 'Bad update target' });
    assertError(await t.req('PUT', `${API}/tax-rules/${rule.id}`, { token: admin, body: { taxRateIds: [] } }), 400, 'bad_request');
    assertError(await t.req('PUT', `${API}/tax-rules/${rule.id}`, { token: admin, body: { productTaxClassIds: [3] } }), 400, 'bad_request');
    assert.deepEqual((await t.req('GET', `${API}/tax-rules/${rule.id}`, { token: admin })).body, rule);
    assertError(await t.req('GET', `${API}/tax-rules/9999`, { token: admin }), 404, 'not_found');
  });

  test('duplicate codes (any case) are 409', async () => {
    const ca = await rateByCode('US-CA-*-Rate 1');
    const body = { code: 'retail customer-taxable goods-rate 1', customerTaxClassIds: [3], productTaxClassIds: [2], taxRateIds: [ca.id] };
    assertError(await t.req('POST', `${API}/tax-rules`, { token: admin, body }), 409, 'conflict');
    const other = await createRule({ ...body, code: 'Another rule' });
    assertError(
      await t.req('PUT', `${API}/tax-rules/${other.id}`, { token: admin, body: { code: 'Retail Customer-Taxable Goods-RATE 1' } }),
      409,
      'conflict',
    );
    const self = await t.req('PUT', `${API}/tax-rules/${other.id}`, { token: admin, body: { code: 'ANOTHER RULE' } });
    assert.equal(self.status, 200, self.text);
    assert.equal(self.body.code, 'ANOTHER RULE');
  });

  test('list sorted by code, paginated', async () => {
    const r = await t.req('GET', `${API}/tax-rules?itemsPerPage=2`, { token: admin });
    assert.equal(r.body.member.length, 2);
    assert.ok(r.body.totalItems > 2);
    assert.ok(r.body.view.next);
    const all = await t.req('GET', `${API}/tax-rules?itemsPerPage=100`, { token: admin, headers: { accept: 'application/json' } });
    const codes = all.body.map((x: { code: string }) => x.code.toLowerCase());
    assert.deepEqual(codes, [...codes].sort());
  });
});

describe('GraphQL', () => {
  const gql = (query: string, token?: string) => t.req('POST', '/api/graphql', { token, body: { query } });

  test('taxRates / taxRate / taxRules / taxRule', async () => {
    const r = await gql(
      '{ taxRates(taxCountryId: "US", first: 100) { totalCount edges { node { _id code rate taxRegionId titles } } } taxRules(first: 100) { totalCount edges { node { _id code taxRateIds } } } }',
      admin,
    );
    assert.equal(r.body.errors, undefined, r.text);
    const ca = r.body.data.taxRates.edges.map((e: { node: unknown }) => e.node).find((x: { code: string }) => x.code === 'US-CA-*-Rate 1');
    assert.equal(ca.rate, 8.25);
    assert.equal(ca.taxRegionId, CA);
    const rule = r.body.data.taxRules.edges
      .map((e: { node: unknown }) => e.node)
      .find((x: { code: string }) => x.code === 'Retail Customer-Taxable Goods-Rate 1');
    assert.ok(rule.taxRateIds.includes(ca._id));
    const one = await gql(
      `{ taxRate(id: "/api/rest/v2/tax-rates/${ca._id}") { code } taxRule(id: ${rule._id}) { code customerTaxClassIds productTaxClassIds } }`,
      admin,
    );
    assert.deepEqual(one.body.data, {
      taxRate: { code: 'US-CA-*-Rate 1' },
      taxRule: { code: 'Retail Customer-Taxable Goods-Rate 1', customerTaxClassIds: [3], productTaxClassIds: [2] },
    });
    const denied = await gql('{ taxRules { totalCount } }', ruleTok.none);
    assert.equal(denied.body.errors[0].extensions.status, 403);
    const anon = await gql('{ taxRates { totalCount } }');
    assert.equal(anon.body.errors[0].extensions.status, 401);
  });

  test('createTaxRate / updateTaxRate / deleteTaxRate and createTaxRule / updateTaxRule / deleteTaxRule', async () => {
    const c = await gql(
      'mutation { createTaxRate(input: { code: "GQL rate", taxCountryId: "US", rate: 7.5, taxRegionId: 12 }) { taxRate { _id code rate taxRegionId taxPostcode } } }',
      admin,
    );
    assert.equal(c.body.errors, undefined, c.text);
    const rate = c.body.data.createTaxRate.taxRate;
    assert.deepEqual({ ...rate, _id: 0 }, { _id: 0, code: 'GQL rate', rate: 7.5, taxRegionId: 12, taxPostcode: '*' });
    const u = await gql(
      `mutation { updateTaxRate(input: { id: "${rate._id}", rate: 8, taxRegionId: null }) { taxRate { rate taxRegionId } } }`,
      admin,
    );
    assert.deepEqual(u.body.data.updateTaxRate.taxRate, { rate: 8, taxRegionId: null });
    const bad = await gql(
      'mutation { createTaxRate(input: { code: "GQL bad", taxCountryId: "US", rate: 101 }) { taxRate { id } } }',
      admin,
    );
    assert.equal(bad.body.errors[0].extensions.status, 400);

    const rc = await gql(
      `mutation { createTaxRule(input: { code: "GQL rule", customerTaxClassIds: [3], productTaxClassIds: [2], taxRateIds: [${rate._id}] }) { taxRule { _id priority taxRateIds } } }`,
      admin,
    );
    assert.equal(rc.body.errors, undefined, rc.text);
    const rule = rc.body.data.createTaxRule.taxRule;
    assert.deepEqual(rule.taxRateIds, [rate._id]);
    const ru = await gql(
      `mutation { updateTaxRule(input: { id: "/api/rest/v2/tax-rules/${rule._id}", priority: 3, code: null }) { taxRule { priority code } } }`,
      admin,
    );
    assert.deepEqual(ru.body.data.updateTaxRule.taxRule, { priority: 3, code: 'GQL rule' });
    const dup = await gql(
      `mutation { createTaxRule(input: { code: "gql RULE", customerTaxClassIds: [3], productTaxClassIds: [2], taxRateIds: [${rate._id}] }) { taxRule { id } } }`,
      admin,
    );
    assert.equal(dup.body.errors[0].extensions.status, 409);
    assert.equal(
      (await gql(`mutation { deleteTaxRule(input: { id: "${rule._id}" }) { taxRule { _id } } }`, admin)).body.data.deleteTaxRule.taxRule
        ._id,
      rule._id,
    );
    assert.equal(
      (await gql(`mutation { deleteTaxRate(input: { id: "${rate._id}" }) { taxRate { _id } } }`, admin)).body.data.deleteTaxRate.taxRate
        ._id,
      rate._id,
    );
  });
});
