/**
 * A signed-in customer changes the account's email only with the current password (`currentPassword`, as on
 * Magento's account page): missing or wrong is a 400 that changes nothing, and a wrong one counts against the
 * login limit of the account. An admin changes a customer's email without it.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type Res, type TestApp } from '../../../test/helpers.js';

/** Rate limits on (the login limit is part of the behaviour); in Redis when the environment names one. */
const env = { RATE_LIMITS: '1', ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}) };
const run = crypto.randomBytes(4).toString('hex');
let nextIp = 1;
/** Each test its own client address, so that only the counts of the account under test matter. */
const freshIp = () => `10.77.${crypto.randomBytes(1)[0]}.${nextIp++}`;

let t: TestApp;
let admin: string;
before(async () => {
  t = await buildTestApp({ env });
  admin = await t.tokens.admin();
});
after(() => t.close());

async function req(ip: string, method: string, url: string, o: { token?: string; body?: unknown } = {}): Promise<Res> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  const r = await t.app.inject({
    method: method as 'PUT',
    url,
    remoteAddress: ip,
    headers,
    payload: o.body === undefined ? undefined : JSON.stringify(o.body),
  });
  return { status: r.statusCode, headers: r.headers, body: r.body ? JSON.parse(r.body) : undefined, text: r.body };
}

let seq = 0;
async function newCustomer(ip: string): Promise<{ id: number; email: string; token: string }> {
  const email = `cp${++seq}-${run}@example.com`;
  const r = await req(ip, 'POST', `${API}/customers`, { body: { email, password: 'Original1', firstname: 'Cur', lastname: 'Rent' } });
  assert.equal(r.status, 201, r.text);
  const login = await req(ip, 'POST', `${API}/auth/token`, { body: { email, password: 'Original1' } });
  assert.equal(login.status, 200, login.text);
  return { id: r.body.id, email, token: login.body.token };
}

const MISSING = /current password is required/i;
const WRONG = /current password is incorrect/i;

/** The 400 of a missing or wrong current password, naming the field. */
function assertBadRequest(r: Res, message: RegExp): void {
  assert.equal(r.status, 400, r.text);
  assert.equal(r.body.error, 'bad_request', r.text);
  assert.equal(r.body.code, 400);
  assert.match(r.body.message, message);
  assert.equal(r.body.details?.field, 'currentPassword', r.text);
}

async function currentEmail(ip: string, token: string): Promise<string> {
  const r = await req(ip, 'GET', `${API}/customers/me`, { token });
  assert.equal(r.status, 200, r.text);
  return r.body.email;
}

