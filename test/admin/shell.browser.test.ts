/**
 * The back office's frame in Chromium: signing in with a password and with TOTP, the dashboard, the orders grid,
 * the menu cut to the role, the language of the user, a tablet's width, signing out; axe-core on each screen.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { assertAccessible, browserSkip, createStaff, signIn, startBackOffice, totpCode, type BackOffice } from '../fixtures/browser.js';
import { placeTestOrder } from '../fixtures/checkout.js';
import { API } from '../helpers.js';
import { mailOutbox } from '../../src/platform/tables.js';
import { desc, eq } from 'drizzle-orm';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('the back office in Chromium: sign-in, dashboard, orders grid', { skip: browserSkip }, () => {
  let bo: BackOffice;
  before(async () => {
    bo = await startBackOffice();
    // orders of today for the dashboard to show
    for (let i = 0; i < 3; i++) await placeTestOrder(bo.t);
  });
  after(() => bo?.close());

  test('the sign-in screen is accessible, a wrong password is said at the form, the right one opens the dashboard', async () => {
    const page = await bo.page();
    await page.goto(`${bo.base}/`);
    await page.waitForURL(/\/admin\/sign-in/);
    await page.getByRole('heading', { name: 'Sign in to the back office' }).waitFor();
    await assertAccessible(page, 'sign-in');

    await page.getByLabel('User name').fill('admin');
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    assert.match((await page.getByRole('alert').textContent()) ?? '', /./);

    await page.getByLabel('Password').fill('Admin123!');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Revenue per period' }).waitFor();
    await page.getByRole('heading', { name: 'Latest orders' }).waitFor();
    await page.getByRole('definition').filter({ hasText: /^3$/ }).waitFor();
    await assertAccessible(page, 'dashboard');
    // the README's picture of the back office: UPDATE_SCREENSHOTS=1 writes it
    const shot = await page.screenshot({ fullPage: false });
    assert.equal(shot.subarray(1, 4).toString(), 'PNG');
    if (process.env.UPDATE_SCREENSHOTS === '1') {
      fs.mkdirSync(path.join(ROOT, 'docs/images'), { recursive: true });
      fs.writeFileSync(path.join(ROOT, 'docs/images/back-office.png'), shot);
    }

    // a reload keeps the session (the refresh cookie and this tab's CSRF token), without asking again
    await page.reload();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    assert.ok(page.url().endsWith('/admin/'), page.url());
  });

  test("the first screen's JavaScript is under 250 KB compressed; every other screen's comes when it is opened", async () => {
    const page = await bo.page();
    const scripts: Promise<{ url: string; size: number }>[] = [];
    page.on('response', (r) => {
      if (r.request().resourceType() === 'script') scripts.push(r.body().then((b) => ({ url: r.url(), size: gzipSync(b).length })));
    });
    await page.goto(`${bo.base}/sign-in`);
    await page.getByRole('heading', { name: 'Sign in to the back office' }).waitFor();
    const first = await Promise.all(scripts);
    const total = first.reduce((n, s) => n + s.size, 0);
    assert.ok(first.length > 0, 'scripts were loaded');
    assert.ok(total < 250 * 1024, `the sign-in screen loads ${Math.round(total / 1024)} KB of compressed JavaScript`);
    // the grids' table and the dashboard's chart are not part of it
    assert.ok(!first.some((s) => /DataGrid|Chart|RichTextEditor/.test(s.url)), first.map((s) => s.url).join(', '));
  });

  test('a forgotten password: the link is mailed, the reset page sets a new one, which signs in', async () => {
    const staff = await createStaff(bo.t, ['orders/read']);
    const page = await bo.page();
    await page.goto(`${bo.base}/sign-in`);
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await assertAccessible(page, 'password reset request');
    await page.getByLabel('User name or email').fill(staff.username);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('If the account exists, a link to reset its password is on its way').waitFor();
    const [mail] = await bo.t.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, `${staff.username}@example.com`))
      .orderBy(desc(mailOutbox.id));
    const link = /https?:\/\/\S+\/reset-password\?token=[\w-]+/.exec(mail?.textBody ?? '')?.[0];
    assert.ok(link, mail?.textBody);

    await page.goto(`${bo.base}/reset-password${link.slice(link.indexOf('?'))}`);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await assertAccessible(page, 'password reset');
    await page.getByLabel('New password', { exact: true }).fill('Another-Pass-42');
    await page.getByLabel('Repeat the new password').fill('Another-Pass-41');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('The two passwords differ.').waitFor();
    await page.getByLabel('Repeat the new password').fill('Another-Pass-42');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Your password is changed. Sign in with it now.').waitFor();
    const token = await bo.t.req('POST', `${API}/auth/token`, {
      body: { grant_type: 'admin_user', username: staff.username, password: 'Another-Pass-42' },
    });
    assert.equal(token.status, 200, token.text);
  });

  test('a user with TOTP is asked for the code after the password, and gets in with it', async () => {
    const staff = await createStaff(bo.t, ['all'], { totp: true });
    const page = await bo.page();
    await page.goto(`${bo.base}/sign-in`);
    await page.getByLabel('User name').fill(staff.username);
    await page.getByLabel('Password').fill(staff.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Authentication code').waitFor();
    await assertAccessible(page, 'sign-in, second factor');
    await page.getByLabel('Authentication code').fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').waitFor();
    // a code of the next step: the one of this step may have been used by the setup
    await page.getByLabel('Authentication code').fill(totpCode(staff.secret!, Date.now() + 30_000));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  });

  test('the orders grid finds an order by its number, and is accessible', async () => {
    const order = await placeTestOrder(bo.t);
    const page = await bo.page();
    await signIn(page, bo.base);
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Orders' }).click();
    await page.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
    await page.getByRole('table', { name: 'Orders' }).getByRole('row').nth(1).waitFor();
    await assertAccessible(page, 'orders grid');
    await page.getByRole('group', { name: 'Filters' }).getByLabel('Order #').fill(order.incrementId);
    await page.getByRole('group', { name: 'Filters' }).getByLabel('Order #').press('Enter');
    await page.getByText('1 record', { exact: true }).waitFor();
    const rows = page.getByRole('table', { name: 'Orders' }).getByRole('row');
    assert.equal(await rows.count(), 2, 'the header and the one order');
    assert.match((await rows.nth(1).textContent()) ?? '', new RegExp(order.incrementId));
  });

  test('a role without sales permission sees no Orders menu, and its menu has only what it may read', async () => {
    const staff = await createStaff(bo.t, ['products/all', 'categories/read']);
    const page = await bo.page();
    await signIn(page, bo.base, staff.username, staff.password);
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    const links = (await menu.getByRole('link').allTextContents()).map((s) => s.trim());
    assert.deepEqual(links, ['Products', 'Categories']);
    assert.equal(await menu.getByRole('link', { name: 'Orders' }).count(), 0);
  });

  test('a German-speaking user gets the German catalog', async () => {
    const staff = await createStaff(bo.t, ['all'], { locale: 'de_DE' });
    const page = await bo.page();
    await signIn(page, bo.base, staff.username, staff.password);
    await page.getByRole('navigation', { name: 'Hauptmenü' }).getByRole('link', { name: 'Bestellungen' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'de');
  });

  test('on a tablet the menu opens from its button, by keyboard; signing out ends the session', async () => {
    const page = await bo.page({ width: 820, height: 1180 });
    await signIn(page, bo.base);
    const toggle = page.getByRole('button', { name: 'Menu', exact: true });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    await toggle.focus();
    await page.keyboard.press('Enter');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Orders' }).click();
    await page.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
    await assertAccessible(page, 'orders grid on a tablet');

    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the back office' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in to the back office' }).waitFor();
  });
});
