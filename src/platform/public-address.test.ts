/**
 * One public-address check for every connection made on a caller's behalf (product images fetched from a URL,
 * webhook deliveries): IPv4 embedded in IPv6 (mapped, 6to4, Teredo, NAT64) is never a way around it.
 */
import assert from 'node:assert/strict';
import dns from 'node:dns';
import http from 'node:http';
import { after, before, describe, mock, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../../test/helpers.js';
import { createTestProduct } from '../../test/fixtures/catalog.js';
import { guardedLookup, urlProblem } from '../modules/webhooks/target.js';
import { AppError } from './errors.js';
import { fetchRemoteFile } from './remote-file.js';
import { isPublicAddress, publicOnlyLookup } from './public-address.js';

const NOT_PUBLIC = [
  '127.0.0.1',
  '10.0.0.1',
  '169.254.169.254',
  '100.64.0.1',
  '0.0.0.0',
  '::1',
  '::',
  'fe80::1',
  'fd00::1',
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '::ffff:10.0.0.1',
  '::127.0.0.1',
  '2002:7f00:1::',
  '2002:a9fe:a9fe::1',
  '2001:0:4136:e378:8000:63bf:3fff:fdd2',
  '64:ff9b::7f00:1',
  '2001:db8::1',
  'not an address',
];
const PUBLIC = ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'];
const REFUSED_URLS = [
  'http://[::ffff:127.0.0.1]/a.png',
  'http://[2002:7f00:1::]/a.png',
  'http://[::1]/a.png',
  'http://127.0.0.1/a.png',
  'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/a.png',
];

describe('isPublicAddress', () => {
  test('loopback, private, link-local, reserved and IPv4 embedded in IPv6 are not public', () => {
    for (const a of NOT_PUBLIC) assert.equal(isPublicAddress(a), false, a);
    for (const a of PUBLIC) assert.equal(isPublicAddress(a), true, a);
  });

  test('the connection-time lookup refuses a name that resolves to loopback', async () => {
    const lookup = publicOnlyLookup((host) => new Error(`refused ${host}`));
    const err = await new Promise<Error | null>((resolve) => lookup('localhost', {}, (e) => resolve(e)));
    assert.match(String(err?.message), /refused localhost/);
  });
});

describe('remote image fetch and webhook targets share the check', () => {
  let t: TestApp;
  let admin: string;
  let server: http.Server;
  let hits = 0;
  before(async () => {
    t = await buildTestApp();
    admin = await t.tokens.admin();
    server = http.createServer((_req, res) => {
      hits++;
      res.end('x');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    server.close();
    await t.close();
  });

  test('fetchRemoteFile refuses each such URL before connecting (URL_NOT_ALLOWED)', async () => {
    const opts = { field: 'imageUrl', maxBytes: 4000, timeoutMs: 2000, allowPrivate: false };
    for (const u of REFUSED_URLS) {
      await assert.rejects(
        fetchRemoteFile(u, opts),
        (err: unknown) => err instanceof AppError && err.status === 400 && err.reason === 'URL_NOT_ALLOWED',
        u,
      );
    }
    assert.equal(hits, 0);
  });

  test('a name is checked on the address the connection is made to, image fetch and webhook delivery alike', async () => {
    const opts = { field: 'imageUrl', maxBytes: 4000, timeoutMs: 2000, allowPrivate: false };
    const port = (server.address() as { port: number }).port;
    const webhookLookup = guardedLookup({ allowPrivate: false })!;
    for (const address of ['::ffff:127.0.0.1', '2002:7f00:1::', '::1', '127.0.0.1']) {
      // the name resolves to the address as a DNS answer would give it
      const resolver = mock.method(dns, 'lookup', (_host: string, _o: unknown, cb: (e: null, a: dns.LookupAddress[]) => void) => {
        cb(null, [{ address, family: address.includes(':') ? 6 : 4 }]);
      });
      try {
        await assert.rejects(
          fetchRemoteFile(`http://images.example:${port}/a.png`, opts),
          (err: unknown) => err instanceof AppError && err.reason === 'URL_NOT_ALLOWED',
          address,
        );
        const err = await new Promise<Error | null>((resolve) => webhookLookup('hooks.example', {}, (e) => resolve(e)));
        assert.match(String(err?.message), /non-public/, address);
      } finally {
        resolver.mock.restore();
      }
    }
    assert.equal(hits, 0);
  });

  test('a product image from such a URL is refused (400) and nothing is stored', async () => {
    const p = await createTestProduct(t);
    for (const imageUrl of REFUSED_URLS) {
      const r = await t.req('POST', `${API}/products/${p.id}/media`, { token: admin, body: { imageUrl } });
      assert.equal(r.status, 400, `${imageUrl}: ${r.text}`);
      assert.equal(r.body.error, 'bad_request');
      assert.match(r.body.message, /private or loopback/, imageUrl);
    }
    const list = await t.req('GET', `${API}/products/${p.id}/media`, { token: admin });
    assert.equal(list.body.member?.length ?? list.body.items?.length ?? 0, 0);
  });

  test('webhook targets refuse the same addresses, at save and at delivery', async () => {
    for (const u of REFUSED_URLS) assert.ok(urlProblem(u.replace('http:', 'https:'), { allowPrivate: false }), u);
    const lookup = guardedLookup({ allowPrivate: false })!;
    const err = await new Promise<Error | null>((resolve) => lookup('localhost', {}, (e) => resolve(e)));
    assert.match(String(err?.message), /non-public/);
  });
});
