/**
 * The back office is served by the server: its page at ADMIN_PATH and at every screen's address under it, its
 * files with hashed names cached for good, a strict Content-Security-Policy on all of them, and a 404 (not the
 * page) for a file that does not exist.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ensureAdminBuild } from '../fixtures/browser.js';
import { buildTestApp, type TestApp } from '../helpers.js';

let t: TestApp;
let custom: TestApp;
before(async () => {
  await ensureAdminBuild();
  [t, custom] = await Promise.all([buildTestApp(), buildTestApp({ env: { ADMIN_PATH: '/shop/backoffice' } })]);
});
after(async () => {
  await t.close();
  await custom.close();
});

function assertSecurityHeaders(headers: Record<string, unknown>) {
  const csp = String(headers['content-security-policy']);
  assert.match(csp, /script-src 'self'(;|$)/, 'scripts from this origin only, none inline');
  assert.match(csp, /frame-ancestors 'none'/);
  assert.match(csp, /object-src 'none'/);
  assert.doesNotMatch(csp, /unsafe-eval/);
  assert.equal(headers['x-content-type-options'], 'nosniff');
  assert.equal(headers['x-frame-options'], 'DENY');
}

describe('the back office page', () => {
  test('GET /admin answers the application, never cached, with its assets under /admin/assets', async () => {
    const r = await t.req('GET', '/admin');
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /^text\/html/);
    assert.equal(r.headers['cache-control'], 'no-store');
    assertSecurityHeaders(r.headers);
    assert.match(r.text, /<meta name="admin-path" content="\/admin"/);
    const scripts = [...r.text.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]);
    assert.ok(scripts.length > 0 && scripts.every((s) => s.startsWith('/admin/assets/')), scripts.join(', '));
    assert.doesNotMatch(r.text.replace(/<script[^>]*src="[^"]+"[^>]*><\/script>/g, ''), /<script/, 'no inline script');

    const asset = await t.req('GET', scripts[0]);
    assert.equal(asset.status, 200);
    assert.match(String(asset.headers['content-type']), /javascript/);
    assert.match(String(asset.headers['cache-control']), /immutable/);
    assertSecurityHeaders(asset.headers);
  });

  test("a screen's address (a deep link, a reload) answers the same page", async () => {
    for (const url of ['/admin/', '/admin/orders', '/admin/orders/12', '/admin/sign-in?redirect=%2Forders']) {
      const r = await t.req('GET', url);
      assert.equal(r.status, 200, url);
      assert.match(r.text, /<div id="root">/, url);
    }
  });

  test('a missing file is a 404, and a path trick reaches nothing outside the build', async () => {
    for (const url of [
      '/admin/assets/missing-0000.js',
      '/admin/assets/..%2f..%2fpackage.json',
      '/admin/assets/%2e%2e/%2e%2e/package.json',
    ]) {
      const r = await t.req('GET', url);
      assert.equal(r.status, 404, url);
      assert.doesNotMatch(r.text, /"name": "commerce-api"/, url);
    }
  });

  test('ADMIN_PATH moves it: the page, its base path and its assets', async () => {
    const r = await custom.req('GET', '/shop/backoffice/orders');
    assert.equal(r.status, 200);
    assert.match(r.text, /<meta name="admin-path" content="\/shop\/backoffice"/);
    const script = /<script[^>]*src="([^"]+)"/.exec(r.text)![1];
    assert.ok(script.startsWith('/shop/backoffice/assets/'), script);
    assert.equal((await custom.req('GET', script)).status, 200);
    assert.equal((await custom.req('GET', '/admin')).status, 404);
  });

  test('API answers to a staff token are never cached', async () => {
    const token = await t.tokens.admin();
    const r = await t.req('GET', '/api/rest/v2/orders', { token });
    assert.equal(r.status, 200);
    assert.equal(r.headers['cache-control'], 'no-store');
  });
});
