/**
 * Tax classes, rates and rules over GraphQL in API Platform's shape: connections with filters and cursor paging,
 * items by IRI, create/update/delete with `input` and payloads; per access level, and bad input as 4xx errors.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let admin: string;
let customer: string;
let classReader: string;

const gql = (query: string, token?: string, variables?: Record<string, unknown>) => t.gql(query, token, variables);

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  classReader = await t.tokens.apiUser(['tax-classes/read']);
});
after(() => t.close());

describe('tax classes', () => {
  test('connection with classType and search filters, cursor paging, item by IRI', async () => {
    const all = await gql(
      '{ taxClasses(first: 1) { totalCount edges { cursor node { id _id className classType } } pageInfo { hasNextPage endCursor } } }',
      classReader,
    );
    assert.equal(all.errors, undefined, JSON.stringify(all.errors));
    const c = all.data.taxClasses;
    assert.ok(c.totalCount >= 2);
    assert.equal(c.edges.length, 1);
    assert.equal(c.pageInfo.hasNextPage, true);
    assert.match(c.edges[0].node.id, /^\/api\/rest\/v2\/tax-classes\/\d+$/);
    const next = await gql(`{ taxClasses(first: 1, after: "${c.pageInfo.endCursor}") { edges { node { _id } } } }`, classReader);
    assert.notEqual(next.data.taxClasses.edges[0].node._id, c.edges[0].node._id);

    const search = await gql('{ taxClasses(search: "taxable") { edges { node { _id className } } } }', admin);
    assert.deepEqual(
      search.data.taxClasses.edges.map((e: any) => e.node.className),
      ['Taxable Goods'],
    );
    const customers = await gql('{ taxClasses(classType: "CUSTOMER") { edges { node { classType } } } }', admin);
    assert.ok(customers.data.taxClasses.edges.length > 0);
    assert.ok(customers.data.taxClasses.edges.every((e: any) => e.node.classType === 'CUSTOMER'));

    const one = await gql('{ taxClass(id: "/api/rest/v2/tax-classes/2") { id _id className } }', classReader);
    assert.deepEqual(one.data.taxClass, { id: '/api/rest/v2/tax-classes/2', _id: 2, className: 'Taxable Goods' });
    const wrongIri = await gql('{ taxClass(id: "/api/rest/v2/tax-rates/2") { _id } }', admin);
    assert.equal(wrongIri.data.taxClass, null);
    assert.equal(wrongIri.errors[0].extensions.status, 404);
  });

  test('access: anonymous 401, customer 403, a grant of another resource 403', async () => {
    assert.equal((await gql('{ taxClasses { totalCount } }')).errors[0].extensions.status, 401);
    assert.equal((await gql('{ taxClasses { totalCount } }', customer)).errors[0].extensions.status, 403);
    assert.equal((await gql('{ taxRates { totalCount } }', classReader)).errors[0].extensions.status, 403);
    const write = await gql('mutation { createTaxClass(input: {className: "Nope"}) { taxClass { _id } } }', classReader);
    assert.equal(write.data.createTaxClass, null);
    assert.equal(write.errors[0].extensions.status, 403);
  });

  test('bad input: an unknown class type, a bad page size, an unknown id', async () => {
    const bad = await gql('{ taxClasses(classType: "NOPE") { totalCount } }', admin);
    assert.equal(bad.errors[0].extensions.status, 400);
    const badCreate = await gql('mutation { createTaxClass(input: {className: ""}) { taxClass { _id } } }', admin);
    assert.equal(badCreate.errors[0].extensions.status, 400);
    const missing = await gql('{ taxClass(id: 999999) { _id } }', admin);
    assert.equal(missing.errors[0].extensions.status, 404);
    const noUpdate = await gql('mutation { updateTaxClass(input: {id: "999999", className: "x"}) { taxClass { _id } } }', admin);
    assert.equal(noUpdate.errors[0].extensions.status, 404);
  });
});

describe('tax rates and rules', () => {
  test('rates: taxCountryId and search filters; rules: search; items by IRI', async () => {
    const us = await gql(
      '{ taxRates(taxCountryId: "US", first: 100) { totalCount edges { node { id _id code taxCountryId rate zipIsRange titles } } } }',
      admin,
    );
    assert.equal(us.errors, undefined, JSON.stringify(us.errors));
    assert.ok(us.data.taxRates.totalCount > 0);
    assert.ok(us.data.taxRates.edges.every((e: any) => e.node.taxCountryId === 'US'));
    const ca = await gql('{ taxRates(search: "us-ca") { totalCount edges { node { _id code rate } } } }', admin);
    assert.deepEqual(
      ca.data.taxRates.edges.map((e: any) => e.node.code),
      ['US-CA-*-Rate 1'],
    );
    assert.equal(ca.data.taxRates.edges[0].node.rate, 8.25);
    const rateId = ca.data.taxRates.edges[0].node._id;
    const one = await gql(`{ taxRate(id: "/api/rest/v2/tax-rates/${rateId}") { code } }`, admin);
    assert.equal(one.data.taxRate.code, 'US-CA-*-Rate 1');

    const rules = await gql(
      '{ taxRules(search: "retail") { totalCount edges { node { id _id code priority calculateSubtotal customerTaxClassIds productTaxClassIds taxRateIds } } } }',
      admin,
    );
    assert.equal(rules.errors, undefined, JSON.stringify(rules.errors));
    const found = rules.data.taxRules.edges.map((e: any) => e.node);
    assert.ok(found.length >= 1);
    assert.equal(rules.data.taxRules.totalCount, found.length);
    assert.ok(found.every((r: any) => /retail/i.test(r.code)));
    const rule = found.find((r: any) => r.taxRateIds.includes(rateId));
    assert.ok(rule);
    assert.equal((await gql('{ taxRules(search: "no such rule") { totalCount } }', admin)).data.taxRules.totalCount, 0);
    assert.equal((await gql(`{ taxRule(id: "${rule.id}") { code } }`, admin)).data.taxRule.code, rule.code);
  });

  test('rate and rule round trip: create, update (null region kept), delete', async () => {
    const c = await gql(
      'mutation { createTaxRate(input: {code: "GQLT rate", taxCountryId: "US", rate: 5.5, taxRegionId: 12, clientMutationId: "c"}) { clientMutationId taxRate { id _id rate taxRegionId } } }',
      admin,
    );
    assert.equal(c.errors, undefined, JSON.stringify(c.errors));
    assert.equal(c.data.createTaxRate.clientMutationId, 'c');
    const rate = c.data.createTaxRate.taxRate;
    const u = await gql(`mutation { updateTaxRate(input: {id: "${rate.id}", taxRegionId: null}) { taxRate { rate taxRegionId } } }`, admin);
    assert.deepEqual(u.data.updateTaxRate.taxRate, { rate: 5.5, taxRegionId: null });
    const r = await gql(
      `mutation { createTaxRule(input: {code: "GQLT rule", customerTaxClassIds: [3], productTaxClassIds: [2], taxRateIds: [${rate._id}]}) { taxRule { _id taxRateIds } } }`,
      admin,
    );
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    const ruleId = r.data.createTaxRule.taxRule._id;
    const badRule = await gql(
      'mutation { createTaxRule(input: {code: "GQLT bad", customerTaxClassIds: [3], productTaxClassIds: [2], taxRateIds: [999999]}) { taxRule { _id } } }',
      admin,
    );
    assert.ok([400, 404].includes(badRule.errors[0].extensions.status));
    assert.equal(
      (await gql(`mutation { deleteTaxRule(input: {id: "${ruleId}"}) { taxRule { id } } }`, admin)).data.deleteTaxRule.taxRule.id,
      `/api/rest/v2/tax-rules/${ruleId}`,
    );
    assert.equal(
      (await gql(`mutation { deleteTaxRate(input: {id: "${rate.id}"}) { taxRate { _id } } }`, admin)).data.deleteTaxRate.taxRate._id,
      rate._id,
    );
    const gone = await gql(`{ taxRate(id: "${rate.id}") { _id } }`, admin);
    assert.equal(gone.errors[0].extensions.status, 404);
  });
});
