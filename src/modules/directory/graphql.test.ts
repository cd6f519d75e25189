/** Countries over GraphQL: countries (a connection of the store's allowed countries) and country(id:) by ISO code. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let customer: string;

const gql = (query: string, token?: string) => t.gql(query, token);

before(async () => {
  t = await buildTestApp();
  customer = await t.tokens.customer();
});
after(() => t.close());

describe('countries over GraphQL', () => {
  test('countries: the allowed countries with their regions, as REST lists them', async () => {
    const r = await gql(
      '{ countries { totalCount edges { cursor node { id name iso2Code iso3Code availableRegions } } pageInfo { hasNextPage hasPreviousPage } } }',
    );
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    const rest = await t.req('GET', `${API}/countries`, { headers: { accept: 'application/json' } });
    assert.equal(r.data.countries.totalCount, rest.body.length);
    assert.deepEqual(
      r.data.countries.edges.map((e: any) => e.node),
      rest.body,
    );
    assert.equal(r.data.countries.pageInfo.hasNextPage, false);
    // an unpaginated list: the derived connection answers it whole (the cursor arguments are accepted)
    const asCustomer = await gql('{ countries(first: 1) { totalCount edges { node { id } } } }', customer);
    assert.equal(asCustomer.errors, undefined, JSON.stringify(asCustomer.errors));
    assert.equal(asCustomer.data.countries.totalCount, rest.body.length);
  });

  test('country by ISO-2, ISO-3 (any case) or REST IRI; unknown is null with a 404', async () => {
    const us = await gql('{ country(id: "US") { id name iso2Code iso3Code availableRegions } }', customer);
    assert.equal(us.errors, undefined, JSON.stringify(us.errors));
    assert.equal(us.data.country.iso2Code, 'US');
    assert.equal(us.data.country.iso3Code, 'USA');
    assert.ok(Array.isArray(us.data.country.availableRegions) && us.data.country.availableRegions.length > 0);
    assert.equal((await gql('{ country(id: "deu") { iso2Code } }')).data.country.iso2Code, 'DE');
    assert.equal((await gql('{ country(id: "/api/rest/v2/countries/fr") { iso2Code } }')).data.country.iso2Code, 'FR');
    const none = await gql('{ country(id: "ZZ") { name } }');
    assert.equal(none.data.country, null);
    assert.equal(none.errors[0].extensions.status, 404);
    const long = await gql(`{ country(id: "${'x'.repeat(100)}") { name } }`);
    assert.equal(long.data.country, null);
    assert.ok([400, 404].includes(long.errors[0].extensions.status));
  });
});
