import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'drizzle-orm';
import { API, buildTestApp, type TestApp } from '../helpers.js';
import { rows } from '../../src/platform/db.js';
import { addProbeRoute, PROBE_PATH, type Probe } from './probe-route.js';

let t: TestApp;
let probe: Probe;
let customer: string;
let admin: string;

before(async () => {
  t = await buildTestApp();
  probe = addProbeRoute(t.app);
  customer = await t.tokens.customer();
  admin = await t.tokens.admin();
});
after(() => t.close());

const key = (name: string) => `${name}-${Math.random().toString(36).slice(2)}`;
const stored = async (k: string) =>
  rows<{ scope: string; status: number | null }>(t.database.db, sql`SELECT scope, status FROM idempotency_keys WHERE key = ${k}`);

function post(path: string, opts: { token?: string; idem?: string; body?: unknown } = {}) {
  return t.req('POST', path, {
    token: opts.token,
    body: opts.body ?? {},
    headers: opts.idem === undefined ? {} : { 'x-idempotency-key': opts.idem },
  });
}

describe('idempotency on a real route (POST /stores/switch/{code})', () => {
  test('a customer retry is replayed verbatim with X-Idempotency-Replayed: true', async () => {
    const k = key('switch');
    const first = await post(`${API}/stores/switch/default`, { token: customer, idem: k });
    assert.equal(first.status, 201);
    assert.equal(first.headers['x-idempotency-replayed'], undefined);
    const again = await post(`${API}/stores/switch/default`, { token: customer, idem: k });
    assert.equal(again.status, 201);
    assert.equal(again.headers['x-idempotency-replayed'], 'true');
    assert.equal(again.text, first.text);
    assert.equal(again.headers['content-type'], first.headers['content-type']);
    const recs = await stored(k);
    assert.equal(recs.length, 1);
    assert.match(recs[0].scope, /^customer:\d+$/);
    assert.equal(recs[0].status, 201);
  });

  test('an anonymous caller is not recorded: the key is ignored', async () => {
    const k = key('anon');
    const r = await post(`${API}/stores/switch/default`, { idem: k });
    assert.equal(r.status, 201);
    const again = await post(`${API}/stores/switch/default`, { idem: k });
    assert.equal(again.status, 201);
    assert.equal(again.headers['x-idempotency-replayed'], undefined);
    assert.deepEqual(await stored(k), []);
  });

  test('a 4xx reply is not recorded', async () => {
    const k = key('unknown-store');
    const r = await post(`${API}/stores/switch/nowhere`, { token: customer, idem: k });
    assert.equal(r.status, 404);
    const again = await post(`${API}/stores/switch/nowhere`, { token: customer, idem: k });
    assert.equal(again.status, 404);
    assert.equal(again.headers['x-idempotency-replayed'], undefined);
    assert.deepEqual(await stored(k), []);
  });
});

describe('idempotency on a real write (POST /customer-groups)', () => {
  const groupCodes = async () => {
    const r = await t.req('GET', `${API}/customer-groups`, {
      token: admin,
      query: { itemsPerPage: '100' },
      headers: { accept: 'application/json' },
    });
    assert.equal(r.status, 200);
    return (r.body as { code: string }[]).map((g) => g.code).sort();
  };

  test('a retried create is replayed and creates one group, even when the retry body differs', async () => {
    const k = key('group');
    const before = await groupCodes();
    const first = await post(`${API}/customer-groups`, { token: admin, idem: k, body: { code: 'IDEMPOTENT-ONE' } });
    assert.equal(first.status, 201, first.text);
    const again = await post(`${API}/customer-groups`, { token: admin, idem: k, body: { code: 'IDEMPOTENT-ONE' } });
    assert.equal(again.status, 201);
    assert.equal(again.headers['x-idempotency-replayed'], 'true');
    assert.equal(again.text, first.text);
    const other = await post(`${API}/customer-groups`, { token: admin, idem: k, body: { code: 'IDEMPOTENT-TWO' } });
    assert.equal(other.headers['x-idempotency-replayed'], 'true');
    assert.equal(other.body.code, 'IDEMPOTENT-ONE');
    assert.deepEqual(await groupCodes(), [...before, 'IDEMPOTENT-ONE'].sort());
  });

  test('without the key the same create is applied again (and refused as a duplicate)', async () => {
    const r = await post(`${API}/customer-groups`, { token: admin, body: { code: 'IDEMPOTENT-ONE' } });
    assert.equal(r.status, 409);
  });

  test('a refused create is not recorded: fixing the body under the same key then creates', async () => {
    const k = key('group-retry');
    const refused = await post(`${API}/customer-groups`, { token: admin, idem: k, body: { code: 'IDEMPOTENT-ONE' } });
    assert.equal(refused.status, 409);
    const ok = await post(`${API}/customer-groups`, { token: admin, idem: k, body: { code: 'IDEMPOTENT-THREE' } });
    assert.equal(ok.status, 201);
    assert.equal(ok.headers['x-idempotency-replayed'], undefined);
    assert.equal(ok.body.code, 'IDEMPOTENT-THREE');
  });
});

