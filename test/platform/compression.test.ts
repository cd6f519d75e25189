/**
 * Response compression: Brotli and gzip for text-like bodies of 1 KB and more, identity for small bodies and
 * clients that ask for none; ETags and 304s across encodings; GraphQL, HTML and streamed media files.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { API, buildTestApp, type TestApp } from '../helpers.js';
import { createTestProduct } from '../fixtures/catalog.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp();
  for (let i = 0; i < 6; i++) await createTestProduct(t, { description: `A product worth describing at some length, number ${i}.` });
});
after(async () => {
  await t.close();
});

function get(url: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url, headers });
}

function varyOf(headers: Record<string, unknown>): string[] {
  return String(headers.vary ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase());
}

describe('REST', () => {
  test('a product list page comes back in Brotli and decodes to the same JSON', async () => {
    const plain = await get(`${API}/products`);
    assert.equal(plain.statusCode, 200);
    assert.ok(plain.rawPayload.length > 1024, `list page of ${plain.rawPayload.length} bytes`);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.match(String(plain.headers.etag), /^"[0-9a-f]+"$/);

    const br = await get(`${API}/products`, { 'accept-encoding': 'br' });
    assert.equal(br.statusCode, 200);
    assert.equal(br.headers['content-encoding'], 'br');
    assert.ok(varyOf(br.headers).includes('accept-encoding'));
    // the API's own Vary entries stay
    assert.ok(varyOf(br.headers).includes('authorization'));
    assert.ok(br.rawPayload.length < plain.rawPayload.length);
    assert.equal(Number(br.headers['content-length']), br.rawPayload.length);
    assert.deepEqual(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString('utf8')), plain.json());
    // another byte sequence, so a weak form of the same tag
    assert.equal(br.headers.etag, `W/${plain.headers.etag}`);

    const gzip = await get(`${API}/products`, { 'accept-encoding': 'gzip, deflate' });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.deepEqual(JSON.parse(zlib.gunzipSync(gzip.rawPayload).toString('utf8')), plain.json());

    const preferred = await get(`${API}/products`, { 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(preferred.headers['content-encoding'], 'br');

    const identity = await get(`${API}/products`, { 'accept-encoding': 'identity' });
    assert.equal(identity.headers['content-encoding'], undefined);
    assert.equal(identity.body, plain.body);
  });

  test('either form of the ETag gets a 304, whatever the encoding', async () => {
    const plain = await get(`${API}/products`);
    const strong = String(plain.headers.etag);
    for (const [inm, ae] of [
      [strong, 'br'],
      [`W/${strong}`, 'br'],
      [`W/${strong}`, ''],
      [strong, 'gzip'],
    ]) {
      const r = await get(`${API}/products`, { 'if-none-match': inm, ...(ae ? { 'accept-encoding': ae } : {}) });
      assert.equal(r.statusCode, 304, `${inm} with accept-encoding ${ae || '(none)'}`);
      assert.equal(r.rawPayload.length, 0);
      assert.equal(r.headers['content-encoding'], undefined);
    }
  });

  test('small bodies stay identity', async () => {
    const r = await get('/health', { 'accept-encoding': 'br, gzip' });
    assert.equal(r.statusCode, 200);
    assert.equal(r.headers['content-encoding'], undefined);
    assert.equal(r.json().status, 'ok');
    const missing = await get(`${API}/products/987654`, { 'accept-encoding': 'br' });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.headers['content-encoding'], undefined);
  });
});

describe('other adapters', () => {
  test('GraphQL answers are compressed', async () => {
    const list = 'products(pageSize: 20) { edges { node { id sku name price finalPrice stockStatus } } }';
    const query = `{ first: ${list} second: ${list} }`;
    const plain = await t.app.inject({ method: 'POST', url: '/api/graphql', payload: { query } });
    assert.equal(plain.statusCode, 200);
    const body = plain.json();
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    assert.ok(plain.rawPayload.length > 1024, `GraphQL answer of ${plain.rawPayload.length} bytes`);
    const br = await t.app.inject({ method: 'POST', url: '/api/graphql', payload: { query }, headers: { 'accept-encoding': 'br' } });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.deepEqual(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString('utf8')), body);
  });

  test('the revocation form HTML is compressed', async () => {
    const plain = await get('/revocation');
    assert.equal(plain.statusCode, 200);
    assert.ok(plain.rawPayload.length > 1024);
    const gz = await get('/revocation', { 'accept-encoding': 'gzip' });
    assert.equal(gz.statusCode, 200);
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.match(String(gz.headers['content-type']), /^text\/html/);
    assert.match(zlib.gunzipSync(gz.rawPayload).toString('utf8'), /<form[^>]*method="post"/i);
  });
});

describe('media files', () => {
  const dir = () => path.join(t.services.config.dataDir, 'media/catalog/downloadable_samples/c/z');
  const text = 'Sample chapter. '.repeat(200);
  const image = Buffer.concat([Buffer.from('RIFF0000WEBPVP8 '), Buffer.alloc(4000, 7)]);
  before(() => {
    fs.mkdirSync(dir(), { recursive: true });
    fs.writeFileSync(path.join(dir(), 'chapter.txt'), text);
    fs.writeFileSync(path.join(dir(), 'cover.webp'), image);
    fs.writeFileSync(path.join(dir(), 'data.bin'), Buffer.alloc(4000, 1));
  });

  test('a text file streams compressed, or whole with its length without accept-encoding', async () => {
    const url = '/media/catalog/downloadable_samples/c/z/chapter.txt';
    const plain = await get(url);
    assert.equal(plain.statusCode, 200);
    assert.equal(plain.body, text);
    assert.equal(Number(plain.headers['content-length']), Buffer.byteLength(text));
    const br = await get(url, { 'accept-encoding': 'br' });
    assert.equal(br.statusCode, 200);
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(zlib.brotliDecompressSync(br.rawPayload).toString('utf8'), text);
    assert.equal(br.headers.etag, `W/${plain.headers.etag}`);
    const again = await get(url, { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
    assert.equal(again.statusCode, 304);
  });

  test('images and binary downloads are sent as they are', async () => {
    for (const [name, bytes] of [
      ['cover.webp', image],
      ['data.bin', Buffer.alloc(4000, 1)],
    ] as const) {
      const r = await get(`/media/catalog/downloadable_samples/c/z/${name}`, { 'accept-encoding': 'br, gzip' });
      assert.equal(r.statusCode, 200, name);
      assert.equal(r.headers['content-encoding'], undefined, name);
      assert.equal(Number(r.headers['content-length']), bytes.length, name);
      assert.ok(r.rawPayload.equals(bytes), name);
    }
  });
});
