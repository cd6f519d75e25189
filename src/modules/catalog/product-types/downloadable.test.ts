import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { API, buildTestApp, type Res, type TestApp } from '../../../../test/helpers.js';
import { createTestProduct } from '../../../../test/fixtures/catalog.js';
import { downloadableLinks } from '../tables.js';

let t: TestApp;
let admin: string;
let customer: string;
let reader: string;
let writer: string;
let deleter: string;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'downloadable-test-'));
const root = path.join(dataDir, 'media', 'downloadable');
const samplesRoot = path.join(dataDir, 'media', 'catalog', 'downloadable_samples');
const SAMPLES_URL = 'http://shop.test/media/catalog/downloadable_samples';

before(async () => {
  t = await buildTestApp({ env: { DATA_DIR: dataDir } });
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  reader = await t.tokens.apiUser(['products/read']);
  writer = await t.tokens.apiUser(['products/write']);
  deleter = await t.tokens.apiUser(['products/delete']);
});
after(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const JSON_ONLY = { accept: 'application/json' };
const url = (id: number) => `${API}/products/${id}/downloadable-links`;
const downloadable = () => createTestProduct(t, { type: 'downloadable', price: 10 });
const b64 = (s: string) => Buffer.from(s).toString('base64');

function assertError(r: Res, status: number, error?: string) {
  assert.equal(r.status, status, r.text);
  if (error) assert.equal(r.body.error, error, r.text);
  assert.equal(typeof r.body.message, 'string');
}

async function snapshot(productId: number) {
  const rows = await t.database.db
    .select()
    .from(downloadableLinks)
    .where(eq(downloadableLinks.productId, productId))
    .orderBy(asc(downloadableLinks.id));
  return JSON.stringify(rows);
}

/** Every file stored under media/downloadable (or another folder), relative, with a leading slash. */
function storedFiles(folder = root): string[] {
  if (!fs.existsSync(folder)) return [];
  return (fs.readdirSync(folder, { recursive: true }) as string[])
    .filter((f) => fs.statSync(path.join(folder, f)).isFile())
    .map((f) => `/${f.split(path.sep).join('/')}`)
    .sort();
}

/** GET of a media URL through the app. */
const fetchMedia = (u: string) => t.app.inject({ method: 'GET', url: new URL(u).pathname });

async function waitUntil(check: () => boolean, ms = 2000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  return check();
}

describe('downloadable links', () => {
  test('POST a URL link (201); storefront callers never see where it points', async () => {
    const p = await downloadable();
    const r = await t.req('POST', url(p.id), {
      token: admin,
      body: {
        title: 'E-book (PDF)',
        price: 2.5,
        sortOrder: 1,
        numberOfDownloads: 3,
        isShareable: 0,
        linkType: 'url',
        linkUrl: 'https://files.example.com/book.pdf',
        sampleType: 'url',
        sampleUrl: 'https://files.example.com/sample.pdf',
      },
    });
    assert.equal(r.status, 201, r.text);
    const full = {
      id: r.body.id,
      title: 'E-book (PDF)',
      price: 2.5,
      sortOrder: 1,
      numberOfDownloads: 3,
      isShareable: 0,
      linkType: 'url',
      linkUrl: 'https://files.example.com/book.pdf',
      sampleType: 'url',
      sampleUrl: 'https://files.example.com/sample.pdf',
    };
    assert.deepEqual(r.body, full);
    const publicView = {
      id: r.body.id,
      title: 'E-book (PDF)',
      price: 2.5,
      sortOrder: 1,
      numberOfDownloads: 3,
      sampleUrl: 'https://files.example.com/sample.pdf',
    };
    for (const token of [undefined, customer]) {
      const g = await t.req('GET', url(p.id), { token });
      assert.equal(g.status, 200);
      assert.equal(g.body['@type'], 'Collection');
      assert.deepEqual(g.body.member, [publicView]);
      assert.ok(!g.text.includes('book.pdf'));
    }
    const a = await t.req('GET', url(p.id), { token: reader, headers: JSON_ONLY });
    assert.deepEqual(a.body, [full]);
  });

  test('defaults: price 0, sortOrder 0, unlimited downloads, shareable per config, url type; sorted by sortOrder', async () => {
    const p = await downloadable();
    await t.req('POST', url(p.id), { token: admin, body: { title: 'Second', sortOrder: 5, linkUrl: 'http://example.com/b' } });
    const r = await t.req('POST', url(p.id), { token: admin, body: { title: 'First', linkUrl: 'http://example.com/a' } });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body, {
      id: r.body.id,
      title: 'First',
      price: 0,
      sortOrder: 0,
      numberOfDownloads: 0,
      isShareable: 2,
      linkType: 'url',
      linkUrl: 'http://example.com/a',
    });
    const g = await t.req('GET', url(p.id), { headers: JSON_ONLY });
    assert.deepEqual(
      g.body.map((l: { title: string }) => l.title),
      ['First', 'Second'],
    );
  });

  test('file links are stored under media/downloadable with a generated name; a client path is never used', async () => {
    const p = await downloadable();
    const before = storedFiles();
    const samplesBefore = storedFiles(samplesRoot);
    const r = await t.req('POST', url(p.id), {
      token: admin,
      body: {
        title: 'Archive',
        fileBase64: b64('zip content'),
        fileName: '../../../etc/evil.ZIP',
        sampleFileBase64: `data:text/plain;base64,${b64('sample')}`,
        sampleFileName: 'sample.txt',
      },
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.linkType, 'file');
    assert.equal(r.body.sampleType, 'file');
    assert.match(r.body.linkFile, /^\/[0-9a-f]\/[0-9a-f]\/[0-9a-f]{32}\.zip$/);
    assert.match(r.body.sampleFile, /^\/[0-9a-f]\/[0-9a-f]\/[0-9a-f]{32}\.txt$/);
    assert.equal(r.body.sampleUrl, `${SAMPLES_URL}${r.body.sampleFile}`);
    assert.equal(r.body.linkUrl, undefined);
    assert.equal(fs.readFileSync(path.join(root, r.body.linkFile), 'utf8'), 'zip content');
    assert.equal(fs.readFileSync(path.join(samplesRoot, r.body.sampleFile), 'utf8'), 'sample');
    assert.deepEqual(storedFiles(), [...before, r.body.linkFile].sort());
    assert.deepEqual(storedFiles(samplesRoot), [...samplesBefore, r.body.sampleFile].sort());
    assert.ok(!fs.existsSync(path.join(dataDir, 'etc')));
    const g = await t.req('GET', url(p.id), { headers: JSON_ONLY });
    assert.deepEqual(g.body, [
      { id: r.body.id, title: 'Archive', price: 0, sortOrder: 0, numberOfDownloads: 0, sampleUrl: r.body.sampleUrl },
    ]);
    // the public media route does not serve the link's folder
    const m = await t.app.inject({ method: 'GET', url: `/media/downloadable${r.body.linkFile}` });
    assert.equal(m.statusCode, 404);
  });

  test('PUT by linkId in the body, by id alias and by path; switching a file link to a URL removes the file', async () => {
    const p = await downloadable();
    const made = (await t.req('POST', url(p.id), { token: admin, body: { title: 'F', fileBase64: b64('data'), fileName: 'a.bin' } })).body;
    assert.ok(fs.existsSync(path.join(root, made.linkFile)));
    let r = await t.req('PUT', url(p.id), { token: admin, body: { linkId: made.id, title: 'Renamed', price: 4 } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.title, 'Renamed');
    assert.equal(r.body.price, 4);
    assert.equal(r.body.linkFile, made.linkFile, 'the file stays when not replaced');
    r = await t.req('PUT', url(p.id), { token: admin, body: { id: made.id, numberOfDownloads: 7 } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.numberOfDownloads, 7);
    r = await t.req('PUT', `${url(p.id)}/${made.id}`, { token: admin, body: { fileBase64: b64('new data'), fileName: 'b.bin' } });
    assert.equal(r.status, 200, r.text);
    assert.notEqual(r.body.linkFile, made.linkFile);
    assert.ok(!fs.existsSync(path.join(root, made.linkFile)), 'the replaced file is removed');
    const second = r.body.linkFile;
    r = await t.req('PUT', `${url(p.id)}/${made.id}`, { token: admin, body: { linkUrl: 'https://example.com/x' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.linkType, 'url');
    assert.equal(r.body.linkFile, undefined);
    assert.ok(!fs.existsSync(path.join(root, second)));
    r = await t.req('PUT', `${url(p.id)}/${made.id}`, { token: admin, body: { sampleUrl: 'https://example.com/s' } });
    assert.equal(r.body.sampleType, 'url');
    r = await t.req('PUT', `${url(p.id)}/${made.id}`, { token: admin, body: { sampleType: null } });
    assert.equal(r.body.sampleType, undefined);
    assert.equal(r.body.sampleUrl, undefined);
  });

  test('DELETE by ?linkId=, by body and by path (204); the stored files go too; unknown ids 404, none given 400', async () => {
    const p = await downloadable();
    const other = await downloadable();
    const mk = async (title: string) =>
      (await t.req('POST', url(p.id), { token: admin, body: { title, fileBase64: b64(title), fileName: `${title}.txt` } })).body;
    const [l1, l2, l3] = [await mk('one'), await mk('two'), await mk('three')];
    const foreign = (await t.req('POST', url(other.id), { token: admin, body: { title: 'x', linkUrl: 'https://example.com' } })).body;
    assertError(await t.req('DELETE', `${url(p.id)}/${foreign.id}`, { token: admin }), 404, 'not_found');
    assertError(await t.req('DELETE', `${url(p.id)}?linkId=999999`, { token: admin }), 404, 'not_found');
    assertError(await t.req('DELETE', url(p.id), { token: admin }), 400, 'bad_request');
    assertError(await t.req('PUT', url(p.id), { token: admin, body: { title: 'no id' } }), 400, 'bad_request');
    assertError(await t.req('PUT', `${url(p.id)}/${foreign.id}`, { token: admin, body: { title: 'x' } }), 404, 'not_found');
    assert.equal((await t.req('DELETE', `${url(p.id)}?linkId=${l1.id}`, { token: admin })).status, 204);
    assert.equal((await t.req('DELETE', url(p.id), { token: admin, body: { linkId: l2.id } })).status, 204);
    assert.equal((await t.req('DELETE', `${url(p.id)}/${l3.id}`, { token: admin })).status, 204);
    assert.equal(await snapshot(p.id), '[]');
    for (const l of [l1, l2, l3]) assert.ok(!fs.existsSync(path.join(root, l.linkFile)));
    assert.equal(JSON.parse(await snapshot(other.id)).length, 1);
  });

  describe('refusals change nothing and leave no file behind', () => {
    let p: Record<string, any>;
    let linkId: number;
    before(async () => {
      p = await downloadable();
      linkId = (await t.req('POST', url(p.id), { token: admin, body: { title: 'keep', linkUrl: 'https://example.com/k' } })).body.id;
    });
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['blank title', { title: '  ', linkUrl: 'https://e.com' }, /title must not be empty/],
      ['negative price', { title: 't', price: -1, linkUrl: 'https://e.com' }, /price must be at least 0/],
      ['price with 5 decimal places', { title: 't', price: 1.00001, linkUrl: 'https://e.com' }, /price must have at most 4 decimal places/],
      ['price of 1e-9', { title: 't', price: 1e-9, linkUrl: 'https://e.com' }, /price must have at most 4 decimal places/],
      [
        'a sample named .png that is no PNG',
        { title: 't', linkUrl: 'https://e.com', sampleFileBase64: b64('<svg onload="alert(1)"/>'), sampleFileName: 's.png' },
        /sampleFileBase64 content does not match the extension \.png/,
      ],
      [
        'a sample named .pdf that is no PDF',
        { title: 't', linkUrl: 'https://e.com', sampleFileBase64: b64('<html></html>'), sampleFileName: 's.pdf' },
        /expected application\/pdf/,
      ],
      ['price as a string', { title: 't', price: '1', linkUrl: 'https://e.com' }, /price/],
      ['negative downloads', { title: 't', numberOfDownloads: -1, linkUrl: 'https://e.com' }, /numberOfDownloads/],
      ['fractional downloads', { title: 't', numberOfDownloads: 1.5, linkUrl: 'https://e.com' }, /numberOfDownloads/],
      ['isShareable 3', { title: 't', isShareable: 3, linkUrl: 'https://e.com' }, /isShareable/],
      ['unknown link type', { title: 't', linkType: 'ftp', linkUrl: 'https://e.com' }, /linkType/],
      ['url link without a URL', { title: 't', linkType: 'url' }, /linkUrl is required/],
      ['ftp URL', { title: 't', linkUrl: 'ftp://e.com/file' }, /http or https/],
      ['not a URL', { title: 't', linkUrl: 'not a url' }, /not a valid URL/],
      ['file link without a file', { title: 't', linkType: 'file' }, /fileBase64 is required/],
      ['file link with a URL too', { title: 't', linkType: 'file', linkUrl: 'https://e.com', fileBase64: b64('x') }, /linkUrl/],
      ['url link with a file too', { title: 't', linkType: 'url', linkUrl: 'https://e.com', fileBase64: b64('x') }, /fileBase64/],
      ['invalid base64', { title: 't', fileBase64: 'not base64!!', fileName: 'a.txt' }, /base64/],
      ['url sample without a URL', { title: 't', linkUrl: 'https://e.com', sampleType: 'url' }, /sampleUrl is required/],
      ['file sample with a bad link URL', { title: 't', linkUrl: 'javascript:alert(1)', sampleFileBase64: b64('s') }, /http or https/],
    ];
    for (const [name, body, msg] of cases) {
      test(`${name} → 400`, async () => {
        const before = await snapshot(p.id);
        const files = storedFiles();
        const samples = storedFiles(samplesRoot);
        let r = await t.req('POST', url(p.id), { token: admin, body });
        assertError(r, 400, 'bad_request');
        assert.match(r.body.message, msg);
        // on update the stored URL still counts, so only a URL link without any URL is not refused there
        if (name !== 'url link without a URL') {
          r = await t.req('PUT', `${url(p.id)}/${linkId}`, { token: admin, body });
          assertError(r, 400, 'bad_request');
          assert.match(r.body.message, msg);
        }
        assert.equal(await snapshot(p.id), before);
        assert.deepEqual(storedFiles(), files);
        assert.deepEqual(storedFiles(samplesRoot), samples);
      });
    }
    test('a file write on a product of the wrong type stores no file', async () => {
      const s = await createTestProduct(t);
      const files = storedFiles();
      const r = await t.req('POST', url(s.id), { token: admin, body: { title: 't', fileBase64: b64('x'), fileName: 'x.txt' } });
      assertError(r, 400, 'bad_request');
      assert.deepEqual(storedFiles(), files);
    });
    test('missing title and malformed JSON → 400', async () => {
      const before = await snapshot(p.id);
      assertError(await t.req('POST', url(p.id), { token: admin, body: { linkUrl: 'https://e.com' } }), 400, 'bad_request');
      assertError(
        await t.req('POST', url(p.id), { token: admin, raw: '{"title"', headers: { 'content-type': 'application/json' } }),
        400,
        'bad_request',
      );
      assert.equal(await snapshot(p.id), before);
    });
  });

  describe('sample files are public, link files never', () => {
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
    test('a sample file is stored in the public samples folder; its sampleUrl (public and backend view) is served by GET /media', async () => {
      const p = await downloadable();
      const r = await t.req('POST', url(p.id), {
        token: admin,
        body: {
          title: 'Book',
          fileBase64: b64('the whole book'),
          fileName: 'book.pdf',
          sampleFileBase64: pdf.toString('base64'),
          sampleFileName: 'chapter-1.pdf',
        },
      });
      assert.equal(r.status, 201, r.text);
      assert.match(r.body.sampleFile, /^\/[0-9a-f]\/[0-9a-f]\/[0-9a-f]{32}\.pdf$/);
      assert.equal(r.body.sampleUrl, `${SAMPLES_URL}${r.body.sampleFile}`);
      for (const token of [undefined, customer]) {
        const g = await t.req('GET', url(p.id), { token, headers: JSON_ONLY });
        assert.deepEqual(g.body, [
          { id: r.body.id, title: 'Book', price: 0, sortOrder: 0, numberOfDownloads: 0, sampleUrl: r.body.sampleUrl },
        ]);
        assert.ok(!g.text.includes(r.body.linkFile));
      }
      // the product page names the same sample URL
      const page = await t.req('GET', `${API}/products/${p.id}`, { headers: JSON_ONLY });
      assert.equal(page.status, 200, page.text);
      assert.equal(page.body.downloadableLinks[0].sampleUrl, r.body.sampleUrl);
      const sample = await fetchMedia(r.body.sampleUrl);
      assert.equal(sample.statusCode, 200);
      assert.equal(sample.headers['content-type'], 'application/pdf');
      assert.equal(sample.headers['x-content-type-options'], 'nosniff');
      assert.match(String(sample.headers['cache-control']), /^public/);
      assert.deepEqual(sample.rawPayload, pdf);
      // the link file itself is never served: not under its folder, not under the samples folder
      for (const u of [
        `/media/downloadable${r.body.linkFile}`,
        `/media/catalog/downloadable_samples${r.body.linkFile}`,
        `/media/catalog/downloadable_samples/../../downloadable${r.body.linkFile}`,
      ]) {
        const res = await t.app.inject({ method: 'GET', url: u });
        assert.equal(res.statusCode, 404, u);
        assert.ok(!res.body.includes('the whole book'), u);
      }
    });

    test('a sample is served as what its content is: images and PDF by content, harmless kinds by name, anything else as a .bin download', async () => {
      const p = await downloadable();
      const png = Buffer.from(
        '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4e60000000049454e44ae426082',
        'hex',
      );
      const cases: [string, Buffer, RegExp, string][] = [
        ['cover.png', png, /\.png$/, 'image/png'],
        ['cover.jpg', png, /\.png$/, 'image/png'],
        ['preview', pdf, /\.pdf$/, 'application/pdf'],
        ['track.mp3', Buffer.from('ID3 not really audio'), /\.mp3$/, 'audio/mpeg'],
        ['page.html', Buffer.from('<html><script>alert(1)</script></html>'), /\.bin$/, 'application/octet-stream'],
        ['image.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), /\.bin$/, 'application/octet-stream'],
      ];
      for (const [name, data, file, type] of cases) {
        const r = await t.req('POST', url(p.id), {
          token: admin,
          body: { title: name, linkUrl: 'https://e.com/x', sampleFileBase64: data.toString('base64'), sampleFileName: name },
        });
        assert.equal(r.status, 201, r.text);
        assert.match(r.body.sampleFile, file, name);
        const res = await fetchMedia(r.body.sampleUrl);
        assert.equal(res.statusCode, 200, name);
        assert.equal(res.headers['content-type'], type, name);
        assert.equal(res.headers['x-content-type-options'], 'nosniff');
        if (type === 'application/octet-stream') assert.equal(res.headers['content-disposition'], 'attachment', name);
        else assert.equal(res.headers['content-disposition'], undefined, name);
        assert.deepEqual(res.rawPayload, data, name);
      }
    });

    test('replacing or removing a sample removes its file; a client sending back what it read keeps it', async () => {
      const p = await downloadable();
      const made = (
        await t.req('POST', url(p.id), {
          token: admin,
          body: { title: 'S', linkUrl: 'https://e.com/x', sampleFileBase64: pdf.toString('base64'), sampleFileName: 'a.pdf' },
        })
      ).body;
      const first = path.join(samplesRoot, made.sampleFile);
      assert.ok(fs.existsSync(first));
      // the backend view sent back as is (sampleUrl is the file's media URL): nothing changes
      const { id: _id, ...echo } = made;
      let r = await t.req('PUT', `${url(p.id)}/${made.id}`, { token: admin, body: echo });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body, made);
      r = await t.req('PUT', `${url(p.id)}/${made.id}`, {
        token: admin,
        body: { sampleFileBase64: b64('second sample'), sampleFileName: 'b.txt' },
      });
      assert.equal(r.status, 200, r.text);
      assert.notEqual(r.body.sampleFile, made.sampleFile);
      assert.ok(await waitUntil(() => !fs.existsSync(first)), 'the replaced sample is removed');
      assert.equal((await fetchMedia(made.sampleUrl)).statusCode, 404);
      const second = r.body;
      assert.equal((await fetchMedia(second.sampleUrl)).statusCode, 200);
      r = await t.req('PUT', `${url(p.id)}/${made.id}`, { token: admin, body: { sampleUrl: 'https://e.com/sample' } });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.sampleUrl, 'https://e.com/sample');
      assert.equal(r.body.sampleFile, undefined);
      assert.ok(await waitUntil(() => !fs.existsSync(path.join(samplesRoot, second.sampleFile))));
      const third = (
        await t.req('PUT', `${url(p.id)}/${made.id}`, {
          token: admin,
          body: { sampleType: 'file', sampleFileBase64: pdf.toString('base64'), sampleFileName: 'c.pdf' },
        })
      ).body;
      assert.equal((await t.req('DELETE', `${url(p.id)}/${made.id}`, { token: admin })).status, 204);
      assert.ok(await waitUntil(() => !fs.existsSync(path.join(samplesRoot, third.sampleFile))), 'deleting the link removes its sample');
    });
  });

  describe('large files', () => {
    const big = Buffer.alloc(3 * 1024 * 1024 + 17, 7);
    test('a multi-megabyte file is taken by POST and both PUTs (over the global 1 MiB body limit)', async () => {
      const p = await downloadable();
      let r = await t.req('POST', url(p.id), {
        token: admin,
        body: { title: 'Big', fileBase64: big.toString('base64'), fileName: 'big.bin' },
      });
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(fs.readFileSync(path.join(root, r.body.linkFile)), big);
      const id = r.body.id;
      r = await t.req('PUT', `${url(p.id)}/${id}`, {
        token: admin,
        body: { sampleFileBase64: big.toString('base64'), sampleFileName: 'sample.zip' },
      });
      assert.equal(r.status, 200, r.text);
      assert.equal(fs.statSync(path.join(samplesRoot, r.body.sampleFile)).size, big.length);
      r = await t.req('PUT', url(p.id), { token: admin, body: { linkId: id, fileBase64: big.toString('base64'), fileName: 'big2.bin' } });
      assert.equal(r.status, 200, r.text);
      assert.equal(fs.statSync(path.join(root, r.body.linkFile)).size, big.length);
    });
    test('a body over the 64 MiB limit is a 413 in the error shape; nothing is stored', async () => {
      const p = await downloadable();
      const files = storedFiles();
      const raw = JSON.stringify({ title: 'Huge', fileBase64: 'A'.repeat(64 * 1024 * 1024), fileName: 'huge.bin' });
      for (const [method, target] of [
        ['POST', url(p.id)],
        ['PUT', `${url(p.id)}/1`],
        ['PUT', url(p.id)],
      ] as const) {
        const r = await t.req(method, target, { token: admin, raw, headers: { 'content-type': 'application/json' } });
        assertError(r, 413, 'payload_too_large');
        assert.equal(r.body.code, 413);
      }
      assert.equal(await snapshot(p.id), '[]');
      assert.deepEqual(storedFiles(), files);
    });
  });

  test('only downloadable products have links (400); unknown products 404; disabled ones 404 to storefront callers', async () => {
    for (const type of ['simple', 'virtual', 'bundle']) {
      const p = await createTestProduct(t, { type });
      assertError(await t.req('GET', url(p.id)), 400, 'bad_request');
      assertError(await t.req('POST', url(p.id), { token: admin, body: { title: 't', linkUrl: 'https://e.com' } }), 400, 'bad_request');
      assert.equal(await snapshot(p.id), '[]');
    }
    assertError(await t.req('GET', url(999999)), 404, 'not_found');
    assertError(await t.req('POST', url(999999), { token: admin, body: { title: 't', linkUrl: 'https://e.com' } }), 404, 'not_found');
    const off = await createTestProduct(t, { type: 'downloadable', isActive: false });
    assertError(await t.req('GET', url(off.id)), 404, 'not_found');
    assert.equal((await t.req('GET', url(off.id), { token: admin })).status, 200);
  });

  describe('access', () => {
    let p: Record<string, any>;
    let linkId: number;
    before(async () => {
      p = await downloadable();
      linkId = (await t.req('POST', url(p.id), { token: admin, body: { title: 'l', linkUrl: 'https://example.com/l' } })).body.id;
    });
    test('GET is public', async () => {
      for (const token of [undefined, customer, reader]) assert.equal((await t.req('GET', url(p.id), { token })).status, 200);
    });
    test('writes: anonymous 401, customer 403, products/read only 403, products/delete only 403; nothing changes', async () => {
      const before = await snapshot(p.id);
      const calls: [string, string, unknown][] = [
        ['POST', url(p.id), { title: 'n', linkUrl: 'https://e.com' }],
        ['PUT', url(p.id), { linkId, title: 'n' }],
        ['DELETE', `${url(p.id)}?linkId=${linkId}`, undefined],
        ['PUT', `${url(p.id)}/${linkId}`, { title: 'n' }],
        ['DELETE', `${url(p.id)}/${linkId}`, undefined],
      ];
      for (const [method, path, body] of calls) {
        assertError(await t.req(method, path, { body }), 401, 'unauthorized');
        assertError(await t.req(method, path, { token: customer, body }), 403, 'forbidden');
        assertError(await t.req(method, path, { token: reader, body }), 403, 'forbidden');
        // removing a link changes the product: products/delete alone is not enough, for DELETE either
        assertError(await t.req(method, path, { token: deleter, body }), 403, 'forbidden');
      }
      assert.equal(await snapshot(p.id), before);
    });
    test('products/write is enough, DELETE by ?linkId=, body and path included', async () => {
      const r = await t.req('POST', url(p.id), { token: writer, body: { title: 'w', linkUrl: 'https://e.com' } });
      assert.equal(r.status, 201, r.text);
      assert.equal((await t.req('PUT', url(p.id), { token: writer, body: { linkId: r.body.id, title: 'w2' } })).status, 200);
      assert.equal((await t.req('DELETE', `${url(p.id)}?linkId=${r.body.id}`, { token: writer })).status, 204);
      const second = (await t.req('POST', url(p.id), { token: writer, body: { title: 'w3', linkUrl: 'https://e.com' } })).body;
      assert.equal((await t.req('DELETE', `${url(p.id)}/${second.id}`, { token: writer })).status, 204);
      const third = (await t.req('POST', url(p.id), { token: writer, body: { title: 'w4', linkUrl: 'https://e.com' } })).body;
      assert.equal((await t.req('DELETE', url(p.id), { token: writer, body: { linkId: third.id } })).status, 204);
    });
  });
});
