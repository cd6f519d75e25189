/**
 * Production mode on a fresh, empty database: install data only (stores, groups, roles), no demo users,
 * customers or clients, demo credentials refused, and mail held until SMTP is configured.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'drizzle-orm';
import { buildApp, type BuiltApp } from '../../src/app.js';
import { loadConfig } from '../../src/platform/config.js';
import { openDatabase, rows, type Database } from '../../src/platform/db.js';
import { withTx } from '../../src/platform/context.js';
import { queueMail } from '../../src/platform/outbox.js';
import { listApiUsers, listOauthClients } from '../../src/modules/auth/service.js';
import { API } from '../helpers.js';

let database: Database;
let built: BuiltApp;

before(async () => {
  database = await openDatabase({});
  const config = loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'production-secret-for-tests-0123456789abcdef', LOG_LEVEL: 'silent' });
  built = await buildApp({ config, database, logger: false });
});
after(async () => {
  await built.app.close();
  await database.close();
});

const token = (payload: Record<string, string>) => built.app.inject({ method: 'POST', url: `${API}/auth/token`, payload });

describe('production mode', () => {
  test('seeds no API users, OAuth clients or customers', async () => {
    assert.deepEqual(await listApiUsers(database.db), []);
    assert.deepEqual(await listOauthClients(database.db), []);
    const [c] = await rows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM customers`);
    assert.equal(c.n, 0);
    const demo = await rows(database.db, sql`SELECT module FROM install_state WHERE module = 'demo'`);
    assert.deepEqual(demo, []);
  });

  test('install data is there: the default store answers', async () => {
    const r = await built.app.inject({ method: 'GET', url: `${API}/store-config` });
    assert.equal(r.statusCode, 200);
    assert.equal(r.json().storeCode, 'default');
  });

  test('the demo credentials of every grant are refused with 401', async () => {
    const grants: Record<string, string>[] = [
      { grant_type: 'api_user', username: 'demo-admin', api_key: 'demo-admin-key' },
      { grant_type: 'client_credentials', client_id: 'demo-client', client_secret: 'demo-client-secret' },
      { email: 'customer@example.com', password: 'Password123!' },
    ];
    for (const g of grants) {
      const r = await token(g);
      assert.equal(r.statusCode, 401, `${JSON.stringify(g)}: ${r.body}`);
      assert.equal(r.json().token, undefined);
    }
  });

  test('the benchmark routes do not exist', async () => {
    const r = await built.app.inject({ method: 'GET', url: '/bench/bare' });
    assert.equal(r.statusCode, 404);
  });

  test('without SMTP_URL mail is held pending, not logged away', async () => {
    const id = await withTx(built.systemCtx(), (tx) =>
      queueMail(tx, { to: 'someone@example.com', subject: 'Held', text: 'Waits for SMTP', template: 'test/held' }),
    );
    assert.equal(await built.mail.runOnce(), 0);
    const [row] = await rows<{ status: string; attempts: number }>(
      database.db,
      sql`SELECT status, attempts FROM mail_outbox WHERE id = ${id}`,
    );
    assert.deepEqual(row, { status: 'pending', attempts: 0 });
  });
});
