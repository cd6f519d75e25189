/**
 * The operator CLI, run as a child process against an embedded database in a temporary DATA_DIR, then that
 * database opened by the app: what the CLI made works through the HTTP API. Each start costs seconds, so the
 * commands are few.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp } from './app.js';
import { listApiUsers } from './modules/auth/accounts.js';
import { API, testConfig } from '../test/helpers.js';
import { runCli } from '../test/fixtures/cli.js';

let dataDir: string;

const cli = (...args: string[]) => runCli(args, { dataDir });

before(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'commerce-cli-'));
});
after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

test('help and unknown commands need no database', async () => {
  const [help, unknown, badOption] = await Promise.all([cli('help'), cli('no-such-command'), cli('roles:create', '--nme', 'x')]);
  assert.equal(help.code, 0, help.stderr);
  for (const name of [
    'migrate',
    'roles:create',
    'api-users:create',
    'oauth-clients:create',
    'oauth-clients:set-secret',
    'config:set',
    'config:get',
    'demo:seed',
  ]) {
    assert.match(help.stdout, new RegExp(`\\b${name}\\b`));
  }
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /unknown command "no-such-command"/);
  assert.equal(badOption.code, 1);
  assert.match(badOption.stderr, /Unknown option '--nme'/);
  assert.equal(fs.readdirSync(dataDir).length, 0, 'nothing was opened');
});

test('roles, API users and config made with the CLI work through the HTTP API', async () => {
  const role = await cli('roles:create', '--name', 'Integrations', '--permissions', 'customers/read,stores/read');
  assert.equal(role.code, 0, role.stderr);
  assert.match(role.stdout, /Role created: Integrations/);

  const user = await cli('api-users:create', '--username', 'cli-user', '--role', 'Integrations', '--stores', 'default');
  assert.equal(user.code, 0, user.stderr);
  const key = /API key \(shown once\): ([0-9a-f]{64})/.exec(user.stdout)?.[1];
  assert.ok(key, user.stdout);

  const refused = await cli('api-users:create', '--username', 'other', '--role', 'No Such Role');
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /Role not found: No Such Role/);

  const setCfg = await cli('config:set', 'general/store_information/name', 'CLI Shop');
  assert.equal(setCfg.code, 0, setCfg.stderr);

  const built = await buildApp({ config: testConfig({ DATA_DIR: dataDir, DEMO: '0' }), logger: false });
  try {
    const users = await listApiUsers(built.database.db);
    assert.deepEqual(
      users.map((u) => [u.username, u.role, u.isActive, u.allowedStoreIds]),
      [['cli-user', 'Integrations', true, [1]]],
      'the refused user was not created',
    );

    const inject = async (method: 'GET' | 'POST', url: string, opts: { token?: string; body?: unknown } = {}) => {
      const r = await built.app.inject({
        method,
        url,
        headers: {
          ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
          ...(opts.body ? { 'content-type': 'application/json' } : {}),
        },
        payload: opts.body ? JSON.stringify(opts.body) : undefined,
      });
      return { status: r.statusCode, body: JSON.parse(r.body) as Record<string, unknown> };
    };
    const tok = await inject('POST', `${API}/auth/token`, { body: { grant_type: 'api_user', username: 'cli-user', api_key: key } });
    assert.equal(tok.status, 200, JSON.stringify(tok.body));
    assert.deepEqual(tok.body.apiUser, { id: 1, username: 'cli-user' });
    assert.deepEqual(tok.body.permissions, ['customers/read', 'stores/read']);

    const wrong = await inject('POST', `${API}/auth/token`, {
      body: { grant_type: 'api_user', username: 'cli-user', api_key: 'not-the-key' },
    });
    assert.equal(wrong.status, 401);

    const cfg = await inject('GET', `${API}/store-config`, { token: String(tok.body.token) });
    assert.equal(cfg.status, 200);
    assert.equal(cfg.body.storeName, 'CLI Shop');
  } finally {
    await built.app.close();
  }
});
