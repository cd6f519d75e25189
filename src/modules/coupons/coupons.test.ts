/** /coupons CRUD, its access matrix, list filters and paging, bad input, and GraphQL createCoupon. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eq } from 'drizzle-orm';
import { API, buildTestApp, type Res, type TestApp } from '../../../test/helpers.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { coupons, salesRules } from './tables.js';

let t: TestApp;
let admin: string;
let customer: string;
const tok: Record<'none' | 'read' | 'write' | 'create' | 'delete' | 'all', string> = {
  none: '',
  read: '',
  write: '',
  create: '',
  delete: '',
  all: '',
};

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  tok.none = await t.tokens.apiUser(['customers/read']);
  tok.read = await t.tokens.apiUser(['coupons/read']);
  tok.write = await t.tokens.apiUser(['coupons/read', 'coupons/write']);
  tok.create = await t.tokens.apiUser(['coupons/create']);
  tok.delete = await t.tokens.apiUser(['coupons/delete']);
  tok.all = await t.tokens.apiUser(['coupons/all']);
});
after(() => t.close());

function assertError(r: Res, status: number, error: string, message?: RegExp) {
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.error, error, r.text);
  assert.equal(typeof r.body.message, 'string');
  if (message) assert.match(r.body.message, message);
  if (status !== 401) assert.equal(r.body.code, status);
}

let seq = 0;
const uniq = (p = 'C') => `${p}${Date.now().toString(36)}${++seq}`.toUpperCase();

async function create(body: Record<string, unknown>, token = admin) {
  const r = await t.req('POST', `${API}/coupons`, { token, body: { discountType: 'percent', discountAmount: 10, ...body } });
  assert.equal(r.status, 201, r.text);
  return r.body;
}

async function counts() {
  return { coupons: (await t.database.db.select().from(coupons)).length, rules: (await t.database.db.select().from(salesRules)).length };
}

describe('POST /coupons', () => {
  test('creates the rule and the coupon with the defaults', async () => {
    const code = uniq('NEW');
    const r = await t.req('POST', `${API}/coupons`, { token: tok.write, body: { code, discountType: 'fixed', discountAmount: 5.5 } });
    assert.equal(r.status, 201, r.text);
    const b = r.body;
    assert.ok(b.id > 0 && b.ruleId > 0);
    assert.match(b.createdAt, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    assert.deepEqual(
      { ...b, id: 0, ruleId: 0, createdAt: '' },
      {
        id: 0,
        ruleId: 0,
        createdAt: '',
        ruleName: `Coupon: ${code}`,
        code,
        discountType: 'fixed',
        discountAmount: 5.5,
        isActive: true,
        timesUsed: 0,
        type: 0,
        isPrimary: true,
        websiteIds: [1],
        customerGroupIds: [0, 1, 2, 3],
        sortOrder: 0,
        stopRulesProcessing: false,
        discountStep: 0,
        simpleFreeShipping: 0,
        applyToShipping: false,
      },
    );
    const read = await t.req('GET', `${API}/coupons/${b.id}`, { token: admin });
    assert.deepEqual(read.body, b);
  });

  test('takes every field; the rule name is the description; unknown and read-only keys are ignored', async () => {
    const code = uniq('full_-');
    const body = {
      code,
      discountType: 'buy_x_get_y',
      discountAmount: 1,
      description: 'Buy two, get one',
      isActive: false,
      usageLimit: 100,
      usagePerCustomer: 2,
      fromDate: '2030-01-01',
      toDate: '2030-12-31',
      minimumSubtotal: 49.99,
      expirationDate: '2031-01-01',
      websiteIds: [1],
      customerGroupIds: [1, 2],
      sortOrder: 5,
      stopRulesProcessing: true,
      discountQty: 3,
      discountStep: 2,
      simpleFreeShipping: 2,
      applyToShipping: true,
      // read-only / unknown
      id: 999,
      ruleId: 999,
      timesUsed: 50,
      ruleName: 'made up',
      extra: 'x',
    };
    const r = await t.req('POST', `${API}/coupons`, { token: admin, body });
    assert.equal(r.status, 201, r.text);
    const b = r.body;
    assert.notEqual(b.id, 999);
    assert.equal(b.ruleName, 'Buy two, get one');
    assert.equal(b.timesUsed, 0);
    assert.equal(b.expirationDate, '2031-01-01 00:00:00');
    for (const k of [
      'code',
      'discountType',
      'discountAmount',
      'description',
      'isActive',
      'usageLimit',
      'usagePerCustomer',
      'fromDate',
      'toDate',
      'minimumSubtotal',
      'websiteIds',
      'customerGroupIds',
      'sortOrder',
      'stopRulesProcessing',
      'discountQty',
      'discountStep',
      'simpleFreeShipping',
      'applyToShipping',
    ] as const) {
      assert.deepEqual(b[k], body[k], k);
    }
  });

  test('buy_x_get_y without discountStep is buy one, get Y: echoed (and stored) with discountStep 1', async () => {
    const c = await create({ code: uniq('BXGY'), discountType: 'buy_x_get_y', discountAmount: 1 });
    assert.equal(c.discountType, 'buy_x_get_y');
    assert.equal(c.discountStep, 1);
    assert.equal((await t.req('GET', `${API}/coupons/${c.id}`, { token: admin })).body.discountStep, 1);
    const [rule] = await t.database.db.select().from(salesRules).where(eq(salesRules.id, c.ruleId));
    assert.equal(rule.discountStep, 1);
    // an explicit step is kept as given
    const two = await create({ code: uniq('BXGY'), discountType: 'buy_x_get_y', discountAmount: 1, discountStep: 2 });
    assert.equal(two.discountStep, 2);
    // other types keep 0 when none is given
    assert.equal((await create({ code: uniq('PCT') })).discountStep, 0);
  });

  test('a buy_x_get_y coupon made without discountStep gives one unit free for every one bought', async () => {
    const product = await createTestProduct(t, { price: 10, stockData: { qty: 100, isInStock: true } });
    const c = await create({ code: uniq('B1G1'), discountType: 'buy_x_get_y', discountAmount: 1 });
    const m = (await t.req('POST', `${API}/guest-carts`, { body: {} })).body.maskedId as string;
    const added = await t.req('POST', `${API}/guest-carts/${m}/items`, { body: { sku: product.sku, qty: 5 } });
    assert.equal(added.status, 200, added.text);
    const r = await t.req('POST', `${API}/guest-carts/${m}/coupon`, { body: { couponCode: c.code } });
    assert.equal(r.status, 201, r.text);
    // five units: two groups of (buy 1, get 1) give two free units
    assert.equal(r.body.prices.discountAmount, 20);
  });

  test('a duplicate code (any case) is a 400 duplicate_coupon and changes nothing', async () => {
    const code = uniq('DUP');
    await create({ code });
    const before = await counts();
    const r = await t.req('POST', `${API}/coupons`, {
      token: admin,
      body: { code: code.toLowerCase(), discountType: 'percent', discountAmount: 5 },
    });
    assertError(r, 400, 'duplicate_coupon', /already exists/);
    assert.deepEqual(await counts(), before);
  });

  test('concurrent creates of one code: exactly one wins, the other is a 400', async () => {
    const code = uniq('RACE');
    const rs = await Promise.all(
      [0, 1, 2].map((i) =>
        t.req('POST', `${API}/coupons`, {
          token: admin,
          body: { code: i ? code : code.toLowerCase(), discountType: 'percent', discountAmount: 5 },
        }),
      ),
    );
    assert.deepEqual(rs.map((r) => r.status).sort(), [201, 400, 400]);
    for (const r of rs.filter((x) => x.status === 400)) assert.equal(r.body.error, 'duplicate_coupon');
  });

  test('bad input is a 400 and changes nothing', async () => {
    const before = await counts();
    const ok = { code: uniq('BAD'), discountType: 'percent', discountAmount: 10 };
    const cases: [Record<string, unknown>, RegExp?][] = [
      [{ ...ok, code: undefined }],
      [{ ...ok, code: 'ab' }, /3 to 64/],
      [{ ...ok, code: 'x'.repeat(65) }, /3 to 64/],
      [{ ...ok, code: 'has space' }, /3 to 64/],
      [{ ...ok, code: 'ümlaut' }],
      [{ ...ok, code: 123 }],
      [{ ...ok, discountType: undefined }],
      [{ ...ok, discountType: 'by_percent' }],
      [{ ...ok, discountAmount: undefined }],
      [{ ...ok, discountAmount: 0 }, /greater than 0/],
      [{ ...ok, discountAmount: -5 }],
      [{ ...ok, discountAmount: '10' }],
      [{ ...ok, discountAmount: 100.01 }, /at most 100/],
      [{ ...ok, discountAmount: 1e15 }],
      [{ ...ok, discountType: 'buy_x_get_y', discountAmount: 1, discountStep: 0 }, /discountStep/],
      [{ ...ok, discountType: 'buy_x_get_y', discountAmount: 1, discountStep: -2 }, /discountStep/],
      [{ ...ok, discountType: 'buy_x_get_y', discountAmount: 1, discountStep: 1.5 }],
      [{ ...ok, discountType: 'buy_x_get_y', discountAmount: 1.5, discountStep: 2 }, /whole number/],
      [{ ...ok, fromDate: '2030-02-01', toDate: '2030-01-31' }, /before fromDate/],
      [{ ...ok, fromDate: '2030-02-30' }],
      [{ ...ok, toDate: '31.12.2030' }],
      [{ ...ok, expirationDate: 'tomorrow' }],
      [{ ...ok, expirationDate: '2030-01-01 25:00:00' }],
      [{ ...ok, usageLimit: 0 }, /at least 1/],
      [{ ...ok, usagePerCustomer: -1 }],
      [{ ...ok, usageLimit: 1.5 }],
      [{ ...ok, minimumSubtotal: -1 }],
      [{ ...ok, websiteIds: [99] }, /Unknown website/],
      [{ ...ok, websiteIds: [] }],
      [{ ...ok, websiteIds: 'all' }],
      [{ ...ok, customerGroupIds: [1, 999] }, /Unknown customer group id: 999/],
      [{ ...ok, simpleFreeShipping: 3 }],
      [{ ...ok, discountStep: -1 }],
      [{ ...ok, discountQty: -1 }],
      [{ ...ok, isActive: 'yes' }],
      [{ ...ok, description: 5 }],
    ];
    for (const [body, msg] of cases) {
      const r = await t.req('POST', `${API}/coupons`, { token: admin, body });
      assertError(r, 400, 'bad_request', msg);
    }
    assertError(
      await t.req('POST', `${API}/coupons`, { token: admin, raw: '{"code":', headers: { 'content-type': 'application/json' } }),
      400,
      'bad_request',
    );
    assertError(await t.req('POST', `${API}/coupons`, { token: admin, body: [] }), 400, 'bad_request');
    assert.deepEqual(await counts(), before);
  });

  test('access: anonymous 401, customer 403, API users need coupons/create (or write, or all)', async () => {
    const body = () => ({ code: uniq('ACC'), discountType: 'percent', discountAmount: 10 });
    assertError(await t.req('POST', `${API}/coupons`, { body: body() }), 401, 'unauthorized');
    assertError(await t.req('POST', `${API}/coupons`, { token: customer, body: body() }), 403, 'forbidden');
    assertError(await t.req('POST', `${API}/coupons`, { token: tok.none, body: body() }), 403, 'forbidden');
    assertError(await t.req('POST', `${API}/coupons`, { token: tok.read, body: body() }), 403, 'forbidden');
    assertError(await t.req('POST', `${API}/coupons`, { token: tok.delete, body: body() }), 403, 'forbidden');
    for (const k of ['create', 'write', 'all'] as const)
      assert.equal((await t.req('POST', `${API}/coupons`, { token: tok[k], body: body() })).status, 201, k);
  });
});

describe('GET /coupons', () => {
  let prefix: string;
  const made: number[] = [];
  before(async () => {
    prefix = uniq('LST');
    for (let i = 0; i < 5; i++) made.push((await create({ code: `${prefix}_${i}`, isActive: i % 2 === 0 })).id);
    await create({ code: `${prefix}X100` });
  });

  test('newest first, the demo coupon included, as JSON-LD', async () => {
    const r = await t.req('GET', `${API}/coupons?itemsPerPage=100`, { token: tok.read });
    assert.equal(r.status, 200);
    assert.equal(r.body['@type'], 'Collection');
    assert.equal(r.body['@context'], '/api/contexts/Coupon');
    const ids = r.body.member.map((c: { id: number }) => c.id);
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => b - a),
    );
    assert.equal(r.body.totalItems, ids.length);
    const demo = r.body.member.find((c: { code: string }) => c.code === 'WELCOME10');
    assert.equal(demo.description, '10% off your order');
    assert.equal(demo.discountType, 'percent');
    assert.equal(demo.discountAmount, 10);
  });

  test('code contains (case-insensitive, wildcards literal); isActive and is_active filter', async () => {
    const byCode = await t.req('GET', `${API}/coupons?code=${prefix.toLowerCase()}`, { token: admin });
    assert.equal(byCode.body.totalItems, 6);
    const underscore = await t.req('GET', `${API}/coupons?code=${prefix}_`, { token: admin });
    assert.deepEqual(
      underscore.body.member.map((c: { id: number }) => c.id),
      [...made].reverse(),
      '_ is not a wildcard',
    );
    const pct = await t.req('GET', `${API}/coupons?code=%25`, { token: admin });
    assert.equal(pct.body.totalItems, 0);
    const active = await t.req('GET', `${API}/coupons?code=${prefix}_&isActive=true`, { token: admin });
    assert.deepEqual(
      active.body.member.map((c: { id: number }) => c.id),
      [made[4], made[2], made[0]],
    );
    const inactive = await t.req('GET', `${API}/coupons?code=${prefix}_&is_active=0`, { token: admin });
    assert.deepEqual(
      inactive.body.member.map((c: { id: number }) => c.id),
      [made[3], made[1]],
    );
    const alias1 = await t.req('GET', `${API}/coupons?code=${prefix}_&is_active=1`, { token: admin });
    assert.equal(alias1.body.totalItems, 3);
  });

  test('pages with itemsPerPage (alias pageSize); plain JSON is a bare array', async () => {
    const p2 = await t.req('GET', `${API}/coupons?code=${prefix}_&itemsPerPage=2&page=2`, { token: admin });
    assert.equal(p2.body.totalItems, 5);
    assert.deepEqual(
      p2.body.member.map((c: { id: number }) => c.id),
      [made[2], made[1]],
    );
    assert.ok(p2.body.view.next && p2.body.view.previous);
    const alias = await t.req('GET', `${API}/coupons?code=${prefix}_&pageSize=1`, { token: admin });
    assert.deepEqual(
      alias.body.member.map((c: { id: number }) => c.id),
      [made[4]],
    );
    const plain = await t.req('GET', `${API}/coupons?code=${prefix}_`, { token: admin, headers: { accept: 'application/json' } });
    assert.ok(Array.isArray(plain.body));
    assert.equal(plain.body.length, 5);
    const far = await t.req('GET', `${API}/coupons?page=999999`, { token: admin });
    assert.deepEqual(far.body.member, []);
  });

  test('bad query values are a 400', async () => {
    for (const q of ['page=abc', 'itemsPerPage=x', 'isActive=maybe', 'is_active=2', `code=${'x'.repeat(300)}`]) {
      assertError(await t.req('GET', `${API}/coupons?${q}`, { token: admin }), 400, 'bad_request');
    }
  });

  test('access: anonymous 401, customer 403, API users need coupons/read', async () => {
    assertError(await t.req('GET', `${API}/coupons`), 401, 'unauthorized');
    assertError(await t.req('GET', `${API}/coupons`, { token: customer }), 403, 'forbidden');
    assertError(await t.req('GET', `${API}/coupons`, { token: tok.none }), 403, 'forbidden');
    assertError(await t.req('GET', `${API}/coupons`, { token: tok.create }), 403, 'forbidden');
    assertError(await t.req('GET', `${API}/coupons`, { token: tok.delete }), 403, 'forbidden');
    assert.equal((await t.req('GET', `${API}/coupons`, { token: tok.read })).status, 200);
    assert.equal((await t.req('GET', `${API}/coupons`, { token: await t.tokens.client() })).status, 200);
  });
});

describe('GET /coupons/{id}', () => {
  test('unknown is a 404; a malformed id a 400', async () => {
    assertError(await t.req('GET', `${API}/coupons/999999`, { token: admin }), 404, 'not_found');
    for (const id of ['abc', '-1', '1.5', '99999999999'])
      assertError(await t.req('GET', `${API}/coupons/${id}`, { token: admin }), 400, 'bad_request');
  });

  test('access', async () => {
    assertError(await t.req('GET', `${API}/coupons/1`), 401, 'unauthorized');
    assertError(await t.req('GET', `${API}/coupons/1`, { token: customer }), 403, 'forbidden');
    assertError(await t.req('GET', `${API}/coupons/1`, { token: tok.none }), 403, 'forbidden');
    assert.equal((await t.req('GET', `${API}/coupons/1`, { token: tok.read })).status, 200);
  });
});

describe('PUT /coupons/{id}', () => {
  test('changes only the keys sent; the default rule name follows the description', async () => {
    const c = await create({ code: uniq('UPD'), usageLimit: 5, fromDate: '2030-01-01', expirationDate: '2030-06-01 12:30:00' });
    const r = await t.req('PUT', `${API}/coupons/${c.id}`, { token: tok.write, body: { discountAmount: 20, description: 'Twenty off' } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { ...c, discountAmount: 20, description: 'Twenty off', ruleName: 'Twenty off' });
    const clear = await t.req('PUT', `${API}/coupons/${c.id}`, {
      token: admin,
      body: { fromDate: '', usageLimit: null, expirationDate: '', description: null },
    });
    assert.equal(clear.status, 200, clear.text);
    for (const k of ['fromDate', 'usageLimit', 'expirationDate', 'description']) assert.equal(clear.body[k], undefined, k);
    assert.equal(clear.body.ruleName, `Coupon: ${c.code}`);
    const code = uniq('RENAMED');
    const renamed = await t.req('PUT', `${API}/coupons/${c.id}`, {
      token: admin,
      body: { code, discountType: 'cart_fixed', discountAmount: 150, websiteIds: [1], customerGroupIds: [0] },
    });
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal(renamed.body.code, code);
    assert.equal(renamed.body.ruleName, `Coupon: ${code}`);
    assert.equal(renamed.body.discountType, 'cart_fixed');
    assert.deepEqual(renamed.body.customerGroupIds, [0]);
    assert.deepEqual((await t.req('PUT', `${API}/coupons/${c.id}`, { token: admin, body: {} })).body, renamed.body);
    // same code in another case is not a duplicate of itself
    assert.equal(
      (await t.req('PUT', `${API}/coupons/${c.id}`, { token: admin, body: { code: code.toLowerCase() } })).body.code,
      code.toLowerCase(),
    );
  });

  test('turning a coupon into buy_x_get_y without discountStep sets step 1; an explicit step 0 is refused', async () => {
    const p = await create({ code: uniq('PCT'), discountAmount: 2 });
    assert.equal(p.discountStep, 0);
    assertError(
      await t.req('PUT', `${API}/coupons/${p.id}`, { token: admin, body: { discountType: 'buy_x_get_y', discountStep: 0 } }),
      400,
      'bad_request',
      /discountStep/,
    );
    assertError(
      await t.req('PUT', `${API}/coupons/${p.id}`, { token: admin, body: { discountType: 'buy_x_get_y', discountStep: -1 } }),
      400,
      'bad_request',
      /discountStep/,
    );
    assert.equal((await t.req('GET', `${API}/coupons/${p.id}`, { token: admin })).body.discountType, 'percent', 'refusals change nothing');
    const changed = await t.req('PUT', `${API}/coupons/${p.id}`, { token: admin, body: { discountType: 'buy_x_get_y' } });
    assert.equal(changed.status, 200, changed.text);
    assert.equal(changed.body.discountType, 'buy_x_get_y');
    assert.equal(changed.body.discountStep, 1);
    // a step given is kept by later updates that do not send one; 0 on a buy_x_get_y coupon is refused
    const three = await t.req('PUT', `${API}/coupons/${p.id}`, { token: admin, body: { discountStep: 3 } });
    assert.equal(three.body.discountStep, 3);
    assert.equal((await t.req('PUT', `${API}/coupons/${p.id}`, { token: admin, body: { description: 'B3G2' } })).body.discountStep, 3);
    assertError(
      await t.req('PUT', `${API}/coupons/${p.id}`, { token: admin, body: { discountStep: 0 } }),
      400,
      'bad_request',
      /discountStep/,
    );
    assert.equal((await t.req('GET', `${API}/coupons/${p.id}`, { token: admin })).body.discountStep, 3);
  });

  test('a name set otherwise stays; cross-field rules are checked on the merged coupon', async () => {
    const c = await create({ code: uniq('MRG'), description: 'Named', fromDate: '2030-01-10' });
    const before = (await t.req('GET', `${API}/coupons/${c.id}`, { token: admin })).body;
    assertError(
      await t.req('PUT', `${API}/coupons/${c.id}`, { token: admin, body: { toDate: '2030-01-09' } }),
      400,
      'bad_request',
      /before fromDate/,
    );
    assertError(
      await t.req('PUT', `${API}/coupons/${c.id}`, { token: admin, body: { discountAmount: 150 } }),
      400,
      'bad_request',
      /at most 100/,
    );
    assertError(
      await t.req('PUT', `${API}/coupons/${c.id}`, { token: admin, body: { discountType: 'buy_x_get_y', discountStep: 0 } }),
      400,
      'bad_request',
      /discountStep/,
    );
    const other = await create({ code: uniq('OTH') });
    assertError(
      await t.req('PUT', `${API}/coupons/${c.id}`, { token: admin, body: { code: other.code.toLowerCase() } }),
      400,
      'duplicate_coupon',
    );
    for (const body of [{ discountAmount: 'x' }, { code: 'a b' }, { websiteIds: [42] }, { isActive: null }, { usageLimit: 0 }]) {
      assertError(await t.req('PUT', `${API}/coupons/${c.id}`, { token: admin, body }), 400, 'bad_request');
    }
    assertError(
      await t.req('PUT', `${API}/coupons/${c.id}`, { token: admin, raw: 'nope', headers: { 'content-type': 'application/json' } }),
      400,
      'bad_request',
    );
    assert.deepEqual((await t.req('GET', `${API}/coupons/${c.id}`, { token: admin })).body, before);
    const follows = await t.req('PUT', `${API}/coupons/${c.id}`, { token: admin, body: { description: 'Other text' } });
    assert.equal(follows.body.ruleName, 'Other text');
    await t.database.db.update(salesRules).set({ name: 'Set by hand' }).where(eq(salesRules.id, c.ruleId));
    const kept = await t.req('PUT', `${API}/coupons/${c.id}`, { token: admin, body: { description: 'Third text' } });
    assert.equal(kept.body.ruleName, 'Set by hand');
  });

  test('usageLimit cannot go below the uses so far', async () => {
    const c = await create({ code: uniq('USED') });
    await t.database.db.update(coupons).set({ timesUsed: 3 }).where(eq(coupons.id, c.id));
    assertError(
      await t.req('PUT', `${API}/coupons/${c.id}`, { token: admin, body: { usageLimit: 2 } }),
      400,
      'bad_request',
      /below the uses/,
    );
    assert.equal((await t.req('PUT', `${API}/coupons/${c.id}`, { token: admin, body: { usageLimit: 3 } })).status, 200);
  });

  test('unknown 404, malformed id 400; access needs coupons/write', async () => {
    assertError(await t.req('PUT', `${API}/coupons/999999`, { token: admin, body: { isActive: false } }), 404, 'not_found');
    assertError(await t.req('PUT', `${API}/coupons/x`, { token: admin, body: {} }), 400, 'bad_request');
    assertError(await t.req('PUT', `${API}/coupons/1`, { body: {} }), 401, 'unauthorized');
    assertError(await t.req('PUT', `${API}/coupons/1`, { token: customer, body: {} }), 403, 'forbidden');
    assertError(await t.req('PUT', `${API}/coupons/1`, { token: tok.read, body: {} }), 403, 'forbidden');
    assertError(await t.req('PUT', `${API}/coupons/1`, { token: tok.create, body: {} }), 403, 'forbidden');
    assertError(await t.req('PUT', `${API}/coupons/1`, { token: tok.delete, body: {} }), 403, 'forbidden');
    assert.equal((await t.req('PUT', `${API}/coupons/1`, { token: tok.write, body: {} })).status, 200);
  });
});

describe('DELETE /coupons/{id}', () => {
  test('deletes the coupon and its rule (204, empty body)', async () => {
    const c = await create({ code: uniq('DEL') });
    const before = await counts();
    const r = await t.req('DELETE', `${API}/coupons/${c.id}`, { token: tok.delete });
    assert.equal(r.status, 204);
    assert.equal(r.text, '');
    assert.deepEqual(await counts(), { coupons: before.coupons - 1, rules: before.rules - 1 });
    assertError(await t.req('GET', `${API}/coupons/${c.id}`, { token: admin }), 404, 'not_found');
    assertError(await t.req('DELETE', `${API}/coupons/${c.id}`, { token: admin }), 404, 'not_found');
  });

  test('a write grant does not delete; access matrix; malformed id 400', async () => {
    const c = await create({ code: uniq('KEEP') });
    assertError(await t.req('DELETE', `${API}/coupons/${c.id}`), 401, 'unauthorized');
    assertError(await t.req('DELETE', `${API}/coupons/${c.id}`, { token: customer }), 403, 'forbidden');
    assertError(await t.req('DELETE', `${API}/coupons/${c.id}`, { token: tok.write }), 403, 'forbidden');
    assertError(await t.req('DELETE', `${API}/coupons/${c.id}`, { token: tok.read }), 403, 'forbidden');
    assertError(await t.req('DELETE', `${API}/coupons/abc`, { token: admin }), 400, 'bad_request');
    assert.equal((await t.req('GET', `${API}/coupons/${c.id}`, { token: admin })).status, 200);
    assert.equal((await t.req('DELETE', `${API}/coupons/${c.id}`, { token: tok.all })).status, 204);
  });
});

describe('GraphQL', () => {
  async function gql(query: string, variables: Record<string, unknown> = {}, token?: string) {
    const r = await t.req('POST', '/api/graphql', { token, body: { query, variables } });
    assert.equal(r.status, 200, r.text);
    return r.body as { data: Record<string, any> | null; errors?: { message: string; extensions: { code: string; status: number } }[] };
  }
  const CREATE =
    'mutation($input: createCouponInput!) { createCoupon(input: $input) { coupon { id _id code ruleId ruleName discountType discountAmount customerGroupIds usageLimit } } }';

  test('createCoupon returns id, code and ruleId; the coupon reads back over REST', async () => {
    const code = uniq('GQL');
    const r = await gql(CREATE, { input: { code, discountType: 'cart_fixed', discountAmount: 12.5, usageLimit: null } }, admin);
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    const c = r.data!.createCoupon.coupon;
    assert.equal(c.id, `/api/rest/v2/coupons/${c._id}`);
    assert.equal(c.code, code);
    assert.ok(c.ruleId > 0);
    assert.equal(c.discountType, 'cart_fixed');
    assert.equal(c.discountAmount, 12.5);
    assert.equal(c.usageLimit, null);
    const rest = await t.req('GET', `${API}/coupons/${c._id}`, { token: admin });
    assert.equal(rest.body.ruleId, c.ruleId);
  });

  test('createCoupon: buy_x_get_y without discountStep is echoed with discountStep 1; step 0 is a 400', async () => {
    const BXGY = 'mutation($input: createCouponInput!) { createCoupon(input: $input) { coupon { _id discountType discountStep } } }';
    const r = await gql(BXGY, { input: { code: uniq('GQLB'), discountType: 'buy_x_get_y', discountAmount: 1 } }, admin);
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    assert.deepEqual({ ...r.data!.createCoupon.coupon, _id: 0 }, { _id: 0, discountType: 'buy_x_get_y', discountStep: 1 });
    assert.equal((await t.req('GET', `${API}/coupons/${r.data!.createCoupon.coupon._id}`, { token: admin })).body.discountStep, 1);
    const zero = await gql(BXGY, { input: { code: uniq('GQLB'), discountType: 'buy_x_get_y', discountAmount: 1, discountStep: 0 } }, admin);
    assert.equal(zero.errors?.[0].extensions.status, 400);
    assert.match(zero.errors![0].message, /discountStep/);
    const upd = await gql(
      'mutation($id: ID!) { updateCoupon(input: { id: $id, discountType: "buy_x_get_y", discountAmount: 2 }) { coupon { discountStep } } }',
      { id: (await create({ code: uniq('GQLU') })).id },
      admin,
    );
    assert.deepEqual(upd.data!.updateCoupon.coupon, { discountStep: 1 });
  });

  test('the same rules and access as REST', async () => {
    const anon = await gql(CREATE, { input: { code: uniq('G'), discountType: 'percent', discountAmount: 1 } });
    assert.equal(anon.errors?.[0].extensions.status, 401);
    const cust = await gql(CREATE, { input: { code: uniq('G'), discountType: 'percent', discountAmount: 1 } }, customer);
    assert.equal(cust.errors?.[0].extensions.status, 403);
    const ro = await gql(CREATE, { input: { code: uniq('G'), discountType: 'percent', discountAmount: 1 } }, tok.read);
    assert.equal(ro.errors?.[0].extensions.status, 403);
    const bad = await gql(CREATE, { input: { code: uniq('G'), discountType: 'percentage', discountAmount: 1 } }, admin);
    assert.equal(bad.errors?.[0].extensions.status, 400);
    const dup = await gql(CREATE, { input: { code: 'welcome10', discountType: 'percent', discountAmount: 1 } }, admin);
    assert.equal(dup.errors?.[0].extensions.code, 'DUPLICATE_COUPON');
    const missing = await gql('mutation { createCoupon(input: { code: "X" }) { coupon { id } } }', {}, admin);
    assert.equal(missing.errors?.[0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
  });

  test('coupons, coupon, updateCoupon and deleteCoupon', async () => {
    const code = uniq('GQ2');
    const id = (await gql(CREATE, { input: { code, discountType: 'percent', discountAmount: 3 } }, admin)).data!.createCoupon.coupon._id;
    const list = await gql(
      'query($c: String) { coupons(code: $c, is_active: true) { totalCount edges { node { _id code } } } }',
      { c: code },
      tok.read,
    );
    assert.deepEqual(list.data!.coupons, { totalCount: 1, edges: [{ node: { _id: id, code } }] });
    const upd = await gql(
      'mutation($id: ID!) { updateCoupon(input: { id: $id, isActive: false, toDate: "2040-01-01" }) { coupon { isActive toDate } } }',
      { id },
      tok.write,
    );
    assert.deepEqual(upd.data!.updateCoupon.coupon, { isActive: false, toDate: '2040-01-01' });
    const one = await gql('query($id: ID!) { coupon(id: $id) { code isActive } }', { id }, admin);
    assert.deepEqual(one.data!.coupon, { code, isActive: false });
    const noDel = await gql('mutation($id: ID!) { deleteCoupon(input: { id: $id }) { coupon { id } } }', { id }, tok.write);
    assert.equal(noDel.errors?.[0].extensions.status, 403);
    const del = await gql(
      'mutation($id: ID!) { deleteCoupon(input: { id: $id }) { coupon { id } } }',
      { id: `/api/rest/v2/coupons/${id}` },
      tok.delete,
    );
    assert.equal(del.data!.deleteCoupon.coupon.id, `/api/rest/v2/coupons/${id}`);
    const gone = await gql('query($id: ID!) { coupon(id: $id) { code } }', { id }, admin);
    assert.equal(gone.errors?.[0].extensions.status, 404);
  });
});
