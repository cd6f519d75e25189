import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { API, buildTestApp, type Res, type TestApp } from '../../../test/helpers.js';
import { setConfig } from '../stores/service.js';

let t: TestApp;
let dataDir: string;
let outside: string;
let admin: string;
let customer: string;
let other: string;
let reader: string;
let png: Buffer;
let jpeg: Buffer;

const mediaDir = () => path.join(dataDir, 'media');
const wysiwyg = (...p: string[]) => path.join(mediaDir(), 'wysiwyg', ...p);

function assertError(r: Res, status: number, error?: string) {
  assert.equal(r.status, status, r.text);
  if (error) assert.equal(r.body.error, error, r.text);
}

interface Part {
  name: string;
  value: string | Buffer;
  filename?: string;
  type?: string;
}

function form(parts: Part[]): { raw: Buffer; headers: Record<string, string> } {
  const boundary = '----test-boundary-7f3a';
  const chunks: Buffer[] = [];
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`;
    if (p.filename !== undefined) head += `; filename="${p.filename}"`;
    head += '\r\n';
    if (p.type) head += `Content-Type: ${p.type}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`), Buffer.isBuffer(p.value) ? p.value : Buffer.from(p.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { raw: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

function upload(parts: Part[], token: string | undefined = admin): Promise<Res> {
  const f = form(parts);
  return t.req('POST', `${API}/media`, { token, raw: f.raw, headers: f.headers });
}

const filePart = (data: Buffer, filename = 'photo.png'): Part => ({ name: 'file', value: data, filename, type: 'image/png' });

before(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wysiwyg-test-'));
  outside = fs.mkdtempSync(path.join(os.tmpdir(), 'wysiwyg-outside-'));
  fs.writeFileSync(path.join(outside, 'secret.png'), 'secret');
  t = await buildTestApp({ env: { DATA_DIR: dataDir } });
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  other = await t.tokens.apiUser(['products/read']);
  reader = await t.tokens.apiUser(['media/read']);
  png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#ff0000' } })
    .png()
    .toBuffer();
  jpeg = await sharp({ create: { width: 20, height: 10, channels: 3, background: '#00ff00' } })
    .jpeg()
    .toBuffer();
});
after(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

describe('media uploads', () => {
  test('an empty wysiwyg folder lists nothing', async () => {
    const r = await t.req('GET', `${API}/media`, { token: admin });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.totalItems, 0);
  });

  test('PNG and JPEG uploads are converted to WebP with dimensions', async () => {
    const r = await upload([filePart(png, 'Red Photo.png')]);
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.path, 'wysiwyg/red_photo.webp');
    assert.equal(r.body.filename, 'red_photo.webp');
    assert.equal(r.body.directive, '{{media url="wysiwyg/red_photo.webp"}}');
    assert.equal(r.body.url, 'http://shop.test/media/wysiwyg/red_photo.webp');
    assert.deepEqual(r.body.dimensions, { width: 40, height: 30 });
    const stored = fs.readFileSync(wysiwyg('red_photo.webp'));
    assert.equal(r.body.size, stored.length);
    assert.equal((await sharp(stored).metadata()).format, 'webp');

    const j = await upload([filePart(jpeg, 'x.jpg'), { name: 'folder', value: 'wysiwyg/banners' }, { name: 'filename', value: 'hero' }]);
    assert.equal(j.status, 201, j.text);
    assert.equal(j.body.path, 'wysiwyg/banners/hero.webp');
    assert.deepEqual(j.body.dimensions, { width: 20, height: 10 });
    assert.equal((await sharp(wysiwyg('banners', 'hero.webp')).metadata()).format, 'webp');
    // served by the public media route
    const served = await t.app.inject({ method: 'GET', url: '/media/wysiwyg/banners/hero.webp' });
    assert.equal(served.statusCode, 200);
  });

  test('name collisions get _1, _2', async () => {
    const names: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await upload([filePart(png), { name: 'folder', value: 'wysiwyg/dup' }, { name: 'filename', value: 'same' }]);
      assert.equal(r.status, 201, r.text);
      names.push(r.body.filename);
    }
    assert.deepEqual(names, ['same.webp', 'same_1.webp', 'same_2.webp']);
  });

  test('the configured format applies', async () => {
    await setConfig(t.database.db, t.services.settings, 'media/image/format', 'png');
    try {
      const r = await upload([filePart(jpeg), { name: 'folder', value: 'wysiwyg/fmt' }]);
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.filename, 'photo.png');
      assert.equal((await sharp(wysiwyg('fmt', 'photo.png')).metadata()).format, 'png');
    } finally {
      await setConfig(t.database.db, t.services.settings, 'media/image/format', null);
    }
  });

  test('a non-image named .png is a 400 and nothing is stored', async () => {
    const r = await upload([
      filePart(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), 'evil.png'),
      { name: 'folder', value: 'wysiwyg/bad' },
    ]);
    assertError(r, 400, 'bad_request');
    assert.equal(fs.existsSync(wysiwyg('bad')), false);
    // a PNG signature followed by garbage does not decode
    const fake = Buffer.concat([png.subarray(0, 8), Buffer.alloc(100, 1)]);
    assertError(await upload([filePart(fake, 'fake.png'), { name: 'folder', value: 'wysiwyg/bad' }]), 400);
    assert.equal(fs.existsSync(wysiwyg('bad', 'fake.webp')), false);
  });

  test('a missing file or a non-multipart body is a 400', async () => {
    assertError(await upload([{ name: 'folder', value: 'wysiwyg' }]), 400);
    assertError(await t.req('POST', `${API}/media`, { token: admin, body: { file: 'x' } }), 400);
  });

  test('an upload over media/upload/max_size_mb is a 413 and nothing is stored', async () => {
    await setConfig(t.database.db, t.services.settings, 'media/upload/max_size_mb', '1');
    try {
      const big = Buffer.concat([png, Buffer.alloc(1024 * 1024 + 10, 7)]);
      assertError(await upload([filePart(big, 'big.png'), { name: 'folder', value: 'wysiwyg/big' }]), 413, 'payload_too_large');
      const huge = Buffer.alloc(3 * 1024 * 1024, 7);
      assertError(await upload([filePart(huge, 'huge.png'), { name: 'folder', value: 'wysiwyg/big' }]), 413, 'payload_too_large');
      assert.equal(fs.existsSync(wysiwyg('big')), false);
    } finally {
      await setConfig(t.database.db, t.services.settings, 'media/upload/max_size_mb', null);
    }
  });
});

describe('media listing and deletes', () => {
  test('lists the image files of a folder (folder, alias path), not other files or subfolders', async () => {
    fs.mkdirSync(wysiwyg('list', 'sub'), { recursive: true });
    fs.writeFileSync(wysiwyg('list', 'notes.txt'), 'x');
    await upload([filePart(png), { name: 'folder', value: 'wysiwyg/list' }, { name: 'filename', value: 'b' }]);
    await upload([filePart(jpeg), { name: 'folder', value: 'wysiwyg/list' }, { name: 'filename', value: 'a' }]);
    for (const q of [{ folder: 'wysiwyg/list' }, { path: 'wysiwyg/list' }, { path: 'wysiwyg/list/' }] as Record<string, string>[]) {
      const r = await t.req('GET', `${API}/media`, { token: reader, query: q });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.totalItems, 2);
      assert.deepEqual(
        r.body.member.map((m: { path: string }) => m.path),
        ['wysiwyg/list/a.webp', 'wysiwyg/list/b.webp'],
      );
      assert.deepEqual(r.body.member[0].dimensions, { width: 20, height: 10 });
      assert.equal(r.body.member[0].directive, '{{media url="wysiwyg/list/a.webp"}}');
    }
    const root = await t.req('GET', `${API}/media`, { token: admin });
    assert.ok(root.body.member.some((m: { path: string }) => m.path === 'wysiwyg/red_photo.webp'));
    assertError(await t.req('GET', `${API}/media`, { token: admin, query: { folder: 'wysiwyg/nope' } }), 404);
  });

  test('folders are relative to wysiwyg/ as in Maho: banners and wysiwyg/banners are one folder, no folder is wysiwyg/', async () => {
    const up = await upload([filePart(png), { name: 'folder', value: 'rel/banners' }, { name: 'filename', value: 'promo' }]);
    assert.equal(up.status, 201, up.text);
    assert.equal(up.body.path, 'wysiwyg/rel/banners/promo.webp');
    assert.equal(up.body.url, 'http://shop.test/media/wysiwyg/rel/banners/promo.webp');
    assert.ok(fs.existsSync(wysiwyg('rel', 'banners', 'promo.webp')));
    const again = await upload([filePart(png), { name: 'folder', value: 'wysiwyg/rel/banners/' }, { name: 'filename', value: 'promo' }]);
    assert.equal(again.body.path, 'wysiwyg/rel/banners/promo_1.webp', 'the same folder');
    for (const folder of ['rel/banners', 'wysiwyg/rel/banners', 'rel/banners/']) {
      const r = await t.req('GET', `${API}/media`, { token: admin, query: { folder } });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(
        r.body.member.map((m: { path: string }) => m.path),
        ['wysiwyg/rel/banners/promo.webp', 'wysiwyg/rel/banners/promo_1.webp'],
        folder,
      );
    }
    const rootByEmpty = await t.req('GET', `${API}/media`, { token: admin, query: { folder: '' } });
    const root = await t.req('GET', `${API}/media`, { token: admin });
    assert.deepEqual(rootByEmpty.body.member, root.body.member);
    const noFolder = await upload([filePart(png), { name: 'folder', value: '' }, { name: 'filename', value: 'at-root' }]);
    assert.equal(noFolder.body.path, 'wysiwyg/at-root.webp');
    assert.ok(fs.existsSync(wysiwyg('at-root.webp')));
    for (const folder of ['wysiwyg', 'wysiwyg/']) {
      const r = await upload([filePart(png), { name: 'folder', value: folder }, { name: 'filename', value: 'at-root' }]);
      assert.equal(r.status, 201, r.text);
      assert.match(r.body.path, /^wysiwyg\/at-root_\d\.webp$/, folder);
    }
    // only a whole first segment "wysiwyg" is the folder itself: wysiwygx is a folder inside it
    const x = await upload([filePart(png), { name: 'folder', value: 'wysiwygx' }, { name: 'filename', value: 'inx' }]);
    assert.equal(x.body.path, 'wysiwyg/wysiwygx/inx.webp');
    assert.equal(x.body.directive, '{{media url="wysiwyg/wysiwygx/inx.webp"}}');
    assert.ok(fs.existsSync(wysiwyg('wysiwygx', 'inx.webp')));
    assert.equal(fs.existsSync(path.join(mediaDir(), 'wysiwygx')), false);
    // the path an answer gives is the one to list, fetch and delete it by
    const listed = await t.req('GET', `${API}/media`, { token: admin, query: { folder: 'wysiwygx' } });
    assert.deepEqual(
      listed.body.member.map((m: { path: string }) => m.path),
      [x.body.path],
    );
    assert.equal((await t.app.inject({ method: 'GET', url: `/media/${x.body.path}` })).statusCode, 200);
    assert.equal((await t.req('DELETE', `${API}/media/${x.body.path}`, { token: admin })).status, 204);
    assert.equal(fs.existsSync(wysiwyg('wysiwygx', 'inx.webp')), false);
    // a folder named like another media folder is the one under wysiwyg/
    assertError(await t.req('GET', `${API}/media`, { token: admin, query: { folder: 'catalog/product' } }), 404);
    // delete by either form
    assert.equal((await t.req('DELETE', `${API}/media/rel/banners/promo.webp`, { token: admin })).status, 204);
    assert.equal((await t.req('DELETE', `${API}/media/wysiwyg/rel/banners/promo_1.webp`, { token: admin })).status, 204);
    assert.equal(fs.readdirSync(wysiwyg('rel', 'banners')).length, 0);
    assertError(await t.req('DELETE', `${API}/media/rel/banners/promo.webp`, { token: admin }), 404);
  });

  test('DELETE removes a file (204); a missing one is a 404', async () => {
    await upload([filePart(png), { name: 'folder', value: 'wysiwyg/del' }, { name: 'filename', value: 'gone' }]);
    assert.ok(fs.existsSync(wysiwyg('del', 'gone.webp')));
    const r = await t.req('DELETE', `${API}/media/wysiwyg/del/gone.webp`, { token: admin });
    assert.equal(r.status, 204, r.text);
    assert.equal(r.text, '');
    assert.equal(fs.existsSync(wysiwyg('del', 'gone.webp')), false);
    assertError(await t.req('DELETE', `${API}/media/wysiwyg/del/gone.webp`, { token: admin }), 404);
    assertError(await t.req('DELETE', `${API}/media/wysiwyg/del`, { token: admin }), 404);
  });
});

describe('nothing outside wysiwyg/', () => {
  before(() => {
    // a product image and a file outside the media root, that no trick may reach
    fs.mkdirSync(path.join(mediaDir(), 'catalog', 'product'), { recursive: true });
    fs.writeFileSync(path.join(mediaDir(), 'catalog', 'product', 'p.png'), 'x');
    fs.writeFileSync(path.join(dataDir, 'top.png'), 'x');
    fs.mkdirSync(wysiwyg(), { recursive: true });
    fs.symlinkSync(outside, wysiwyg('link'));
    fs.symlinkSync(path.join(mediaDir(), 'catalog'), wysiwyg('catlink'));
    fs.symlinkSync(path.join(outside, 'secret.png'), wysiwyg('secret.png'));
  });

  /** folder values refused for list and upload */
  const badFolders = [
    '../',
    '..',
    'wysiwyg/../catalog',
    'wysiwyg/..%2fcatalog',
    'wysiwyg/%2e%2e/catalog',
    'wysiwyg/%252e%252e/catalog',
    '/etc',
    `${os.tmpdir()}`,
    'wysiwyg\\..\\catalog',
    'wysiwyg/x\u0000',
    'wysiwyg/link',
    'wysiwyg/catlink/product',
    'catlink/product',
    'link',
    'wysiwyg/.',
    'wysiwyg/sub/..',
    'wysiwyg/./list',
    './list',
    '../catalog',
    'sub/../../catalog',
  ];

  test('list refuses every trick with a 4xx', async () => {
    for (const folder of badFolders) {
      const r = await t.req('GET', `${API}/media`, { token: admin, query: { folder } });
      assert.equal(r.status, 400, `${folder}: ${r.text}`);
    }
    // encoded in the raw query too
    for (const raw of [
      'folder=..%2F..%2Fetc',
      'path=wysiwyg%2F%2E%2E%2Fcatalog',
      'folder=%2Fetc',
      'folder=wysiwyg%00',
      'path=wysiwyg%5C..%5Ccatalog',
    ]) {
      const r = await t.req('GET', `${API}/media?${raw}`, { token: admin });
      assert.equal(r.status, 400, `${raw}: ${r.text}`);
    }
  });

  test('upload refuses every trick with a 4xx and writes nothing anywhere', async () => {
    const before = fs.readdirSync(outside).sort();
    for (const folder of badFolders) {
      const r = await upload([filePart(png, 'trick.png'), { name: 'folder', value: folder }]);
      assert.equal(r.status, 400, `${folder}: ${r.text}`);
    }
    assert.deepEqual(fs.readdirSync(outside).sort(), before);
    assert.deepEqual(fs.readdirSync(path.join(mediaDir(), 'catalog', 'product')), ['p.png']);
    assert.equal(fs.existsSync(path.join(dataDir, 'trick.webp')), false);
    // a filename with a path is refused too
    for (const filename of ['../../x', 'a/b', 'a\\b']) {
      assertError(await upload([filePart(png), { name: 'filename', value: filename }]), 400);
    }
  });

  test('delete refuses every trick with a 4xx and deletes nothing', async () => {
    const paths = [
      '../catalog/product/p.png',
      'wysiwyg/../catalog/product/p.png',
      'wysiwyg/..%2fcatalog/product/p.png',
      'wysiwyg/%2e%2e/catalog/product/p.png',
      'wysiwyg/%252e%252e/catalog/product/p.png',
      '%2Fetc/passwd',
      '/etc/passwd',
      'wysiwyg%5C..%5Ccatalog%5Cproduct%5Cp.png',
      'wysiwyg/p.png%00',
      'wysiwyg/link/secret.png',
      'wysiwyg/catlink/product/p.png',
      'catalog/product/p.png',
      'wysiwyg/./../top.png',
      'wysiwyg/x/..',
      'wysiwyg/secret.png',
      'secret.png',
      'link/secret.png',
      '../top.png',
      'wysiwyg',
    ];
    for (const p of paths) {
      const r = await t.req('DELETE', `${API}/media/${p}`, { token: admin });
      assert.ok(r.status >= 400 && r.status < 500, `${p}: ${r.status} ${r.text}`);
      assert.notEqual(r.status, 204, p);
    }
    assert.ok(fs.existsSync(path.join(mediaDir(), 'catalog', 'product', 'p.png')));
    assert.ok(fs.existsSync(path.join(outside, 'secret.png')));
    assert.ok(fs.existsSync(path.join(dataDir, 'top.png')));
    assert.ok(fs.lstatSync(wysiwyg('secret.png')).isSymbolicLink());
    // these name a path outside wysiwyg/ plainly: 400
    for (const p of [
      'wysiwyg/link/secret.png',
      'wysiwyg/secret.png',
      'link/secret.png',
      'wysiwyg/..%2fcatalog/product/p.png',
      '..%2f..%2ftop.png',
      'sub%5c..%5c..%5ctop.png',
      'x.png%00',
      'catlink/product/p.png',
    ]) {
      assertError(await t.req('DELETE', `${API}/media/${p}`, { token: admin }), 400);
    }
    // a path without wysiwyg/ is inside it: catalog/product/p.png is wysiwyg/catalog/product/p.png, missing
    assertError(await t.req('DELETE', `${API}/media/catalog/product/p.png`, { token: admin }), 404);
  });

  test('over a real socket, encoded dot segments reach the route undecoded and are refused with 400', async () => {
    // app.inject resolves %2e%2e segments as a browser would; a raw HTTP request keeps them
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const raw = (p: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(
          { host: '127.0.0.1', port, method: 'DELETE', path: `${API}/media/${p}`, headers: { authorization: `Bearer ${admin}` } },
          (res) => {
            let body = '';
            res.on('data', (c) => (body += c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        req.end();
      });
    for (const p of ['%2e%2e/top.png', 'wysiwyg/%2e%2e/top.png', '%2E%2E/catalog/product/p.png', 'sub/%2e%2e/%2e%2e/top.png']) {
      const r = await raw(p);
      assert.equal(r.status, 400, `${p}: ${r.body}`);
      assert.equal(JSON.parse(r.body).error, 'bad_request');
    }
    assert.ok(fs.existsSync(path.join(dataDir, 'top.png')));
    assert.ok(fs.existsSync(path.join(mediaDir(), 'catalog', 'product', 'p.png')));
  });

  test('symlinked files are not listed', async () => {
    const r = await t.req('GET', `${API}/media`, { token: admin });
    assert.equal(r.status, 200, r.text);
    assert.ok(!r.body.member.some((m: { filename: string }) => m.filename === 'secret.png'));
  });
});

describe('media access', () => {
  test('anonymous 401, customer 403, API user without media grants 403', async () => {
    const f = form([filePart(png), { name: 'folder', value: 'wysiwyg/acl' }]);
    const calls = [
      (token?: string) => t.req('GET', `${API}/media`, { token }),
      (token?: string) => t.req('POST', `${API}/media`, { token, raw: f.raw, headers: f.headers }),
      (token?: string) => t.req('DELETE', `${API}/media/wysiwyg/red_photo.webp`, { token }),
    ];
    for (const call of calls) {
      assertError(await call(undefined), 401);
      assertError(await call(customer), 403);
      assertError(await call(other), 403);
    }
    // media/read lists, but neither uploads nor deletes
    assertError(await calls[1](reader), 403);
    assertError(await calls[2](reader), 403);
    const creator = await t.tokens.apiUser(['media/create']);
    assert.equal((await calls[1](creator)).status, 201);
    assertError(await calls[0](creator), 403);
    assertError(await calls[2](creator), 403);
    const deleter = await t.tokens.apiUser(['media/delete']);
    assert.equal((await calls[2](deleter)).status, 204);
    assert.equal(fs.existsSync(wysiwyg('red_photo.webp')), false);
  });
});