describe('idempotency key validation', () => {
  for (const bad of ['', 'has space', 'semi;colon', 'ü-umlaut', 'x'.repeat(256), 'a,b']) {
    test(`key ${JSON.stringify(bad.length > 20 ? `${bad.slice(0, 10)}…(${bad.length})` : bad)} is a 400 and runs nothing`, async () => {
      const before = probe.applied;
      const r = await post(`${PROBE_PATH}/invalid`, { token: customer, idem: bad });
      assert.equal(r.status, 400);
      assert.equal(r.body.error, 'bad_request');
      assert.match(r.body.message, /X-Idempotency-Key/);
      assert.equal(probe.applied, before);
    });
  }

  test('an invalid key is refused for anonymous callers too', async () => {
    const r = await post(`${API}/stores/switch/default`, { idem: 'not valid!' });
    assert.equal(r.status, 400);
    assert.match(r.body.message, /X-Idempotency-Key/);
  });

  test('a 255-character key of the allowed alphabet is accepted', async () => {
    const k = `${'aZ09_-'.repeat(42)}abc`;
    assert.equal(k.length, 255);
    const r = await post(`${PROBE_PATH}/longkey`, { token: customer, idem: k });
    assert.equal(r.status, 201);
  });
});

describe('idempotency semantics', () => {
  test('a replay does not run the handler again, even when the body differs', async () => {
    const k = key('once');
    const before = probe.applied;
    const first = await post(`${PROBE_PATH}/once`, { token: customer, idem: k });
    assert.equal(first.status, 201);
    assert.equal(probe.applied, before + 1);
    const again = await post(`${PROBE_PATH}/once`, { token: customer, idem: k, body: { fail: 'client' } });
    assert.equal(again.status, 201);
    assert.equal(again.headers['x-idempotency-replayed'], 'true');
    assert.equal(again.text, first.text);
    assert.equal(probe.applied, before + 1);
  });

  test('without a key every request runs', async () => {
    const before = probe.applied;
    const a = await post(`${PROBE_PATH}/nokey`, { token: customer });
    const b = await post(`${PROBE_PATH}/nokey`, { token: customer });
    assert.notEqual(a.body.nonce, b.body.nonce);
    assert.equal(probe.applied, before + 2);
  });

  test('a 4xx is not stored: the same key then runs the request for real', async () => {
    const k = key('after-4xx');
    const failed = await post(`${PROBE_PATH}/retry`, { token: customer, idem: k, body: { fail: 'client' } });
    assert.equal(failed.status, 400);
    assert.deepEqual(await stored(k), []);
    const before = probe.applied;
    const ok = await post(`${PROBE_PATH}/retry`, { token: customer, idem: k });
    assert.equal(ok.status, 201);
    assert.equal(ok.headers['x-idempotency-replayed'], undefined);
    assert.equal(probe.applied, before + 1);
  });

  test('a 5xx is not stored', async () => {
    const k = key('after-5xx');
    const failed = await post(`${PROBE_PATH}/crash`, { token: customer, idem: k, body: { fail: 'server' } });
    assert.equal(failed.status, 500);
    assert.deepEqual(failed.body, { error: 'internal_server_error', message: 'An internal error occurred', code: 500 });
    assert.deepEqual(await stored(k), []);
  });

  test('a body that fails validation is a 400 and leaves no record', async () => {
    const k = key('invalid-body');
    const r = await post(`${PROBE_PATH}/invalid-body`, { token: customer, idem: k, body: { fail: 42 } });
    assert.equal(r.status, 400);
    assert.deepEqual(await stored(k), []);
  });

  test('the key is scoped per caller: another principal with the same key is not replayed', async () => {
    const k = key('scoped');
    const before = probe.applied;
    const a = await post(`${PROBE_PATH}/scoped`, { token: customer, idem: k });
    const b = await post(`${PROBE_PATH}/scoped`, { token: admin, idem: k });
    const c = await post(`${PROBE_PATH}/scoped`, { token: await t.tokens.client(), idem: k });
    for (const r of [a, b, c]) {
      assert.equal(r.status, 201);
      assert.equal(r.headers['x-idempotency-replayed'], undefined);
    }
    assert.equal(probe.applied, before + 3);
    const scopes = (await stored(k)).map((r) => r.scope).sort();
    assert.equal(scopes.length, 3);
    assert.match(scopes.join(' '), /api_user:\d+ customer:\d+ oauth_client:\d+/);
  });

  test('the key is scoped per path: the same key on another path runs', async () => {
    const k = key('path');
    const a = await post(`${PROBE_PATH}/one`, { token: customer, idem: k });
    const b = await post(`${PROBE_PATH}/two`, { token: customer, idem: k });
    assert.equal(b.headers['x-idempotency-replayed'], undefined);
    assert.notEqual(a.body.nonce, b.body.nonce);
    assert.equal(b.body.name, 'two');
  });

  test('a duplicate while the first request still runs gets 409 and runs nothing', async () => {
    const k = key('inflight');
    const held = probe.hold();
    const before = probe.applied;
    const first = post(`${PROBE_PATH}/slow`, { token: customer, idem: k });
    await held.started;
    const dup = await post(`${PROBE_PATH}/slow`, { token: customer, idem: k });
    assert.equal(dup.status, 409);
    assert.equal(dup.body.error, 'conflict');
    assert.match(dup.body.message, /still being processed/);
    held.release();
    const done = await first;
    assert.equal(done.status, 201);
    assert.equal(probe.applied, before + 1);
    const replay = await post(`${PROBE_PATH}/slow`, { token: customer, idem: k });
    assert.equal(replay.headers['x-idempotency-replayed'], 'true');
    assert.equal(replay.text, done.text);
  });

  test('two parallel requests with one key run the handler once', async () => {
    const k = key('parallel');
    const before = probe.applied;
    const replies = await Promise.all([1, 2, 3].map(() => post(`${PROBE_PATH}/parallel`, { token: customer, idem: k })));
    assert.equal(probe.applied, before + 1);
    const originals = replies.filter((r) => r.status === 201 && r.headers['x-idempotency-replayed'] === undefined);
    assert.equal(originals.length, 1);
    for (const r of replies) {
      if (r.status === 409) assert.equal(r.body.error, 'conflict');
      else assert.equal(r.text, originals[0].text);
    }
  });

  test('an expired record no longer holds the key', async () => {
    const k = key('expired');
    const first = await post(`${PROBE_PATH}/expiry`, { token: customer, idem: k });
    await t.database.db.execute(sql`UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = ${k}`);
    const again = await post(`${PROBE_PATH}/expiry`, { token: customer, idem: k });
    assert.equal(again.status, 201);
    assert.equal(again.headers['x-idempotency-replayed'], undefined);
    assert.notEqual(again.body.nonce, first.body.nonce);
  });

  test('an unfinished first request older than a minute is presumed dead and taken over', async () => {
    const k = key('stale');
    const first = await post(`${PROBE_PATH}/stale`, { token: customer, idem: k });
    await t.database.db.execute(
      sql`UPDATE idempotency_keys SET status = NULL, body = NULL, created_at = now() - interval '2 minutes' WHERE key = ${k}`,
    );
    const again = await post(`${PROBE_PATH}/stale`, { token: customer, idem: k });
    assert.equal(again.status, 201);
    assert.equal(again.headers['x-idempotency-replayed'], undefined);
    assert.notEqual(again.body.nonce, first.body.nonce);
  });

  test('GET requests and /auth/* ignore the key', async () => {
    const k = key('ignored');
    const g = await t.req('GET', `${API}/stores`, { token: customer, headers: { 'x-idempotency-key': k } });
    assert.equal(g.status, 200);
    const own = await t.tokens.customer();
    const r1 = await t.req('POST', `${API}/auth/refresh`, { token: own, body: {}, headers: { 'x-idempotency-key': k } });
    assert.equal(r1.status, 200);
    const r2 = await t.req('POST', `${API}/auth/refresh`, { token: r1.body.token, body: {}, headers: { 'x-idempotency-key': k } });
    assert.equal(r2.status, 200);
    assert.equal(r2.headers['x-idempotency-replayed'], undefined);
    assert.notEqual(r2.body.token, r1.body.token);
    assert.deepEqual(await stored(k), []);
  });

  test('GraphQL ignores the key', async () => {
    const k = key('graphql');
    const r = await t.req('POST', '/api/graphql', {
      token: customer,
      body: { query: 'mutation { ping }' },
      headers: { 'x-idempotency-key': k },
    });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { data: { ping: true } });
    assert.deepEqual(await stored(k), []);
  });
});
