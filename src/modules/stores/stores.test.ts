import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API, buildTestApp, type Res, type TestApp } from '../../../test/helpers.js';
import type { Db } from '../../platform/db.js';
import { createApiUser, createRole } from '../auth/service.js';
import { StoreRegistry } from './registry.js';
import { createStoreView, deleteConfig, setConfig, setCurrencyRate } from './service.js';
import { configValues } from './tables.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp();
  // an inactive store view: never listed, never usable as a store context
  await createStoreView(t.database.db, t.services.settings, { code: 'closed', name: 'Closed Store View', sortOrder: 5, isActive: false });
});
after(() => t.close());

/** the request headers a reply varies by (others, such as Origin, may be added) */
function assertVary(r: Res) {
  const vary = String(r.headers.vary)
    .split(',')
    .map((h) => h.trim().toLowerCase());
  for (const h of ['authorization', 'accept', 'x-store-code', 'x-currency-code'])
    assert.ok(vary.includes(h), `Vary lacks ${h}: ${vary.join(', ')}`);
}

function assertError(r: Res, status: number, error: string, message?: string | RegExp) {
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.error, error);
  assert.equal(r.body.code, status);
  if (typeof message === 'string') assert.equal(r.body.message, message);
  else if (message) assert.match(r.body.message, message);
  assert.match(String(r.headers['content-type']), /^application\/json/);
}

/** Runs `fn` with a config value set, then puts back what the scope held before. */
async function withConfig(path: string, value: string, fn: () => Promise<void>, scope: 'default' | 'stores' = 'default', scopeId = 0) {
  const reg = t.services.settings;
  const previous = reg.getAtScope(path, scope, scopeId);
  await setConfig(t.database.db, reg, path, value, scope, scopeId);
  try {
    await fn();
  } finally {
    if (previous === undefined) await deleteConfig(t.database.db, reg, path, scope, scopeId);
    else await setConfig(t.database.db, reg, path, previous, scope, scopeId);
  }
}

