import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { API, buildTestApp, type Res, type TestApp } from '../../../../test/helpers.js';
import { deleteConfig, setConfig } from '../../stores/service.js';
import { createTestProduct } from '../../../../test/fixtures/catalog.js';
import { productMedia, products } from '../tables.js';

let t: TestApp;
let dataDir: string;
let admin: string;
let customer: string;
/** API-user tokens by the product permissions their role holds */
const tok: Record<'other' | 'read' | 'write' | 'writeOnly' | 'delete', string> = {
  other: '',
  read: '',
  write: '',
  writeOnly: '',
  delete: '',
};
let png: Buffer;

before(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-test-'));
  t = await buildTestApp({ env: { DATA_DIR: dataDir } });
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  tok.other = await t.tokens.apiUser(['customers/read']);
  tok.read = await t.tokens.apiUser(['products/read']);
  tok.write = await t.tokens.apiUser(['products/read', 'products/write']);
  tok.delete = await t.tokens.apiUser(['products/delete']);
  tok.writeOnly = await t.tokens.apiUser(['products/write']);
  png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#ff0000' } })
    .png()
    .toBuffer();
});
after(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const productDir = () => path.join(dataDir, 'media/catalog/product');

/** Every file under media/catalog/product, relative to it. */
function storedFiles(): string[] {
  const dir = productDir();
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(dir, f)).isFile()).sort();
}

async function mediaRows(productId: number) {
  return t.database.db.select().from(productMedia).where(eq(productMedia.productId, productId)).orderBy(productMedia.id);
}

function assertError(r: Res, status: number, error: string) {
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.error, error, r.text);
  assert.equal(typeof r.body.message, 'string');
  if (status !== 401) assert.equal(r.body.code, status);
}

const url = (productId: number) => `${API}/products/${productId}/media`;

async function upload(productId: number, body: Record<string, unknown>, token = admin): Promise<Res> {
  return t.req('POST', url(productId), { token, body: { base64: png.toString('base64'), ...body } });
}

/** GET of a media URL through the app; the raw bytes. */
async function fetchMedia(fullUrl: string) {
  const res = await t.app.inject({ method: 'GET', url: new URL(fullUrl).pathname });
  return { status: res.statusCode, headers: res.headers, data: res.rawPayload, body: res.body };
}

async function waitUntil(check: () => boolean, ms = 2000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return check();
}

