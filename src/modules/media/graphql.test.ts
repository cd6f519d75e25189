/**
 * Media over GraphQL: mediaFiles (the image files of a wysiwyg folder) for media/read principals. Upload and
 * delete stay REST-only (a multipart stream; a check of the raw URL).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let dataDir: string;
let admin: string;
let reader: string;
let other: string;
let customer: string;

const gql = (query: string, token?: string, variables?: Record<string, unknown>) => t.gql(query, token, variables);
const LIST = (args = '') =>
  `{ mediaFiles${args} { totalCount edges { node { url directive size dimensions filename path } } pageInfo { hasNextPage } } }`;

before(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wysiwyg-gql-'));
  const dir = path.join(dataDir, 'media', 'wysiwyg', 'banners');
  fs.mkdirSync(dir, { recursive: true });
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#ff0000' } })
    .png()
    .toBuffer();
  fs.writeFileSync(path.join(dir, 'a.png'), png);
  fs.writeFileSync(path.join(dataDir, 'media', 'wysiwyg', 'top.png'), png);
  t = await buildTestApp({ env: { DATA_DIR: dataDir } });
  admin = await t.tokens.admin();
  reader = await t.tokens.apiUser(['media/read']);
  other = await t.tokens.apiUser(['products/read']);
  customer = await t.tokens.customer();
});
after(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('media over GraphQL', () => {
  test('mediaFiles lists a folder (folder or its alias path), as REST does', async () => {
    const top = await gql(LIST(), reader);
    assert.equal(top.errors, undefined, JSON.stringify(top.errors));
    assert.deepEqual(
      top.data.mediaFiles.edges.map((e: any) => e.node.path),
      ['wysiwyg/top.png'],
    );
    for (const args of ['(folder: "banners")', '(path: "wysiwyg/banners")']) {
      const r = await gql(LIST(args), admin);
      assert.equal(r.data.mediaFiles.totalCount, 1, args);
      const node = r.data.mediaFiles.edges[0].node;
      assert.equal(node.filename, 'a.png');
      assert.equal(node.path, 'wysiwyg/banners/a.png');
      assert.equal(node.directive, '{{media url="wysiwyg/banners/a.png"}}');
      assert.deepEqual(node.dimensions, { width: 40, height: 30 });
      assert.ok(node.size > 0);
    }
  });

  test('a path outside wysiwyg/ is a 400; no grant is 403; customers 403; anonymous 401', async () => {
    for (const folder of ['../catalog', '/etc', 'wysiwyg/../../etc']) {
      const r = await gql(LIST(`(folder: "${folder}")`), admin);
      assert.equal(r.data.mediaFiles, null, folder);
      assert.equal(r.errors[0].extensions.status, 400, folder);
    }
    assert.equal((await gql(LIST(), other)).errors[0].extensions.status, 403);
    assert.equal((await gql(LIST(), customer)).errors[0].extensions.status, 403);
    assert.equal((await gql(LIST())).errors[0].extensions.status, 401);
  });
});
