import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API, buildTestApp, type Res, type TestApp } from '../../../test/helpers.js';
import { createStoreView } from './service.js';

let t: TestApp;
let closedId: number;
before(async () => {
  t = await buildTestApp();
  closedId = await createStoreView(t.database.db, t.services.settings, { code: 'closed_item', name: 'Closed', isActive: false });
});
after(() => t.close());

function assertError(r: Res, status: number, error: string) {
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.error, error);
  assert.equal(typeof r.body.message, 'string');
}

describe('GET /stores/{id}', () => {
  test('answers the active store view as the list shows it, to anyone', async () => {
    const list = await t.req('GET', `${API}/stores`, { headers: { accept: 'application/json' } });
    assert.equal(list.status, 200, list.text);
    assert.ok(list.body.length >= 1);
    for (const s of list.body) {
      const r = await t.req('GET', `${API}/stores/${s.id}`);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body, s);
    }
    const first = list.body[0];
    for (const token of [
      await t.tokens.customer(),
      await t.tokens.admin(),
      await t.tokens.apiUser(['orders/read'], { allowedStoreIds: [1] }),
    ]) {
      const r = await t.req('GET', `${API}/stores/${first.id}`, { token });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body, first);
    }
  });

  test('an unknown or inactive store view is a 404; a malformed id a 400; /stores/currencies is still the currencies', async () => {
    assertError(await t.req('GET', `${API}/stores/999999`), 404, 'not_found');
    assertError(await t.req('GET', `${API}/stores/${closedId}`), 404, 'not_found');
    assertError(await t.req('GET', `${API}/stores/0`), 400, 'bad_request');
    assertError(await t.req('GET', `${API}/stores/abc`), 400, 'bad_request');
    assertError(await t.req('GET', `${API}/stores/99999999999`), 400, 'bad_request');
    const c = await t.req('GET', `${API}/stores/currencies`, { headers: { accept: 'application/json' } });
    assert.equal(c.status, 200, c.text);
    assert.ok(Array.isArray(c.body) && c.body.some((x: { code: string }) => x.code === 'USD'));
  });

  test('GraphQL: store(id:)', async () => {
    const r = await t.gql('{ store(id: 1) { id code websiteId } }');
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    assert.deepEqual(r.data.store, { id: '/api/rest/v2/stores/1', code: 'default', websiteId: 1 });
  });
});
