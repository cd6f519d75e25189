/**
 * The GraphiQL page at GET /api/graphql for a browser (Accept: text/html, no query), with its scripts served from
 * the installed packages; off where introspection is off. In Chromium (as the revocation form's browser test
 * finds it) the page loads and runs a query against the endpoint without reaching any other host.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { chromium } from 'playwright-core';
import { buildTestApp, type TestApp } from '../helpers.js';

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

let t: TestApp;
before(async () => {
  t = await buildTestApp();
});
after(() => t.close());

describe('GraphiQL', () => {
  test('a browser gets the page; its scripts and styles come from this server', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/api/graphql', headers: HTML });
    assert.equal(r.statusCode, 200);
    assert.match(String(r.headers['content-type']), /^text\/html/);
    const srcs = [...r.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    assert.equal(srcs.length, 5);
    for (const src of srcs) {
      assert.ok(src.startsWith('/api/graphql/graphiql/'), `${src} is served here`);
      const asset = await t.app.inject({ method: 'GET', url: src });
      assert.equal(asset.statusCode, 200, src);
      assert.match(String(asset.headers['content-type']), src.endsWith('.css') ? /^text\/css/ : /^text\/javascript/);
      assert.ok(asset.body.length > 50, src);
    }
  });

  test('a query, a JSON client or a POST still gets GraphQL', async () => {
    const withQuery = await t.app.inject({ method: 'GET', url: '/api/graphql?query=%7BapiVersion%7D', headers: HTML });
    assert.equal(withQuery.statusCode, 200);
    assert.deepEqual(withQuery.json(), { data: { apiVersion: '2' } });
    const json = await t.app.inject({ method: 'GET', url: '/api/graphql', headers: { accept: 'application/json' } });
    assert.match(String(json.headers['content-type']), /json/);
    const post = await t.req('POST', '/api/graphql', { body: { query: '{ apiVersion }' }, headers: HTML });
    assert.equal(post.body.data.apiVersion, '2');
  });

  test('unknown files and path tricks are a 404 in the error shape', async () => {
    for (const url of [
      '/api/graphql/graphiql/nope.js',
      '/api/graphql/graphiql/..%2F..%2Fpackage.json',
      '/api/graphql/graphiql/constructor',
      '/api/graphql/graphiql/__proto__',
    ]) {
      const r = await t.app.inject({ method: 'GET', url });
      assert.equal(r.statusCode, 404, url);
      assert.equal(r.json().error, 'not_found', url);
    }
  });

  test('GRAPHQL_INTROSPECTION=0 serves no page and no files', async () => {
    const off = await buildTestApp({ env: { GRAPHQL_INTROSPECTION: '0' } });
    try {
      const page = await off.app.inject({ method: 'GET', url: '/api/graphql', headers: HTML });
      assert.doesNotMatch(String(page.headers['content-type']), /html/);
      assert.equal((await off.app.inject({ method: 'GET', url: '/api/graphql/graphiql/graphiql.js' })).statusCode, 404);
    } finally {
      await off.close();
    }
  });
});

const executablePath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (p): p is string => !!p && fs.existsSync(p),
);
const skip = !executablePath && !process.env.CI ? 'No Chromium binary found; install the chromium package to run the browser tests' : false;

describe('GraphiQL in Chromium', { skip }, () => {
  test('the page loads from this server alone and runs its query', async () => {
    if (!executablePath) throw new Error('No Chromium binary found; CI must install the chromium package');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
    try {
      const page = await browser.newPage();
      page.setDefaultTimeout(15_000);
      const elsewhere: string[] = [];
      page.on('request', (req) => {
        if (!req.url().startsWith(base) && !req.url().startsWith('data:')) elsewhere.push(req.url());
      });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      const res = await page.goto(`${base}/api/graphql`);
      assert.equal(res?.status(), 200);
      await page.locator('.graphiql-execute-button').click();
      await page.waitForFunction(() => (document.querySelector('.result-window')?.textContent ?? '').includes('totalCount'));
      const result = (await page.locator('.result-window').textContent()) ?? '';
      assert.match(result, /"edges"/);
      assert.deepEqual(errors, []);
      assert.deepEqual(elsewhere, [], 'no request leaves this server');
    } finally {
      await browser.close();
    }
  });
});