describe('GET /store-config', () => {
  test('returns the default store view', async () => {
    const r = await t.req('GET', `${API}/store-config`);
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /^application\/json/);
    const { allowedCountries, ...rest } = r.body;
    assert.deepEqual(rest, {
      id: 'default',
      storeCode: 'default',
      storeName: 'Demo Store',
      baseCurrencyCode: 'USD',
      defaultDisplayCurrencyCode: 'USD',
      locale: 'en_US',
      timezone: 'UTC',
      weightUnit: 'lbs',
      baseUrl: 'http://shop.test/',
      baseMediaUrl: 'http://shop.test/media/',
      isGuestCheckoutAllowed: true,
      newsletterEnabled: true,
      wishlistEnabled: true,
      reviewsEnabled: true,
      cmsHomePage: 'home',
    });
    assert.equal(allowedCountries.length, 249);
    assert.equal(allowedCountries[0], 'AF');
  });

  test('?store= and X-Store-Code select the store view', async () => {
    const byQuery = await t.req('GET', `${API}/store-config?store=german`);
    assert.equal(byQuery.status, 200);
    assert.equal(byQuery.body.storeCode, 'german');
    assert.equal(byQuery.body.id, 'german');
    assert.equal(byQuery.body.locale, 'de_DE');
    assert.equal(byQuery.body.timezone, 'Europe/Berlin');
    assert.equal(byQuery.body.weightUnit, 'kgs');
    assert.equal(byQuery.body.baseCurrencyCode, 'USD');
    assert.equal(byQuery.body.defaultDisplayCurrencyCode, 'EUR');
    const byHeader = await t.req('GET', `${API}/store-config`, { headers: { 'x-store-code': 'german' } });
    assert.equal(byHeader.body.storeCode, 'german');
    const upper = await t.req('GET', `${API}/store-config?store=GERMAN`);
    assert.equal(upper.body.storeCode, 'german');
  });

  test('the query wins over the header', async () => {
    const r = await t.req('GET', `${API}/store-config?store=default`, { headers: { 'x-store-code': 'german' } });
    assert.equal(r.body.storeCode, 'default');
    const r2 = await t.req('GET', `${API}/store-config?store=german`, { headers: { 'x-store-code': 'nowhere' } });
    assert.equal(r2.status, 200);
    assert.equal(r2.body.storeCode, 'german');
  });

  test('optional fields appear once configured; store-scope values override the default scope', async () => {
    await withConfig('design/header/logo_src', 'logo.png', async () => {
      await withConfig('design/header/logo_alt', 'Demo', async () => {
        const r = await t.req('GET', `${API}/store-config`);
        assert.equal(r.body.logoUrl, 'http://shop.test/media/logo/logo.png');
        assert.equal(r.body.logoAlt, 'Demo');
        assert.equal(r.body.defaultTitle, undefined);
      });
    });
    await withConfig('design/header/logo_src', 'https://cdn.example/logo.svg', async () => {
      const r = await t.req('GET', `${API}/store-config`);
      assert.equal(r.body.logoUrl, 'https://cdn.example/logo.svg');
    });
    const germanId = t.services.settings.storeByCode('german')!.id;
    await withConfig(
      'checkout/options/guest_checkout',
      '0',
      async () => {
        assert.equal((await t.req('GET', `${API}/store-config?store=german`)).body.isGuestCheckoutAllowed, false);
        assert.equal((await t.req('GET', `${API}/store-config`)).body.isGuestCheckoutAllowed, true);
      },
      'stores',
      germanId,
    );
  });

  test('an empty store code is a 400, an unknown or inactive one a 400 "Unknown store"', async () => {
    assertError(await t.req('GET', `${API}/store-config?store=`), 400, 'bad_request', 'Store code must not be empty');
    assertError(await t.req('GET', `${API}/store-config?store=%20%20`), 400, 'bad_request');
    assertError(await t.req('GET', `${API}/store-config`, { headers: { 'x-store-code': '' } }), 400, 'bad_request');
    assertError(await t.req('GET', `${API}/store-config?store=x`), 400, 'bad_request', 'Unknown store: x');
    assertError(await t.req('GET', `${API}/store-config`, { headers: { 'x-store-code': 'x' } }), 400, 'bad_request', 'Unknown store: x');
    assertError(await t.req('GET', `${API}/store-config?store=closed`), 400, 'bad_request', 'Unknown store: closed');
  });

  test('a token limited to some store views gets a 403 in the others', async () => {
    await createRole(t.database.db, 'store-limited', ['customers/read']);
    await createApiUser(t.database.db, {
      username: 'store-limited',
      apiKey: 'store-limited-key',
      role: 'store-limited',
      allowedStoreIds: [1],
    });
    const tok = await t.req('POST', `${API}/auth/token`, {
      body: { grant_type: 'api_user', username: 'store-limited', api_key: 'store-limited-key' },
    });
    assert.equal(tok.status, 200, tok.text);
    const token = tok.body.token as string;
    assert.equal((await t.req('GET', `${API}/store-config`, { token })).status, 200);
    assert.equal((await t.req('GET', `${API}/store-config?store=default`, { token })).status, 200);
    assertError(await t.req('GET', `${API}/store-config?store=german`, { token }), 403, 'forbidden');
    assertError(await t.req('GET', `${API}/stores`, { token, headers: { 'x-store-code': 'german' } }), 403, 'forbidden');
  });

  test('X-Currency-Code: an allowed currency with a rate, in any case; anything else is a 400', async () => {
    for (const code of ['EUR', 'eur', 'Usd', ' usd ']) {
      assert.equal((await t.req('GET', `${API}/store-config`, { headers: { 'x-currency-code': code } })).status, 200, code);
    }
    assert.equal(t.services.settings.resolveStore('german', 'usd').currency, 'USD');
    assert.equal(t.services.settings.resolveStore('german', undefined).currency, 'EUR');
    assert.equal(t.services.settings.resolveStore(undefined, 'eur').currency, 'EUR');
    for (const code of ['GBP', 'XYZ', 'EURO', '€', '']) {
      assertError(
        await t.req('GET', `${API}/store-config`, { headers: { 'x-currency-code': code } }),
        400,
        'bad_request',
        /Unsupported currency/,
      );
    }
    // allowed, but without a rate
    await withConfig('currency/options/allow', 'USD,EUR,GBP', async () => {
      assertError(await t.req('GET', `${API}/store-config`, { headers: { 'x-currency-code': 'GBP' } }), 400, 'bad_request');
    });
    // a rate, but not allowed
    await setCurrencyRate(t.database.db, t.services.settings, 'USD', 'CHF', '0.88');
    assertError(await t.req('GET', `${API}/store-config`, { headers: { 'x-currency-code': 'CHF' } }), 400, 'bad_request');
  });

  test('Cache-Control: public for anonymous reads, private when ?store= names the store', async () => {
    const anon = await t.req('GET', `${API}/store-config`);
    assert.equal(anon.headers['cache-control'], 'public, max-age=3600');
    assertVary(anon);
    const named = await t.req('GET', `${API}/store-config?store=german`);
    assert.equal(named.headers['cache-control'], 'private, max-age=3600');
    const namedDefault = await t.req('GET', `${API}/store-config?store=default`);
    assert.equal(namedDefault.headers['cache-control'], 'private, max-age=3600');
    const header = await t.req('GET', `${API}/store-config`, { headers: { 'x-store-code': 'german' } });
    assert.equal(header.headers['cache-control'], 'private, max-age=3600');
    const customer = await t.req('GET', `${API}/store-config`, { token: await t.tokens.customer() });
    assert.equal(customer.status, 200);
    assert.equal(customer.headers['cache-control'], 'private, no-cache');
    const admin = await t.req('GET', `${API}/store-config`, { token: await t.tokens.admin() });
    assert.equal(admin.status, 200);
    assert.equal(admin.headers['cache-control'], 'no-store');
    const bad = await t.req('GET', `${API}/store-config?store=x`);
    assert.equal(bad.headers['cache-control'], 'no-store');
  });

  test('ETag; a matching If-None-Match is a 304 with an empty body', async () => {
    const r = await t.req('GET', `${API}/store-config`);
    const etag = String(r.headers.etag);
    assert.match(etag, /^"[0-9a-f]{32}"$/);
    const again = await t.req('GET', `${API}/store-config`);
    assert.equal(again.headers.etag, etag, 'the same body has the same ETag');
    const cached = await t.req('GET', `${API}/store-config`, { headers: { 'if-none-match': etag } });
    assert.equal(cached.status, 304);
    assert.equal(cached.text, '');
    assert.equal(cached.headers.etag, etag);
    const list = await t.req('GET', `${API}/store-config`, { headers: { 'if-none-match': `"other", ${etag}` } });
    assert.equal(list.status, 304);
    const star = await t.req('GET', `${API}/store-config`, { headers: { 'if-none-match': '*' } });
    assert.equal(star.status, 304);
    const other = await t.req('GET', `${API}/store-config?store=german`, { headers: { 'if-none-match': etag } });
    assert.equal(other.status, 200, 'another store view is another body');
    assert.notEqual(other.headers.etag, etag);
  });
});

