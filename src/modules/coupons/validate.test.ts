/** POST /coupons/validate and GraphQL validateCoupon: every message in its order, and what each caller sees. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API, buildTestApp, type Res, type TestApp } from '../../../test/helpers.js';
import { createWebsite } from '../stores/service.js';
import { consumeCoupon } from './usage.js';

let t: TestApp;
let admin: string;
let customer: string;
let customerId: number;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  customerId = (await t.req('GET', `${API}/customers/me`, { token: customer })).body.id;
  await createWebsite(t.database.db, t.services.settings, {
    code: 'second',
    name: 'Second',
    storeCode: 'second_en',
    storeName: 'Second EN',
  });
});
after(() => t.close());

let seq = 0;
const uniq = (p: string) => `${p}_${++seq}`;

async function create(body: Record<string, unknown>): Promise<{ id: number; code: string; ruleId: number }> {
  const r = await t.req('POST', `${API}/coupons`, { token: admin, body: { discountType: 'percent', discountAmount: 15, ...body } });
  assert.equal(r.status, 201, r.text);
  return r.body;
}

async function validate(code: unknown, token?: string, extra: Record<string, unknown> = {}, query = ''): Promise<Res> {
  return t.req('POST', `${API}/coupons/validate${query}`, { token, body: { code, ...extra } });
}

async function message(code: string, token?: string, query = ''): Promise<string> {
  const r = await validate(code, token, {}, query);
  assert.equal(r.status, 201, r.text);
  return r.body.validationMessage;
}

describe('what each caller sees', () => {
  test('anonymous: id 0 and no discount fields', async () => {
    const r = await validate('welcome10');
    assert.equal(r.status, 201);
    assert.deepEqual(r.body, { id: 0, code: 'welcome10', isValid: true, validationMessage: 'Coupon is valid' });
  });

  test('customers and admins: the coupon id, stored code and the rule', async () => {
    const expected = {
      code: 'WELCOME10',
      isValid: true,
      validationMessage: 'Coupon is valid',
      ruleName: '10% off your order',
      discountType: 'percent',
      discountAmount: 10,
    };
    for (const token of [customer, admin]) {
      const r = await validate(' Welcome10 ', token);
      assert.equal(r.status, 201);
      assert.ok(r.body.id > 0 && r.body.ruleId > 0);
      const { id: _id, ruleId: _ruleId, ...rest } = r.body;
      assert.deepEqual(rest, expected);
    }
  });

  test('an unknown code: id 0 and no rule, for everyone', async () => {
    for (const token of [undefined, customer, admin]) {
      const r = await validate('NO_SUCH_CODE', token);
      assert.deepEqual(r.body, { id: 0, code: 'NO_SUCH_CODE', isValid: false, validationMessage: 'Coupon code not found' });
    }
  });

  test('an invalid code still shows its rule to customers', async () => {
    const c = await create({ code: uniq('OFF'), isActive: false, discountType: 'fixed', discountAmount: 7 });
    const r = await validate(c.code, customer);
    assert.equal(r.body.isValid, false);
    assert.equal(r.body.validationMessage, 'Coupon is not active');
    assert.equal(r.body.discountType, 'fixed');
    assert.equal(r.body.discountAmount, 7);
    const anon = await validate(c.code);
    assert.deepEqual(Object.keys(anon.body).sort(), ['code', 'id', 'isValid', 'validationMessage']);
  });
});

describe('messages', () => {
  test('not active, not yet active, expired (toDate or expirationDate)', async () => {
    assert.equal(await message((await create({ code: uniq('INACT'), isActive: false })).code), 'Coupon is not active');
    assert.equal(await message((await create({ code: uniq('LATER'), fromDate: '2099-01-01' })).code), 'Coupon is not yet active');
    assert.equal(await message((await create({ code: uniq('PAST'), toDate: '2000-01-01' })).code), 'Coupon has expired');
    assert.equal(
      await message((await create({ code: uniq('EXPIRED'), expirationDate: '2001-01-01 10:00:00' })).code),
      'Coupon has expired',
    );
    const today = new Date().toISOString().slice(0, 10);
    assert.equal(
      await message((await create({ code: uniq('TODAY'), fromDate: today, toDate: today })).code),
      'Coupon is valid',
      'the dates are inclusive',
    );
    assert.equal(await message((await create({ code: uniq('LATEREXP'), expirationDate: '2099-01-01' })).code), 'Coupon is valid');
  });

  test('usage limit: the coupon total for everyone, the per-customer count for that customer only', async () => {
    const total = await create({ code: uniq('ONCE'), usageLimit: 1 });
    assert.equal(await message(total.code), 'Coupon is valid');
    await consumeCoupon(t.systemCtx(), total.id, null);
    for (const token of [undefined, customer, admin]) assert.equal(await message(total.code, token), 'Coupon usage limit reached');

    const per = await create({ code: uniq('PERCUST'), usagePerCustomer: 2 });
    await consumeCoupon(t.systemCtx(), per.id, customerId);
    assert.equal(await message(per.code, customer), 'Coupon is valid');
    await consumeCoupon(t.systemCtx(), per.id, customerId);
    assert.equal(await message(per.code, customer), 'Coupon usage limit reached');
    assert.equal(await message(per.code), 'Coupon is valid', 'guests are counted by the total only');
    assert.equal(await message(per.code, admin), 'Coupon is valid');
  });

  test('not valid for this store: the store view’s website must be listed', async () => {
    const c = await create({ code: uniq('SITE1') });
    assert.equal(await message(c.code, undefined, '?store=second_en'), 'Coupon is not valid for this store');
    assert.equal(await message(c.code, admin, '?store=second_en'), 'Coupon is not valid for this store');
    assert.equal(await message(c.code, undefined, '?store=default'), 'Coupon is valid');
  });

  test('customer group: the customer’s group, NOT LOGGED IN (0) for guests; admins are not checked', async () => {
    const wholesale = await create({ code: uniq('WHOLESALE'), customerGroupIds: [2] });
    assert.equal(await message(wholesale.code), 'Coupon is not valid for your customer group');
    assert.equal(await message(wholesale.code, customer), 'Coupon is not valid for your customer group');
    assert.equal(await message(wholesale.code, admin), 'Coupon is valid');
    const members = await create({ code: uniq('MEMBERS'), customerGroupIds: [1, 2, 3] });
    assert.equal(await message(members.code), 'Coupon is not valid for your customer group');
    assert.equal(await message(members.code, customer), 'Coupon is valid');
    const guests = await create({ code: uniq('GUESTS'), customerGroupIds: [0] });
    assert.equal(await message(guests.code), 'Coupon is valid');
    assert.equal(await message(guests.code, customer), 'Coupon is not valid for your customer group');
  });

  test('the checks run in order: the first failing one is reported', async () => {
    const all = { isActive: false, fromDate: '2099-01-01', toDate: '2099-02-01', usageLimit: 1, websiteIds: [1], customerGroupIds: [2] };
    const c = await create({ code: uniq('ORDER'), ...all });
    await consumeCoupon(t.systemCtx(), c.id, null);
    const put = (body: Record<string, unknown>) => t.req('PUT', `${API}/coupons/${c.id}`, { token: admin, body });
    assert.equal(await message(c.code, undefined, '?store=second_en'), 'Coupon is not active');
    await put({ isActive: true });
    assert.equal(await message(c.code, undefined, '?store=second_en'), 'Coupon is not yet active');
    await put({ fromDate: '2000-01-01', toDate: '2000-01-02' });
    assert.equal(await message(c.code, undefined, '?store=second_en'), 'Coupon has expired');
    await put({ toDate: '' });
    assert.equal(await message(c.code, undefined, '?store=second_en'), 'Coupon usage limit reached');
    await put({ usageLimit: null });
    assert.equal(await message(c.code, undefined, '?store=second_en'), 'Coupon is not valid for this store');
    assert.equal(await message(c.code), 'Coupon is not valid for your customer group');
    await put({ customerGroupIds: [0] });
    assert.equal(await message(c.code), 'Coupon is valid');
  });
});

describe('input', () => {
  test('a missing or empty code is a 400; so are wrong types and malformed JSON', async () => {
    for (const body of [
      {},
      { code: '' },
      { code: '   ' },
      { code: 5 },
      { code: null },
      { code: 'X', cartId: { id: 1 } },
      { code: 'X', cartId: -1 },
      { code: 'x'.repeat(256) },
    ]) {
      const r = await t.req('POST', `${API}/coupons/validate`, { body });
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.body.error, 'bad_request');
    }
    const raw = await t.req('POST', `${API}/coupons/validate`, {
      raw: '{"code": "WELCOME10"',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(raw.status, 400);
    const badToken = await t.req('POST', `${API}/coupons/validate`, { token: 'not-a-token', body: { code: 'WELCOME10' } });
    assert.equal(badToken.status, 401);
  });

  test('cartId (number or string) is accepted; the contributed preview gets it for customers and admins with a valid code', async () => {
    const seen: unknown[] = [];
    const contributed = t.services.discountPreview;
    assert.ok(contributed, 'the carts module contributes the preview');
    t.services.discountPreview = async (_ctx, cartId, code) => {
      seen.push([cartId, code]);
      return { discountAmount: 1.5, subtotal: 15, grandTotal: 13.5, currency: 'USD' };
    };
    try {
      const anon = await validate('WELCOME10', undefined, { cartId: 'abc123' });
      assert.equal(anon.status, 201);
      assert.equal(anon.body.discountPreview, undefined);
      const cust = await validate('WELCOME10', customer, { cartId: 42 });
      assert.deepEqual(cust.body.discountPreview, { discountAmount: 1.5, subtotal: 15, grandTotal: 13.5, currency: 'USD' });
      const adm = await validate('welcome10', admin, { cartId: 'f'.repeat(32) });
      assert.equal(adm.body.discountPreview.discountAmount, 1.5);
      const invalid = await validate('NO_SUCH', customer, { cartId: 42 });
      assert.equal(invalid.body.discountPreview, undefined);
      // the preview is asked with the coupon's stored spelling
      assert.deepEqual(seen, [
        [42, 'WELCOME10'],
        ['f'.repeat(32), 'WELCOME10'],
      ]);
      t.services.discountPreview = undefined;
      const none = await validate('WELCOME10', customer, { cartId: 42 });
      assert.equal(none.status, 201);
      assert.equal(none.body.discountPreview, undefined);
    } finally {
      t.services.discountPreview = contributed;
    }
  });
});

describe('GraphQL validateCoupon', () => {
  async function gql(query: string, variables: Record<string, unknown> = {}, token?: string) {
    const r = await t.req('POST', '/api/graphql', { token, body: { query, variables } });
    assert.equal(r.status, 200, r.text);
    return r.body as { data: Record<string, any> | null; errors?: { message: string; extensions: { code: string; status: number } }[] };
  }
  const FIELDS = '{ coupon { _id code isValid validationMessage discountType discountAmount ruleName } }';

  test('a mutation with input and a { coupon } payload, with the same answers as REST', async () => {
    const anon = await gql(`mutation($c: String!) { validateCoupon(input: {code: $c}) ${FIELDS} }`, { c: 'welcome10' });
    assert.deepEqual(anon.data!.validateCoupon.coupon, {
      _id: 0,
      code: 'welcome10',
      isValid: true,
      validationMessage: 'Coupon is valid',
      discountType: null,
      discountAmount: null,
      ruleName: null,
    });
    const cartId = (await t.req('POST', `${API}/carts`, { token: customer, body: {} })).body.id;
    const cust = await gql(
      `mutation($c: String!) { validateCoupon(input: {code: $c, cartId: ${cartId}}) ${FIELDS} }`,
      { c: 'WELCOME10' },
      customer,
    );
    assert.equal(cust.errors, undefined, JSON.stringify(cust.errors));
    assert.equal(cust.data!.validateCoupon.coupon.discountType, 'percent');
    // a cart the customer may not read is refused
    const foreign = await gql(
      `mutation($c: String!) { validateCoupon(input: {code: $c, cartId: 2147483647}) ${FIELDS} }`,
      { c: 'WELCOME10' },
      customer,
    );
    assert.equal(foreign.errors?.[0].extensions.status, 400);
    assert.equal(cust.data!.validateCoupon.coupon.discountAmount, 10);
    assert.equal(cust.data!.validateCoupon.coupon.ruleName, '10% off your order');
    const past = await create({ code: uniq('GQLPAST'), toDate: '2000-01-01' });
    const exp = await gql(`mutation($c: String!) { validateCoupon(input: {code: $c}) ${FIELDS} }`, { c: past.code }, admin);
    assert.equal(exp.data!.validateCoupon.coupon.isValid, false);
    assert.equal(exp.data!.validateCoupon.coupon.validationMessage, 'Coupon has expired');
    const empty = await gql(`mutation { validateCoupon(input: {code: " "}) { coupon { isValid } } }`);
    assert.equal(empty.errors?.[0].extensions.status, 400);
  });
});
