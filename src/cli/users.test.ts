/**
 * The staff user commands, run as a child process against an embedded database in a temporary DATA_DIR, then
 * that database opened by the app: a user made with the CLI signs in over HTTP; a reset password ends the
 * sessions and unlocks; a disabled user's token is refused.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp, type BuiltApp } from '../app.js';
import { API, testConfig } from '../../test/helpers.js';
import { runCli } from '../../test/fixtures/cli.js';

let dataDir: string;

// the first start of a fresh embedded database may be slow on a busy machine
const cli = (...args: string[]) => runCli(args, { dataDir, timeoutMs: 600_000 });

/** The app on the CLI's database, for one request series (the embedded database takes one process at a time). */
async function withApp<T>(fn: (app: BuiltApp) => Promise<T>): Promise<T> {
  const built = await buildApp({ config: testConfig({ DATA_DIR: dataDir, DEMO: '0', NODE_ENV: 'development' }), logger: false });
  try {
    return await fn(built);
  } finally {
    await built.app.close();
  }
}

async function signIn(app: BuiltApp, username: string, password: string) {
  const r = await app.app.inject({ method: 'POST', url: `${API}/auth/token`, payload: { grant_type: 'admin_user', username, password } });
  return { status: r.statusCode, body: JSON.parse(r.body) };
}

before(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'commerce-cli-users-'));
});
after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

test('user:create, user:reset-password and user:disable', async () => {
  const bad = await cli('user:create', 'ops', '--email', 'ops@example.com', '--role', 'Administrators');
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /--password or --generate is required/);
  const weak = await cli('user:create', 'ops', '--email', 'ops@example.com', '--password', 'short', '--role', 'Administrators');
  assert.equal(weak.code, 1);
  assert.match(weak.stderr, /at least 8 characters/);
  const noRole = await cli('user:create', 'ops', '--email', 'ops@example.com', '--generate', '--role', 'Nope');
  assert.equal(noRole.code, 1);
  assert.match(noRole.stderr, /Admin role not found: Nope/);

  const made = await cli(
    'user:create',
    'ops',
    '--email',
    'ops@example.com',
    '--generate',
    '--role',
    'Administrators',
    '--first-name',
    'Op',
  );
  assert.equal(made.code, 0, made.stderr);
  const password = /Password \(shown once\): (\S+)/.exec(made.stdout)?.[1];
  assert.ok(password, made.stdout);
  const dup = await cli('user:create', 'ops', '--email', 'other@example.com', '--password', 'Another123', '--role', 'Administrators');
  assert.equal(dup.code, 1);

  const token = await withApp(async (app) => {
    const r = await signIn(app, 'ops', password);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.adminUser.firstName, 'Op');
    // no demo user outside demo mode
    assert.equal((await signIn(app, 'admin', 'Admin123!')).status, 401);
    return r.body.token as string;
  });

  const reset = await cli('user:reset-password', 'ops', '--password', 'Changed123');
  assert.equal(reset.code, 0, reset.stderr);
  const missing = await cli('user:reset-password', 'nobody');
  assert.equal(missing.code, 1);
  const token2 = await withApp(async (app) => {
    const old = await app.app.inject({ method: 'GET', url: `${API}/admin-users/me`, headers: { authorization: `Bearer ${token}` } });
    assert.equal(old.statusCode, 401, 'the reset ended the old session');
    assert.equal((await signIn(app, 'ops', password)).status, 401);
    const r = await signIn(app, 'ops', 'Changed123');
    assert.equal(r.status, 200);
    return r.body.token as string;
  });

  const disabled = await cli('user:disable', 'ops');
  assert.equal(disabled.code, 0, disabled.stderr);
  const list = await cli('user:list', '--json');
  assert.equal(JSON.parse(list.stdout)[0].isActive, false);
  await withApp(async (app) => {
    const r = await app.app.inject({ method: 'GET', url: `${API}/admin-users/me`, headers: { authorization: `Bearer ${token2}` } });
    assert.equal(r.statusCode, 401);
    assert.equal((await signIn(app, 'ops', 'Changed123')).status, 401);
  });
});