describe('PUT /customers/me', () => {
  test('an email change without the current password is a 400 and changes nothing', async () => {
    const ip = freshIp();
    const c = await newCustomer(ip);
    const r = await req(ip, 'PUT', `${API}/customers/me`, { token: c.token, body: { email: `new-${c.email}`, firstname: 'Changed' } });
    assertBadRequest(r, MISSING);
    const after = await req(ip, 'GET', `${API}/customers/me`, { token: c.token });
    assert.equal(after.body.email, c.email);
    assert.equal(after.body.firstname, 'Cur', 'nothing of the request is applied');
    const blank = await req(ip, 'PUT', `${API}/customers/me`, { token: c.token, body: { email: `new-${c.email}`, currentPassword: '' } });
    assertBadRequest(blank, MISSING);
  });

  test('a wrong current password is a 400 and changes nothing', async () => {
    const ip = freshIp();
    const c = await newCustomer(ip);
    const r = await req(ip, 'PUT', `${API}/customers/me`, {
      token: c.token,
      body: { email: `new-${c.email}`, currentPassword: 'not-my-password' },
    });
    assertBadRequest(r, WRONG);
    assert.equal(await currentEmail(ip, c.token), c.email);
    const typed = await req(ip, 'PUT', `${API}/customers/me`, {
      token: c.token,
      body: { email: `new-${c.email}`, currentPassword: 12345 },
    });
    assert.equal(typed.status, 400, typed.text);
    assert.equal(await currentEmail(ip, c.token), c.email);
  });

  test('with the right current password the email changes, and the new email logs in', async () => {
    const ip = freshIp();
    const c = await newCustomer(ip);
    const email = `moved-${c.email}`;
    const r = await req(ip, 'PUT', `${API}/customers/me`, { token: c.token, body: { email, currentPassword: 'Original1' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.email, email);
    assert.equal((await req(ip, 'POST', `${API}/auth/token`, { body: { email, password: 'Original1' } })).status, 200);
    assert.equal((await req(ip, 'POST', `${API}/auth/token`, { body: { email: c.email, password: 'Original1' } })).status, 401);
  });

  test('other fields, and the unchanged email sent back, need no password', async () => {
    const ip = freshIp();
    const c = await newCustomer(ip);
    const r = await req(ip, 'PUT', `${API}/customers/me`, {
      token: c.token,
      body: { email: c.email.toUpperCase(), firstname: 'Renamed', gender: 2 },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.firstname, 'Renamed');
    assert.equal(r.body.email, c.email);
  });

  test('wrong current passwords count against the login limit of the account (5 a minute)', async () => {
    const c = await newCustomer(freshIp());
    for (let i = 0; i < 5; i++) {
      const r = await req(freshIp(), 'PUT', `${API}/customers/me`, {
        token: c.token,
        body: { email: `x-${c.email}`, currentPassword: `guess-${i}` },
      });
      assertBadRequest(r, WRONG);
    }
    const limited = await req(freshIp(), 'PUT', `${API}/customers/me`, {
      token: c.token,
      body: { email: `x-${c.email}`, currentPassword: 'Original1' },
    });
    assert.equal(limited.status, 429, limited.text);
    assert.equal(limited.body.error, 'too_many_requests');
    assert.equal(
      (await req(freshIp(), 'POST', `${API}/auth/token`, { body: { email: c.email, password: 'Original1' } })).status,
      429,
      'the login is locked too',
    );
    assert.equal(await currentEmail(freshIp(), c.token), c.email);
  });

  test('the right current password does not count', async () => {
    const ip = freshIp();
    const c = await newCustomer(ip);
    // back and forth: each address is the account 6 times, the client address 12 times, beyond both limits
    const emails = [`other-${c.email}`, c.email];
    for (let i = 0; i < 12; i++) {
      const r = await req(ip, 'PUT', `${API}/customers/me`, {
        token: c.token,
        body: { email: emails[i % 2], currentPassword: 'Original1' },
      });
      assert.equal(r.status, 200, `change ${i + 1}: ${r.text}`);
    }
    assert.equal((await req(ip, 'POST', `${API}/auth/token`, { body: { email: c.email, password: 'Original1' } })).status, 200);
  });
});

describe('PUT /customers/{id} (admin)', () => {
  test('an admin changes the email without a password', async () => {
    const ip = freshIp();
    const c = await newCustomer(ip);
    const r = await req(ip, 'PUT', `${API}/customers/${c.id}`, { token: admin, body: { email: `admin-set-${c.email}` } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.email, `admin-set-${c.email}`);
  });
});

describe('GraphQL updateCustomer', () => {
  const mutation = (input: string) => `mutation { updateCustomer(input: {${input}}) { customer { _id email firstname } } }`;
  const gql = async (ip: string, query: string, token: string) => (await req(ip, 'POST', '/api/graphql', { token, body: { query } })).body;

  test('a customer needs currentPassword to change the email; wrong or missing is a 400 that changes nothing', async () => {
    const ip = freshIp();
    const c = await newCustomer(ip);
    const missing = await gql(ip, mutation(`email: "g-${c.email}"`), c.token);
    assert.equal(missing.data.updateCustomer, null);
    assert.equal(missing.errors[0].extensions.status, 400, JSON.stringify(missing.errors));
    assert.equal(missing.errors[0].extensions.code, 'CURRENT_PASSWORD_REQUIRED');
    const wrong = await gql(ip, mutation(`email: "g-${c.email}", currentPassword: "nope-nope"`), c.token);
    assert.equal(wrong.errors[0].extensions.status, 400, JSON.stringify(wrong.errors));
    assert.equal(wrong.errors[0].extensions.code, 'INVALID_CURRENT_PASSWORD');
    assert.equal(await currentEmail(ip, c.token), c.email);

    const ok = await gql(ip, mutation(`email: "g-${c.email}", currentPassword: "Original1", firstName: "Gee"`), c.token);
    assert.equal(ok.errors, undefined, JSON.stringify(ok.errors));
    assert.deepEqual(ok.data.updateCustomer.customer, { _id: c.id, email: `g-${c.email}`, firstname: 'Gee' });
  });

  test('an admin naming the customer needs no password', async () => {
    const ip = freshIp();
    const c = await newCustomer(ip);
    const r = await gql(ip, mutation(`id: "${c.id}", email: "ga-${c.email}"`), admin);
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    assert.equal(r.data.updateCustomer.customer.email, `ga-${c.email}`);
  });
});
