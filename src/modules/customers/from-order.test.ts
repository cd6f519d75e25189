/** POST /customers/create-from-order: an account from a guest order, with the accountToken of its guest lookup. */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { placeTestOrder } from '../../../test/fixtures/checkout.js';
import { signAccountToken } from '../orders/account-token.js';
import { deriveKey } from '../../platform/keys.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp();
});
after(() => t.close());

const create = (body: unknown) => t.req('POST', `${API}/customers/create-from-order`, { body });

/** A guest order and the accountToken its (first) lookup answers with. */
async function guestOrderWithToken(email: string) {
  const o = await placeTestOrder(t, { guestEmail: email });
  const r = await t.req('GET', `${API}/orders/${o.incrementId}/details`, { headers: { 'x-order-token': o.accessToken! } });
  assert.equal(r.status, 200, r.text);
  assert.ok(r.body.accountToken, 'no account has the email yet');
  return { order: o, accountToken: r.body.accountToken as string };
}

/** A token signed with the app's secret, as `signAccountToken` makes it, for any claims. */
function forge(claims: Record<string, unknown>): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64');
  return `${payload}.${crypto.createHmac('sha256', deriveKey(t.services.config.jwtSecret, 'order-account-token')).update(payload).digest('hex')}`;
}

describe('POST /customers/create-from-order', () => {
  test('creates the account with the order names and billing address as default addresses, and attaches the order', async () => {
    const { order, accountToken } = await guestOrderWithToken('fresh-from-order@example.com');
    const r = await create({ accountToken, password: 'Secret123!' });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.email, 'fresh-from-order@example.com');
    assert.equal(r.body.firstname, 'Tess');
    assert.equal(r.body.lastname, 'Tester');
    assert.equal(r.body.websiteId, 1);
    assert.equal(r.body.addresses.length, 1);
    const a = r.body.addresses[0];
    assert.deepEqual(
      { street: a.street, city: a.city, postcode: a.postcode, countryId: a.countryId, telephone: a.telephone, regionId: a.regionId },
      {
        street: ['1 Test Road'],
        city: 'Austin',
        postcode: '73301',
        countryId: 'US',
        telephone: '555-0199',
        regionId: order.billingAddress!.regionId,
      },
    );
    assert.equal(r.body.defaultBillingAddress.id, a.id);
    assert.equal(r.body.defaultShippingAddress.id, a.id);
    assert.equal(r.body.password, undefined);

    const token = await t.tokens.customer('fresh-from-order@example.com', 'Secret123!');
    const mine = await t.req('GET', `${API}/customers/me/orders`, { token });
    assert.deepEqual(
      mine.body.member.map((o: { id: number }) => o.id),
      [order.id],
    );
    const read = await t.req('GET', `${API}/orders/${order.id}`, { token });
    assert.equal(read.status, 200);
    assert.equal(read.body.customerId, r.body.id);
    assert.equal(read.body.customerIsGuest, false);

    const again = await create({ accountToken, password: 'Secret123!' });
    assert.equal(again.status, 409, 'a token makes one account');
    assert.equal(again.body.error, 'conflict');
  });

  test('bad, tampered, expired and foreign-purpose tokens are 400 and create nothing', async () => {
    const { order, accountToken } = await guestOrderWithToken('tampered@example.com');
    const [payload, sig] = accountToken.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64').toString('utf8'));
    const otherPayload = Buffer.from(JSON.stringify({ ...claims, orderId: claims.orderId + 1 })).toString('base64');
    const expired = signAccountToken({ ...t.systemCtx(), now: new Date(Date.now() - 3_601_000) }, order);
    const future = signAccountToken({ ...t.systemCtx(), now: new Date(Date.now() + 600_000) }, order);
    for (const bad of [
      'garbage',
      '',
      `${payload}.${'0'.repeat(64)}`,
      `${payload}.${sig.slice(0, 63)}`,
      `${otherPayload}.${sig}`,
      `${payload}`,
      `.${sig}`,
      expired,
      future,
      forge({ ...claims, action: 'reset_password' }),
      forge({ ...claims, orderId: 'x' }),
      forge({ ...claims, timestamp: 'now' }),
      `${Buffer.from('not json').toString('base64')}.${crypto.createHmac('sha256', deriveKey(t.services.config.jwtSecret, 'order-account-token')).update(Buffer.from('not json').toString('base64')).digest('hex')}`,
      // signed with the token-signing secret itself rather than the key of this purpose
      `${Buffer.from(JSON.stringify(claims)).toString('base64')}.${crypto
        .createHmac('sha256', t.services.config.jwtSecret)
        .update(Buffer.from(JSON.stringify(claims)).toString('base64'))
        .digest('hex')}`,
      forge({ ...claims, email: 'someone-else@example.com' }),
    ]) {
      const r = await create({ accountToken: bad, password: 'Secret123!' });
      assert.equal(r.status, 400, bad);
      assert.equal(r.body.message, 'The account token is invalid or has expired');
    }
    assert.equal((await create({ accountToken, password: 'Secret123!' })).status, 201, 'the real token still works');
  });

  test('an order that is gone is 404', async () => {
    const r = await create({
      accountToken: forge({ orderId: 999999, email: 'x@example.com', timestamp: Math.floor(Date.now() / 1000), action: 'create_account' }),
      password: 'Secret123!',
    });
    assert.equal(r.status, 404);
    assert.equal(r.body.message, 'Order not found');
  });

  test('an existing account with the order email, or an order that has a customer, is 409', async () => {
    // the token was issued, then an account with the email appeared
    const { accountToken } = await guestOrderWithToken('registered-later@example.com');
    const reg = await t.req('POST', `${API}/customers`, {
      body: { email: 'Registered-Later@example.com', password: 'Secret123!', firstname: 'R', lastname: 'L' },
    });
    assert.equal(reg.status, 201, reg.text);
    const r = await create({ accountToken, password: 'Secret123!' });
    assert.equal(r.status, 409);
    assert.equal(r.body.message, 'A customer account already exists for this order');

    const customer = await t.tokens.customer();
    const c = await placeTestOrder(t, { customerToken: customer });
    const own = await create({ accountToken: signAccountToken(t.systemCtx(), c), password: 'Secret123!' });
    assert.equal(own.status, 409);
  });

  test('bad bodies: missing or wrong-typed fields, a short password, malformed JSON are 400 and create nothing', async () => {
    const { accountToken } = await guestOrderWithToken('bodies@example.com');
    for (const body of [
      {},
      { accountToken },
      { password: 'Secret123!' },
      { accountToken, password: 12345678 },
      { accountToken: 5, password: 'Secret123!' },
      { accountToken, password: 'short' },
      [],
    ]) {
      const r = await create(body);
      assert.equal(r.status, 400, JSON.stringify(body));
    }
    const malformed = await t.req('POST', `${API}/customers/create-from-order`, {
      raw: '{"accountToken":',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(malformed.status, 400);
    assert.equal((await create({ accountToken, password: 'Secret123!', groupId: 4 })).status, 201, 'unknown keys are dropped');
  });
});
