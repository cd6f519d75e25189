/** Tokens over GraphQL: loginCustomer (a customer's credentials), refreshToken and logoutCustomer (any valid token). */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';

let t: TestApp;

const gql = (query: string, token?: string, variables?: Record<string, unknown>) => t.gql(query, token, variables);
const me = (token: string) => t.req('GET', `${API}/customers/me`, { token });

before(async () => {
  t = await buildTestApp();
});
after(() => t.close());

describe('tokens over GraphQL', () => {
  test('loginCustomer answers a token that works, with the customer', async () => {
    const r = await gql(
      'mutation { loginCustomer(input: {email: "customer@example.com", password: "Password123!", clientMutationId: "l"}) { authToken { token tokenType expiresIn customer } clientMutationId } }',
    );
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    const tok = r.data.loginCustomer.authToken;
    assert.equal(r.data.loginCustomer.clientMutationId, 'l');
    assert.equal(tok.tokenType, 'Bearer');
    assert.ok(tok.expiresIn > 0);
    assert.equal(tok.customer.email, 'customer@example.com');
    assert.equal((await me(tok.token)).status, 200);
  });

  test('loginCustomer: wrong credentials are a 401 error, missing ones a GraphQL validation error, never a 500', async () => {
    const wrong = await gql('mutation { loginCustomer(input: {email: "customer@example.com", password: "nope"}) { authToken { token } } }');
    assert.equal(wrong.data.loginCustomer, null);
    assert.equal(wrong.errors[0].extensions.status, 401);
    const missing = await gql('mutation { loginCustomer(input: {email: "customer@example.com"}) { authToken { token } } }');
    assert.equal(missing.data ?? null, null);
    assert.ok(missing.errors.length);
    assert.ok((missing.errors[0].extensions?.status ?? 400) < 500);
    const tooLong = await gql(
      'mutation($p: String!) { loginCustomer(input: {email: "customer@example.com", password: $p}) { authToken { token } } }',
      undefined,
      { p: 'x'.repeat(2000) },
    );
    assert.equal(tooLong.errors[0].extensions.status, 400);
  });

  test('refreshToken replaces the token; logoutCustomer revokes it; anonymous callers get 401', async () => {
    const old = await t.tokens.customer();
    const refreshed = await gql('mutation { refreshToken(input: {}) { authToken { token customer } } }', old);
    assert.equal(refreshed.errors, undefined, JSON.stringify(refreshed.errors));
    const fresh = refreshed.data.refreshToken.authToken.token;
    assert.notEqual(fresh, old);
    assert.equal((await me(old)).status, 401);
    assert.equal((await me(fresh)).status, 200);

    const out = await gql(
      'mutation { logoutCustomer(input: {clientMutationId: "o"}) { authLogout { success message } clientMutationId } }',
      fresh,
    );
    assert.equal(out.errors, undefined, JSON.stringify(out.errors));
    assert.equal(out.data.logoutCustomer.authLogout.success, true);
    assert.equal((await me(fresh)).status, 401);

    for (const field of ['refreshToken(input: {}) { authToken { token } }', 'logoutCustomer(input: {}) { authLogout { success } }']) {
      const anon = await gql(`mutation { ${field} }`);
      assert.equal(anon.errors[0].extensions.status, 401, field);
    }
  });

  test('an admin token may be refreshed and logged out too', async () => {
    const admin = await t.tokens.admin();
    const r = await gql('mutation { refreshToken(input: {}) { authToken { token permissions apiUser } } }', admin);
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    assert.deepEqual(r.data.refreshToken.authToken.permissions, ['all']);
    const out = await gql('mutation { logoutCustomer(input: {}) { authLogout { success } } }', r.data.refreshToken.authToken.token);
    assert.equal(out.data.logoutCustomer.authLogout.success, true);
  });
});