describe('GET /{storeCode}/config', () => {
  test('returns the named store view, in any case', async () => {
    const r = await t.req('GET', `${API}/german/config`);
    assert.equal(r.status, 200);
    assert.equal(r.body.storeCode, 'german');
    assert.equal(r.body.defaultDisplayCurrencyCode, 'EUR');
    assert.equal(r.headers['cache-control'], 'public, max-age=3600');
    assert.equal((await t.req('GET', `${API}/GERMAN/config`)).body.storeCode, 'german');
    const d = await t.req('GET', `${API}/default/config`);
    assert.deepEqual(d.body, (await t.req('GET', `${API}/store-config`)).body);
  });

  test('an unknown or inactive code is a 404', async () => {
    assertError(await t.req('GET', `${API}/nowhere/config`), 404, 'not_found', 'Store not found: nowhere');
    assertError(await t.req('GET', `${API}/closed/config`), 404, 'not_found');
    assertError(await t.req('GET', `${API}/${'a'.repeat(65)}/config`), 400, 'bad_request');
  });

  test('ETag and 304', async () => {
    const r = await t.req('GET', `${API}/german/config`);
    const cached = await t.req('GET', `${API}/german/config`, { headers: { 'if-none-match': String(r.headers.etag) } });
    assert.equal(cached.status, 304);
    assert.equal(cached.text, '');
  });
});

