import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import dns from 'node:dns/promises';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { AppError } from './errors.js';
import {
  attachmentDisposition,
  checkRelativePath,
  deleteMediaFile,
  fetchRemoteFile,
  isPrivateAddress,
  mediaContentType,
  mediaFileRoutes,
  resolveMediaPath,
  statMediaFile,
  writeMediaFile,
} from './files.js';

let dataDir: string;
let outside: string;
let app: FastifyInstance;
let base: string;
const config = () => ({ dataDir });

/** A GET with the path sent exactly as written (no client-side normalization). */
function rawGet(p: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path: p, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

before(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'files-test-'));
  outside = fs.mkdtempSync(path.join(os.tmpdir(), 'files-outside-'));
  fs.writeFileSync(path.join(outside, 'secret.png'), 'top secret');
  const media = path.join(dataDir, 'media');
  fs.mkdirSync(path.join(media, 'catalog/product/a/b'), { recursive: true });
  fs.writeFileSync(path.join(media, 'catalog/product/a/b/ab.webp'), Buffer.from('RIFF0000WEBPVP8 '));
  fs.mkdirSync(path.join(media, 'catalog/category'), { recursive: true });
  fs.writeFileSync(path.join(media, 'catalog/category/c.png'), 'png');
  fs.writeFileSync(path.join(media, 'catalog/product/a/b/notes.txt'), 'text');
  fs.mkdirSync(path.join(media, 'custom_options/x/y'), { recursive: true });
  fs.writeFileSync(path.join(media, 'custom_options/x/y/upload.png'), 'private');
  fs.mkdirSync(path.join(media, 'downloadable'), { recursive: true });
  fs.writeFileSync(path.join(media, 'downloadable/book.png'), 'paid');
  fs.writeFileSync(path.join(media, 'top.png'), 'root level');
  // a symlinked file and a symlinked folder leading out of the media root
  fs.symlinkSync(path.join(outside, 'secret.png'), path.join(media, 'catalog/product/a/b/link.png'));
  fs.symlinkSync(outside, path.join(media, 'catalog/product/out'));
  // a symlink that stays inside the root is followed
  fs.symlinkSync(path.join(media, 'catalog/product/a/b/ab.webp'), path.join(media, 'catalog/product/a/b/alias.webp'));

  app = Fastify({ logger: false });
  mediaFileRoutes(app, { dataDir });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});

