/**
 * What the back office's customer screens need of the API: the customer grid sorted by its columns and filtered by
 * group, website and status; a customer's addresses changed and deleted by staff; a password reset link sent by
 * staff; a customer's wishlist read by staff. Each with its access levels and bad input.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { desc, eq } from 'drizzle-orm';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { mailOutbox } from '../../platform/tables.js';

let t: TestApp;
let admin: string;
let jane: string;
const made: { id: number; email: string; firstname: string; lastname: string; groupId: number }[] = [];
const tag = 'grid-sort';

function assertError(r: { status: number; body: any }, status: number) {
  assert.equal(r.status, status, JSON.stringify(r.body));
  assert.equal(typeof r.body.error, 'string');
  assert.equal(typeof r.body.message, 'string');
}

const address = (extra: Record<string, unknown> = {}) => ({
  firstname: 'Ann',
  lastname: 'Lee',
  street: ['1 Main St'],
  city: 'Springfield',
  postcode: '12345',
  countryId: 'GB',
  telephone: '555-0100',
  ...extra,
});

async function customer(firstname: string, lastname: string, groupId: number, isActive = true) {
  const email = `${firstname.toLowerCase()}.${lastname.toLowerCase()}@${tag}.test`;
  const r = await t.req('POST', `${API}/customers`, {
    token: admin,
    body: { email, firstname, lastname, groupId, isActive, password: 'Password123!' },
  });
  assert.equal(r.status, 201, r.text);
  made.push({ id: r.body.id, email, firstname, lastname, groupId });
  return r.body;
}

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  jane = await t.tokens.customer();
  await customer('Zoe', 'Adams', 2);
  await customer('Adam', 'Young', 1);
  await customer('Mia', 'Brown', 3, false);
  await customer('Ben', 'Brown', 2);
});
after(() => t.close());

async function listed(query: Record<string, string>) {
  const r = await t.req('GET', `${API}/customers`, { token: admin, query: { search: tag, ...query } });
  assert.equal(r.status, 200, r.text);
  return r.body as { totalItems: number; member: { id: number; email: string; lastname: string; groupId: number; isActive: boolean }[] };
}

describe('GET /customers for the grid', () => {
  test('sorts by name (last then first), email, group code and creation, both ways, then by id', async () => {
    const names = (await listed({ sortBy: 'name' })).member.map((c) => c.email.split('@')[0]);
    assert.deepEqual(names, ['zoe.adams', 'ben.brown', 'mia.brown', 'adam.young']);
    const back = (await listed({ sortBy: 'name', sortDir: 'desc' })).member.map((c) => c.email.split('@')[0]);
    assert.deepEqual(back, ['adam.young', 'mia.brown', 'ben.brown', 'zoe.adams']);
    const emails = (await listed({ sortBy: 'email', sortDir: 'desc' })).member.map((c) => c.email);
    assert.deepEqual(emails, [...emails].sort().reverse());
    // General (1), Retailer (3), Wholesale (2) by code
    const groups = (await listed({ sortBy: 'group' })).member.map((c) => c.groupId);
    assert.deepEqual(groups, [1, 3, 2, 2]);
    const created = (await listed({ sortBy: 'createdAt', sortDir: 'desc' })).member.map((c) => c.id);
    assert.deepEqual(
      created,
      [...made.map((c) => c.id)].sort((a, b) => b - a),
    );
  });

  test('pages of a sorted list neither overlap nor skip', async () => {
    const seen: number[] = [];
    for (let page = 1; page <= 4; page++) {
      const r = await listed({ sortBy: 'lastname', itemsPerPage: '1', page: String(page) });
      assert.equal(r.totalItems, 4);
      seen.push(r.member[0].id);
    }
    assert.deepEqual([...seen].sort(), made.map((c) => c.id).sort());
  });

  test('filters by group, website and status', async () => {
    assert.deepEqual(
      (await listed({ groupId: '2' })).member.map((c) => c.lastname),
      ['Adams', 'Brown'],
    );
    assert.equal((await listed({ websiteId: '1' })).totalItems, 4);
    assert.equal((await listed({ websiteId: '99' })).totalItems, 0);
    const inactive = await listed({ isActive: 'false' });
    assert.deepEqual(
      inactive.member.map((c) => c.lastname),
      ['Brown'],
    );
    assert.equal(inactive.member[0].isActive, false);
    assert.equal((await listed({ isActive: '1' })).totalItems, 3);
  });

  test('bad sort or filter values are a 400', async () => {
    for (const query of [{ sortBy: 'password' }, { sortDir: 'up' }, { groupId: 'x' }, { isActive: 'maybe' }, { websiteId: '-1' }] as Record<
      string,
      string
    >[]) {
      assertError(await t.req('GET', `${API}/customers`, { token: admin, query }), 400);
    }
  });
});

describe("staff change a customer's addresses", () => {
  test('update makes an address the default billing and shipping one; delete clears the default', async () => {
    const c = made[0];
    const first = await t.req('POST', `${API}/customers/${c.id}/addresses`, { token: admin, body: address({ isDefaultBilling: true }) });
    assert.equal(first.status, 201, first.text);
    const second = await t.req('POST', `${API}/customers/${c.id}/addresses`, { token: admin, body: address({ city: 'Shelbyville' }) });
    assert.equal(second.status, 201, second.text);

    const r = await t.req('PUT', `${API}/customers/${c.id}/addresses/${second.body.id}`, {
      token: admin,
      body: { city: 'Capital City', isDefaultBilling: true, isDefaultShipping: true },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.city, 'Capital City');
    assert.equal(r.body.isDefaultBilling, true);
    assert.equal(r.body.isDefaultShipping, true);
    const read = (await t.req('GET', `${API}/customers/${c.id}`, { token: admin })).body;
    assert.equal(read.defaultBillingAddress.id, second.body.id);
    assert.equal(read.defaultShippingAddress.id, second.body.id);
    assert.equal(read.addresses.find((a: { id: number }) => a.id === first.body.id).isDefaultBilling, false);

    const gone = await t.req('DELETE', `${API}/customers/${c.id}/addresses/${second.body.id}`, { token: admin });
    assert.equal(gone.status, 204, gone.text);
    const after = (await t.req('GET', `${API}/customers/${c.id}`, { token: admin })).body;
    assert.deepEqual(
      after.addresses.map((a: { id: number }) => a.id),
      [first.body.id],
    );
    assert.ok(!('defaultBillingAddress' in after));
    assert.ok(!('defaultShippingAddress' in after));
  });

  test("another customer's address, a missing one and bad input are refused and change nothing", async () => {
    const [a, b] = made;
    const mine = await t.req('POST', `${API}/customers/${a.id}/addresses`, { token: admin, body: address() });
    assert.equal(mine.status, 201);
    const url = `${API}/customers/${a.id}/addresses/${mine.body.id}`;
    assertError(await t.req('PUT', `${API}/customers/${b.id}/addresses/${mine.body.id}`, { token: admin, body: { city: 'X' } }), 404);
    assertError(await t.req('DELETE', `${API}/customers/${b.id}/addresses/${mine.body.id}`, { token: admin }), 404);
    assertError(await t.req('PUT', `${API}/customers/999999/addresses/${mine.body.id}`, { token: admin, body: { city: 'X' } }), 404);
    assertError(await t.req('PUT', `${API}/customers/${a.id}/addresses/abc`, { token: admin, body: { city: 'X' } }), 400);
    assertError(await t.req('PUT', url, { token: admin, body: { city: 5 } }), 400);
    assertError(await t.req('PUT', url, { token: admin, body: { firstname: '' } }), 400);
    assertError(await t.req('PUT', url, { token: admin, raw: '{', headers: { 'content-type': 'application/json' } }), 400);
    const read = (await t.req('GET', `${API}/customers/${a.id}/addresses`, { token: admin })).body.member;
    assert.equal(read.find((x: { id: number }) => x.id === mine.body.id).city, 'Springfield');
  });

  test('access: anonymous 401, customer 403, API users need addresses/write and addresses/delete', async () => {
    const c = made[1];
    const a = await t.req('POST', `${API}/customers/${c.id}/addresses`, { token: admin, body: address() });
    const url = `${API}/customers/${c.id}/addresses/${a.body.id}`;
    assertError(await t.req('PUT', url, { body: { city: 'X' } }), 401);
    assertError(await t.req('PUT', url, { token: jane, body: { city: 'X' } }), 403);
    assertError(await t.req('PUT', url, { token: await t.tokens.apiUser(['addresses/read']), body: { city: 'X' } }), 403);
    assertError(await t.req('DELETE', url, { token: await t.tokens.apiUser(['addresses/write']) }), 403);
    assertError(await t.req('DELETE', url, { token: jane }), 403);
    const ok = await t.req('PUT', url, { token: await t.tokens.apiUser(['addresses/write']), body: { city: 'Ogdenville' } });
    assert.equal(ok.status, 200, ok.text);
    assert.equal((await t.req('DELETE', url, { token: await t.tokens.apiUser(['addresses/delete']) })).status, 204);
  });
});

describe('POST /customers/{id}/password-reset', () => {
  async function mailsTo(email: string) {
    return t.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email)).orderBy(desc(mailOutbox.id));
  }

  test('mails the customer a reset link of their store view, which sets a new password', async () => {
    const c = made[1];
    const r = await t.req('POST', `${API}/customers/${c.id}/password-reset`, { token: admin, body: {} });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.success, true);
    const [mail] = await mailsTo(c.email);
    assert.ok(mail, 'a mail is queued');
    assert.equal(mail.storeId, 1);
    assert.equal(mail.template, 'customer/password_reset');
    const m = /[?&]token=([a-f0-9]{64})&email=([^\s&]+)/.exec(mail.textBody);
    assert.ok(m, mail.textBody);
    const reset = await t.req('POST', `${API}/customers/reset-password`, {
      body: { email: c.email, resetToken: m[1], newPassword: 'Brand-new-9' },
    });
    assert.equal(reset.status, 201, reset.text);
    const login = await t.req('POST', `${API}/auth/token`, { body: { email: c.email, password: 'Brand-new-9' } });
    assert.equal(login.status, 200, login.text);
  });

  test('an inactive account gets no link (409); an unknown one is a 404; bad ids are a 400', async () => {
    const inactive = made[2];
    const before = (await mailsTo(inactive.email)).length;
    assertError(await t.req('POST', `${API}/customers/${inactive.id}/password-reset`, { token: admin, body: {} }), 409);
    assert.equal((await mailsTo(inactive.email)).length, before);
    assertError(await t.req('POST', `${API}/customers/999999/password-reset`, { token: admin, body: {} }), 404);
    assertError(await t.req('POST', `${API}/customers/abc/password-reset`, { token: admin, body: {} }), 400);
  });

  test('access: anonymous 401, customer 403, API users need customers/write', async () => {
    const c = made[3];
    const url = `${API}/customers/${c.id}/password-reset`;
    assertError(await t.req('POST', url, { body: {} }), 401);
    assertError(await t.req('POST', url, { token: jane, body: {} }), 403);
    assertError(await t.req('POST', url, { token: await t.tokens.apiUser(['customers/read']), body: {} }), 403);
    assert.equal((await mailsTo(c.email)).length, 0);
    assert.equal((await t.req('POST', url, { token: await t.tokens.apiUser(['customers/write']), body: {} })).status, 201);
  });
});

describe('GET /customers/{customerId}/wishlist', () => {
  test("staff read a customer's wishlist; access needs wishlists/read; an unknown customer is a 404", async () => {
    const product = await createTestProduct(t, { price: 12, stockData: { qty: 5, isInStock: true } });
    const added = await t.req('POST', `${API}/customers/me/wishlist`, { token: jane, body: { productId: product.id, qty: 2 } });
    assert.equal(added.status, 201, added.text);
    const me = (await t.req('GET', `${API}/customers/me`, { token: jane })).body;
    const url = `${API}/customers/${me.id}/wishlist`;
    const r = await t.req('GET', url, { token: admin });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.totalItems, 1);
    assert.equal(r.body.member[0].productId, product.id);
    assert.equal(r.body.member[0].qty, 2);
    assert.equal((await t.req('GET', `${API}/customers/${made[0].id}/wishlist`, { token: admin })).body.totalItems, 0);

    assertError(await t.req('GET', url), 401);
    assertError(await t.req('GET', url, { token: jane }), 403);
    assertError(await t.req('GET', url, { token: await t.tokens.apiUser(['customers/read']) }), 403);
    assert.equal((await t.req('GET', url, { token: await t.tokens.apiUser(['wishlists/read']) })).status, 200);
    assertError(await t.req('GET', `${API}/customers/999999/wishlist`, { token: admin }), 404);
    assertError(await t.req('GET', `${API}/customers/0/wishlist`, { token: admin }), 400);
  });
});
