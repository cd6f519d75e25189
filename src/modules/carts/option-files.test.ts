/**
 * Files shoppers upload for `file` custom options: written only once the whole line is accepted (product,
 * options, qty, cart size, stock), limited per IP (api/rate_limit/cart_option_upload), and removed by a
 * periodic pass once no cart line and no order item refers to them and they are older than a day.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { rows } from '../../platform/db.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { purgeOrphanOptionFiles } from '../checkout/option-files.js';
import { TEST_ADDRESS } from '../../../test/fixtures/checkout.js';
import { deleteConfig, setConfig } from '../stores/service.js';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da6364f8cf500f0003860180f1b8e5720000000049454e44ae426082',
  'hex',
);
const DAY = 24 * 3600 * 1000;

let t: TestApp;
let admin: string;
let dataDir: string;
let product: Record<string, any>;
let fileOption: number;
let textOption: number;

before(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'option-files-test-'));
  t = await buildTestApp({ env: { DATA_DIR: dataDir, RATE_LIMITS: '1' } });
  admin = await t.tokens.admin();
  product = await createTestProduct(t, { price: 10, stockData: { qty: 10, isInStock: true } });
  const options = `${API}/products/${product.id}/custom-options`;
  const file = await t.req('POST', options, {
    token: admin,
    body: { title: 'Artwork', type: 'file', required: true, fileExtensions: 'png', sortOrder: 1 },
  });
  assert.equal(file.status, 201, file.text);
  fileOption = file.body.id;
  const text = await t.req('POST', options, {
    token: admin,
    body: { title: 'Engraving', type: 'field', required: true, maxCharacters: 10, sortOrder: 2 },
  });
  assert.equal(text.status, 201, text.text);
  textOption = text.body.id;
});
after(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const optionsDir = () => path.join(dataDir, 'media/custom_options');
function storedFiles(): string[] {
  if (!fs.existsSync(optionsDir())) return [];
  return (fs.readdirSync(optionsDir(), { recursive: true }) as string[])
    .filter((f) => fs.statSync(path.join(optionsDir(), f)).isFile())
    .sort();
}
const fileKeys = async () =>
  (await rows<{ key: string }>(t.database.db, sql`SELECT key FROM product_custom_option_files ORDER BY key`)).map((r) => r.key);

let nextIp = 10;
const freshIp = () => `127.0.9.${nextIp++}`;

async function addLine(masked: string, body: Record<string, unknown>, ip = '127.0.8.1') {
  const r = await t.app.inject({
    method: 'POST',
    url: `${API}/guest-carts/${masked}/items`,
    remoteAddress: ip,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  return { status: r.statusCode, body: JSON.parse(r.body) };
}
const newCart = async () => (await t.req('POST', `${API}/guest-carts`, { body: {} })).body.maskedId as string;
const line = (extra: Record<string, unknown> = {}) => ({
  sku: product.sku,
  options: { [textOption]: 'Hi' },
  optionsFiles: { [fileOption]: { name: 'art.png', base64: PNG.toString('base64') } },
  ...extra,
});
/** The key of the file the newest cart line refers to. */
const newestLineKey = async () =>
  (
    await rows<{ k: string }>(
      t.database.db,
      sql`SELECT split_part(value, ':', 2) AS k FROM cart_items, jsonb_each_text(buy_request->'options')
    WHERE value LIKE 'file:%' ORDER BY cart_items.id DESC LIMIT 1`,
    )
  )[0]?.k;
const ctxAt = (now: Date) => ({ ...t.systemCtx(), now });

describe('uploads are written only for accepted lines', () => {
  test('a refused line leaves no file and no record, whatever refuses it', async () => {
    const beforeFiles = storedFiles();
    const beforeKeys = await fileKeys();
    const masked = await newCart();
    const refusals: [string, Record<string, unknown>][] = [
      ['a required option missing', line({ options: {} })],
      ['an option value too long', line({ options: { [textOption]: 'far too long for it' } })],
      ['a qty out of range', line({ qty: 0 })],
      ['more than the stock', line({ qty: 11 })],
      ['an unknown product', line({ sku: 'no-such-sku' })],
    ];
    for (const [what, body] of refusals) {
      const r = await addLine(masked, body);
      assert.equal(r.status, 400, `${what}: ${JSON.stringify(r.body)}`);
      assert.deepEqual(storedFiles(), beforeFiles, what);
      assert.deepEqual(await fileKeys(), beforeKeys, what);
    }
    // a full cart refuses the line too
    await setConfig(t.database.db, t.services.settings, 'checkout/cart/max_items', '1');
    try {
      const full = await newCart();
      assert.equal(
        (await addLine(full, { sku: (await createTestProduct(t, { price: 1, stockData: { qty: 5, isInStock: true } })).sku })).status,
        200,
      );
      const r = await addLine(full, line());
      assert.equal(r.status, 400, JSON.stringify(r.body));
      assert.deepEqual(storedFiles(), beforeFiles);
      assert.deepEqual(await fileKeys(), beforeKeys);
    } finally {
      await deleteConfig(t.database.db, t.services.settings, 'checkout/cart/max_items');
    }
  });

  test('an accepted line stores one file, which its line refers to', async () => {
    const beforeFiles = storedFiles();
    const masked = await newCart();
    const r = await addLine(masked, line());
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.items[0].options, [
      { label: 'Artwork', value: 'art.png' },
      { label: 'Engraving', value: 'Hi' },
    ]);
    const key = await newestLineKey();
    assert.ok(key);
    assert.deepEqual(
      storedFiles()
        .filter((f) => !beforeFiles.includes(f))
        .map((f) => path.basename(f)),
      [key],
    );
    assert.ok((await fileKeys()).includes(key));
  });
});

