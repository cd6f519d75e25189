/**
 * The request log: secrets sent in a query string (a gift card code, a confirmation code, a token) are not
 * written to the log; everything else of the URL is.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { buildApp, type BuiltApp } from '../../src/app.js';
import { redactUrl } from '../../src/platform/request-log.js';
import { API, freshDatabase, testConfig, type TestDb } from '../helpers.js';

let testDb: TestDb;
let built: BuiltApp;
const lines: Record<string, unknown>[] = [];

before(async () => {
  testDb = await freshDatabase();
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  built = await buildApp({ config: testConfig(), database: testDb.database, logger: { level: 'info', stream } });
});
after(async () => {
  await built.app.close();
  await testDb.drop();
});

test('a gift card code looked up by GET is not in the log; the rest of the URL is', async () => {
  const res = await built.app.inject({ method: 'GET', url: `${API}/giftcards/balance?code=GC-SECRET-4711&store=default` });
  assert.equal(res.statusCode, 404);
  const text = JSON.stringify(lines);
  assert.ok(!text.includes('GC-SECRET-4711'), 'the code was written to the log');
  const entry = lines.find((l) => (l.req as { url?: string } | undefined)?.url?.startsWith(`${API}/giftcards/balance`));
  assert.equal((entry?.req as { url: string }).url, `${API}/giftcards/balance?code=[redacted]&store=default`);
});

test('redactUrl replaces the values of secret parameters only, whatever their case or escaping', () => {
  assert.equal(redactUrl('/a/b'), '/a/b');
  assert.equal(redactUrl('/a?page=2&sku=X'), '/a?page=2&sku=X');
  assert.equal(redactUrl('/a?Token=abc&page=2'), '/a?Token=[redacted]&page=2');
  assert.equal(redactUrl('/a?%63ode=abc'), '/a?%63ode=[redacted]');
  assert.equal(redactUrl('/a?code'), '/a?code');
  assert.equal(redactUrl('/a?%E0%A4%A=1&api_key=k'), '/a?%E0%A4%A=1&api_key=[redacted]');
});
