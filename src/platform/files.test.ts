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
  PUBLIC_MEDIA_FOLDERS,
  checkRelativePath,
  deleteMediaFile,
  mediaContentType,
  publicFolderOf,
  readMediaHead,
  resolveMediaPath,
  statMediaFile,
  writeMediaFile,
} from './files.js';
import { documentTypeOfExtension, extensionForType, sniffContentType } from './file-types.js';
import { attachmentDisposition, mediaFileRoutes } from './media-route.js';
import { fetchRemoteFile, isPrivateAddress } from './remote-file.js';

let dataDir: string;
let outside: string;
let app: FastifyInstance;
let base: string;
const config = () => ({ dataDir });

/** A GET with the path sent exactly as written (no client-side normalization). */
function rawGet(
  p: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
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
  // samples of downloadable products: a public folder serving more kinds than images
  fs.mkdirSync(path.join(media, 'catalog/downloadable_samples/s/a'), { recursive: true });
  fs.writeFileSync(path.join(media, 'catalog/downloadable_samples/s/a/sample.pdf'), '%PDF-1.4 sample');
  fs.writeFileSync(path.join(media, 'catalog/downloadable_samples/s/a/sample.bin'), 'opaque');
  fs.writeFileSync(path.join(media, 'catalog/downloadable_samples/s/a/sample.html'), '<script>alert(1)</script>');
  fs.writeFileSync(path.join(media, 'catalog/downloadable_samples/s/a/sample.svg'), '<svg onload="alert(1)"/>');
  fs.writeFileSync(path.join(media, 'catalog/downloadable_samples/s/a/sample.txt'), 'plain');
  fs.writeFileSync(path.join(media, 'catalog/downloadable_samples/s/a/sample.zip'), 'PK');
  fs.writeFileSync(path.join(media, 'catalog/product/a/b/doc.pdf'), '%PDF-1.4 not a product image');
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
    assert.equal(
      await resolveMediaPath(config(), 'catalog/product/n/e/new.webp'),
      path.join(dataDir, 'media/catalog/product/n/e/new.webp'),
    );
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
    await assert.rejects(
      writeMediaFile(config(), 'catalog/product/out/planted.png', Buffer.from('x')),
      (err: unknown) => err instanceof AppError && err.status === 400,
    );
    assert.equal(fs.existsSync(path.join(outside, 'planted.png')), false);
    await assert.rejects(
      writeMediaFile(config(), '../escape.png', Buffer.from('x')),
      (err: unknown) => err instanceof AppError && err.status === 400,
    );
    assert.equal(fs.existsSync(path.join(dataDir, 'escape.png')), false);
  });

  test('deletes a file; a missing one is no error; a symlink out of the root is refused', async () => {
    assert.equal(await deleteMediaFile(config(), 'wysiwyg/new/two.png'), true);
    assert.equal(await deleteMediaFile(config(), 'wysiwyg/new/two.png'), false);
    await assert.rejects(
      deleteMediaFile(config(), 'catalog/product/out/secret.png'),
      (err: unknown) => err instanceof AppError && err.status === 400,
    );
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

describe('GET /media/* in the downloadable samples folder', () => {
  test('serves samples by extension: PDF and text inline, archives and .bin as attachments, a year of caching', async () => {
    const cases: [string, string, string | undefined][] = [
      ['sample.pdf', 'application/pdf', undefined],
      ['sample.txt', 'text/plain; charset=utf-8', undefined],
      ['sample.bin', 'application/octet-stream', 'attachment'],
      ['sample.zip', 'application/zip', 'attachment'],
    ];
    for (const [name, type, disposition] of cases) {
      const r = await rawGet(`/media/catalog/downloadable_samples/s/a/${name}`);
      assert.equal(r.status, 200, name);
      assert.equal(r.headers['content-type'], type, name);
      assert.equal(r.headers['content-disposition'], disposition, name);
      assert.equal(r.headers['x-content-type-options'], 'nosniff', name);
      assert.equal(r.headers['cache-control'], 'public, max-age=31536000', name);
    }
  });

  test('HTML and SVG are never served, there or anywhere; PDF only from the samples folder', async () => {
    for (const p of [
      '/media/catalog/downloadable_samples/s/a/sample.html',
      '/media/catalog/downloadable_samples/s/a/sample.svg',
      '/media/catalog/product/a/b/doc.pdf',
    ]) {
      const r = await rawGet(p);
      assert.equal(r.status, 404, p);
      assert.doesNotMatch(r.body.toString(), /script|onload|PDF/, p);
    }
  });

  test('the samples folder is public; the folders of link files and option uploads are not', () => {
    assert.equal(publicFolderOf('catalog/downloadable_samples/a/b/x.pdf')?.prefix, 'catalog/downloadable_samples');
    assert.equal(publicFolderOf('downloadable/a/b/x.pdf'), undefined);
    assert.equal(publicFolderOf('custom_options/a/b/x'), undefined);
    assert.ok(!PUBLIC_MEDIA_FOLDERS.some((f) => f.prefix.startsWith('downloadable') || f.prefix.startsWith('custom_options')));
  });
});

describe('sniffContentType', () => {
  test('tells JPEG, PNG, GIF, WebP, AVIF and PDF by their first bytes; anything else is octet-stream', () => {
    const cases: [Buffer, string][] = [
      [Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), 'image/jpeg'],
      [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]), 'image/png'],
      [Buffer.from('GIF89a....'), 'image/gif'],
      [Buffer.from('GIF87a....'), 'image/gif'],
      [Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1'), 'image/webp'],
      [Buffer.concat([Buffer.from([0, 0, 0, 0x1c]), Buffer.from('ftypavif\x00\x00\x00\x00avifmif1miaf', 'latin1')]), 'image/avif'],
      [Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmif1\x00\x00\x00\x00mif1avif', 'latin1')]), 'image/avif'],
      [Buffer.from('%PDF-1.7\n'), 'application/pdf'],
      [
        Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom\x00\x00\x00\x00isommp42', 'latin1')]),
        'application/octet-stream',
      ],
      [Buffer.from('<!DOCTYPE html><script>alert(1)</script>'), 'application/octet-stream'],
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'application/octet-stream'],
      [Buffer.from('RIFF\x10\x00\x00\x00WAVEfmt ', 'latin1'), 'application/octet-stream'],
      [Buffer.from(' %PDF-1.4'), 'application/octet-stream'],
      [Buffer.from([0x89, 0x50, 0x4e]), 'application/octet-stream'],
      [Buffer.alloc(0), 'application/octet-stream'],
    ];
    for (const [data, type] of cases) assert.equal(sniffContentType(data), type, data.toString('latin1'));
  });

  test('extensions: the one a sniffed type is stored under, and the type an image or PDF extension names', () => {
    assert.equal(extensionForType('image/jpeg'), 'jpg');
    assert.equal(extensionForType('application/pdf'), 'pdf');
    assert.equal(extensionForType('application/octet-stream'), 'bin');
    assert.equal(extensionForType('text/html'), 'bin');
    assert.equal(documentTypeOfExtension('JPEG'), 'image/jpeg');
    assert.equal(documentTypeOfExtension('.jpg'), 'image/jpeg');
    assert.equal(documentTypeOfExtension('png'), 'image/png');
    assert.equal(documentTypeOfExtension('pdf'), 'application/pdf');
    for (const e of ['txt', 'html', 'svg', 'zip', 'bin', '']) assert.equal(documentTypeOfExtension(e), undefined, e);
  });

  test('readMediaHead reads the first bytes of a stored file', async () => {
    await writeMediaFile(config(), 'catalog/product/h/e/head.png', Buffer.from('%PDF-1.4 and more'));
    const info = await statMediaFile(config(), 'catalog/product/h/e/head.png');
    assert.ok(info);
    assert.equal((await readMediaHead(info, 5)).toString(), '%PDF-');
    assert.equal((await readMediaHead(info, 100)).toString(), '%PDF-1.4 and more');
    assert.equal(sniffContentType(await readMediaHead(info)), 'application/pdf');
  });
});