after(async () => {
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

function assertRefused(fn: () => unknown) {
  assert.throws(fn, (err: unknown) => err instanceof AppError && err.status === 400 && err.reason === 'INVALID_PATH');
}

describe('checkRelativePath', () => {
  test('accepts plain relative paths', () => {
    assert.equal(checkRelativePath('catalog/product/a/b/x.webp'), 'catalog/product/a/b/x.webp');
    assert.equal(checkRelativePath('wysiwyg/banner-1_final.png'), 'wysiwyg/banner-1_final.png');
  });

  test('refuses traversal, absolute paths, backslashes, NUL, encoded characters and hidden names (400)', () => {
    for (const bad of [
      '',
      '..',
      '../x',
      'a/../../x',
      'a/./b',
      '/etc/passwd',
      'a//b',
      'a/',
      'a\\..\\b',
      'a\u0000b',
      'a\nb',
      'a/%2e%2e/b',
      'a%2fb',
      'C:/x',
      'a/.hidden',
      'a/.x.tmp',
      'x'.repeat(2000),
    ]) {
      assertRefused(() => checkRelativePath(bad));
    }
  });
});

describe('resolveMediaPath', () => {
  test('resolves inside the media root, for files that do not exist yet too', async () => {
    assert.equal(await resolveMediaPath(config(), 'catalog/product/a/b/ab.webp'), path.join(dataDir, 'media/catalog/product/a/b/ab.webp'));
    assert.equal(await resolveMediaPath(config(), 'catalog/product/n/e/new.webp'), path.join(dataDir, 'media/catalog/product/n/e/new.webp'));
    assert.ok((await resolveMediaPath(config(), 'catalog/product/a/b/alias.webp')).endsWith('alias.webp'));
  });

  test('refuses symlinks leading out of the root (400), whether the file exists or not', async () => {
    for (const rel of ['catalog/product/a/b/link.png', 'catalog/product/out/secret.png', 'catalog/product/out/new.png']) {
      await assert.rejects(resolveMediaPath(config(), rel), (err: unknown) => err instanceof AppError && err.status === 400, rel);
    }
  });
});

describe('writeMediaFile and deleteMediaFile', () => {
  test('writes atomically, making folders, and leaves no temporary file', async () => {
    assert.equal(await writeMediaFile(config(), 'wysiwyg/new/one.png', Buffer.from('one')), true);
    assert.equal(fs.readFileSync(path.join(dataDir, 'media/wysiwyg/new/one.png'), 'utf8'), 'one');
    assert.equal(await writeMediaFile(config(), 'wysiwyg/new/one.png', Buffer.from('two')), true);
    assert.equal(fs.readFileSync(path.join(dataDir, 'media/wysiwyg/new/one.png'), 'utf8'), 'two');
    assert.deepEqual(fs.readdirSync(path.join(dataDir, 'media/wysiwyg/new')), ['one.png']);
  });

  test('exclusive writes leave an existing file alone and say so', async () => {
    assert.equal(await writeMediaFile(config(), 'wysiwyg/new/one.png', Buffer.from('three'), { exclusive: true }), false);
    assert.equal(fs.readFileSync(path.join(dataDir, 'media/wysiwyg/new/one.png'), 'utf8'), 'two');
    assert.equal(await writeMediaFile(config(), 'wysiwyg/new/two.png', Buffer.from('2'), { exclusive: true }), true);
    assert.deepEqual(fs.readdirSync(path.join(dataDir, 'media/wysiwyg/new')).sort(), ['one.png', 'two.png']);
  });

  test('refuses to write through a symlink out of the root, and writes nothing there', async () => {
    await assert.rejects(writeMediaFile(config(), 'catalog/product/out/planted.png', Buffer.from('x')), (err: unknown) => err instanceof AppError && err.status === 400);
    assert.equal(fs.existsSync(path.join(outside, 'planted.png')), false);
    await assert.rejects(writeMediaFile(config(), '../escape.png', Buffer.from('x')), (err: unknown) => err instanceof AppError && err.status === 400);
    assert.equal(fs.existsSync(path.join(dataDir, 'escape.png')), false);
  });

  test('deletes a file; a missing one is no error; a symlink out of the root is refused', async () => {
    assert.equal(await deleteMediaFile(config(), 'wysiwyg/new/two.png'), true);
    assert.equal(await deleteMediaFile(config(), 'wysiwyg/new/two.png'), false);
    await assert.rejects(deleteMediaFile(config(), 'catalog/product/out/secret.png'), (err: unknown) => err instanceof AppError && err.status === 400);
    assert.equal(fs.existsSync(path.join(outside, 'secret.png')), true);
  });

  test('statMediaFile finds regular files only', async () => {
    assert.equal((await statMediaFile(config(), 'catalog/product/a/b/ab.webp'))?.size, 16);
    assert.equal(await statMediaFile(config(), 'catalog/product/a/b'), undefined);
    assert.equal(await statMediaFile(config(), 'catalog/product/a/b/link.png'), undefined);
    assert.equal(await statMediaFile(config(), '../x'), undefined);
  });
});

describe('GET /media/*', () => {
  test('serves a product image with its content type, ETag, Last-Modified and a year of public caching', async () => {
    const r = await rawGet('/media/catalog/product/a/b/ab.webp');
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'image/webp');
    assert.equal(r.body.toString(), 'RIFF0000WEBPVP8 ');
    assert.equal(r.headers['content-length'], '16');
    assert.equal(r.headers['cache-control'], 'public, max-age=31536000');
    assert.equal(r.headers['x-content-type-options'], 'nosniff');
    assert.match(String(r.headers.etag), /^"[0-9a-f]+-[0-9a-f]+"$/);
    assert.ok(r.headers['last-modified']);

    const again = await rawGet('/media/catalog/product/a/b/ab.webp', { 'if-none-match': String(r.headers.etag) });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
    const since = await rawGet('/media/catalog/product/a/b/ab.webp', { 'if-modified-since': String(r.headers['last-modified']) });
    assert.equal(since.status, 304);
    const stale = await rawGet('/media/catalog/product/a/b/ab.webp', { 'if-none-match': '"other"' });
    assert.equal(stale.status, 200);
  });

  test('HEAD answers the headers without a body', async () => {
    const r = await rawGet('/media/catalog/product/a/b/ab.webp', {}, 'HEAD');
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'image/webp');
    assert.equal(r.body.length, 0);
  });

  test('other public folders are cached for a day; symlinks inside the root are followed', async () => {
    const r = await rawGet('/media/catalog/category/c.png');
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'image/png');
    assert.equal(r.headers['cache-control'], 'public, max-age=86400');
    assert.equal((await rawGet('/media/catalog/product/a/b/alias.webp')).status, 200);
  });

  test('missing files, private folders, other extensions and path tricks are a 404 in the error shape', async () => {
    for (const p of [
      '/media/catalog/product/a/b/missing.webp',
      '/media/catalog/product/a/b/notes.txt',
      '/media/custom_options/x/y/upload.png',
      '/media/downloadable/book.png',
      '/media/top.png',
      '/media/catalog/product',
      '/media/catalog/product/a/b',
      '/media/catalog/product/../../custom_options/x/y/upload.png',
      '/media/catalog/product/%2e%2e/%2e%2e/custom_options/x/y/upload.png',
      '/media/catalog/product/a%2fb/ab.webp',
      '/media/catalog/product/a/b/ab.webp%00.png',
      '/media/catalog/product/a%5cb%5cab.webp',
      '/media/catalog/product/a\\b\\ab.webp',
      '/media/catalog/product/a/b/link.png',
      '/media/catalog/product/out/secret.png',
      '/media/catalog/product//a/b/ab.webp',
    ]) {
      const r = await rawGet(p);
      assert.ok(r.status === 404 || r.status === 400, `${p}: ${r.status}`);
      assert.doesNotMatch(r.body.toString(), /top secret|private|paid/, p);
      if (r.status === 404) {
        assert.match(String(r.headers['content-type']), /application\/json/, p);
        assert.deepEqual(JSON.parse(r.body.toString()), { error: 'not_found', message: 'Not Found', code: 404 }, p);
      }
    }
  });
});