describe('GET /stores', () => {
  test('lists the active store views as a JSON-LD collection', async () => {
    const r = await t.req('GET', `${API}/stores`);
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /^application\/ld\+json/);
    assert.equal(r.body['@context'], '/api/contexts/Store');
    assert.equal(r.body['@id'], `${API}/stores`);
    assert.equal(r.body['@type'], 'Collection');
    assert.equal(r.body.totalItems, 2);
    assert.equal(r.body.view, undefined);
    assert.deepEqual(
      r.body.member.map((s: { code: string }) => s.code),
      ['default', 'german'],
    );
    const [def, german] = r.body.member;
    assert.deepEqual(def, {
      id: 1,
      code: 'default',
      name: 'Default Store View',
      websiteId: 1,
      websiteCode: 'base',
      websiteName: 'Main Website',
      groupId: 1,
      groupName: 'Main Website Store',
      rootCategoryId: 2,
      isActive: true,
      isDefault: true,
      baseUrl: 'http://shop.test/',
      baseLinkUrl: 'http://shop.test/',
      baseMediaUrl: 'http://shop.test/media/',
      locale: 'en_US',
      currency: { base: 'USD', default: 'USD' },
    });
    assert.equal(german.isDefault, false);
    assert.equal(german.locale, 'de_DE');
    assert.deepEqual(german.currency, { base: 'USD', default: 'EUR' });
    assert.equal(r.headers['cache-control'], 'public, max-age=3600');
    assertVary(r);
  });

  test('Accept negotiation: application/json is a bare array, anything else the JSON-LD object', async () => {
    const plain = await t.req('GET', `${API}/stores`, { headers: { accept: 'application/json' } });
    assert.match(String(plain.headers['content-type']), /^application\/json/);
    assert.ok(Array.isArray(plain.body));
    assert.equal(plain.body.length, 2);
    for (const accept of ['application/ld+json', 'application/ld+json, application/json', '*/*', 'text/html']) {
      const r = await t.req('GET', `${API}/stores`, { headers: { accept } });
      assert.equal(r.status, 200, accept);
      assert.equal(r.body['@type'], 'Collection', accept);
      assert.equal(r.body.totalItems, 2, accept);
      assert.equal(r.body.member.length, 2, accept);
    }
    const none = await t.req('GET', `${API}/stores`);
    assert.equal(none.body['@type'], 'Collection');
    assert.notEqual(plain.headers.etag, none.headers.etag);
  });

  test('ETag and 304', async () => {
    const r = await t.req('GET', `${API}/stores`);
    const cached = await t.req('GET', `${API}/stores`, { headers: { 'if-none-match': String(r.headers.etag) } });
    assert.equal(cached.status, 304);
    assert.equal(cached.text, '');
  });
});

describe('GET /stores/currencies', () => {
  test("the store's allowed currencies with their rate from the base currency", async () => {
    const r = await t.req('GET', `${API}/stores/currencies`);
    assert.equal(r.status, 200);
    assert.equal(r.body['@type'], 'Collection');
    assert.equal(r.body['@context'], '/api/contexts/Currency');
    assert.equal(r.body.totalItems, 2);
    assert.deepEqual(r.body.member, [
      { code: 'EUR', symbol: '€', exchangeRate: 0.92, isBase: false, isDefault: false },
      { code: 'USD', symbol: '$', exchangeRate: 1, isBase: true, isDefault: true },
    ]);
    const german = await t.req('GET', `${API}/stores/currencies?store=german`, { headers: { accept: 'application/json' } });
    assert.deepEqual(
      german.body.map((c: { code: string; isDefault: boolean }) => [c.code, c.isDefault]),
      [
        ['EUR', true],
        ['USD', false],
      ],
    );
  });

  test('currencies without a rate are left out; codes are read in any case', async () => {
    await withConfig('currency/options/allow', 'usd,eur,GBP,eur', async () => {
      const r = await t.req('GET', `${API}/stores/currencies`, { headers: { accept: 'application/json' } });
      assert.deepEqual(
        r.body.map((c: { code: string }) => c.code),
        ['EUR', 'USD'],
      );
      assert.equal((await t.req('GET', `${API}/stores/currencies`, { headers: { 'x-currency-code': 'eur' } })).status, 200);
    });
  });

  test('X-Currency-Code does not change the list; an unsupported one is a 400', async () => {
    const r = await t.req('GET', `${API}/stores/currencies`, { headers: { 'x-currency-code': 'EUR' } });
    assert.equal(r.status, 200);
    assert.equal(r.body.totalItems, 2);
    assertError(await t.req('GET', `${API}/stores/currencies`, { headers: { 'x-currency-code': 'JPY' } }), 400, 'bad_request');
  });
});