describe('the orphan pass', () => {
  test('removes files older than a day that no cart line or order refers to; keeps the others', async () => {
    // referenced by a cart line
    const inCart = await newCart();
    assert.equal((await addLine(inCart, line())).status, 200);
    // referenced by an order only (the closed cart's lines cleaned away)
    const ordered = await newCart();
    assert.equal((await addLine(ordered, line())).status, 200);
    assert.equal((await t.req('PUT', `${API}/guest-carts/${ordered}/shipping-address`, { body: TEST_ADDRESS })).status, 200);
    const placed = await t.req('POST', `${API}/guest-carts/${ordered}/place-order`, {
      body: {
        billingAddress: { sameAsShipping: true },
        shippingMethod: 'flatrate_flatrate',
        paymentMethod: 'checkmo',
        guestEmail: 'files@example.com',
      },
    });
    assert.equal(placed.status, 201, JSON.stringify(placed.body));
    await t.database.db.execute(sql`DELETE FROM cart_items WHERE cart_id = (SELECT id FROM carts WHERE masked_id = ${ordered})`);
    // an orphan: its line was removed from the cart
    const dropped = await newCart();
    const added = await addLine(dropped, line());
    assert.equal(added.status, 200);
    assert.equal((await t.req('DELETE', `${API}/guest-carts/${dropped}/items/${added.body.items[0].id}`)).status, 200);
    // a file on disk with no record (a write whose record never came)
    const stray = path.join(optionsDir(), 'z', 'z', 'zz'.padEnd(32, 'z'));
    fs.mkdirSync(path.dirname(stray), { recursive: true });
    fs.writeFileSync(stray, 'stray');

    const referenced = async () =>
      new Set(
        (
          await rows<{ k: string }>(
            t.database.db,
            sql`SELECT split_part(value, ':', 2) AS k FROM (
        SELECT buy_request FROM cart_items UNION ALL SELECT buy_request FROM order_items) b, jsonb_each_text(b.buy_request->'options') WHERE value LIKE 'file:%'`,
          )
        ).map((r) => r.k),
      );
    const keep = await referenced();
    const all = await fileKeys();
    const orphans = all.filter((k) => !keep.has(k));
    assert.ok(orphans.length >= 1, 'the removed line left an orphan');
    assert.ok(keep.size >= 2);

    // young files stay, orphans included
    assert.equal(await purgeOrphanOptionFiles(ctxAt(new Date())), 0);
    assert.deepEqual(await fileKeys(), all);
    assert.ok(fs.existsSync(stray));

    // a day and more later the orphans go, records and files; referenced files stay
    const removed = await purgeOrphanOptionFiles(ctxAt(new Date(Date.now() + DAY + 60_000)));
    assert.equal(removed, orphans.length + 1);
    assert.deepEqual(
      await fileKeys(),
      all.filter((k) => keep.has(k)),
    );
    const onDisk = new Set(storedFiles().map((f) => path.basename(f)));
    for (const k of orphans) assert.ok(!onDisk.has(k), k);
    for (const k of keep) assert.ok(onDisk.has(k), k);
    assert.ok(!fs.existsSync(stray));
  });
});

describe('upload rate limit', () => {
  test('uploads are limited per IP (429); other IPs and lines without a file are not', async () => {
    await setConfig(t.database.db, t.services.settings, 'api/rate_limit/cart_option_upload', '2');
    try {
      const ip = freshIp();
      const masked = await newCart();
      assert.equal((await addLine(masked, line(), ip)).status, 200);
      assert.equal((await addLine(masked, line({ qty: 11 }), ip)).status, 400, 'a refused upload counts too');
      const limited = await addLine(masked, line(), ip);
      assert.equal(limited.status, 429, JSON.stringify(limited.body));
      assert.equal(limited.body.error, 'too_many_requests');
      assert.equal((await addLine(masked, line(), freshIp())).status, 200);
      const plain = await createTestProduct(t, { price: 1, stockData: { qty: 5, isInStock: true } });
      assert.equal((await addLine(masked, { sku: plain.sku }, ip)).status, 200);
    } finally {
      await deleteConfig(t.database.db, t.services.settings, 'api/rate_limit/cart_option_upload');
    }
  });
});
