/**
 * Store configuration through the API: declarations with their values per scope and where each comes from,
 * all-or-nothing validated writes with their audit rows, a second process seeing a change within a second,
 * access, and config:set refusing what the API refuses.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eq, sql } from 'drizzle-orm';
import type { BuiltApp } from '../../app.js';
import { countStatements } from '../../platform/db.js';
import { API, buildSecondApp, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { CONFIG_COMMANDS } from '../../cli/config.js';
import { configChanges, configValues } from './tables.js';
import { runCli } from '../../../test/fixtures/cli.js';

let t: TestApp;
let admin: string;
let germanId: number;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  germanId = t.services.settings.storeByCode('german')!.id;
});
after(() => t.close());

const get = (query: string, token = admin) => t.req('GET', `${API}/configuration${query}`, { token });
const put = (body: unknown, token = admin) => t.req('PUT', `${API}/configuration`, { token, body });

function field(res: { body: any }, path: string): any {
  for (const s of res.body.sections) for (const g of s.groups) for (const f of g.fields) if (f.path === path) return f;
  return undefined;
}

async function storedRows(): Promise<unknown[]> {
  return t.database.db.select().from(configValues).orderBy(configValues.id);
}

async function auditCount(): Promise<number> {
  const rows = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(configChanges);
  return rows[0].n;
}

describe('reading', () => {
  test('sections list the declared sections with their groups', async () => {
    const r = await t.req('GET', `${API}/configuration/sections`, { token: admin, headers: { accept: 'application/json' } });
    assert.equal(r.status, 200, r.text);
    const payment = r.body.find((s: { id: string }) => s.id === 'payment');
    assert.equal(payment.label, 'Payment Methods');
    assert.ok(payment.groups.some((g: { id: string }) => g.id === 'checkmo'));
    assert.ok(payment.fieldCount > 5);
  });

  test('a section at each scope: values, inheritance and declared defaults', async () => {
    const d = await get('?section=general');
    assert.equal(d.status, 200, d.text);
    assert.deepEqual(
      d.body.sections.map((s: { id: string }) => s.id),
      ['general'],
    );
    const name = field(d, 'general/store_information/name');
    assert.equal(name.value, 'Demo Store');
    assert.equal(name.source, 'default');
    assert.equal(name.inherited, false);
    assert.equal(name.type, 'string');
    assert.ok(name.label);
    const locale = field(d, 'general/locale/code');
    assert.equal(locale.value, 'en_US');
    assert.equal(locale.source, 'declared');
    assert.equal(locale.isSet, false);
    assert.equal(locale.type, 'string');
    const timezone = field(d, 'general/locale/timezone');
    assert.equal(timezone.type, 'select');
    assert.ok(timezone.options.some((o: { value: string }) => o.value === 'Europe/Berlin'));

    const s = await get(`?scope=stores&scopeId=${germanId}&section=general`);
    assert.equal(s.status, 200, s.text);
    assert.deepEqual(
      [field(s, 'general/locale/code').value, field(s, 'general/locale/code').source, field(s, 'general/locale/code').inherited],
      ['de_DE', 'stores', false],
    );
    assert.deepEqual(
      [field(s, 'general/store_information/name').value, field(s, 'general/store_information/name').source],
      ['Demo Store', 'default'],
    );
    assert.equal(field(s, 'general/store_information/name').inherited, true);

    const w = await get('?scope=websites&scopeId=1&section=general');
    assert.equal(w.status, 200, w.text);
    assert.equal(field(w, 'general/locale/code').value, 'en_US');
  });

  test('a secret is never shown, only whether it is set', async () => {
    const before = await get('?section=contacts');
    const secret = field(before, 'contacts/captcha/secret_key');
    assert.equal(secret.type, 'secret');
    assert.equal(secret.value, undefined);
    assert.equal(secret.default, undefined);
    assert.equal(secret.isSet, false);
    const w = await put({ scope: 'default', values: { 'contacts/captcha/secret_key': 'very-secret-value' } });
    assert.equal(w.status, 200, w.text);
    assert.ok(!w.text.includes('very-secret-value'));
    const after = await get('?section=contacts');
    assert.ok(!after.text.includes('very-secret-value'));
    assert.equal(field(after, 'contacts/captcha/secret_key').isSet, true);
    const h = await t.req('GET', `${API}/configuration/history?path=contacts/captcha/secret_key`, {
      token: admin,
      headers: { accept: 'application/json' },
    });
    assert.equal(h.status, 200, h.text);
    assert.ok(!h.text.includes('very-secret-value'));
    assert.equal(h.body[0].newValue, '[secret changed]');
    assert.equal(t.services.settings.get('contacts/captcha/secret_key'), 'very-secret-value', 'the server reads it');
  });

  test('bad reads are 4xx', async () => {
    assert.equal((await get('?scope=stores&scopeId=999')).status, 400);
    assert.equal((await get('?scope=websites&scopeId=999')).status, 400);
    assert.equal((await get('?scope=default&scopeId=3')).status, 400);
    assert.equal((await get('?scope=galaxy')).status, 400);
    assert.equal((await get('?scopeId=abc')).status, 400);
    assert.equal((await get('?section=no_such_section')).status, 404);
    assert.equal((await t.req('GET', `${API}/configuration/history?from=yesterday`, { token: admin })).status, 400);
  });
});

describe('writing', () => {
  test('valid values are stored normalized, seen by the settings at once and audited', async () => {
    const audits = await auditCount();
    const r = await put({
      scope: 'stores',
      scopeId: germanId,
      values: {
        'payment/checkmo/title': 'Scheck',
        'payment/checkmo/sort_order': 7,
        'newsletter/subscription/confirm': true,
        'general/country/allow': ['DE', 'AT', 'DE'],
      },
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.changed.sort(), [
      'general/country/allow',
      'newsletter/subscription/confirm',
      'payment/checkmo/sort_order',
      'payment/checkmo/title',
    ]);
    const s = t.services.settings;
    assert.equal(s.get('payment/checkmo/title', germanId), 'Scheck');
    assert.equal(s.getInt('payment/checkmo/sort_order', germanId), 7);
    assert.equal(s.get('newsletter/subscription/confirm', germanId), '1');
    assert.equal(s.get('general/country/allow', germanId), 'DE,AT');
    assert.equal(s.get('payment/checkmo/title', 1), 'Check / Money order', 'other store views keep theirs');
    assert.equal(await auditCount(), audits + 4);

    // the same values again change nothing and write no audit row
    const again = await put({ scope: 'stores', scopeId: germanId, values: { 'payment/checkmo/title': 'Scheck' } });
    assert.deepEqual(again.body.changed, []);
    assert.equal(await auditCount(), audits + 4);

    // null removes the store's value: the default applies again
    const unset = await put({ scope: 'stores', scopeId: germanId, values: { 'payment/checkmo/title': null } });
    assert.equal(unset.status, 200, unset.text);
    assert.deepEqual(unset.body.changed, ['payment/checkmo/title']);
    assert.equal(unset.body.fields[0].source, 'declared');
    assert.equal(unset.body.fields[0].inherited, true);
    assert.equal(s.get('payment/checkmo/title', germanId), 'Check / Money order');
  });

  test('audit rows say who, when, where, and the values before and after; filtered by path and time, newest first', async () => {
    const h = await t.req('GET', `${API}/configuration/history?path=payment/checkmo/title`, { token: admin });
    assert.equal(h.status, 200, h.text);
    assert.equal(h.body.totalItems, 2);
    const [latest, first] = h.body.member;
    assert.deepEqual(
      { ...latest, id: undefined, changedAt: undefined },
      {
        id: undefined,
        changedAt: undefined,
        actorKind: 'api_user',
        actorId: latest.actorId,
        actorUsername: 'demo-admin',
        scope: 'stores',
        scopeId: germanId,
        path: 'payment/checkmo/title',
        oldValue: 'Scheck',
      },
    );
    assert.equal(first.newValue, 'Scheck');
    assert.equal(first.oldValue, undefined);
    assert.match(latest.changedAt, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const none = await t.req('GET', `${API}/configuration/history?path=payment/checkmo/title&to=2000-01-01`, { token: admin });
    assert.equal(none.body.totalItems, 0);
    const since = await t.req('GET', `${API}/configuration/history?path=payment/checkmo/title&from=2000-01-01 00:00:00`, { token: admin });
    assert.equal(since.body.totalItems, 2);
    const paged = await t.req('GET', `${API}/configuration/history?itemsPerPage=1&page=2`, { token: admin });
    assert.equal(paged.body.member.length, 1);
  });

  test('disabling a payment method takes it off a cart at once', async () => {
    const product = await createTestProduct(t, { stockData: { qty: 100, isInStock: true } });
    const c = await t.req('POST', `${API}/guest-carts`, { body: {} });
    const m = c.body.maskedId;
    const item = await t.req('POST', `${API}/guest-carts/${m}/items`, { body: { sku: product.sku, qty: 1 } });
    assert.equal(item.status, 200, item.text);
    const codes = async () =>
      ((await t.req('GET', `${API}/guest-carts/${m}/payment-methods`)).body as { code: string }[]).map((x) => x.code);
    assert.ok((await codes()).includes('checkmo'));
    const r = await put({ scope: 'websites', scopeId: 1, values: { 'payment/checkmo/active': false } });
    assert.equal(r.status, 200, r.text);
    assert.ok(!(await codes()).includes('checkmo'));
    assert.equal((await put({ scope: 'websites', scopeId: 1, values: { 'payment/checkmo/active': null } })).status, 200);
    assert.ok((await codes()).includes('checkmo'));
  });

  test('one invalid value writes nothing: wrong type, option, bounds, unknown path, scope', async () => {
    const rows = await storedRows();
    const audits = await auditCount();
    const cases: [unknown, RegExp][] = [
      [
        { scope: 'default', values: { 'payment/checkmo/title': 'ok', 'payment/checkmo/active': 'perhaps' } },
        /payment\/checkmo\/active.*boolean/,
      ],
      [{ scope: 'default', values: { 'payment/checkmo/sort_order': 'first' } }, /sort_order must be a whole number/],
      [{ scope: 'default', values: { 'catalog/media/format': 'gif' } }, /catalog\/media\/format must be one of: webp, jpeg, png/],
      [{ scope: 'default', values: { 'general/country/allow': ['DE', 'XX'] } }, /general\/country\/allow holds XX/],
      [{ scope: 'default', values: { 'media/image/quality': 101 } }, /must be at most 100/],
      [{ scope: 'default', values: { 'contacts/email/recipient_email': 'not-an-email' } }, /email address/],
      [{ scope: 'default', values: { 'no/such/path': '1' } }, /no\/such\/path is not a known configuration path/],
      [{ scope: 'default', values: { 'not a path': '1' } }, /not a path is not a configuration path/],
      [{ scope: 'default', values: { 'payment/checkmo/title': { nested: true } } }, /payment\/checkmo\/title must be a string/],
      [{ scope: 'stores', scopeId: 999, values: { 'payment/checkmo/title': 'x' } }, /Unknown store view: 999/],
      [{ scope: 'websites', scopeId: 999, values: { 'payment/checkmo/title': 'x' } }, /Unknown website: 999/],
      [{ scope: 'default', scopeId: 2, values: { 'payment/checkmo/title': 'x' } }, /default scope has scope id 0/],
      [{ scope: 'stores', scopeId: germanId, values: { 'api/rate_limit/contact': 3 } }, /cannot be set at the stores scope/],
      [{ scope: 'stores', scopeId: germanId, values: { 'currency/options/base': 'EUR' } }, /cannot be set at the stores scope/],
      [{ scope: 'galaxy', values: { 'payment/checkmo/title': 'x' } }, /./],
      [{ scope: 'default', values: {} }, /./],
      [{ scope: 'default' }, /./],
    ];
    for (const [body, message] of cases) {
      const r = await put(body);
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.status} ${r.text}`);
      assert.match(r.body.message, message, JSON.stringify(body));
    }
    const many = await put({ scope: 'default', values: { 'payment/checkmo/active': 'x', 'payment/checkmo/sort_order': 'y' } });
    assert.deepEqual(
      many.body.details.errors.map((e: { path: string }) => e.path),
      ['payment/checkmo/active', 'payment/checkmo/sort_order'],
    );
    const malformed = await t.req('PUT', `${API}/configuration`, {
      token: admin,
      raw: '{"scope":',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(malformed.status, 400);
    assert.deepEqual(await storedRows(), rows, 'nothing was written');
    assert.equal(await auditCount(), audits);
  });
});

describe('access', () => {
  test('anonymous 401, customer 403, API user without the permission 403, with read only 403 on writes', async () => {
    const body = { scope: 'default', values: { 'payment/checkmo/title': 'x' } };
    assert.equal((await get('', '')).status, 401);
    assert.equal((await put(body, '')).status, 401);
    const customer = await t.tokens.customer();
    assert.equal((await get('', customer)).status, 403);
    assert.equal((await put(body, customer)).status, 403);
    const none = await t.tokens.apiUser(['customers/read']);
    assert.equal((await get('', none)).status, 403);
    assert.equal((await t.req('GET', `${API}/configuration/history`, { token: none })).status, 403);
    const reader = await t.tokens.apiUser(['configuration/read']);
    assert.equal((await get('', reader)).status, 200);
    assert.equal((await put(body, reader)).status, 403);
    const writer = await t.tokens.apiUser(['configuration/read', 'configuration/write']);
    assert.equal((await put({ scope: 'default', values: { 'payment/checkmo/title': 'By writer' } }, writer)).status, 200);
    assert.equal((await put({ scope: 'default', values: { 'payment/checkmo/title': null } }, writer)).status, 200);
  });

  test('a token limited to a store view reads and writes only that view', async () => {
    const limited = await t.tokens.apiUser(['configuration/read', 'configuration/write'], { allowedStoreIds: [germanId] });
    const as = (method: string, url: string, body?: unknown) =>
      t.req(method, `${API}${url}`, { token: limited, body, headers: { 'x-store-code': 'german', accept: 'application/json' } });
    assert.equal((await as('GET', '/configuration')).status, 403);
    assert.equal((await as('GET', '/configuration?scope=websites&scopeId=1')).status, 403);
    assert.equal((await as('GET', '/configuration?scope=stores&scopeId=1')).status, 403);
    assert.equal((await as('GET', `/configuration?scope=stores&scopeId=${germanId}&section=payment`)).status, 200);
    const rows = await storedRows();
    assert.equal((await as('PUT', '/configuration', { scope: 'default', values: { 'payment/checkmo/title': 'x' } })).status, 403);
    assert.equal(
      (await as('PUT', '/configuration', { scope: 'stores', scopeId: 1, values: { 'payment/checkmo/title': 'x' } })).status,
      403,
    );
    assert.deepEqual(await storedRows(), rows);
    const ok = await as('PUT', '/configuration', { scope: 'stores', scopeId: germanId, values: { 'payment/checkmo/title': 'Nur hier' } });
    assert.equal(ok.status, 200, ok.text);
    const h = await as('GET', '/configuration/history');
    assert.equal(h.status, 200, h.text);
    assert.ok(h.body.length > 0);
    assert.ok(h.body.every((c: { scope: string; scopeId: number }) => c.scope === 'stores' && c.scopeId === germanId));
    await put({ scope: 'stores', scopeId: germanId, values: { 'payment/checkmo/title': null } });
  });
});

describe('other processes', () => {
  let second: BuiltApp;
  before(async () => {
    second = await buildSecondApp(t);
  });
  after(() => second.app.close());

  test('a second app instance sees a change within a second', async () => {
    assert.equal(second.services.settings.get('payment/banktransfer/title'), 'Bank Transfer Payment');
    const r = await put({ scope: 'default', values: { 'payment/banktransfer/title': 'Wire transfer' } });
    assert.equal(r.status, 200, r.text);
    const start = Date.now();
    while (second.services.settings.get('payment/banktransfer/title') !== 'Wire transfer') {
      assert.ok(Date.now() - start < 1500, 'seen within a second (and a half: the probe interval plus the reload)');
      await new Promise((res) => setTimeout(res, 25));
    }
    assert.ok(Date.now() - start <= 1500);
  });

  test('the probe that finds nothing changed is one statement, and a direct write (importer, SQL) is seen too', async () => {
    const registry = second.services.settings;
    await registry.refreshIfChanged();
    const idle = await countStatements(() => registry.refreshIfChanged());
    assert.equal(idle.n, 1);
    assert.equal(idle.result, false);
    await t.database.db.execute(
      sql`UPDATE config_values SET value = 'Direct' WHERE path = 'general/store_information/name' AND scope = 'default'`,
    );
    const moved = await registry.refreshIfChanged();
    assert.equal(moved, true);
    assert.equal(registry.get('general/store_information/name'), 'Direct');
    await t.database.db.update(configValues).set({ value: 'Demo Store' }).where(eq(configValues.path, 'general/store_information/name'));
  });
});

describe('config:set', () => {
  const run = (args: string[], opts: Record<string, string> = {}) =>
    CONFIG_COMMANDS['config:set'].run({ db: t.database.db, registry: t.services.settings } as never, opts, args);

  test('refuses an invalid value with the message of the API, and writes nothing', async () => {
    const rows = await storedRows();
    await assert.rejects(run(['payment/checkmo/active', 'perhaps']), /payment\/checkmo\/active must be a boolean/);
    await assert.rejects(
      run(['api/rate_limit/contact', '3'], { scope: 'stores', 'scope-id': String(germanId) }),
      /cannot be set at the stores scope/,
    );
    assert.deepEqual(await storedRows(), rows);
  });

  test('stores a valid value normalized and audits it as the CLI', async () => {
    const out = process.stdout.write;
    process.stdout.write = (() => true) as typeof process.stdout.write;
    try {
      await run(['newsletter/subscription/confirm', 'yes']);
    } finally {
      process.stdout.write = out;
    }
    assert.equal(t.services.settings.get('newsletter/subscription/confirm'), '1');
    const h = await t.req('GET', `${API}/configuration/history?path=newsletter/subscription/confirm`, {
      token: admin,
      headers: { accept: 'application/json' },
    });
    assert.equal(h.body[0].actorKind, 'cli');
    assert.equal(h.body[0].newValue, '1');
  });

  test('the command refuses an invalid value: exit code 1 and the reason', async () => {
    // the test database itself on PostgreSQL; an embedded one of its own otherwise
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'commerce-config-cli-'));
    const rows = await storedRows();
    try {
      const run = await runCli(['config:set', 'payment/checkmo/sort_order', 'first'], {
        ...(t.databaseUrl ? { env: { DATABASE_URL: t.databaseUrl } } : { dataDir }),
      });
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, /payment\/checkmo\/sort_order must be a whole number/);
      assert.deepEqual(await storedRows(), rows);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
