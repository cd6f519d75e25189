/**
 * The system screens and the own account in Chromium: a configuration value changed in a store view's scope and
 * read back over the API; a role without sales permission and a user in it, who sees no Orders menu; TOTP set
 * up on the account page and used to sign in; an API user created on its screen whose key works over the API;
 * axe-core on every screen of the area; the configuration at a tablet's width, the permission tree by keyboard.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { assertAccessible, browserSkip, createStaff, signIn, startBackOffice, totpCode, type BackOffice } from '../fixtures/browser.js';
import { createTestProduct } from '../fixtures/catalog.js';
import { startReceiver, type Receiver } from '../fixtures/webhooks.js';

const API = '/api/rest/v2';

describe('the system screens and the own account in Chromium', { skip: browserSkip }, () => {
  let bo: BackOffice;
  let admin: string;
  let rx: Receiver;
  before(async () => {
    bo = await startBackOffice({ env: { WEBHOOK_POLL: '50', WEBHOOK_RETRY_BASE: '100' } });
    admin = await bo.t.tokens.admin();
    rx = await startReceiver();
  });
  after(async () => {
    await rx?.close();
    await bo?.close();
  });

  /** Opens a screen of the menu's System group (or the address) and waits for its heading. */
  async function open(page: Page, path: string, heading: string | RegExp): Promise<void> {
    await page.goto(`${bo.base}${path}`);
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  }

  test('a configuration value set in a store view scope is read back over the API, with its history', async () => {
    const page = await bo.page();
    await signIn(page, bo.base);
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Configuration' }).click();
    await page.getByRole('heading', { name: 'Configuration', level: 1 }).waitFor();
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link').first().waitFor();
    await page.goto(`${bo.base}/configuration?section=general`);
    const field = page.locator('#cfg-general-store_information-name');
    await field.waitFor();

    await page.getByLabel('Scope').selectOption('stores:1');
    await page.waitForURL(/scope=stores/);
    const inherit = page.getByRole('checkbox', { name: /Use the website's value: / }).first();
    await page.getByText('In effect from:').first().waitFor();
    const storeName = page.locator('.config-field', { has: field });
    await storeName.getByRole('checkbox').uncheck();
    assert.equal(await field.isEnabled(), true);
    await field.fill('Browser Store View Name');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    assert.equal(await storeName.getByRole('checkbox').isChecked(), false);
    await inherit.waitFor();
    await assertAccessible(page, 'configuration, store view scope');

    const read = await bo.t.req('GET', `${API}/configuration?scope=stores&scopeId=1&section=general`, { token: admin });
    assert.equal(read.status, 200, read.text);
    const fields = read.body.sections.flatMap((s: any) => s.groups.flatMap((g: any) => g.fields));
    const name = fields.find((f: any) => f.path === 'general/store_information/name');
    assert.equal(name.value, 'Browser Store View Name');
    assert.equal(name.source, 'stores');
    const storeConfig = await bo.t.req('GET', `${API}/default/config`);
    assert.equal(storeConfig.body.storeName, 'Browser Store View Name');
    const atDefault = await bo.t.req('GET', `${API}/configuration?scope=default&section=general`, { token: admin });
    const defaultName = atDefault.body.sections
      .flatMap((s: any) => s.groups.flatMap((g: any) => g.fields))
      .find((f: any) => f.path === name.path);
    assert.notEqual(defaultName.value, 'Browser Store View Name', 'the default scope is untouched');

    await page.getByRole('link', { name: 'History of changes' }).click();
    await page.getByRole('heading', { name: 'Configuration history', level: 1 }).waitFor();
    await page.getByRole('table', { name: 'Configuration history' }).getByText('Browser Store View Name').waitFor();
    await assertAccessible(page, 'configuration history');

    // at a tablet's width the sections go above the fields, and nothing scrolls sideways
    await page.setViewportSize({ width: 820, height: 1180 });
    await page.goto(`${bo.base}/configuration?section=general`);
    await field.waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px`);
  });

  test('a role without sales permission and a user in it, made on their screens: no Orders menu for that user', async () => {
    const page = await bo.page();
    await signIn(page, bo.base);
    await open(page, '/admin-roles', 'Staff roles');
    await page.getByRole('table', { name: 'Staff roles' }).getByRole('link', { name: 'Administrators' }).waitFor();
    await assertAccessible(page, 'staff roles');
    await page.getByRole('link', { name: 'New staff role' }).click();
    await page.getByRole('heading', { name: 'New staff role', level: 1 }).waitFor();
    // the tree is reached by keyboard: "every permission" follows the name, and covers every box
    await page.getByLabel('Role name').focus();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.closest('label')?.textContent), 'Every permission');
    await page.keyboard.press('Space');
    assert.equal(await page.getByRole('checkbox', { name: 'Orders: Read' }).isDisabled(), true);
    assert.equal(await page.getByRole('checkbox', { name: 'Orders: Read' }).isChecked(), true);
    await page.keyboard.press('Space');
    await page.getByLabel('Role name').fill('Catalog editors');
    await page.getByRole('checkbox', { name: 'Catalog', exact: true }).check();
    await page.getByRole('checkbox', { name: 'Reports: Read' }).check();
    assert.equal(await page.getByRole('checkbox', { name: 'Orders: Read' }).isChecked(), false);
    assert.equal(await page.getByRole('checkbox', { name: 'Products: Delete' }).isChecked(), true);
    await assertAccessible(page, 'staff role form');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Staff role Catalog editors', level: 1 }).waitFor();
    const roles = await bo.t.req('GET', `${API}/admin-roles`, { token: admin, headers: { accept: 'application/json' } });
    const role = roles.body.find((r: { name: string }) => r.name === 'Catalog editors');
    assert.deepEqual([...role.permissions].sort(), [
      'attribute-sets/all',
      'categories/all',
      'inventory/all',
      'product-attributes/all',
      'products/all',
      'reports/read',
      'reviews/all',
      'tags/all',
    ]);

    await open(page, '/admin-users', 'Staff users');
    await page.getByRole('table', { name: 'Staff users' }).getByRole('link', { name: 'admin', exact: true }).waitFor();
    await assertAccessible(page, 'staff users');
    await page.getByRole('link', { name: 'New staff user' }).click();
    await page.getByRole('heading', { name: 'New staff user', level: 1 }).waitFor();
    await page.getByLabel('User name').fill('catalog-ed');
    await page.getByLabel('Email').fill('catalog-ed@example.com');
    await page.getByLabel('First name').fill('Cat');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Role').selectOption({ label: 'Catalog editors' });
    await page.getByRole('button', { name: 'Create' }).click();
    // the browser holds the form at the field: nothing is sent with a password shorter than the API's minimum
    assert.equal(await page.getByLabel('Password', { exact: true }).evaluate((el) => (el as HTMLInputElement).validity.valid), false);
    await page.getByLabel('Password', { exact: true }).fill('lettersonly');
    await page.getByRole('button', { name: 'Create' }).click();
    await page
      .locator('.field-error')
      .filter({ hasText: /letters and digits/ })
      .waitFor();
    await page.getByLabel('Password', { exact: true }).fill('Catalog-Pass-123');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Staff user catalog-ed', level: 1 }).waitFor();
    await assertAccessible(page, 'staff user form');

    const other = await bo.page();
    await signIn(other, bo.base, 'catalog-ed', 'Catalog-Pass-123');
    const menu = other.getByRole('navigation', { name: 'Main menu' });
    await menu.getByRole('link', { name: 'Products' }).waitFor();
    assert.equal(await menu.getByRole('link', { name: 'Orders' }).count(), 0);
    assert.equal(await menu.getByRole('link', { name: 'Invoices' }).count(), 0);
    assert.equal(await menu.getByRole('link', { name: 'Staff users' }).count(), 0);
  });

  test('TOTP set up on the account page, then the sign-in asks for a code and takes it', async () => {
    const staff = await createStaff(bo.t, ['orders/read']);
    const page = await bo.page();
    await signIn(page, bo.base, staff.username, staff.password);
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'My account' }).click();
    await page.getByRole('heading', { name: 'My account', level: 1 }).waitFor();
    await assertAccessible(page, 'own account');

    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await page.getByRole('img', { name: 'QR code of the authenticator set-up' }).waitFor();
    const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    assert.match(secret, /^[A-Z2-7]+=*$/);
    await assertAccessible(page, 'own account, TOTP set-up');
    await page.getByLabel('Code from the app').fill('000000');
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('alert').waitFor();
    await page.getByLabel('Code from the app').fill(totpCode(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await codes.first().waitFor();
    assert.equal(await codes.count(), 10);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.getByText('A code of your authenticator app is asked at each sign-in.').waitFor();

    const again = await bo.page();
    await again.goto(`${bo.base}/sign-in`);
    await again.getByLabel('User name').fill(staff.username);
    await again.getByLabel('Password').fill(staff.password);
    await again.getByRole('button', { name: 'Sign in' }).click();
    await again.getByLabel('Authentication code').waitFor();
    // a code of the next step: the one of this step was used to turn TOTP on
    await again.getByLabel('Authentication code').fill(totpCode(secret, Date.now() + 30_000));
    await again.getByRole('button', { name: 'Verify' }).click();
    await again.locator('#main-nav').waitFor({ state: 'attached' });
    const me = await bo.t.req('GET', `${API}/admin-users/${staff.id}`, { token: admin });
    assert.equal(me.body.twofaEnabled, true);
  });

  test('an API user made on its screen: the key is shown once and works over the API', async () => {
    const page = await bo.page();
    await signIn(page, bo.base);
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'API users' }).click();
    await page.getByRole('heading', { name: 'API users', level: 1 }).waitFor();
    await page.getByRole('table', { name: 'API users' }).getByRole('link', { name: 'demo-admin' }).waitFor();
    await assertAccessible(page, 'API users');

    await page.getByRole('navigation', { name: 'API users and roles' }).getByRole('link', { name: 'API roles' }).click();
    await page.getByRole('heading', { name: 'API roles', level: 1 }).waitFor();
    await page.getByRole('table', { name: 'API roles' }).getByRole('link', { name: 'Administrators' }).waitFor();
    await assertAccessible(page, 'API roles');
    await page.getByRole('link', { name: 'New API role' }).click();
    await page.getByLabel('Role name').fill('Order readers');
    await page.getByRole('checkbox', { name: 'Orders: Read' }).check();
    await assertAccessible(page, 'API role form');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'API role Order readers', level: 1 }).waitFor();

    await open(page, '/api-users/new', 'New API user');
    await page.getByLabel('User name').fill('erp-sync');
    await page.getByLabel('Email').fill('erp@example.com');
    await page.getByLabel('Role', { exact: true }).selectOption({ label: 'Order readers' });
    await page.getByRole('button', { name: 'Create' }).click();
    const dialog = page.getByRole('dialog', { name: 'The API key' });
    await dialog.waitFor();
    const key = (await dialog.locator('code').textContent())!.trim();
    assert.match(key, /^[0-9a-f]{64}$/);
    await assertAccessible(page, 'API user, key shown once');
    await dialog.getByRole('button', { name: 'I have stored it' }).click();
    await page.getByRole('heading', { name: 'API user erp-sync', level: 1 }).waitFor();
    assert.equal(await page.getByText(key).count(), 0, 'the key is gone once closed');
    await assertAccessible(page, 'API user form');

    const token = await bo.t.req('POST', `${API}/auth/token`, { body: { grant_type: 'api_user', username: 'erp-sync', api_key: key } });
    assert.equal(token.status, 200, token.text);
    assert.equal((await bo.t.req('GET', `${API}/orders`, { token: token.body.token })).status, 200);
    assert.equal((await bo.t.req('GET', `${API}/api-users`, { token: token.body.token })).status, 403, 'only what its role allows');
  });

  test('webhooks, a delivery, the activity log and the stores are accessible', async () => {
    const hook = await bo.t.req('POST', `${API}/webhooks`, {
      token: admin,
      body: { url: rx.url('/browser-hook'), events: ['product.*'], description: 'Browser test' },
    });
    assert.equal(hook.status, 201, hook.text);
    await createTestProduct(bo.t);
    await rx.waitFor(1, '/browser-hook');
    const page = await bo.page();
    await signIn(page, bo.base);

    await open(page, '/webhooks', 'Webhooks');
    await page
      .getByRole('table', { name: 'Webhooks' })
      .getByRole('link', { name: rx.url('/browser-hook') })
      .click();
    await page.getByRole('heading', { name: `Subscription ${rx.url('/browser-hook')}`, level: 1 }).waitFor();
    const deliveries = page.getByRole('table', { name: 'Deliveries' });
    await deliveries.getByRole('row').nth(1).getByRole('link').waitFor();
    await assertAccessible(page, 'webhook subscription');
    await deliveries.getByRole('row').nth(1).getByRole('link').click();
    await page.getByRole('heading', { name: /^Delivery \d+: product\.created$/, level: 1 }).waitFor();
    await assertAccessible(page, 'webhook delivery');
    await open(page, '/webhooks', 'Webhooks');
    await assertAccessible(page, 'webhooks');
    await page.getByRole('link', { name: 'New subscription' }).click();
    await page.getByRole('heading', { name: 'New subscription', level: 1 }).waitFor();
    await page.getByRole('checkbox', { name: 'Every order event' }).waitFor();
    await assertAccessible(page, 'new webhook subscription');

    await open(page, '/activity-log', 'Activity log');
    await page.getByRole('group', { name: 'Filters' }).getByLabel('Operation').fill('webhooks.create');
    await page.getByRole('group', { name: 'Filters' }).getByLabel('Operation').press('Enter');
    await page.getByText('1 record', { exact: true }).waitFor();
    await assertAccessible(page, 'activity log');
    await page.getByRole('table', { name: 'Activity log' }).getByRole('row').nth(1).getByRole('link').click();
    await page.getByRole('heading', { name: /^Activity \d+: webhooks\.create$/, level: 1 }).waitFor();
    await page.getByText(rx.url('/browser-hook')).waitFor();
    await assertAccessible(page, 'activity log entry');

    await open(page, '/stores', 'Stores');
    await page.getByRole('table', { name: 'Stores' }).getByRole('link').first().click();
    await page.getByRole('heading', { name: /^Store view /, level: 1 }).waitFor();
    await assertAccessible(page, 'store view');
    await open(page, '/stores', 'Stores');
    await assertAccessible(page, 'stores');
  });
});
