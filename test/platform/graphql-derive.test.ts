/**
 * The GraphQL schema is derived from the operation declarations: every declared operation has its field (or
 * names the field that serves it), each declared type has the REST item's fields with `id` the IRI and `_id`
 * the number; names follow API Platform's inflection.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Type } from 'typebox';
import { access } from '../../src/platform/auth/access.js';
import { deriveGraphql, GraphqlType, idOfIri, plural } from '../../src/platform/graphql-derive.js';
import { op } from '../../src/platform/operations.js';
import { allOperations } from '../../src/modules/index.js';
import { buildTestApp, type TestApp } from '../helpers.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp();
});
after(() => t.close());

describe('derivation', () => {
  test('every declared operation has a GraphQL field, or names the one that serves it', async () => {
    const r = await t.req('POST', '/api/graphql', {
      body: { query: '{ q: __schema { queryType { fields { name } } mutationType { fields { name } } } }' },
    });
    assert.equal(r.status, 200, r.text);
    const names = new Set([...r.body.data.q.queryType.fields, ...r.body.data.q.mutationType.fields].map((f: { name: string }) => f.name));
    const { fields } = deriveGraphql(allOperations(), { apiPrefix: '/api/rest/v2' });
    const ops = allOperations();
    assert.ok(ops.length > 0);
    for (const o of ops) {
      assert.notEqual(o.graphql, false, `${o.id} has no GraphQL twin`);
      const g = o.graphql || {};
      const name = g.via ?? g.name ?? [...fields.entries()].find(([, d]) => d === o)?.[0];
      assert.ok(name && names.has(name), `${o.id}: GraphQL field ${name} is missing`);
    }
  });

  test('types carry the REST fields; id is the IRI and _id the number', async () => {
    const r = await t.req('POST', '/api/graphql', {
      body: { query: '{ __type(name: "WishlistItem") { fields { name type { kind name ofType { name } } } } }' },
    });
    const fields = Object.fromEntries(
      r.body.data.__type.fields.map((f: any) => [f.name, f.type.kind === 'NON_NULL' ? `${f.type.ofType.name}!` : f.type.name]),
    );
    assert.equal(fields.id, 'ID!');
    assert.equal(fields._id, 'Int');
    assert.equal(fields.productName, 'String!');
    assert.equal(fields.productPrice, 'Float', 'an optional REST field is nullable');
  });

  test('names, plurals and IRIs', () => {
    assert.equal(plural('Category'), 'Categories');
    assert.equal(plural('Address'), 'Addresses');
    assert.equal(plural('TaxClass'), 'TaxClasses');
    assert.equal(plural('Stock'), 'Stocks');
    assert.equal(idOfIri('/api/rest/v2/products/42', '/api/rest/v2/products/'), 42);
    assert.equal(idOfIri('42'), 42);
    assert.equal(idOfIri(7), 7);
    assert.equal(idOfIri('/api/rest/v2/orders/42', '/api/rest/v2/products/'), undefined);
    assert.equal(idOfIri('abc'), undefined);
  });

  test('a nested object that names its type becomes that object type, with the fields of every use', () => {
    const Place = Type.Object({ id: Type.Integer(), city: Type.String(), zip: Type.String() });
    const Spot = GraphqlType('Place', Type.Object({ city: Type.String(), note: Type.String() }));
    const Trip = Type.Object({ id: Type.Integer(), from: Type.Optional(Spot), to: Spot, stops: Type.Array(Spot) });
    const base = { tags: [], summary: '', access: access.public, params: Type.Object({ id: Type.Integer() }), run: async () => ({}) };
    const d = deriveGraphql(
      [
        op({ ...base, id: 'x.place', method: 'GET', path: '/places/:id', shortName: 'Place', response: Place }),
        op({ ...base, id: 'x.trip', method: 'GET', path: '/trips/:id', shortName: 'Trip', response: Trip }),
      ],
      { apiPrefix: '/api' },
    );
    assert.match(d.typeDefs, /type Trip \{\n  id: ID!\n  _id: Int\n  from: Place\n  to: Place!\n  stops: Iterable!\n\}/);
    // id and zip only some uses have are nullable; city, which every use has, is not
    assert.match(d.typeDefs, /type Place \{\n  id: ID\n  _id: Int\n  city: String!\n  zip: String\n  note: String\n\}/);
  });

  test('an operation without a standard shape must be named; two claiming one name fail', () => {
    const Item = Type.Object({ id: Type.Integer(), name: Type.String() });
    const custom = op({
      id: 'x.custom',
      method: 'POST',
      path: '/things/:id/poke',
      tags: [],
      summary: '',
      access: access.public,
      shortName: 'Thing',
      params: Type.Object({ id: Type.Integer() }),
      response: Item,
      run: async () => ({}),
    });
    assert.throws(() => deriveGraphql([custom], { apiPrefix: '/api' }), /needs a GraphQL name/);
    const list = op({
      id: 'x.list',
      method: 'GET',
      path: '/things',
      tags: [],
      summary: '',
      access: access.public,
      shortName: 'Thing',
      kind: 'collection',
      response: Item,
      run: async () => ({ items: [], total: 0 }),
    });
    const twice = op({ ...list, id: 'x.list2', path: '/things2' });
    assert.throws(() => deriveGraphql([list, twice], { apiPrefix: '/api' }), /declared by x\.list and x\.list2/);
    const d = deriveGraphql([list], { apiPrefix: '/api' });
    assert.match(d.typeDefs, /things\(first: Int, last: Int, before: String, after: String\): ThingConnection/);
    assert.match(d.typeDefs, /type Thing \{\n  id: ID!\n  _id: Int\n  name: String!\n\}/);
  });
});
