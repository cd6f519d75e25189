/**
 * Sales in the back office, in Chromium: find an order by its number in the grid, invoice half of it, ship that half
 * with a tracking number, refund one item, and see the totals and the state change on the order's page; hold and
 * release it, comment, download the invoice PDF; the invoices, shipments and credit memos grids and pages; a role
 * that may only read orders sees no action. axe-core on every sales screen and action dialog.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { API } from '../helpers.js';
import { assertAccessible, browserSkip, createStaff, signIn, startBackOffice, type BackOffice } from '../fixtures/browser.js';
import { createTestProduct } from '../fixtures/catalog.js';
import { placeTestOrder } from '../fixtures/checkout.js';
import type { OrderDto } from '../../src/modules/orders/schemas.js';

const money = (n: number) => `$${n.toFixed(2)}`;

/** The value the order page's totals list gives a label. */
async function total(page: Page, label: string): Promise<string> {
  const row = page
    .getByRole('region', { name: 'Order totals' })
    .locator('dl div')
    .filter({ has: page.getByText(label, { exact: true }) });
  return ((await row.locator('dd').textContent()) ?? '').trim();
}

describe('sales in the back office, in Chromium', { skip: browserSkip }, () => {
  let bo: BackOffice;
  let order: OrderDto;
  let lamp: string;
  let vase: string;
  before(async () => {
    bo = await startBackOffice();
    const a = await createTestProduct(bo.t, { name: 'Brass lamp', price: 10, stockData: { qty: 100, isInStock: true } });
    const b = await createTestProduct(bo.t, { name: 'Glass vase', price: 20, stockData: { qty: 100, isInStock: true } });
    lamp = a.name;
    vase = b.name;
    // two lamps and two vases: 60.00, shipping 5.00 an item
    order = await placeTestOrder(bo.t, {
      items: [
        { sku: a.sku, qty: 2 },
        { sku: b.sku, qty: 2 },
      ],
      guestEmail: 'sales.browser@example.com',
    });
  });
  after(() => bo?.close());

  const read = async (): Promise<OrderDto> => {
    const r = await bo.t.req('GET', `${API}/orders/${order.id}`, { token: await bo.t.tokens.admin() });
    assert.equal(r.status, 200, r.text);
    return r.body;
  };

  test('find the order by its number, invoice half, ship it with a tracking number, refund one item', async () => {
    const page = await bo.page();
    await signIn(page, bo.base);
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Orders' }).click();
    await page.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
    const grid = page.getByRole('table', { name: 'Orders' });
    await grid.getByRole('row').nth(1).waitFor();
    await assertAccessible(page, 'orders grid');

    // the free-text search finds it by its number; its number leads to its page
    await page.getByRole('searchbox', { name: 'Search' }).fill(order.incrementId);
    await page.getByText('1 record', { exact: true }).waitFor();
    await grid.getByRole('link', { name: order.incrementId }).click();
    await page.getByRole('heading', { name: `Order # ${order.incrementId}`, level: 1 }).waitFor();
    assert.equal(await total(page, 'Grand total'), money(order.prices.grandTotal));
    assert.equal(await total(page, 'Total paid'), money(0));
    await page.getByText('New', { exact: true }).first().waitFor();
    await assertAccessible(page, 'order page');

    // invoice the lamps only: half of the order
    await page.getByRole('button', { name: 'Invoice', exact: true }).click();
    const invoiceDialog = page.getByRole('dialog', { name: `Invoice order # ${order.incrementId}` });
    await invoiceDialog.waitFor();
    await assertAccessible(page, 'invoice dialog');
    await invoiceDialog.getByLabel(`Quantity to invoice of ${vase}`).fill('0');
    await invoiceDialog.getByRole('button', { name: 'Submit invoice' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Invoice # \S+ was created\./ })
      .waitFor();
    await invoiceDialog.waitFor({ state: 'detached' });
    let now = await read();
    assert.equal(now.state, 'processing');
    assert.deepEqual(
      now.items.map((i) => i.qtyInvoiced),
      [2, 0],
    );
    assert.ok(now.prices.totalPaid > 0 && now.prices.totalPaid < now.prices.grandTotal);
    await page.getByText('Processing', { exact: true }).first().waitFor();
    await page.waitForFunction(
      ([expected]) => [...document.querySelectorAll('dl[aria-label="Order totals"] div')].some((d) => d.textContent?.includes(expected)),
      [money(now.prices.totalPaid)],
    );
    assert.equal(await total(page, 'Total paid'), money(now.prices.totalPaid));
    assert.equal(await total(page, 'Total due'), money(now.prices.totalDue));

    // ship the invoiced lamps with a UPS tracking number
    await page.getByRole('button', { name: 'Ship', exact: true }).click();
    const shipDialog = page.getByRole('dialog', { name: `Ship order # ${order.incrementId}` });
    await shipDialog.waitFor();
    await shipDialog.getByLabel(`Quantity to ship of ${vase}`).fill('0');
    const track = shipDialog.getByRole('group', { name: 'Tracking number 1' });
    await track.getByLabel('Carrier').selectOption('ups');
    await track.getByLabel('Title', { exact: true }).fill('UPS Ground');
    await track.getByLabel('Number', { exact: true }).fill('1Z999AA10123456784');
    await assertAccessible(page, 'ship dialog');
    await shipDialog.getByRole('button', { name: 'Submit shipment' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Shipment # \S+ was created\./ })
      .waitFor();
    await page.getByRole('region', { name: 'Shipments' }).getByText('UPS Ground 1Z999AA10123456784').waitFor();
    now = await read();
    assert.deepEqual(
      now.items.map((i) => i.qtyShipped),
      [2, 0],
    );

    // refund one lamp, no shipping
    await page.getByRole('button', { name: 'Credit memo', exact: true }).click();
    const refundDialog = page.getByRole('dialog', { name: `Credit memo for order # ${order.incrementId}` });
    await refundDialog.waitFor();
    await assertAccessible(page, 'credit memo dialog');
    assert.equal(await refundDialog.getByLabel(`Quantity to refund of ${vase}`).count(), 0, 'nothing of the vases is invoiced');
    await refundDialog.getByLabel(`Quantity to refund of ${lamp}`).fill('1');
    await refundDialog.getByLabel(`Return ${lamp} to stock`).check();
    await refundDialog.getByLabel('Refund shipping').fill('0');
    await refundDialog.getByRole('button', { name: 'Refund offline' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `refunded ${money(10)}` })
      .waitFor();
    now = await read();
    assert.equal(now.prices.totalRefunded, 10);
    assert.deepEqual(
      now.items.map((i) => i.qtyRefunded),
      [1, 0],
    );
    await page.waitForFunction(() =>
      [...document.querySelectorAll('dl[aria-label="Order totals"] div')].some(
        (d) => /Total refunded/.test(d.textContent ?? '') && /10\.00/.test(d.textContent ?? ''),
      ),
    );
    assert.equal(await total(page, 'Total refunded'), money(10));
    await page.getByText('Refunded 1', { exact: true }).waitFor();
    await page.getByText('Processing', { exact: true }).first().waitFor();

    // the invoice's PDF
    const [pdf] = await Promise.all([
      page.waitForEvent('download'),
      page
        .getByRole('region', { name: 'Invoices' })
        .getByRole('button', { name: /Download the PDF of invoice/ })
        .click(),
    ]);
    assert.match(pdf.suggestedFilename(), /^invoice_.+\.pdf$/);
  });

  test('hold and release, a comment for the customer, and the cancel dialog', async () => {
    const page = await bo.page();
    await signIn(page, bo.base);
    await page.goto(`${bo.base}/orders/${order.id}`);
    await page.getByRole('heading', { name: `Order # ${order.incrementId}`, level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Hold', exact: true }).click();
    const hold = page.getByRole('dialog', { name: `Hold order # ${order.incrementId}` });
    await hold.getByLabel('Reason (optional, kept in the history)').fill('Customer asked to wait');
    await assertAccessible(page, 'hold dialog');
    await hold.getByRole('button', { name: 'Put on hold' }).click();
    await page.getByRole('status').filter({ hasText: 'is on hold' }).waitFor();
    await page.getByText('On hold', { exact: true }).first().waitFor();
    // held: nothing but the release is offered
    assert.equal(await page.getByRole('button', { name: 'Invoice', exact: true }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Cancel order' }).count(), 0);
    await page.getByText('Order held: Customer asked to wait').waitFor();

    await page.getByRole('button', { name: 'Release hold' }).click();
    await page
      .getByRole('dialog', { name: `Release order # ${order.incrementId}` })
      .getByRole('button', { name: 'Release' })
      .click();
    await page.getByRole('status').filter({ hasText: 'was released from hold' }).waitFor();
    assert.equal((await read()).state, 'processing');

    await page.getByLabel('Comment', { exact: true }).fill('Parcel two follows next week.');
    await page.getByLabel('Notify the customer by email').check();
    await page.getByRole('button', { name: 'Add comment' }).click();
    await page.getByRole('status').filter({ hasText: 'The comment was added.' }).waitFor();
    const history = page.getByRole('list', { name: 'Comments and history' });
    await history.getByText('Parcel two follows next week.').waitFor();
    const noted = (await read()).statusHistory.find((h) => h.note === 'Parcel two follows next week.');
    assert.equal(noted?.isCustomerNotified, true);

    // what is left (the vases) could be canceled: the dialog is asked, and closed unanswered
    await page.getByRole('button', { name: 'Cancel order' }).click();
    const cancel = page.getByRole('dialog', { name: `Cancel order # ${order.incrementId}` });
    await cancel.waitFor();
    await assertAccessible(page, 'cancel dialog');
    await cancel.getByRole('button', { name: 'Cancel', exact: true }).click();
    await cancel.waitFor({ state: 'detached' });
    assert.equal((await read()).state, 'processing');
  });

  test('the invoices, shipments and credit memos grids and pages', async () => {
    const page = await bo.page();
    await signIn(page, bo.base);
    const menu = page.getByRole('navigation', { name: 'Main menu' });

    await menu.getByRole('link', { name: 'Invoices' }).click();
    await page.getByRole('heading', { name: 'Invoices', level: 1 }).waitFor();
    const invoices = page.getByRole('table', { name: 'Invoices' });
    await page.getByRole('searchbox', { name: 'Search' }).fill(order.incrementId);
    await page.getByText('1 record', { exact: true }).waitFor();
    await assertAccessible(page, 'invoices grid');
    await invoices.getByRole('row').nth(1).getByRole('link').first().click();
    await page.getByRole('heading', { name: /^Invoice # /, level: 1 }).waitFor();
    await page.getByText('Paid', { exact: true }).first().waitFor();
    await page.getByRole('table', { name: 'Items' }).getByText(lamp).waitFor();
    await assertAccessible(page, 'invoice page');

    await menu.getByRole('link', { name: 'Shipments' }).click();
    await page.getByRole('heading', { name: 'Shipments', level: 1 }).waitFor();
    const shipments = page.getByRole('table', { name: 'Shipments' });
    const shipped = shipments.getByRole('row').filter({ hasText: order.incrementId });
    await shipped.waitFor();
    await assertAccessible(page, 'shipments grid');
    await shipped.getByRole('link').first().click();
    await page.getByRole('heading', { name: /^Shipment # /, level: 1 }).waitFor();
    await page.getByRole('table', { name: 'Tracking numbers' }).getByText('1Z999AA10123456784').waitFor();
    await assertAccessible(page, 'shipment page');

    await menu.getByRole('link', { name: 'Credit memos' }).click();
    await page.getByRole('heading', { name: 'Credit memos', level: 1 }).waitFor();
    const memo = page.getByRole('table', { name: 'Credit memos' }).getByRole('row').filter({ hasText: order.incrementId });
    await memo.waitFor();
    await assertAccessible(page, 'credit memos grid');
    await memo.getByRole('link').first().click();
    await page.getByRole('heading', { name: /^Credit memo # /, level: 1 }).waitFor();
    assert.equal(
      ((await page.getByRole('region', { name: 'Totals' }).locator('dl div').last().textContent()) ?? '').replace(/\s+/g, ' '),
      `Refunded${money(10)}`,
    );
    await page.getByText('Back to stock', { exact: true }).waitFor();
    await assertAccessible(page, 'credit memo page');
  });

  test('a role that may only read orders sees the order and no action', async () => {
    const staff = await createStaff(bo.t, ['orders/read']);
    const page = await bo.page();
    await signIn(page, bo.base, staff.username, staff.password);
    await page.goto(`${bo.base}/orders/${order.id}`);
    await page.getByRole('heading', { name: `Order # ${order.incrementId}`, level: 1 }).waitFor();
    await page.getByRole('region', { name: 'Items ordered' }).getByText(lamp).waitFor();
    for (const name of ['Invoice', 'Ship', 'Credit memo', 'Hold', 'Cancel order', 'Add comment'])
      assert.equal(await page.getByRole('button', { name, exact: true }).count(), 0, name);
    // nor the selection of the grid's bulk actions
    await page.goto(`${bo.base}/orders`);
    await page.getByRole('table', { name: 'Orders' }).getByRole('row').nth(1).waitFor();
    assert.equal(await page.getByRole('checkbox', { name: 'Select all rows of this page' }).count(), 0);
  });
});
