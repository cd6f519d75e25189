/**
 * X-Request-Id: a caller's valid id is answered back and carried by every log line of its request, the
 * framework's and the service layer's (ctx.log is the request's child logger); anything else is replaced.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { buildApp, type BuiltApp } from '../../src/app.js';
import { honeypotFieldName } from '../../src/modules/contact/service.js';
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

/** a contact form whose honeypot is filled: the service drops it and logs that through ctx.log */
function trappedContact(headers: Record<string, string>) {
  const field = honeypotFieldName(built.services.config.jwtSecret);
  return built.app.inject({
    method: 'POST',
    url: `${API}/contact`,
    headers,
    payload: { name: 'Bot', email: 'bot@example.com', comment: 'Buy now', [field]: 'filled' },
  });
}

test('a caller-given request id is answered and carried by every log line of the request', async () => {
  const r = await trappedContact({ 'x-request-id': 'abc-123' });
  assert.equal(r.statusCode, 201, r.body);
  assert.equal(r.headers['x-request-id'], 'abc-123');

  const mine = lines.filter((l) => l.reqId === 'abc-123');
  const messages = mine.map((l) => l.msg);
  assert.ok(messages.includes('incoming request'), JSON.stringify(messages));
  assert.ok(messages.includes('request completed'), JSON.stringify(messages));
  // written by the service layer through ctx.log
  assert.ok(messages.includes('contact form honeypot filled; message dropped'), JSON.stringify(messages));
  // and no line of this request without it
  const service = lines.filter((l) => l.msg === 'contact form honeypot filled; message dropped');
  assert.ok(service.every((l) => l.reqId === 'abc-123'));
});

test('an unusable request id is replaced by a generated one, used the same way', async () => {
  const r = await trappedContact({ 'x-request-id': 'not valid!' });
  assert.equal(r.statusCode, 201);
  const id = String(r.headers['x-request-id']);
  assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  const messages = lines.filter((l) => l.reqId === id).map((l) => l.msg);
  assert.ok(messages.includes('contact form honeypot filled; message dropped'), JSON.stringify(messages));
  assert.ok(!lines.some((l) => l.reqId === 'not valid!'));
});
