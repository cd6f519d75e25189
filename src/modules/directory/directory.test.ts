import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import type { Ctx } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { deleteConfig, setConfig } from '../stores/service.js';
import { COUNTRIES, REGIONS } from './data.js';
import { getCountry, listCountries, resolveAddressLocation } from './service.js';

let t: TestApp;
let germanId: number;
before(async () => {
  t = await buildTestApp();
  germanId = t.services.settings.storeByCode('german')!.id;
});
after(() => t.close());

const JSON_ONLY = { accept: 'application/json' };

interface Country {
  id: string;
  name: string;
  iso2Code: string;
  iso3Code: string;
  availableRegions: { id: number; code: string; name: string }[];
}

function names(list: Country[]): string[] {
  return list.map((c) => c.name);
}

/** the same folding the service sorts by: letters without accents, lower case */
function fold(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

describe('directory data', () => {
  test('holds every ISO 3166-1 country once, with distinct ISO-2 and ISO-3 codes', () => {
    assert.equal(COUNTRIES.length, 249);
    assert.equal(new Set(COUNTRIES.map((c) => c.iso2)).size, 249);
    assert.equal(new Set(COUNTRIES.map((c) => c.iso3)).size, 249);
    for (const c of COUNTRIES) {
      assert.match(c.iso2, /^[A-Z]{2}$/);
      assert.match(c.iso3, /^[A-Z]{3}$/);
      assert.ok(c.name.length > 1);
    }
    const by = new Map(COUNTRIES.map((c) => [c.iso2, c]));
    assert.deepEqual(by.get('US'), { iso2: 'US', iso3: 'USA', name: 'United States' });
    assert.deepEqual(by.get('GB'), { iso2: 'GB', iso3: 'GBR', name: 'United Kingdom' });
    assert.deepEqual(by.get('DE'), { iso2: 'DE', iso3: 'DEU', name: 'Germany' });
    for (const newer of ['BQ', 'CW', 'SS', 'SX']) assert.ok(by.has(newer), newer);
    assert.ok(!by.has('AN'), 'Netherlands Antilles no longer exists');
  });

  test('region ids are unique, codes unique per country, and Magento 1 ids are kept', () => {
    assert.equal(new Set(REGIONS.map((r) => r.id)).size, REGIONS.length);
    const perCountry = new Map<string, Set<string>>();
    for (const r of REGIONS) {
      const codes = perCountry.get(r.countryId) ?? new Set();
      assert.ok(!codes.has(r.code), `duplicate code ${r.countryId}-${r.code}`);
      codes.add(r.code);
      perCountry.set(r.countryId, codes);
    }
    const count = (c: string) => REGIONS.filter((r) => r.countryId === c).length;
    assert.deepEqual(['US', 'CA', 'AU', 'DE', 'AT', 'CH', 'ES', 'FR', 'IT'].map(count), [65, 13, 8, 16, 9, 26, 52, 96, 107]);
    const id = (c: string, code: string) => REGIONS.find((r) => r.countryId === c && r.code === code)?.id;
    assert.equal(id('US', 'AL'), 1);
    assert.equal(id('US', 'CA'), 12);
    assert.equal(id('US', 'NY'), 43);
    assert.equal(id('US', 'WY'), 65);
    assert.equal(id('CA', 'AB'), 66);
    assert.equal(id('CA', 'YT'), 78);
    assert.equal(id('DE', 'NDS'), 79);
    assert.equal(id('DE', 'THE'), 94);
    assert.equal(id('AT', 'WI'), 95);
    assert.equal(id('AT', 'VB'), 103);
    assert.equal(id('CH', 'AG'), 104);
    assert.equal(id('CH', 'ZH'), 129);
    assert.equal(id('ES', 'C'), 130);
    assert.equal(id('ES', 'Z'), 181);
    assert.equal(id('FR', '01'), 182);
    assert.equal(id('FR', '2A'), 201);
    assert.equal(id('FR', '95'), 277);
    // Magento 1 gives 278-511 to other countries; ours never reuse them
    assert.ok(REGIONS.every((r) => r.id <= 277 || r.id >= 512));
  });
});

describe('GET /countries', () => {
  test('lists every allowed country by name, as JSON-LD by default', async () => {
    const r = await t.req('GET', `${API}/countries`);
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /^application\/ld\+json/);
    assert.equal(r.body['@type'], 'Collection');
    assert.equal(r.body['@context'], '/api/contexts/Country');
    assert.equal(r.body.totalItems, 249);
    assert.equal(r.body.member.length, 249);
    assert.equal(r.body.view, undefined, 'the list is not paginated');
    const list = r.body.member as Country[];
    assert.deepEqual(names(list).slice(0, 3), ['Afghanistan', 'Åland Islands', 'Albania']);
    const folded = list.map((c) => fold(c.name));
    assert.deepEqual(folded, [...folded].sort());
    const us = list.find((c) => c.id === 'US')!;
    assert.equal(us.name, 'United States');
    assert.equal(us.iso3Code, 'USA');
    assert.equal(us.availableRegions.length, 65);
  });

  test('Accept: application/json gets the bare array', async () => {
    const r = await t.req('GET', `${API}/countries`, { headers: JSON_ONLY });
    assert.equal(r.status, 200);
    assert.ok(Array.isArray(r.body));
    assert.equal(r.body.length, 249);
  });

  test('honours general/country/allow of the store view, ignoring unknown codes and case', async () => {
    const db = t.database.db;
    const reg = t.services.settings;
    await setConfig(db, reg, 'general/country/allow', 'DE,ch, AT ,XX,de', 'stores', germanId);
    try {
      const german = await t.req('GET', `${API}/countries?store=german`, { headers: JSON_ONLY });
      assert.equal(german.status, 200);
      assert.deepEqual(names(german.body), ['Austria', 'Germany', 'Switzerland']);
      const byHeader = await t.req('GET', `${API}/countries`, { headers: { ...JSON_ONLY, 'x-store-code': 'german' } });
      assert.deepEqual(names(byHeader.body), ['Austria', 'Germany', 'Switzerland']);
      const ld = await t.req('GET', `${API}/countries?store=german`);
      assert.equal(ld.body.totalItems, 3);
      const deflt = await t.req('GET', `${API}/countries`, { headers: JSON_ONLY });
      assert.equal(deflt.body.length, 249, 'the default store keeps its own list');
      const config = await t.req('GET', `${API}/store-config?store=german`);
      assert.deepEqual(config.body.allowedCountries, ['AT', 'DE', 'CH']);

      // the default scope applies to store views that set nothing
      await setConfig(db, reg, 'general/country/allow', 'US,GB', 'default', 0);
      const d = await t.req('GET', `${API}/countries`, { headers: JSON_ONLY });
      assert.deepEqual(names(d.body), ['United Kingdom', 'United States']);
      const g = await t.req('GET', `${API}/countries?store=german`, { headers: JSON_ONLY });
      assert.deepEqual(names(g.body), ['Austria', 'Germany', 'Switzerland']);

      // nothing allowed is an empty list, not an error
      await setConfig(db, reg, 'general/country/allow', '', 'stores', germanId);
      const none = await t.req('GET', `${API}/countries?store=german`);
      assert.equal(none.status, 200);
      assert.equal(none.body.totalItems, 0);
      assert.deepEqual(none.body.member, []);
    } finally {
      await deleteConfig(db, reg, 'general/country/allow', 'stores', germanId);
      await deleteConfig(db, reg, 'general/country/allow', 'default', 0);
    }
    const back = await t.req('GET', `${API}/countries?store=german`, { headers: JSON_ONLY });
    assert.equal(back.body.length, 249);
  });

  test('is public and cacheable: ETag, 304, Cache-Control and Vary', async () => {
    const r = await t.req('GET', `${API}/countries`);
    assert.equal(r.headers['cache-control'], 'public, max-age=3600');
    assert.match(String(r.headers.vary), /Accept/);
    const etag = String(r.headers.etag);
    assert.match(etag, /^"[0-9a-f]{32}"$/);
    const again = await t.req('GET', `${API}/countries`, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    assert.equal(again.text, '');
    const other = await t.req('GET', `${API}/countries`, { headers: { ...JSON_ONLY, 'if-none-match': etag } });
    assert.equal(other.status, 200, 'the bare array is another representation with another ETag');
    assert.notEqual(other.headers.etag, etag);
    const scoped = await t.req('GET', `${API}/countries?store=german`);
    assert.equal(scoped.headers['cache-control'], 'private, max-age=3600');
  });

  test('customers and admins may read it too', async () => {
    const customer = await t.req('GET', `${API}/countries`, { token: await t.tokens.customer() });
    assert.equal(customer.status, 200);
    assert.equal(customer.headers['cache-control'], 'private, no-cache');
    const admin = await t.req('GET', `${API}/countries`, { token: await t.tokens.admin() });
    assert.equal(admin.status, 200);
    assert.equal(admin.headers['cache-control'], 'no-store');
    const bad = await t.req('GET', `${API}/countries`, { token: 'not-a-token' });
    assert.equal(bad.status, 401);
  });

  test('an unknown store is a 400', async () => {
    const r = await t.req('GET', `${API}/countries?store=nowhere`);
    assert.equal(r.status, 400);
    assert.equal(r.body.message, 'Unknown store: nowhere');
  });
});

describe('GET /countries/{id}', () => {
  test('returns a country with its regions, sorted by name', async () => {
    const r = await t.req('GET', `${API}/countries/US`);
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /^application\/json/);
    assert.deepEqual(Object.keys(r.body).sort(), ['availableRegions', 'id', 'iso2Code', 'iso3Code', 'name']);
    assert.equal(r.body.id, 'US');
    assert.equal(r.body.iso2Code, 'US');
    assert.equal(r.body.iso3Code, 'USA');
    const regions = r.body.availableRegions as Country['availableRegions'];
    assert.equal(regions.length, 65);
    assert.deepEqual(regions[0], { id: 1, code: 'AL', name: 'Alabama' });
    assert.deepEqual(
      regions.find((x) => x.code === 'CA'),
      { id: 12, code: 'CA', name: 'California' },
    );
    assert.deepEqual(
      regions.find((x) => x.code === 'NY'),
      { id: 43, code: 'NY', name: 'New York' },
    );
    assert.ok(regions.some((x) => x.name === 'Puerto Rico'));
    assert.ok(regions.some((x) => x.code === 'AE' && x.name === 'Armed Forces Europe'));
    const folded = regions.map((x) => fold(x.name));
    assert.deepEqual(folded, [...folded].sort());
  });

  test('regions of the other listed countries', async () => {
    const expect: Record<string, [number, { id: number; code: string; name: string }]> = {
      CA: [13, { id: 74, code: 'ON', name: 'Ontario' }],
      AU: [8, { id: 513, code: 'NSW', name: 'New South Wales' }],
      DE: [16, { id: 81, code: 'BAY', name: 'Bayern' }],
      AT: [9, { id: 95, code: 'WI', name: 'Wien' }],
      CH: [26, { id: 129, code: 'ZH', name: 'Zürich' }],
      ES: [52, { id: 162, code: 'MA', name: 'Málaga' }],
      FR: [96, { id: 257, code: '75', name: 'Paris' }],
      IT: [107, { id: 575, code: 'MI', name: 'Milano' }],
    };
    for (const [code, [n, sample]] of Object.entries(expect)) {
      const r = await t.req('GET', `${API}/countries/${code}`);
      assert.equal(r.status, 200, code);
      assert.equal(r.body.availableRegions.length, n, code);
      assert.deepEqual(
        r.body.availableRegions.find((x: { id: number }) => x.id === sample.id),
        sample,
        code,
      );
    }
    const de = await t.req('GET', `${API}/countries/DE`);
    assert.equal(de.body.availableRegions[0].name, 'Baden-Württemberg');
    const gb = await t.req('GET', `${API}/countries/GB`);
    assert.equal(gb.body.name, 'United Kingdom');
    assert.deepEqual(gb.body.availableRegions, []);
  });

  test('accepts ISO-3 codes and any case', async () => {
    for (const code of ['DEU', 'deu', 'de', 'De', 'dEu']) {
      const r = await t.req('GET', `${API}/countries/${code}`);
      assert.equal(r.status, 200, code);
      assert.equal(r.body.id, 'DE', code);
      assert.equal(r.body.iso3Code, 'DEU');
    }
    const usa = await t.req('GET', `${API}/countries/usa`);
    assert.equal(usa.body.id, 'US');
  });

  test('returns any country, also one the store does not allow', async () => {
    await setConfig(t.database.db, t.services.settings, 'general/country/allow', 'DE', 'stores', germanId);
    try {
      const r = await t.req('GET', `${API}/countries/US?store=german`);
      assert.equal(r.status, 200);
      assert.equal(r.body.id, 'US');
    } finally {
      await deleteConfig(t.database.db, t.services.settings, 'general/country/allow', 'stores', germanId);
    }
  });

  test('an unknown code is a 404 in the error shape', async () => {
    for (const code of ['XX', 'XXX', 'USAX', 'U', '1', 'U%20S']) {
      const r = await t.req('GET', `${API}/countries/${code}`);
      assert.equal(r.status, 404, code);
      assert.equal(r.body.error, 'not_found');
      assert.equal(r.body.code, 404);
      assert.equal(typeof r.body.message, 'string');
      assert.equal(r.headers['cache-control'], 'no-store');
    }
  });

  test('an over-long code is a 400', async () => {
    const r = await t.req('GET', `${API}/countries/${'A'.repeat(65)}`);
    assert.equal(r.status, 400);
    assert.equal(r.body.error, 'bad_request');
  });

  test('ETag and If-None-Match → 304; public cache', async () => {
    const r = await t.req('GET', `${API}/countries/US`);
    assert.equal(r.headers['cache-control'], 'public, max-age=3600');
    const vary = String(r.headers.vary)
      .split(',')
      .map((h) => h.trim());
    for (const h of ['Authorization', 'Accept', 'X-Store-Code', 'X-Currency-Code']) assert.ok(vary.includes(h), String(r.headers.vary));
    const etag = String(r.headers.etag);
    const again = await t.req('GET', `${API}/countries/us`, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304, 'lower case is the same resource');
    assert.equal(again.text, '');
    const weak = await t.req('GET', `${API}/countries/US`, { headers: { 'if-none-match': `"x", W/${etag}` } });
    assert.equal(weak.status, 304);
    const stale = await t.req('GET', `${API}/countries/US`, { headers: { 'if-none-match': '"stale"' } });
    assert.equal(stale.status, 200);
    assert.equal(stale.body.id, 'US');
  });

  test('serves the same cached object on every call', () => {
    const ctx = t.systemCtx();
    assert.equal(getCountry(ctx, 'US'), getCountry(ctx, 'usa'));
    assert.equal(listCountries(ctx), listCountries(ctx));
    assert.equal(
      listCountries(ctx).find((c) => c.id === 'US'),
      getCountry(ctx, 'US'),
    );
  });
});

