import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp();
});
after(() => t.close());

describe('store config', () => {
  test('GET /store-config returns the default store', async () => {
    const r = await t.req('GET', `${API}/store-config`);
    assert.equal(r.status, 200);
    assert.equal(r.body.storeCode, 'default');
    assert.equal(r.body.baseCurrencyCode, 'USD');
    assert.match(String(r.headers['cache-control']), /public, max-age=3600/);
    assert.ok(r.headers.etag);
  });
});
