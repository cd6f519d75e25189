/**
 * Two app instances on one database, as behind a load balancer: an idempotency key taken on one is seen by
 * the other. On PostgreSQL (TEST_DATABASE_URL) the second instance has its own connection pool; on PGlite
 * both share the embedded database.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp, type BuiltApp } from '../../src/app.js';
import { openDatabase, type Database } from '../../src/platform/db.js';
import { freshDatabase, testConfig, type TestDb } from '../helpers.js';
import { addProbeRoute, PROBE_PATH, type Probe } from './probe-route.js';

let testDb: TestDb;
let second: Database | undefined;
let a: BuiltApp;
let b: BuiltApp;
let probeA: Probe;
let probeB: Probe;
let token: string;

before(async () => {
  testDb = await freshDatabase();
  a = await buildApp({ config: testConfig(), database: testDb.database, logger: false });
  second = testDb.url ? await openDatabase({ databaseUrl: testDb.url, poolMax: 4 }) : undefined;
  b = await buildApp({ config: testConfig(), database: second ?? testDb.database, logger: false });
  probeA = addProbeRoute(a.app);
  probeB = addProbeRoute(b.app);
  const r = await a.app.inject({
    method: 'POST',
    url: '/api/rest/v2/auth/token',
    payload: { email: 'customer@example.com', password: 'Password123!' },
  });
  token = r.json().token;
});

after(async () => {
  await a.app.close();
  await b.app.close();
  await second?.close();
  await testDb.drop();
});

const call = (app: BuiltApp, key: string) =>
  app.app.inject({
    method: 'POST',
    url: `${PROBE_PATH}/shared`,
    headers: { authorization: `Bearer ${token}`, 'x-idempotency-key': key },
    payload: {},
  });

test('a retry sent to another instance is replayed, not run again', async () => {
  const first = await call(a, 'cross-instance-1');
  assert.equal(first.statusCode, 201);
  const again = await call(b, 'cross-instance-1');
  assert.equal(again.statusCode, 201);
  assert.equal(again.headers['x-idempotency-replayed'], 'true');
  assert.equal(again.body, first.body);
  assert.equal(probeA.applied + probeB.applied, 1);
});

test('a duplicate sent to another instance while the first still runs gets 409', async () => {
  const held = probeA.hold();
  const first = call(a, 'cross-instance-2');
  await held.started;
  const dup = await call(b, 'cross-instance-2');
  assert.equal(dup.statusCode, 409);
  assert.equal(dup.json().error, 'conflict');
  held.release();
  assert.equal((await first).statusCode, 201);
  assert.equal(probeB.applied, 0);
  const replay = await call(b, 'cross-instance-2');
  assert.equal(replay.headers['x-idempotency-replayed'], 'true');
  assert.equal(replay.body, (await first).body);
});

test('parallel duplicates spread over both instances run the handler once', async () => {
  const before = probeA.applied + probeB.applied;
  const replies = await Promise.all([a, b, a, b].map((app) => call(app, 'cross-instance-3')));
  assert.equal(probeA.applied + probeB.applied, before + 1);
  const originals = replies.filter((r) => r.statusCode === 201 && r.headers['x-idempotency-replayed'] === undefined);
  assert.equal(originals.length, 1);
  for (const r of replies) assert.ok(r.statusCode === 409 || r.body === originals[0].body, `unexpected ${r.statusCode} ${r.body}`);
});