describe('mediaContentType', () => {
  test('names image types by extension and nothing else', () => {
    assert.equal(mediaContentType('a.JPG'), 'image/jpeg');
    assert.equal(mediaContentType('a.webp'), 'image/webp');
    assert.equal(mediaContentType('a.svg'), undefined);
    assert.equal(mediaContentType('a.html'), undefined);
    assert.equal(mediaContentType('noext'), undefined);
    assert.equal(mediaContentType('a.pdf'), undefined);
    assert.equal(mediaContentType('constructor'), undefined);
    assert.equal(mediaContentType('a.constructor'), undefined);
  });

  test('a folder with its own types serves those only', () => {
    const samples = publicFolderOf('catalog/downloadable_samples/x/y/z.pdf');
    assert.ok(samples);
    assert.equal(mediaContentType('z.PDF', samples), 'application/pdf');
    assert.equal(mediaContentType('z.webp', samples), 'image/webp');
    assert.equal(mediaContentType('z.bin', samples), 'application/octet-stream');
    assert.equal(mediaContentType('z.html', samples), undefined);
    assert.equal(mediaContentType('z.svg', samples), undefined);
    assert.equal(mediaContentType('z.toString', samples), undefined);
  });
});

describe('isPrivateAddress', () => {
  test('loopback, private, link-local and mapped addresses are private; public ones are not', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '100.64.0.1',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      'nonsense',
    ]) {
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
    if (resolved.address === '127.0.0.1')
      assert.equal((await fetchRemoteFile(`http://${host}:${port}/file`, opts)).data.toString(), 'hello');
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
    assert.equal(
      attachmentDisposition('Café menü.pdf'),
      `attachment; filename="Cafe menu.pdf"; filename*=UTF-8''Caf%C3%A9%20men%C3%BC.pdf`,
    );
    assert.equal(attachmentDisposition('...'), `attachment; filename="download"; filename*=UTF-8''download`);
  });
});
