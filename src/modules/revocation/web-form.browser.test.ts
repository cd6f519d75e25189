/**
 * The revocation web form in a real browser: the system's Chromium, driven by playwright-core, against the app on
 * a real socket. Without a Chromium binary the tests are skipped, except in CI (env CI set), where they fail.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { chromium, type Browser, type Page } from 'playwright-core';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { placeTestOrder } from '../../../test/fixtures/checkout.js';
import { revocationRequests } from './tables.js';

const executablePath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (p): p is string => !!p && fs.existsSync(p),
);
const MISSING = 'No Chromium binary found (CHROMIUM_PATH, /usr/bin/chromium, /usr/bin/chromium-browser)';
const skip = !executablePath && !process.env.CI ? `${MISSING}; install the chromium package to run the browser tests` : false;

describe('the revocation form in Chromium', { skip }, () => {
  let t: TestApp | undefined;
  let browser: Browser | undefined;
  let base: string;
  let admin: string;

  before(async () => {
    if (!executablePath) throw new Error(`${MISSING}; CI must install the chromium package`);
    t = await buildTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    admin = await t.tokens.admin();
    browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  async function openForm(): Promise<Page> {
    const page = await browser!.newPage();
    page.setDefaultTimeout(5000);
    const res = await page.goto(`${base}/revocation`);
    assert.equal(res?.status(), 200);
    return page;
  }

  /** The declarations of an order, as the back office reads them over the REST API. */
  async function declarations(orderId: number): Promise<{ id: number; orderId: number; reason?: string; verified: boolean }[]> {
    const res = await fetch(`${base}${API}/revocation-requests?orderId=${orderId}`, { headers: { authorization: `Bearer ${admin}` } });
    assert.equal(res.status, 200);
    return ((await res.json()) as { member: { id: number; orderId: number; reason?: string; verified: boolean }[] }).member;
  }

  test('a guest submits the form and the declaration is found through the admin API', async () => {
    const order = await placeTestOrder(t!);
    const page = await openForm();
    try {
      await page.getByLabel('Order number').fill(order.incrementId);
      await page.getByLabel('Email address').fill(order.customerEmail);
      await page.getByLabel('Reason').fill('The size does not fit');
      await page.getByRole('button', { name: 'Send revocation' }).click();
      await page.waitForURL(/\/revocation\/received\?r=/);
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Your revocation has been received');
      const body = (await page.locator('main').textContent()) ?? '';
      assert.ok(body.includes(order.incrementId), 'the order number');
      assert.match(body, /A receipt has been sent to your email address\./);

      const found = await declarations(order.id);
      assert.equal(found.length, 1);
      assert.equal(found[0].reason, 'The size does not fit');
      assert.equal(found[0].verified, false);
      assert.ok(body.includes(String(found[0].id)), 'the reference shown is the declaration id');
      const [row] = await t!.database.db.select().from(revocationRequests).where(eq(revocationRequests.id, found[0].id));
      assert.equal(row.channel, 'web_form');

      await page.reload();
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Your revocation has been received');
      assert.equal((await declarations(order.id)).length, 1, 'a reload declares nothing');
    } finally {
      await page.close();
    }
  });

  test('without the cookie behind its token the form is refused; the re-rendered form then goes through', async () => {
    const order = await placeTestOrder(t!);
    const page = await openForm();
    try {
      await page.getByLabel('Order number').fill(order.incrementId);
      await page.getByLabel('Email address').fill(order.customerEmail);
      await page.context().clearCookies();
      const [refused] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST'),
        page.getByRole('button', { name: 'Send revocation' }).click(),
      ]);
      assert.equal(refused.status(), 403);
      await page.waitForLoadState();
      assert.match((await page.getByRole('alert').textContent()) ?? '', /The form expired, please submit it again/);
      assert.equal((await declarations(order.id)).length, 0);

      assert.equal(await page.getByLabel('Order number').inputValue(), order.incrementId, 'the values are kept');
      await page.getByRole('button', { name: 'Send revocation' }).click();
      await page.waitForURL(/\/revocation\/received\?r=/);
      assert.equal((await declarations(order.id)).length, 1);
    } finally {
      await page.close();
    }
  });

  test('an email that does not match the order shows the error summary and marks the fields', async () => {
    const order = await placeTestOrder(t!);
    const page = await openForm();
    try {
      await page.getByLabel('Order number').fill(order.incrementId);
      await page.getByLabel('Email address').fill('someone.else@example.com');
      await page.getByRole('button', { name: 'Send revocation' }).click();
      await page.getByRole('alert').waitFor();
      assert.match((await page.getByRole('alert').textContent()) ?? '', /We could not find an order with this number and email address\./);
      assert.equal(await page.getByLabel('Order number').getAttribute('aria-invalid'), 'true');
      assert.equal(await page.getByLabel('Email address').inputValue(), 'someone.else@example.com');
      assert.equal((await declarations(order.id)).length, 0);
    } finally {
      await page.close();
    }
  });
});