describe('POST /products/{id}/media', () => {
  test('stores a PNG as WebP under /x/y/<name>, serves it at its URL, and gives the first image every role', async () => {
    const p = await createTestProduct(t);
    const r = await upload(p.id, { filename: 'Red Shirt.PNG', label: 'Front', position: 3 });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body, {
      id: r.body.id,
      file: '/r/e/red_shirt.webp',
      url: 'http://shop.test/media/catalog/product/r/e/red_shirt.webp',
      label: 'Front',
      position: 3,
      disabled: false,
      types: ['image', 'small_image', 'thumbnail'],
    });
    assert.equal(r.headers['cache-control'], 'no-store');

    const served = await fetchMedia(r.body.url);
    assert.equal(served.status, 200);
    assert.equal(served.headers['content-type'], 'image/webp');
    assert.equal(served.headers['cache-control'], 'public, max-age=31536000');
    assert.ok(served.headers.etag);
    const meta = await sharp(served.data).metadata();
    assert.equal(meta.format, 'webp');
    assert.equal(meta.width, 40);
    assert.equal(meta.height, 30);
    assert.deepEqual(served.data, fs.readFileSync(path.join(productDir(), 'r/e/red_shirt.webp')));

    const list = await t.req('GET', url(p.id));
    assert.equal(list.status, 200);
    assert.equal(list.body['@context'], '/api/contexts/ProductMedia');
    assert.equal(list.body.totalItems, 1);
    assert.deepEqual(list.body.member, [r.body]);
  });

  test('the same name again gets a new file; later images get no role unless named; positions follow on', async () => {
    const p = await createTestProduct(t);
    const a = await upload(p.id, { filename: 'dup.png' });
    const b = await upload(p.id, { filename: 'dup.png' });
    assert.equal(a.status, 201, a.text);
    assert.equal(b.status, 201, b.text);
    assert.equal(a.body.file, '/d/u/dup.webp');
    assert.equal(b.body.file, '/d/u/dup_1.webp');
    assert.equal(a.body.position, 1);
    assert.equal(b.body.position, 2);
    assert.deepEqual(b.body.types, []);
    assert.equal((await fetchMedia(b.body.url)).status, 200);
    const one = await upload(p.id, { filename: 'x' });
    assert.equal(one.body.file, '/x/_/x.webp');
    const blank = await upload(p.id, { filename: '../../!!!.png' });
    assert.equal(blank.body.file, '/i/m/image.webp');
    const def = await upload(p.id, {});
    assert.equal(def.body.file, '/u/p/upload.webp');
  });

  test('a role given to a new image moves from the image that had it', async () => {
    const p = await createTestProduct(t);
    const first = await upload(p.id, { filename: 'first.png' });
    const second = await upload(p.id, { filename: 'second.png', types: ['thumbnail', 'small_image'] });
    assert.equal(second.status, 201, second.text);
    assert.deepEqual(second.body.types, ['small_image', 'thumbnail']);
    const rows = await mediaRows(p.id);
    assert.deepEqual(rows.find((m) => m.id === first.body.id)?.types, ['image']);
    // the first image of a product that names its roles gets only those
    const q = await createTestProduct(t);
    const only = await upload(q.id, { types: ['thumbnail'] });
    assert.deepEqual(only.body.types, ['thumbnail']);
    const none = await createTestProduct(t);
    assert.deepEqual((await upload(none.id, { types: [] })).body.types, []);
  });

  test('imageData and data: URLs are accepted', async () => {
    const p = await createTestProduct(t);
    const a = await t.req('POST', url(p.id), { token: admin, body: { imageData: png.toString('base64'), filename: 'alias.png' } });
    assert.equal(a.status, 201, a.text);
    const b = await t.req('POST', url(p.id), {
      token: admin,
      body: { base64: `data:image/png;base64,${png.toString('base64')}`, filename: 'dataurl.png' },
    });
    assert.equal(b.status, 201, b.text);
    assert.equal(b.body.file, '/d/a/dataurl.webp');
  });

  test('the configured format and largest dimension apply', async () => {
    const p = await createTestProduct(t);
    const reg = t.services.settings;
    await setConfig(t.database.db, reg, 'catalog/media/format', 'jpeg');
    await setConfig(t.database.db, reg, 'catalog/media/max_dimension', '10');
    try {
      const r = await upload(p.id, { filename: 'small.png' });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.file, '/s/m/small.jpg');
      const served = await fetchMedia(r.body.url);
      assert.equal(served.headers['content-type'], 'image/jpeg');
      const meta = await sharp(served.data).metadata();
      assert.equal(meta.format, 'jpeg');
      assert.equal(meta.width, 10);
      assert.equal(meta.height, 8);
      await setConfig(t.database.db, reg, 'catalog/media/format', 'png');
      const q = await upload(p.id, { filename: 'small.png' });
      assert.equal(q.body.file, '/s/m/small.png');
      assert.equal((await sharp((await fetchMedia(q.body.url)).data).metadata()).format, 'png');
    } finally {
      await deleteConfig(t.database.db, reg, 'catalog/media/format');
      await deleteConfig(t.database.db, reg, 'catalog/media/max_dimension');
    }
  });

  test('bytes that are not an image are a 400 whatever the file is called, and nothing is stored', async () => {
    const p = await createTestProduct(t);
    const before = storedFiles();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');
    for (const [data, filename] of [
      [Buffer.from('just some text, not a picture'), 'x.jpg'],
      [Buffer.from('%PDF-1.4 fake'), 'doc.png'],
      [svg, 'vector.svg'],
      [png.subarray(0, 60), 'truncated.png'],
    ] as const) {
      const r = await t.req('POST', url(p.id), { token: admin, body: { base64: data.toString('base64'), filename } });
      assertError(r, 400, 'bad_request');
      assert.match(r.body.message, /not an image/);
    }
    for (const base64 of ['not base64 at all!', '', '====']) {
      const r = await t.req('POST', url(p.id), { token: admin, body: { base64 } });
      assertError(r, 400, 'bad_request');
    }
    assert.deepEqual(storedFiles(), before);
    assert.equal((await mediaRows(p.id)).length, 0);
  });

  test('an image over catalog/media/max_upload_bytes is a 413 and nothing is stored', async () => {
    const p = await createTestProduct(t);
    const noisy = await sharp(crypto.randomBytes(64 * 64 * 3), { raw: { width: 64, height: 64, channels: 3 } })
      .png()
      .toBuffer();
    assert.ok(noisy.length > 2000);
    const before = storedFiles();
    await setConfig(t.database.db, t.services.settings, 'catalog/media/max_upload_bytes', '2000');
    try {
      const r = await t.req('POST', url(p.id), { token: admin, body: { base64: noisy.toString('base64'), filename: 'noisy.png' } });
      assertError(r, 413, 'payload_too_large');
      const ok = await upload(p.id, { filename: 'fits.png' });
      assert.equal(ok.status, 201, ok.text);
    } finally {
      await deleteConfig(t.database.db, t.services.settings, 'catalog/media/max_upload_bytes');
    }
    assert.deepEqual(
      storedFiles().filter((f) => !before.includes(f)),
      ['f/i/fits.webp'],
    );
  });

  test('a body over the request limit is a 413 in the error shape', async () => {
    const p = await createTestProduct(t);
    const r = await t.req('POST', url(p.id), {
      token: admin,
      raw: JSON.stringify({ base64: 'A'.repeat(65 * 1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    assertError(r, 413, 'payload_too_large');
    assert.equal((await mediaRows(p.id)).length, 0);
  });

  describe('imageUrl', () => {
    let server: http.Server;
    let origin: string;
    before(async () => {
      server = http.createServer((req, res) => {
        if (req.url === '/shirt.png') {
          res.writeHead(200, { 'content-type': 'image/png' });
          return res.end(png);
        }
        if (req.url === '/text.png') return res.end('not an image');
        res.writeHead(404);
        res.end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    });
    after(() => server.close());

    test('a loopback URL is refused by default (400) and nothing is stored', async () => {
      const p = await createTestProduct(t);
      const before = storedFiles();
      const r = await t.req('POST', url(p.id), { token: admin, body: { imageUrl: `${origin}/shirt.png` } });
      assertError(r, 400, 'bad_request');
      assert.match(r.body.message, /private or loopback/);
      assert.deepEqual(storedFiles(), before);
      assert.equal((await mediaRows(p.id)).length, 0);
    });

    test('with catalog/media/allow_private_urls = 1 the image is fetched, converted and stored', async () => {
      const p = await createTestProduct(t);
      await setConfig(t.database.db, t.services.settings, 'catalog/media/allow_private_urls', '1');
      try {
        const r = await t.req('POST', url(p.id), { token: admin, body: { imageUrl: `${origin}/shirt.png`, filename: 'fetched.png' } });
        assert.equal(r.status, 201, r.text);
        assert.equal(r.body.file, '/f/e/fetched.webp');
        assert.equal((await sharp((await fetchMedia(r.body.url)).data).metadata()).format, 'webp');
        const missing = await t.req('POST', url(p.id), { token: admin, body: { imageUrl: `${origin}/missing.png` } });
        assertError(missing, 400, 'bad_request');
        const text = await t.req('POST', url(p.id), { token: admin, body: { imageUrl: `${origin}/text.png` } });
        assertError(text, 400, 'bad_request');
        for (const imageUrl of ['file:///etc/passwd', 'ftp://example.com/a.png', 'nonsense']) {
          assertError(await t.req('POST', url(p.id), { token: admin, body: { imageUrl } }), 400, 'bad_request');
        }
        assert.equal((await mediaRows(p.id)).length, 1);
      } finally {
        await deleteConfig(t.database.db, t.services.settings, 'catalog/media/allow_private_urls');
      }
    });
  });

  test('bad bodies are a 400 and change nothing', async () => {
    const p = await createTestProduct(t);
    for (const body of [
      {},
      { filename: 'a.png' },
      { base64: png.toString('base64'), imageUrl: 'http://example.com/a.png' },
      { base64: png.toString('base64'), imageData: png.toString('base64') },
      { base64: 12 },
      { base64: png.toString('base64'), types: ['hero'] },
      { base64: png.toString('base64'), types: ['image', 'image'] },
      { base64: png.toString('base64'), position: -1 },
      { base64: png.toString('base64'), position: 1.5 },
      { base64: png.toString('base64'), disabled: 'yes' },
      { base64: png.toString('base64'), label: 'a'.repeat(256) },
      { base64: png.toString('base64'), filename: '' },
    ]) {
      assertError(await t.req('POST', url(p.id), { token: admin, body }), 400, 'bad_request');
    }
    const malformed = await t.req('POST', url(p.id), { token: admin, raw: '{"base64":', headers: { 'content-type': 'application/json' } });
    assertError(malformed, 400, 'bad_request');
    assert.equal((await mediaRows(p.id)).length, 0);
  });

  test('an unknown product is a 404 and stores no file', async () => {
    const before = storedFiles();
    assertError(await upload(99999999, { filename: 'ghost.png' }), 404, 'not_found');
    assert.deepEqual(storedFiles(), before);
  });

  test('access: anonymous 401, customer 403, products/read 403, products/write 201', async () => {
    const p = await createTestProduct(t);
    assertError(await t.req('POST', url(p.id), { body: { base64: png.toString('base64') } }), 401, 'unauthorized');
    assertError(await upload(p.id, {}, customer), 403, 'forbidden');
    assertError(await upload(p.id, {}, tok.other), 403, 'forbidden');
    assertError(await upload(p.id, {}, tok.read), 403, 'forbidden');
    assertError(await upload(p.id, {}, tok.delete), 403, 'forbidden');
    assert.equal((await mediaRows(p.id)).length, 0);
    assert.equal((await upload(p.id, {}, tok.write)).status, 201);
  });
});

describe('GET /products/{id}/media', () => {
  test('public readers see enabled images by position; catalog readers see disabled ones too', async () => {
    const p = await createTestProduct(t);
    const a = await upload(p.id, { filename: 'a.png', position: 2 });
    const b = await upload(p.id, { filename: 'b.png', position: 1, disabled: true });
    const c = await upload(p.id, { filename: 'c.png', position: 2 });
    const ids = (r: Res) => r.body.member.map((m: { id: number }) => m.id);
    for (const token of [undefined, customer, tok.other]) {
      const r = await t.req('GET', url(p.id), { token });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(ids(r), [a.body.id, c.body.id]);
    }
    const r = await t.req('GET', url(p.id), { token: tok.read });
    assert.deepEqual(ids(r), [b.body.id, a.body.id, c.body.id]);
    assert.equal(r.body.member[0].disabled, true);
    const plain = await t.req('GET', url(p.id), { headers: { accept: 'application/json' } });
    assert.deepEqual(
      plain.body.map((m: { id: number }) => m.id),
      [a.body.id, c.body.id],
    );
  });

  test('a product without images has an empty list; an unknown or disabled product is a 404 for shoppers', async () => {
    const p = await createTestProduct(t);
    const r = await t.req('GET', url(p.id));
    assert.equal(r.status, 200);
    assert.equal(r.body.totalItems, 0);
    assert.deepEqual(r.body.member, []);
    assertError(await t.req('GET', url(99999999)), 404, 'not_found');
    const off = await createTestProduct(t, { isActive: false });
    await upload(off.id, {});
    assertError(await t.req('GET', url(off.id)), 404, 'not_found');
    assert.equal((await t.req('GET', url(off.id), { token: admin })).body.totalItems, 1);
  });

  test('a media URL answers in the configured base media URL', async () => {
    const p = await createTestProduct(t);
    await upload(p.id, { filename: 'cdn.png' });
    await setConfig(t.database.db, t.services.settings, 'web/unsecure/base_media_url', 'https://cdn.example.com/m');
    try {
      const r = await t.req('GET', url(p.id));
      assert.equal(r.body.member[0].url, 'https://cdn.example.com/m/catalog/product/c/d/cdn.webp');
    } finally {
      await deleteConfig(t.database.db, t.services.settings, 'web/unsecure/base_media_url');
    }
  });
});

describe('PUT /products/{id}/media', () => {
  test('changes label, position, disabled and roles; a role moves from the image that had it', async () => {
    const p = await createTestProduct(t);
    const first = await upload(p.id, { filename: 'one.png' });
    const second = await upload(p.id, { filename: 'two.png' });
    const r = await t.req('PUT', url(p.id), {
      token: admin,
      body: { valueId: second.body.id, label: 'Back', position: 7, disabled: true, types: ['image'] },
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { ...second.body, label: 'Back', position: 7, disabled: true, types: ['image'] });
    const rows = await mediaRows(p.id);
    assert.deepEqual(rows.find((m) => m.id === first.body.id)?.types, ['small_image', 'thumbnail']);
    // only the keys sent change; an empty label clears it
    const again = await t.req('PUT', url(p.id), { token: admin, body: { valueId: second.body.id, label: '' } });
    assert.equal(again.status, 200);
    assert.equal(again.body.label, undefined);
    assert.equal(again.body.position, 7);
    assert.deepEqual(again.body.types, ['image']);
    const noop = await t.req('PUT', url(p.id), { token: admin, body: { valueId: first.body.id } });
    assert.deepEqual(noop.body, { ...first.body, types: ['small_image', 'thumbnail'] });
  });

  test('an unknown image, or one of another product, is a 404; bad bodies are a 400; nothing changes', async () => {
    const p = await createTestProduct(t);
    const q = await createTestProduct(t);
    const mine = await upload(p.id, { filename: 'mine.png' });
    const theirs = await upload(q.id, { filename: 'theirs.png' });
    const before = await mediaRows(p.id);
    assertError(await t.req('PUT', url(p.id), { token: admin, body: { valueId: theirs.body.id, label: 'x' } }), 404, 'not_found');
    assertError(await t.req('PUT', url(p.id), { token: admin, body: { valueId: 99999999, label: 'x' } }), 404, 'not_found');
    assertError(await t.req('PUT', url(99999999), { token: admin, body: { valueId: mine.body.id, label: 'x' } }), 404, 'not_found');
    for (const body of [
      { label: 'x' },
      { valueId: 'one' },
      { valueId: mine.body.id, types: ['banner'] },
      { valueId: mine.body.id, position: -3 },
      { valueId: 0 },
    ]) {
      assertError(await t.req('PUT', url(p.id), { token: admin, body }), 400, 'bad_request');
    }
    assertError(
      await t.req('PUT', url(p.id), { token: admin, raw: '{', headers: { 'content-type': 'application/json' } }),
      400,
      'bad_request',
    );
    assert.deepEqual(await mediaRows(p.id), before);
    assert.equal((await mediaRows(q.id))[0].label, null);
  });

  test('access: anonymous 401, customer 403, products/read 403, products/write 200', async () => {
    const p = await createTestProduct(t);
    const m = await upload(p.id, {});
    const body = { valueId: m.body.id, label: 'L' };
    assertError(await t.req('PUT', url(p.id), { body }), 401, 'unauthorized');
    assertError(await t.req('PUT', url(p.id), { token: customer, body }), 403, 'forbidden');
    assertError(await t.req('PUT', url(p.id), { token: tok.read, body }), 403, 'forbidden');
    assertError(await t.req('PUT', url(p.id), { token: tok.delete, body }), 403, 'forbidden');
    assert.equal((await mediaRows(p.id))[0].label, null);
    assert.equal((await t.req('PUT', url(p.id), { token: tok.write, body })).status, 200);
  });
});

describe('DELETE /products/{id}/media', () => {
  test('removes the image and its file, by valueId in the query or the body', async () => {
    const p = await createTestProduct(t);
    const a = await upload(p.id, { filename: 'gone-a.png' });
    const b = await upload(p.id, { filename: 'gone-b.png' });
    const fileA = path.join(productDir(), 'g/o/gone-a.webp');
    assert.ok(fs.existsSync(fileA));
    const r = await t.req('DELETE', `${url(p.id)}?valueId=${a.body.id}`, { token: admin });
    assert.equal(r.status, 204, r.text);
    assert.equal(r.text, '');
    assert.ok(await waitUntil(() => !fs.existsSync(fileA)), 'the file is removed');
    assert.equal((await fetchMedia(a.body.url)).status, 404);
    const byBody = await t.req('DELETE', url(p.id), { token: admin, body: { valueId: b.body.id } });
    assert.equal(byBody.status, 204, byBody.text);
    assert.ok(await waitUntil(() => !fs.existsSync(path.join(productDir(), 'g/o/gone-b.webp'))));
    assert.equal((await mediaRows(p.id)).length, 0);
    assertError(await t.req('DELETE', `${url(p.id)}?valueId=${a.body.id}`, { token: admin }), 404, 'not_found');
  });

  test('without valueId a 400; an image of another product a 404; nothing is removed', async () => {
    const p = await createTestProduct(t);
    const q = await createTestProduct(t);
    const theirs = await upload(q.id, { filename: 'keep.png' });
    assertError(await t.req('DELETE', url(p.id), { token: admin }), 400, 'bad_request');
    assertError(await t.req('DELETE', `${url(p.id)}?valueId=abc`, { token: admin }), 400, 'bad_request');
    assertError(await t.req('DELETE', `${url(p.id)}?valueId=${theirs.body.id}`, { token: admin }), 404, 'not_found');
    assertError(await t.req('DELETE', `${url(99999999)}?valueId=${theirs.body.id}`, { token: admin }), 404, 'not_found');
    assert.equal((await mediaRows(q.id)).length, 1);
    assert.equal((await fetchMedia(theirs.body.url)).status, 200);
  });

  test('access: removing an image changes the product: anonymous 401, customer 403, products/read 403, products/delete only 403, products/write 204', async () => {
    const p = await createTestProduct(t);
    const m = await upload(p.id, {});
    const n = await upload(p.id, { filename: 'second.png' });
    const target = `${url(p.id)}?valueId=${m.body.id}`;
    assertError(await t.req('DELETE', target), 401, 'unauthorized');
    assertError(await t.req('DELETE', target, { token: customer }), 403, 'forbidden');
    assertError(await t.req('DELETE', target, { token: tok.other }), 403, 'forbidden');
    assertError(await t.req('DELETE', target, { token: tok.read }), 403, 'forbidden');
    const denied = await t.req('DELETE', target, { token: tok.delete });
    assertError(denied, 403, 'forbidden');
    assert.match(denied.body.message, /products\/write/);
    assertError(await t.req('DELETE', url(p.id), { token: tok.delete, body: { valueId: m.body.id } }), 403, 'forbidden');
    assert.equal((await mediaRows(p.id)).length, 2);
    assert.equal((await t.req('DELETE', target, { token: tok.writeOnly })).status, 204);
    assert.equal((await t.req('DELETE', url(p.id), { token: tok.write, body: { valueId: n.body.id } })).status, 204);
    assert.equal((await mediaRows(p.id)).length, 0);
  });
});

describe('GET /media/*', () => {
  test('path tricks, private folders and symlinks out of the media folder are refused', async () => {
    const secretDir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-secret-'));
    fs.writeFileSync(path.join(secretDir, 'secret.png'), 'secret');
    fs.mkdirSync(path.join(dataDir, 'media/custom_options/a/b'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'media/custom_options/a/b/private.png'), 'private');
    fs.mkdirSync(productDir(), { recursive: true });
    fs.symlinkSync(path.join(secretDir, 'secret.png'), path.join(productDir(), 'escape.png'));
    try {
      for (const p of [
        '/media/catalog/product/../../custom_options/a/b/private.png',
        '/media/catalog/product/%2e%2e/%2e%2e/custom_options/a/b/private.png',
        '/media/catalog/product/..%2f..%2fcustom_options/a/b/private.png',
        '/media/catalog/product/escape.png%00.webp',
        '/media/catalog/product/..\\..\\custom_options\\a\\b\\private.png',
        '/media/catalog/product/escape.png',
        '/media/custom_options/a/b/private.png',
        '/media/catalog/product/missing.webp',
      ]) {
        const res = await t.app.inject({ method: 'GET', url: p });
        assert.ok(res.statusCode >= 400 && res.statusCode < 500, `${p}: ${res.statusCode}`);
        assert.doesNotMatch(res.body, /secret|private/, p);
        assert.equal(JSON.parse(res.body).error, 'not_found', p);
      }
    } finally {
      fs.rmSync(secretDir, { recursive: true, force: true });
      fs.rmSync(path.join(productDir(), 'escape.png'), { force: true });
    }
  });
});

describe('product rows', () => {
  test('an image write marks the product changed', async () => {
    const p = await createTestProduct(t);
    const [before] = await t.database.db.select({ u: products.updatedAt }).from(products).where(eq(products.id, p.id));
    await new Promise((r) => setTimeout(r, 5));
    await upload(p.id, {});
    const [after] = await t.database.db.select({ u: products.updatedAt }).from(products).where(eq(products.id, p.id));
    assert.ok(after.u.getTime() > before.u.getTime());
  });
});