describe('POST /stores/switch/{storeCode}', () => {
  test('returns the store with success: true (201)', async () => {
    const r = await t.req('POST', `${API}/stores/switch/german`);
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.success, true);
    assert.equal(r.body.code, 'german');
    assert.equal(r.body.id, t.services.settings.storeByCode('german')!.id);
    assert.equal(r.body.locale, 'de_DE');
    assert.deepEqual(r.body.currency, { base: 'USD', default: 'EUR' });
    assert.equal(r.headers['cache-control'], 'no-store');
    assert.equal(r.headers.etag, undefined);
  });

  test('accepts an empty object body and ignores unknown keys', async () => {
    const empty = await t.req('POST', `${API}/stores/switch/default`, { body: {} });
    assert.equal(empty.status, 201);
    assert.equal(empty.body.code, 'default');
    const extra = await t.req('POST', `${API}/stores/switch/german`, { body: { storeCode: 'default', foo: 1 } });
    assert.equal(extra.status, 201);
    assert.equal(extra.body.code, 'german');
    const customer = await t.req('POST', `${API}/stores/switch/german`, { token: await t.tokens.customer(), body: {} });
    assert.equal(customer.status, 201);
  });

  test('an unknown or inactive code is a 404', async () => {
    assertError(await t.req('POST', `${API}/stores/switch/nowhere`), 404, 'not_found', 'Store not found: nowhere');
    assertError(await t.req('POST', `${API}/stores/switch/closed`), 404, 'not_found');
  });

  test('a malformed body is a 400 and changes nothing', async () => {
    const before = await t.database.db.select().from(configValues);
    assertError(
      await t.req('POST', `${API}/stores/switch/german`, { raw: '{', headers: { 'content-type': 'application/json' } }),
      400,
      'bad_request',
    );
    assertError(
      await t.req('POST', `${API}/stores/switch/german`, { raw: '', headers: { 'content-type': 'application/json' } }),
      400,
      'bad_request',
    );
    assertError(await t.req('POST', `${API}/stores/switch/german`, { body: ['german'] }), 400, 'bad_request');
    assertError(await t.req('POST', `${API}/stores/switch/german`, { body: 'german' }), 400, 'bad_request');
    assert.deepEqual(await t.database.db.select().from(configValues), before);
  });

  test('an unknown store context is still a 400', async () => {
    assertError(await t.req('POST', `${API}/stores/switch/german?store=x`), 400, 'bad_request', 'Unknown store: x');
  });
});

describe('store registry', () => {
  test('a reload asked for during a running load reads again after it', async () => {
    const db = t.database.db;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // a database whose reads return only once the gate opens: the running load reads before the write below
    const slow = {
      select: () => ({
        from: (table: Parameters<ReturnType<Db['select']>['from']>[0]) =>
          db
            .select()
            .from(table)
            .then(async (rows) => {
              await gate;
              return rows;
            }),
      }),
    } as unknown as Db;
    const reg = new StoreRegistry(slow, 'http://shop.test');
    const first = reg.reload();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await db.insert(configValues).values({ scope: 'default', scopeId: 0, path: 'general/locale/timezone', value: 'Asia/Tokyo' });
    try {
      const second = reg.reload();
      const third = reg.reload();
      release();
      await first;
      await Promise.all([second, third]);
      assert.equal(reg.get('general/locale/timezone'), 'Asia/Tokyo');
    } finally {
      await deleteConfig(db, t.services.settings, 'general/locale/timezone');
    }
  });
});
