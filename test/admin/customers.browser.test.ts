/**
 * The customer and marketing screens in Chromium: a customer found by search, renamed, given an address made the
 * default billing one and sent a password reset (the mail queued); a coupon created and found in its grid; a gift
 * card's balance and status changed with the change in its history; a newsletter subscriber unsubscribed in bulk;
 * a role without customer permissions sees no Customers menu; axe-core on every screen of the two areas.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { desc, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { API } from '../helpers.js';
import { assertAccessible, browserSkip, createStaff, signIn, startBackOffice, type BackOffice } from '../fixtures/browser.js';
import { mailOutbox } from '../../src/platform/tables.js';

describe('the customer and marketing screens in Chromium', { skip: browserSkip }, () => {
  let bo: BackOffice;
  let page: Page;
  let admin: string;
  const tag = Date.now().toString(36);
  const email = `greta-${tag}@example.com`;
  let customerId: number;

  before(async () => {
    bo = await startBackOffice();
    admin = await bo.t.tokens.admin();
    const c = await bo.t.req('POST', `${API}/customers`, {
      token: admin,
      body: { email, password: 'Secret-123', firstname: 'Greta', lastname: `Old${tag}` },
    });
    assert.equal(c.status, 201, c.text);
    customerId = c.body.id;
    page = await bo.page();
    await signIn(page, bo.base);
  });
  after(() => bo?.close());

  const menu = (name: string) => page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name, exact: true }).click();
  const heading = (name: string) => page.getByRole('heading', { name, level: 1 }).waitFor();
  const status = (text: string | RegExp) => page.getByRole('status').filter({ hasText: text }).waitFor();
  const accept = () => page.once('dialog', (d) => void d.accept());

  test('a customer is found by search, renamed, given a default billing address and sent a password reset', async () => {
    await menu('All customers');
    await heading('Customers');
    await page.getByRole('searchbox', { name: 'Search' }).fill(`Old${tag}`);
    await page.getByText('1 record', { exact: true }).waitFor();
    await assertAccessible(page, 'customers grid');
    await page.getByRole('link', { name: `Greta Old${tag}` }).click();
    await heading(`Customer: Greta Old${tag}`);
    await assertAccessible(page, 'customer account');

    await page.getByLabel('Last name', { exact: true }).fill(`New${tag}`);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await status('Saved');
    await heading(`Customer: Greta New${tag}`);
    const renamed = await bo.t.req('GET', `${API}/customers/${customerId}`, { token: admin });
    assert.equal(renamed.body.lastname, `New${tag}`);

    // an address added as no default, then made the default billing address
    await page.getByRole('tab', { name: 'Addresses' }).click();
    await page.getByText('No addresses yet.').waitFor();
    await page.getByRole('button', { name: 'Add address' }).click();
    const dialog = page.getByRole('dialog', { name: 'New address' });
    await dialog.getByLabel('Street address', { exact: true }).fill(`${tag} Elm Street`);
    await dialog.getByLabel('City', { exact: true }).fill('Springfield');
    await dialog.getByLabel('Postal code').fill('12345');
    await dialog.getByLabel('Telephone').fill('555-0100');
    await dialog.getByLabel('Country').selectOption('GB');
    await dialog.getByLabel('Default billing address').uncheck();
    await dialog.getByLabel('Default shipping address').uncheck();
    await assertAccessible(page, 'address dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await status('Address added.');
    const name = `${tag} Elm Street, Springfield`;
    let book = await bo.t.req('GET', `${API}/customers/${customerId}`, { token: admin });
    assert.equal(book.body.addresses.length, 1);
    assert.equal(book.body.defaultBillingAddress, undefined);
    await assertAccessible(page, 'customer addresses');
    await page.getByRole('button', { name: `Make default billing: ${name}` }).click();
    await status('Default billing address changed.');
    book = await bo.t.req('GET', `${API}/customers/${customerId}`, { token: admin });
    assert.equal(book.body.defaultBillingAddress?.id, book.body.addresses[0].id);
    assert.deepEqual(book.body.defaultBillingAddress?.street, [`${tag} Elm Street`]);
    assert.equal(book.body.defaultShippingAddress, undefined);

    for (const tab of ['Orders', 'Carts', 'Wishlist', 'Newsletter']) {
      await page.getByRole('tab', { name: tab }).click();
      await page.getByRole('tabpanel', { name: tab }).waitFor();
      await page.getByRole('status').filter({ hasText: 'Loading' }).waitFor({ state: 'detached' });
      await assertAccessible(page, `customer ${tab.toLowerCase()}`);
    }

    accept();
    await page.getByRole('button', { name: 'Send password reset' }).click();
    await status(`A password reset link is on its way to ${email}.`);
    const [mail] = await bo.t.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email)).orderBy(desc(mailOutbox.id));
    assert.ok(mail, 'a reset mail is queued');
    assert.equal(mail.template, 'customer/password_reset');
  });

  test('a customer is created without a password and mailed a reset link; a customer group is created', async () => {
    await menu('All customers');
    await page.getByRole('link', { name: 'New customer' }).click();
    await heading('New customer');
    const invited = `invited-${tag}@example.com`;
    await page.getByLabel('Email', { exact: true }).fill(invited);
    await page.getByLabel('First name', { exact: true }).fill('Ivo');
    await page.getByLabel('Last name', { exact: true }).fill(`Invited${tag}`);
    await page.getByLabel('Customer group').selectOption({ label: 'Wholesale' });
    await assertAccessible(page, 'new customer form');
    await page.getByRole('button', { name: 'Create customer' }).click();
    await heading(`Customer: Ivo Invited${tag}`);
    // no password typed: the customer is mailed a link to choose one
    const made = await bo.t.req('GET', `${API}/customers`, { token: admin, query: { email: invited } });
    assert.equal(made.body.totalItems, 1);
    assert.equal(made.body.member[0].groupId, 2);
    const [invite] = await bo.t.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, invited));
    assert.equal(invite?.template, 'customer/password_reset');

    await menu('Customer groups');
    await heading('Customer groups');
    await page.getByRole('table', { name: 'Customer groups' }).getByRole('row').nth(1).waitFor();
    await assertAccessible(page, 'customer groups grid');
    await page.getByRole('link', { name: 'New customer group' }).click();
    await heading('New customer group');
    await page.getByLabel('Group name').fill(`VIP ${tag}`.slice(0, 32));
    await assertAccessible(page, 'new customer group form');
    await page.getByRole('button', { name: 'Save' }).click();
    await heading(`Customer group: ${`VIP ${tag}`.slice(0, 32)}`);
    const groups = await bo.t.req('GET', `${API}/customer-groups`, { token: admin, query: { search: `VIP ${tag}` } });
    assert.equal(groups.body.totalItems, 1);
  });

  test('a coupon with a code is created and found in the coupons grid', async () => {
    const code = `SPRING-${tag}`.toUpperCase();
    await menu('Coupons');
    await heading('Coupons');
    await assertAccessible(page, 'coupons grid');
    await page.getByRole('link', { name: 'New coupon' }).click();
    await heading('New coupon');
    await page.getByLabel('Coupon code').fill(code);
    await page.getByLabel('Discount type').selectOption('cart_fixed');
    await page.getByLabel('Discount amount').fill('15');
    await page.getByLabel('Minimum subtotal').fill('100');
    await assertAccessible(page, 'new coupon form');
    await page.getByRole('button', { name: 'Save' }).click();
    await heading(`Coupon: ${code}`);
    await assertAccessible(page, 'coupon form');

    await page.getByRole('link', { name: 'Back', exact: true }).click();
    await heading('Coupons');
    await page.getByRole('searchbox', { name: 'Search' }).fill(code);
    await page.getByText('1 record', { exact: true }).waitFor();
    await page.getByRole('table', { name: 'Coupons' }).getByRole('link', { name: code }).waitFor();
    const stored = await bo.t.req('GET', `${API}/coupons`, { token: admin, query: { code } });
    assert.equal(stored.body.totalItems, 1);
    assert.equal(stored.body.member[0].discountType, 'cart_fixed');
    assert.equal(stored.body.member[0].discountAmount, 15);
    assert.equal(stored.body.member[0].minimumSubtotal, 100);
  });

  test("a gift card's balance and status are changed and the change shows in its history", async () => {
    const created = await bo.t.req('POST', `${API}/giftcards`, {
      token: admin,
      body: { initialBalance: 50, recipientName: `Rita ${tag}` },
    });
    assert.equal(created.status, 201, created.text);
    await menu('Gift cards');
    await heading('Gift cards');
    await page.getByRole('searchbox', { name: 'Search' }).fill(`Rita ${tag}`);
    await page.getByText('1 record', { exact: true }).waitFor();
    await assertAccessible(page, 'gift cards grid');
    await page.getByRole('link', { name: created.body.code }).click();
    await heading(`Gift card ${created.body.code}`);
    await assertAccessible(page, 'gift card page');
    await page.getByLabel(/^Balance \(/).fill('35');
    await page.getByLabel('Comment').fill('Goodwill');
    await page.getByLabel('Status', { exact: true }).selectOption('disabled');
    await page.getByRole('button', { name: 'Save' }).click();
    await status('Saved');
    const history = page.getByRole('table', { name: 'Balance history' });
    await history.getByRole('row').filter({ hasText: 'Goodwill' }).filter({ hasText: 'Adjusted' }).waitFor();
    const read = await bo.t.req('GET', `${API}/giftcards/${created.body.id}`, { token: admin });
    assert.equal(read.body.balance, 35);
    assert.equal(read.body.status, 'disabled');
    assert.equal(read.body.history[0].action, 'adjusted');
    assert.equal(read.body.history[0].amount, -15);
    assert.equal(read.body.history[0].comment, 'Goodwill');

    await page.getByRole('link', { name: 'Back', exact: true }).click();
    await page.getByRole('link', { name: 'New gift card' }).click();
    await heading('New gift card');
    await assertAccessible(page, 'new gift card form');
  });

  test('a newsletter subscriber is unsubscribed in bulk', async () => {
    const address = `news-${tag}@example.com`;
    const sub = await bo.t.req('POST', `${API}/newsletter/subscribers`, { token: admin, body: { email: address } });
    assert.equal(sub.status, 201, sub.text);
    await menu('Newsletter subscribers');
    await heading('Newsletter subscribers');
    await page.getByRole('searchbox', { name: 'Search' }).fill(address);
    await page.getByText('1 record', { exact: true }).waitFor();
    await assertAccessible(page, 'newsletter grid');
    await page.getByRole('checkbox', { name: `Select row ${sub.body.id}` }).check();
    accept();
    await page.getByRole('group', { name: 'Actions on the selected rows' }).getByRole('button', { name: 'Unsubscribe' }).click();
    await page.getByRole('table', { name: 'Newsletter subscribers' }).getByText('Unsubscribed', { exact: true }).waitFor();
    const read = await bo.t.req('GET', `${API}/newsletter/subscribers/${sub.body.id}`, { token: admin });
    assert.equal(read.body.status, 'unsubscribed');
  });

  test('a role without customer permissions sees no Customers menu', async () => {
    const staff = await createStaff(bo.t, ['orders/read', 'coupons/read']);
    const other = await bo.page();
    await signIn(other, bo.base, staff.username, staff.password);
    const nav = other.getByRole('navigation', { name: 'Main menu' });
    await nav.getByRole('link', { name: 'Orders' }).waitFor();
    await nav.getByRole('link', { name: 'Coupons' }).waitFor();
    assert.equal(await nav.getByRole('link', { name: 'All customers' }).count(), 0);
    assert.equal(await nav.getByRole('link', { name: 'Customer groups' }).count(), 0);
    assert.equal(await nav.getByText('Customers', { exact: true }).count(), 0);
  });
});