describe('mediaContentType', () => {
  test('names image types by extension and nothing else', () => {
    assert.equal(mediaContentType('a.JPG'), 'image/jpeg');
    assert.equal(mediaContentType('a.webp'), 'image/webp');
    assert.equal(mediaContentType('a.svg'), undefined);
    assert.equal(mediaContentType('a.html'), undefined);
    assert.equal(mediaContentType('noext'), undefined);
  });
});

describe('isPrivateAddress', () => {
  test('loopback, private, link-local and mapped addresses are private; public ones are not', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '100.64.0.1', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:7f00:1', 'nonsense']) {
      assert.equal(isPrivateAddress(a), true, a);
    }
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      assert.equal(isPrivateAddress(a), false, a);
    }
  });
});

describe('fetchRemoteFile', () => {
  let server: http.Server;
  let origin: string;
  before(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/file') return res.end('hello');
      if (req.url === '/big') return res.end(Buffer.alloc(5000));
      if (req.url === '/chunked-big') {
        res.write(Buffer.alloc(3000));
        res.end(Buffer.alloc(3000));
        return;
      }
      if (req.url === '/redirect') {
        res.writeHead(302, { location: '/file' });
        return res.end();
      }
      if (req.url === '/loop') {
        res.writeHead(302, { location: '/loop' });
        return res.end();
      }
      if (req.url === '/slow') return; // never answers
      res.writeHead(404);
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  const opts = { field: 'imageUrl', maxBytes: 4000, timeoutMs: 2000, allowPrivate: true };
  const status = (code: number) => (err: unknown) => err instanceof AppError && err.status === code;

  test('fetches a file and follows redirects', async () => {
    assert.equal((await fetchRemoteFile(`${origin}/file`, opts)).data.toString(), 'hello');
    const r = await fetchRemoteFile(`${origin}/redirect`, opts);
    assert.equal(r.data.toString(), 'hello');
    assert.equal(r.url, `${origin}/file`);
  });

  test('refuses private and loopback addresses unless allowed', async () => {
    await assert.rejects(fetchRemoteFile(`${origin}/file`, { ...opts, allowPrivate: false }), status(400));
    await assert.rejects(fetchRemoteFile('http://localhost/file', { ...opts, allowPrivate: false }), status(400));
    await assert.rejects(fetchRemoteFile('http://[::1]/file', { ...opts, allowPrivate: false }), status(400));
  });

  test('a host name is checked on the address it resolves to', async (tc) => {
    const host = os.hostname();
    const resolved = await dns.lookup(host).catch(() => undefined);
    if (!resolved || !isPrivateAddress(resolved.address)) return tc.skip('the host name does not resolve to a private address here');
    const port = new URL(origin).port;
    await assert.rejects(fetchRemoteFile(`http://${host}:${port}/file`, { ...opts, allowPrivate: false }), status(400));
    if (resolved.address === '127.0.0.1') assert.equal((await fetchRemoteFile(`http://${host}:${port}/file`, opts)).data.toString(), 'hello');
  });

  test('refuses other schemes, credentials and malformed URLs', async () => {
    for (const u of ['file:///etc/passwd', 'ftp://example.com/x', 'gopher://x', 'not a url', `http://user:pw@127.0.0.1/file`]) {
      await assert.rejects(fetchRemoteFile(u, opts), status(400), u);
    }
  });

  test('a file over the limit is a 413, whether declared or streamed', async () => {
    await assert.rejects(fetchRemoteFile(`${origin}/big`, opts), status(413));
    await assert.rejects(fetchRemoteFile(`${origin}/chunked-big`, opts), status(413));
  });

  test('errors, redirect loops and the time limit are a 400', async () => {
    await assert.rejects(fetchRemoteFile(`${origin}/missing`, opts), status(400));
    await assert.rejects(fetchRemoteFile(`${origin}/loop`, opts), status(400));
    await assert.rejects(fetchRemoteFile(`${origin}/slow`, { ...opts, timeoutMs: 300 }), status(400));
  });
});

describe('attachmentDisposition', () => {
  test('keeps a clean name and drops paths, quotes and control characters', () => {
    assert.equal(attachmentDisposition('photo.png'), `attachment; filename="photo.png"; filename*=UTF-8''photo.png`);
    assert.equal(attachmentDisposition('../../etc/pa"ss\r\nwd.txt'), `attachment; filename="passwd.txt"; filename*=UTF-8''passwd.txt`);
    assert.equal(attachmentDisposition('Café menü.pdf'), `attachment; filename="Cafe menu.pdf"; filename*=UTF-8''Caf%C3%A9%20men%C3%BC.pdf`);
    assert.equal(attachmentDisposition('...'), `attachment; filename="download"; filename*=UTF-8''download`);
  });
});
