/** The media library's folders: what a folder holds besides its files, for browsing; nothing outside wysiwyg/. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let dataDir: string;
let admin: string;
const wysiwyg = (...p: string[]) => path.join(dataDir, 'media', 'wysiwyg', ...p);

before(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-folders-'));
  t = await buildTestApp({ env: { DATA_DIR: dataDir } });
  admin = await t.tokens.admin();
});
after(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('GET /media-folders', () => {
  test('no wysiwyg folder yet: nothing', async () => {
    const r = await t.req('GET', `${API}/media-folders`, { token: admin });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.totalItems, 0);
  });

  test('the folders in a folder, by name; files, hidden folders and symlinks left out', async () => {
    fs.mkdirSync(wysiwyg('banners', 'summer'), { recursive: true });
    fs.mkdirSync(wysiwyg('about'), { recursive: true });
    fs.mkdirSync(wysiwyg('.cache'), { recursive: true });
    fs.writeFileSync(wysiwyg('file.png'), 'x');
    fs.symlinkSync(os.tmpdir(), wysiwyg('elsewhere'));
    const r = await t.req('GET', `${API}/media-folders`, { token: admin, headers: { accept: 'application/json' } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, [
      { name: 'about', path: 'wysiwyg/about' },
      { name: 'banners', path: 'wysiwyg/banners' },
    ]);
    for (const folder of ['banners', 'wysiwyg/banners', 'banners/']) {
      const sub = await t.req('GET', `${API}/media-folders`, { token: admin, query: { folder } });
      assert.deepEqual(sub.body.member, [{ name: 'summer', path: 'wysiwyg/banners/summer' }], folder);
    }
    assert.deepEqual((await t.req('GET', `${API}/media-folders`, { token: admin, query: { path: 'banners/summer' } })).body.member, []);
  });

  test('a missing folder is a 404, a path out of wysiwyg/ a 400', async () => {
    const missing = await t.req('GET', `${API}/media-folders`, { token: admin, query: { folder: 'nowhere' } });
    assert.equal(missing.status, 404, missing.text);
    for (const folder of ['../catalog', '/etc', 'a/../../x', 'a\\b']) {
      const r = await t.req('GET', `${API}/media-folders`, { token: admin, query: { folder } });
      assert.equal(r.status, 400, `${folder}: ${r.text}`);
      assert.equal(r.body.error, 'bad_request');
    }
  });

  test('access: anonymous 401, customer 403, without media/read 403, with it 200; the GraphQL field', async () => {
    assert.equal((await t.req('GET', `${API}/media-folders`)).status, 401);
    assert.equal((await t.req('GET', `${API}/media-folders`, { token: await t.tokens.customer() })).status, 403);
    assert.equal((await t.req('GET', `${API}/media-folders`, { token: await t.tokens.apiUser(['products/read']) })).status, 403);
    const reader = await t.tokens.apiUser(['media/read']);
    assert.equal((await t.req('GET', `${API}/media-folders`, { token: reader })).status, 200);
    const g = await t.gql('{ mediaFolders(folder: "banners") { edges { node { name path } } } }', reader);
    assert.deepEqual(g.errors, undefined, JSON.stringify(g));
    assert.deepEqual(g.data.mediaFolders.edges, [{ node: { name: 'summer', path: 'wysiwyg/banners/summer' } }]);
  });
});
