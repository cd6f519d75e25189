/**
 * Coupons over GraphQL in API Platform's shape: coupon(id: IRI), the coupons connection (code, is_active,
 * cursor paging), createCoupon / updateCoupon / deleteCoupon / validateCoupon with `input` and `{ coupon }`
 * payloads; per access level, and bad input as 4xx errors.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let admin: string;
let customer: string;
let reader: string;
let n = 0;
const uniq = (p: string) => `${p}${Date.now().toString(36)}${++n}`.toUpperCase();

const gql = (query: string, token?: string, variables?: Record<string, unknown>) => t.gql(query, token, variables);

const create = async (input: Record<string, unknown>) => {
  const r = await gql('mutation($i: createCouponInput!) { createCoupon(input: $i) { coupon { id _id code ruleId isActive } } }', admin, {
    i: { discountType: 'percent', discountAmount: 5, ...input },
  });
  assert.equal(r.errors, undefined, JSON.stringify(r.errors));
  return r.data.createCoupon.coupon;
};

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  reader = await t.tokens.apiUser(['coupons/read']);
});
after(() => t.close());

describe('coupons over GraphQL', () => {
  test('connection: code and is_active filters, cursor paging; item by IRI', async () => {
    const prefix = uniq('GQLC');
    const a = await create({ code: `${prefix}A` });
    const b = await create({ code: `${prefix}B`, isActive: false });
    await create({ code: `${prefix}C` });
    assert.equal(a.id, `/api/rest/v2/coupons/${a._id}`);

    const all = await gql(`{ coupons(code: "${prefix}") { totalCount edges { node { _id code isActive } } } }`, reader);
    assert.equal(all.errors, undefined, JSON.stringify(all.errors));
    assert.equal(all.data.coupons.totalCount, 3);
    const inactive = await gql(`{ coupons(code: "${prefix}", is_active: false) { totalCount edges { node { _id } } } }`, reader);
    assert.deepEqual(
      inactive.data.coupons.edges.map((e: any) => e.node._id),
      [b._id],
    );
    const active = await gql(`{ coupons(code: "${prefix}", isActive: true) { totalCount } }`, reader);
    assert.equal(active.data.coupons.totalCount, 2);

    const first = await gql(
      `{ coupons(code: "${prefix}", first: 2) { edges { node { _id } } pageInfo { hasNextPage endCursor } } }`,
      reader,
    );
    assert.equal(first.data.coupons.edges.length, 2);
    assert.equal(first.data.coupons.pageInfo.hasNextPage, true);
    const rest = await gql(
      `{ coupons(code: "${prefix}", first: 2, after: "${first.data.coupons.pageInfo.endCursor}") { edges { node { _id } } pageInfo { hasNextPage hasPreviousPage } } }`,
      reader,
    );
    assert.equal(rest.data.coupons.edges.length, 1);
    assert.deepEqual(rest.data.coupons.pageInfo, { hasNextPage: false, hasPreviousPage: true });

    const one = await gql(
      `{ coupon(id: "${a.id}") { id _id code ruleId ruleName discountType discountAmount websiteIds customerGroupIds timesUsed } }`,
      reader,
    );
    assert.equal(one.data.coupon.code, `${prefix}A`);
    assert.equal(one.data.coupon.discountAmount, 5);
    assert.ok(Array.isArray(one.data.coupon.websiteIds));
  });

  test('create, update, delete with payloads; validate for anyone', async () => {
    const code = uniq('GQLV');
    const c = await gql(
      'mutation($i: createCouponInput!) { createCoupon(input: $i) { clientMutationId coupon { _id code ruleId } } }',
      admin,
      {
        i: { code, discountType: 'fixed', discountAmount: 2.5, description: null, clientMutationId: 'x1' },
      },
    );
    assert.equal(c.errors, undefined, JSON.stringify(c.errors));
    assert.equal(c.data.createCoupon.clientMutationId, 'x1');
    const id = c.data.createCoupon.coupon._id;
    assert.ok(c.data.createCoupon.coupon.ruleId > 0);
    const u = await gql(
      `mutation { updateCoupon(input: {id: "/api/rest/v2/coupons/${id}", discountAmount: 3.75}) { coupon { discountAmount } } }`,
      admin,
    );
    assert.equal(u.data.updateCoupon.coupon.discountAmount, 3.75);

    const v = await gql(`mutation { validateCoupon(input: {code: "${code}"}) { coupon { isValid validationMessage } } }`);
    assert.deepEqual(v.data.validateCoupon.coupon, { isValid: true, validationMessage: 'Coupon is valid' });
    const vc = await gql(
      `mutation { validateCoupon(input: {code: "${code}"}) { coupon { _id isValid discountType discountAmount } } }`,
      customer,
    );
    assert.deepEqual(vc.data.validateCoupon.coupon, { _id: id, isValid: true, discountType: 'fixed', discountAmount: 3.75 });
    const unknown = await gql('mutation { validateCoupon(input: {code: "NO-SUCH-CODE"}) { coupon { isValid } } }');
    assert.equal(unknown.data.validateCoupon.coupon.isValid, false);

    const d = await gql(`mutation { deleteCoupon(input: {id: "${id}"}) { coupon { id } } }`, admin);
    assert.equal(d.data.deleteCoupon.coupon.id, `/api/rest/v2/coupons/${id}`);
    const gone = await gql(`{ coupon(id: ${id}) { _id } }`, admin);
    assert.equal(gone.data.coupon, null);
    assert.equal(gone.errors[0].extensions.status, 404);
  });

  test('access: anonymous 401, customer 403, a read grant may not write', async () => {
    const anon = await gql('{ coupons { totalCount } }');
    assert.equal(anon.data.coupons, null);
    assert.equal(anon.errors[0].extensions.status, 401);
    assert.equal((await gql('{ coupons { totalCount } }', customer)).errors[0].extensions.status, 403);
    const ro = await gql(
      'mutation { createCoupon(input: {code: "NOPE1", discountType: "percent", discountAmount: 1}) { coupon { _id } } }',
      reader,
    );
    assert.equal(ro.errors[0].extensions.status, 403);
    const del = await gql('mutation { deleteCoupon(input: {id: "1"}) { coupon { id } } }', reader);
    assert.equal(del.errors[0].extensions.status, 403);
  });

  test('bad input: a bad discount type, a bad cursor, an empty code, a wrong type', async () => {
    const bad = await gql(
      'mutation { createCoupon(input: {code: "BADTYPE1", discountType: "nope", discountAmount: 1}) { coupon { _id } } }',
      admin,
    );
    assert.equal(bad.data.createCoupon, null);
    assert.equal(bad.errors[0].extensions.status, 400);
    assert.equal((await gql('{ coupons(after: "nope") { totalCount } }', admin)).errors[0].extensions.status, 400);
    assert.equal((await gql('mutation { validateCoupon(input: {code: " "}) { coupon { isValid } } }')).errors[0].extensions.status, 400);
    const wrong = await gql('{ coupons(is_active: "yes") { totalCount } }', admin);
    assert.equal(wrong.errors[0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
    const missing = await gql('{ coupon(id: "/api/rest/v2/coupons/999999") { _id } }', admin);
    assert.equal(missing.errors[0].extensions.status, 404);
  });
});
