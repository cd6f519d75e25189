/**
 * Customers' tag posts are limited per IP and per customer (api/rate_limit/tag_submit per hour): only a post that
 * passed every check counts, a refused one changes nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { rows } from '../../platform/db.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { setConfig } from '../stores/service.js';

let t: TestApp;
let ann: string;
let bob: string;
let productId: number;

before(async () => {
  t = await buildTestApp({ env: { RATE_LIMITS: '1' } });
  ann = await t.tokens.customer();
  const reg = await t.req('POST', `${API}/customers`, {
    body: { email: 'bob.tags@example.com', password: 'Password123!', firstname: 'Bob', lastname: 'Tagger' },
  });
  assert.equal(reg.status, 201, reg.text);
  bob = await t.tokens.customer('bob.tags@example.com', 'Password123!');
  productId = (await createTestProduct(t)).id;
  await setConfig(t.database.db, t.services.settings, 'api/rate_limit/tag_submit', '2');
});
after(() => t?.close());

const send = (token: string, ip: string, tags: unknown = 'limited') =>
  t.app.inject({
    method: 'POST',
    url: `${API}/products/${productId}/tags`,
    remoteAddress: ip,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ tags }),
  });

const uses = async () => (await rows<{ n: number }>(t.database.db, sql`SELECT count(*)::int AS n FROM tag_relations`))[0].n;

describe('the limit of tag posts', () => {
  test('per customer from any address and per address whoever posts; refused posts do not count', async () => {
    assert.equal((await send(ann, '10.8.0.1', "''")).statusCode, 400, 'a post naming no tag');
    assert.equal((await send(ann, '10.8.0.1', 'one')).statusCode, 201);
    assert.equal((await send(ann, '10.8.0.2', 'two')).statusCode, 201);
    const before = await uses();
    const limited = await send(ann, '10.8.0.3', 'three');
    assert.equal(limited.statusCode, 429, 'the customer is limited from any address');
    assert.deepEqual(JSON.parse(limited.body), {
      error: 'too_many_requests',
      message: 'Too many requests. Please try again later.',
      code: 429,
    });
    assert.equal((await send(bob, '10.8.0.1', 'four')).statusCode, 201);
    assert.equal((await send(bob, '10.8.0.1', 'five')).statusCode, 429, 'the address is limited whoever posts from it');
    assert.equal(await uses(), before + 1);
    await setConfig(t.database.db, t.services.settings, 'api/rate_limit/tag_submit', '0');
    assert.equal((await send(ann, '10.8.0.3', 'six')).statusCode, 201, '0: no limit');
  });
});
