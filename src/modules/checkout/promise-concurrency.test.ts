/**
 * Placements racing for one coupon or one gift card, spread over two app instances on one database (and, on
 * PostgreSQL, over a second server process): the ones that get the reduction are exactly as many as it
 * allows, every other one is refused with 409, and none is placed at a price its cart was not shown with.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { BuiltApp } from '../../app.js';
import { API, buildSecondApp, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { rows } from '../../platform/db.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { TEST_ADDRESS } from '../../../test/fixtures/checkout.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

let t: TestApp;
let second: BuiltApp;
let admin: string;

before(async () => {
  t = await buildTestApp();
  second = await buildSecondApp(t);
  admin = await t.tokens.admin();
});
after(async () => {
  await second.app.close();
  await t.close();
});

const PLACE = {
  billingAddress: { sameAsShipping: true },
  shippingMethod: 'flatrate_flatrate',
  paymentMethod: 'checkmo',
  guestEmail: 'race@example.com',
};

interface Answer {
  status: number;
  body: any;
}

type Placer = (maskedId: string) => Promise<Answer>;

const viaFirst: Placer = async (m) => {
  const r = await t.req('POST', `${API}/guest-carts/${m}/place-order`, { body: PLACE });
  return { status: r.status, body: r.body };
};
const viaSecond: Placer = async (m) => {
  const r = await second.app.inject({ method: 'POST', url: `${API}/guest-carts/${m}/place-order`, payload: PLACE });
  return { status: r.statusCode, body: r.json() };
};

async function guestCarts(n: number, sku: string): Promise<string[]> {
  return Promise.all(
    Array.from({ length: n }, async () => {
      const m = (await t.req('POST', `${API}/guest-carts`, { body: {} })).body.maskedId as string;
      assert.equal((await t.req('POST', `${API}/guest-carts/${m}/items`, { body: { sku, qty: 1 } })).status, 200);
      assert.equal((await t.req('PUT', `${API}/guest-carts/${m}/shipping-address`, { body: TEST_ADDRESS })).status, 200);
      const method = await t.req('PUT', `${API}/guest-carts/${m}/shipping-method`, {
        body: { carrierCode: 'flatrate', methodCode: 'flatrate' },
      });
      assert.equal(method.status, 200, method.text);
      return m;
    }),
  );
}

async function limitedCoupon(limit: number): Promise<{ id: number; code: string }> {
  const code = `RACE${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
  const r = await t.req('POST', `${API}/coupons`, {
    token: admin,
    body: { code, discountType: 'percent', discountAmount: 10, usageLimit: limit },
  });
  assert.equal(r.status, 201, r.text);
  return { id: r.body.id, code };
}

const summary = (answers: Answer[]) => answers.map((a) => `${a.status} ${a.body?.error ?? ''}`).join('; ');

/** 30 carts priced with a coupon limited to 3 uses, placed at once through `placers` in turn. */
async function couponRace(placers: Placer[]): Promise<void> {
  const p = await createTestProduct(t, { price: 50, stockData: { qty: 1000, isInStock: true } });
  const c = await limitedCoupon(3);
  const carts = await guestCarts(30, p.sku);
  for (const m of carts) {
    const r = await t.req('POST', `${API}/guest-carts/${m}/coupon`, { body: { couponCode: c.code } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.prices.discountAmount, 5);
  }
  const answers = await Promise.all(carts.map((m, i) => placers[i % placers.length](m)));
  const placed = answers.filter((a) => a.status === 201);
  assert.equal(placed.length, 3, summary(answers));
  for (const o of placed) {
    assert.equal(o.body.prices.discountAmount, 5, 'every placed order got the discount its cart showed');
    assert.equal(o.body.couponCode, c.code);
  }
  const refusals = answers.filter((a) => a.status !== 201);
  assert.equal(refusals.length, 27);
  for (const r of refusals) {
    assert.equal(r.status, 409, summary(answers));
    assert.equal(r.body.error, 'coupon_no_longer_valid');
  }
  const [n] = await rows<{ all: string; full: string }>(
    t.database.db,
    sql`SELECT count(*)::text AS all, count(*) FILTER (WHERE discount_amount = 0)::text AS full FROM orders o
        WHERE EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.id AND i.product_id = ${p.id})`,
  );
  assert.deepEqual(n, { all: '3', full: '0' }, 'no order at full price');
  assert.equal((await t.req('GET', `${API}/coupons/${c.id}`, { token: admin })).body.timesUsed, 3);
}

/** 10 carts of 60.00 each showing one 50.00 gift card, placed at once through `placers` in turn. */
async function giftcardRace(placers: Placer[]): Promise<void> {
  const p = await createTestProduct(t, { price: 55, stockData: { qty: 1000, isInStock: true } });
  const g = await t.req('POST', `${API}/giftcards`, { token: admin, body: { balance: 50 } });
  assert.equal(g.status, 201, g.text);
  const carts = await guestCarts(10, p.sku);
  for (const m of carts) {
    const r = await t.req('POST', `${API}/guest-carts/${m}/giftcards`, { body: { giftcardCode: g.body.code } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.prices.grandTotal, 10);
    assert.equal(r.body.prices.giftcardAmount, 50);
  }
  const answers = await Promise.all(carts.map((m, i) => placers[i % placers.length](m)));
  const placed = answers.filter((a) => a.status === 201);
  assert.equal(placed.length, 1, summary(answers));
  assert.equal(placed[0].body.prices.giftcardAmount, 50);
  assert.equal(placed[0].body.prices.grandTotal, 10);
  for (const r of answers.filter((a) => a.status !== 201)) {
    assert.equal(r.status, 409, summary(answers));
    assert.equal(r.body.error, 'giftcard_no_longer_valid');
  }
  const [n] = await rows<{ all: string }>(
    t.database.db,
    sql`SELECT count(*)::text AS all FROM orders o WHERE EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.id AND i.product_id = ${p.id})`,
  );
  assert.equal(n.all, '1', 'no order without the card');
  assert.equal((await t.req('GET', `${API}/giftcards/${g.body.id}`, { token: admin })).body.balance, 0);
}

describe('two app instances on one database', () => {
  test('30 placements against a coupon limited to 3: 3 discounted orders, 27 refusals with 409, none at full price', () =>
    couponRace([viaFirst, viaSecond]));
  test('10 carts sharing one gift card: 1 order with the card, 9 refusals with 409, none without it', () =>
    giftcardRace([viaFirst, viaSecond]));
});

/** A free port on the loopback interface. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

describe('two server processes on one PostgreSQL database', { skip: !process.env.TEST_DATABASE_URL }, () => {
  let child: ChildProcess | undefined;
  let base = '';
  let dataDir = '';

  before(async () => {
    const port = await freePort();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'commerce-second-process-'));
    child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/main.ts')], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        DATABASE_URL: t.databaseUrl!,
        PORT: String(port),
        HOST: '127.0.0.1',
        RATE_LIMITS: '0',
        DEMO: '1',
        DEMO_CATALOG: '0',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'error',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the second server exited with ${child.exitCode}`);
      try {
        if ((await fetch(`${base}${API}/store-config`)).ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error('the second server did not start within 60 s');
      await new Promise((r) => setTimeout(r, 200));
    }
  });
  after(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const viaProcess: Placer = async (m) => {
    const r = await fetch(`${base}${API}/guest-carts/${m}/place-order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(PLACE),
    });
    return { status: r.status, body: await r.json() };
  };

  test('30 placements against a coupon limited to 3, over both processes: 3 discounted, 27 refused with 409', () =>
    couponRace([viaFirst, viaProcess]));
  test('10 carts sharing one gift card, over both processes: 1 order with the card, 9 refused with 409', () =>
    giftcardRace([viaProcess, viaFirst]));
});
