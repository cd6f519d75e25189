/** Test factories of the catalog; they go through the API like any client. */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { API, type TestApp } from '../../../test/helpers.js';

/** One admin token per test app, fetched again when it stops working. */
const adminTokens = new WeakMap<TestApp, string>();

async function adminToken(t: TestApp, fresh = false): Promise<string> {
  let token = fresh ? undefined : adminTokens.get(t);
  if (!token) {
    token = await t.tokens.admin();
    adminTokens.set(t, token);
  }
  return token;
}

/**
 * Creates a product with POST /products as the demo admin and returns the reply body (status 201 asserted).
 * A unique sku and name are generated and the price is 10 unless the body gives them; every other key of
 * the body is sent as is (type, stockData, categoryIds, customAttributesWrite, ...).
 */
export async function createTestProduct(t: TestApp, body: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const unique = crypto.randomBytes(5).toString('hex');
  const payload = { sku: `test-${unique}`, name: `Test product ${unique}`, price: 10, ...body };
  let r = await t.req('POST', `${API}/products`, { token: await adminToken(t), body: payload });
  if (r.status === 401) r = await t.req('POST', `${API}/products`, { token: await adminToken(t, true), body: payload });
  assert.equal(r.status, 201, `POST /products failed: ${r.status} ${r.text}`);
  return r.body as Record<string, any>;
}