describe('resolveAddressLocation', () => {
  let ctx: Ctx;
  let germanCtx: Ctx;
  before(() => {
    ctx = t.systemCtx();
    germanCtx = { ...ctx, store: t.services.settings.resolveStore('german', undefined) };
  });

  function refused(fn: () => unknown, reason: string, field: string) {
    assert.throws(fn, (err: unknown) => {
      assert.ok(err instanceof AppError);
      assert.equal(err.status, 400);
      assert.equal(err.reason, reason);
      assert.deepEqual(err.details, { field });
      return true;
    });
  }

  test('a region from the list by id, code or name gives both id and name', () => {
    const want = { countryId: 'US', regionId: 12, region: 'California' };
    assert.deepEqual(resolveAddressLocation(ctx, { countryId: 'US', regionId: 12 }), want);
    assert.deepEqual(resolveAddressLocation(ctx, { countryId: 'us', region: 'CA' }), want);
    assert.deepEqual(resolveAddressLocation(ctx, { countryId: 'US', region: ' california ' }), want);
    assert.deepEqual(resolveAddressLocation(ctx, { countryId: 'USA', region: 'ca' }), want, 'ISO-3 is stored as ISO-2');
    // the id wins over the text
    assert.deepEqual(resolveAddressLocation(ctx, { countryId: 'US', regionId: 12, region: 'New York' }), want);
  });

  test('names match without accents and numeric codes without leading zeros', () => {
    assert.deepEqual(resolveAddressLocation(ctx, { countryId: 'ES', region: 'Malaga' }), {
      countryId: 'ES',
      regionId: 162,
      region: 'Málaga',
    });
    assert.deepEqual(resolveAddressLocation(ctx, { countryId: 'DE', region: 'thuringen' }), {
      countryId: 'DE',
      regionId: 94,
      region: 'Thüringen',
    });
    assert.deepEqual(resolveAddressLocation(ctx, { countryId: 'DE', region: 'BAY' }), { countryId: 'DE', regionId: 81, region: 'Bayern' });
    assert.deepEqual(resolveAddressLocation(ctx, { countryId: 'FR', region: '1' }), { countryId: 'FR', regionId: 182, region: 'Ain' });
    assert.deepEqual(resolveAddressLocation(ctx, { countryId: 'FR', region: '2a' }), {
      countryId: 'FR',
      regionId: 201,
      region: 'Corse-du-Sud',
    });
  });

  test('a region is required where the country is listed in general/region/state_required', () => {
    refused(() => resolveAddressLocation(ctx, { countryId: 'US' }), 'REGION_REQUIRED', 'regionId');
    refused(() => resolveAddressLocation(ctx, { countryId: 'DE', region: '  ', regionId: null }), 'REGION_REQUIRED', 'regionId');
    refused(() => resolveAddressLocation(ctx, { countryId: 'IT', regionId: 0 }), 'REGION_REQUIRED', 'regionId');
  });

  test('a region list country without the requirement accepts no region, but only regions of its list', async () => {
    await setConfig(t.database.db, t.services.settings, 'general/region/state_required', 'US', 'default', 0);
    try {
      const c = t.systemCtx();
      assert.deepEqual(resolveAddressLocation(c, { countryId: 'DE' }), { countryId: 'DE', regionId: null, region: null });
      refused(() => resolveAddressLocation(c, { countryId: 'DE', region: 'Somewhere' }), 'INVALID_REGION', 'region');
      refused(() => resolveAddressLocation(c, { countryId: 'US' }), 'REGION_REQUIRED', 'regionId');
    } finally {
      await deleteConfig(t.database.db, t.services.settings, 'general/region/state_required', 'default', 0);
    }
  });

  test('a region of another country, an unknown id or an unknown name is refused', () => {
    refused(() => resolveAddressLocation(ctx, { countryId: 'US', regionId: 81 }), 'INVALID_REGION', 'regionId');
    refused(() => resolveAddressLocation(ctx, { countryId: 'US', regionId: 99999 }), 'INVALID_REGION', 'regionId');
    refused(() => resolveAddressLocation(ctx, { countryId: 'US', regionId: -1 }), 'INVALID_REGION', 'regionId');
    refused(() => resolveAddressLocation(ctx, { countryId: 'US', region: 'Bayern' }), 'INVALID_REGION', 'region');
  });

  test('elsewhere the region is free text and a region id is refused', () => {
    assert.deepEqual(resolveAddressLocation(ctx, { countryId: 'GB', region: ' Kent ' }), {
      countryId: 'GB',
      regionId: null,
      region: 'Kent',
    });
    assert.deepEqual(resolveAddressLocation(ctx, { countryId: 'gb' }), { countryId: 'GB', regionId: null, region: null });
    assert.deepEqual(resolveAddressLocation(ctx, { countryId: 'GB', region: '', regionId: 0 }), {
      countryId: 'GB',
      regionId: null,
      region: null,
    });
    refused(() => resolveAddressLocation(ctx, { countryId: 'GB', regionId: 12 }), 'INVALID_REGION', 'regionId');
    refused(() => resolveAddressLocation(ctx, { countryId: 'GB', region: 'x'.repeat(256) }), 'INVALID_REGION', 'region');
  });

  test('the country must exist and be allowed in the store', async () => {
    refused(() => resolveAddressLocation(ctx, { countryId: 'XX' }), 'INVALID_COUNTRY', 'countryId');
    refused(() => resolveAddressLocation(ctx, { countryId: '' }), 'INVALID_COUNTRY', 'countryId');
    await setConfig(t.database.db, t.services.settings, 'general/country/allow', 'DE,AT', 'stores', germanId);
    try {
      const g = { ...germanCtx, store: t.services.settings.resolveStore('german', undefined) };
      refused(() => resolveAddressLocation(g, { countryId: 'US', regionId: 12 }), 'COUNTRY_NOT_ALLOWED', 'countryId');
      assert.deepEqual(resolveAddressLocation(g, { countryId: 'AT', regionId: 95 }), { countryId: 'AT', regionId: 95, region: 'Wien' });
      // the default store still allows every country
      assert.equal(resolveAddressLocation(t.systemCtx(), { countryId: 'US', regionId: 12 }).regionId, 12);
    } finally {
      await deleteConfig(t.database.db, t.services.settings, 'general/country/allow', 'stores', germanId);
    }
  });
});
