/**
 * POST /customers/quick-create: the back office creates an account from an email and a name (customers/create);
 * the password is random, so the account's owner sets one through a reset link. Access levels and bad input.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { API, buildTestApp, type Res, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let admin: string;
const URL = `${API}/customers/quick-create`;

function assertError(r: Res, status: number) {
  assert.equal(r.status, status, r.text);
  assert.equal(typeof r.body.error, 'string', r.text);
}

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
});
after(() => t.close());

test('an admin creates an account; the telephone is accepted and not stored; the email is then taken (409)', async () => {
  const r = await t.req('POST', URL, {
    token: admin,
    body: { email: 'quick-rest@example.com', firstname: 'Quick', lastname: 'Rest', telephone: '555' },
  });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.body.email, 'quick-rest@example.com');
  assert.equal(r.body.fullName, 'Quick Rest');
  const read = await t.req('GET', `${API}/customers/${r.body.id}`, { token: admin });
  assert.equal(read.status, 200, read.text);
  const creator = await t.tokens.apiUser(['customers/create']);
  const other = await t.req('POST', URL, {
    token: creator,
    body: { email: 'quick-rest2@example.com', firstname: 'Q', lastname: 'R', telephone: null },
  });
  assert.equal(other.status, 201, other.text);
  assertError(await t.req('POST', URL, { token: admin, body: { email: 'quick-rest@example.com', firstname: 'Q', lastname: 'R' } }), 409);
});

test('the random password is not a way in: logging in with a guess fails', async () => {
  const r = await t.req('POST', URL, { token: admin, body: { email: 'quick-login@example.com', firstname: 'Q', lastname: 'L' } });
  assert.equal(r.status, 201, r.text);
  const login = await t.req('POST', `${API}/auth/token`, {
    body: { grant_type: 'password', username: 'quick-login@example.com', password: 'Password123!' },
  });
  assert.ok(login.status === 400 || login.status === 401, login.text);
});

test('access: anonymous 401, customer and a read grant 403', async () => {
  const body = { email: 'quick-denied@example.com', firstname: 'Q', lastname: 'D' };
  assertError(await t.req('POST', URL, { body }), 401);
  assertError(await t.req('POST', URL, { token: await t.tokens.customer(), body }), 403);
  assertError(await t.req('POST', URL, { token: await t.tokens.apiUser(['customers/read']), body }), 403);
  const list = await t.req('GET', `${API}/customers?email=quick-denied@example.com`, {
    token: admin,
    headers: { accept: 'application/json' },
  });
  assert.deepEqual(list.body, []);
});

test('bad input is a 400: a missing name, not an email, wrong types, malformed JSON', async () => {
  const cases: unknown[] = [
    { email: 'quick-bad@example.com', firstname: 'Q' },
    { email: 'not an email', firstname: 'Q', lastname: 'B' },
    { email: 'quick-bad@example.com', firstname: 1, lastname: 'B' },
    { email: 'quick-bad@example.com', firstname: 'Q', lastname: 'B', telephone: 5 },
    'quick',
  ];
  for (const body of cases) assertError(await t.req('POST', URL, { token: admin, body }), 400);
  assertError(await t.req('POST', URL, { token: admin, raw: '{"email":', headers: { 'content-type': 'application/json' } }), 400);
  const list = await t.req('GET', `${API}/customers?email=quick-bad@example.com`, {
    token: admin,
    headers: { accept: 'application/json' },
  });
  assert.deepEqual(list.body, []);
});
