/**
 * The sales import: orders with items, addresses, payment and history, invoices, shipments with tracks and
 * credit memos, from a generated Maho shop (plus a few hand-made orders: a bundle whose children carry the
 * money, an order of a customer that is not there, orders of store views that are not). Read back over REST,
 * numbering continued, and a second run changes nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { API, buildTestApp, type TestApp } from '../../test/helpers.js';
import { rows } from '../platform/db.js';
import { placeTestOrder } from '../../test/fixtures/checkout.js';
import { createSourceDatabase, type SourceDatabase } from '../../test/fixtures/importer/database.js';
import { generateShop, type GeneratedShop } from '../../test/fixtures/importer/generate.js';
import { phpSerialize } from '../../test/fixtures/importer/support.js';
import type { Report } from './report.js';
import { importMagento } from './run.js';

let t: TestApp;
let src: SourceDatabase;
let shop: GeneratedShop;
let report: Report;
let admin: string;

const BUNDLE_ORDER = 5001;
const ONLY = ['stores', 'config', 'customers', 'sales'] as const;

/** Inserts a row into a source table. */
async function insert(table: string, row: Record<string, unknown>): Promise<void> {
  const cols = Object.keys(row);
  await src.pool.query(
    `INSERT INTO ${table} (${cols.map((c) => `\`${c}\``).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
    Object.values(row),
  );
}

/** Orders the generator does not write: a dynamic-price bundle shipped separately, and two of missing store views. */
async function addHandMadeOrders(): Promise<void> {
  const order = (id: number, storeId: number | null, extra: Record<string, unknown> = {}) => ({
    entity_id: id,
    state: 'processing',
    status: 'processing',
    store_id: storeId,
    customer_id: 99999,
    customer_is_guest: 0,
    customer_email: `buyer${id}@example.org`,
    customer_firstname: 'Bea',
    customer_lastname: 'Bundle',
    increment_id: `WEB-${id}`,
    base_currency_code: 'USD',
    order_currency_code: 'USD',
    base_to_order_rate: 1,
    base_subtotal: '40.0000',
    subtotal: '40.0000',
    base_tax_amount: '3.3000',
    tax_amount: '3.3000',
    base_shipping_amount: '10.0000',
    shipping_amount: '10.0000',
    base_grand_total: '53.3000',
    grand_total: '53.3000',
    base_total_paid: '53.3000',
    total_paid: '53.3000',
    base_total_invoiced: '53.3000',
    total_invoiced: '53.3000',
    base_discount_amount: '0.0000',
    discount_amount: '0.0000',
    total_qty_ordered: 2,
    total_item_count: 1,
    shipping_method: 'flatrate_flatrate',
    shipping_description: 'Flat Rate - Fixed',
    created_at: '2024-03-01 10:00:00',
    updated_at: '2024-03-02 10:00:00',
    ...extra,
  });
  await insert('sales_flat_order', order(BUNDLE_ORDER, 1));
  await insert('sales_flat_order', order(5002, 99));
  await insert('sales_flat_order', order(5003, null));
  await insert('sales_flat_order_address', {
    entity_id: 50001,
    parent_id: BUNDLE_ORDER,
    address_type: 'billing',
    firstname: 'Bea',
    lastname: 'Bundle',
    street: 'Line one\nLine two',
    city: 'Springfield',
    postcode: '12345',
    country_id: 'US',
    region: 'Oregon',
    region_id: 49,
    telephone: '555-0100',
  });
  await insert('sales_flat_order_payment', {
    entity_id: 50001,
    parent_id: BUNDLE_ORDER,
    method: 'checkmo',
    base_amount_ordered: '53.3000',
    amount_ordered: '53.3000',
  });
  const options = phpSerialize({
    info_buyRequest: { product: '901', qty: 2, bundle_option: { '1': '11', '2': ['21'] }, bundle_option_qty: { '1': 1, '2': 2 } },
    product_calculations: 0,
    shipment_type: 1,
    bundle_options: {
      '1': { option_id: 1, label: 'Main', value: [{ title: 'Part A', qty: 1, price: 10 }] },
      '2': { option_id: 2, label: 'Extras', value: [{ title: 'Part B', qty: 2, price: 10 }] },
    },
  });
  const item = (id: number, parent: number | null, extra: Record<string, unknown>) => ({
    item_id: id,
    order_id: BUNDLE_ORDER,
    parent_item_id: parent,
    store_id: 1,
    created_at: '2024-03-01 10:00:00',
    updated_at: '2024-03-01 10:00:00',
    is_virtual: 0,
    ...extra,
  });
  // Magento's dummy parent: the quantities of a dynamic bundle's parent say nothing, its children carry them
  await insert(
    'sales_flat_order_item',
    item(50001, null, {
      product_id: 901,
      product_type: 'bundle',
      product_options: options,
      sku: 'bundle-dyn',
      name: 'Dynamic bundle',
      qty_ordered: 2,
      qty_invoiced: 2,
      qty_shipped: 1,
      price: '20.0000',
      base_price: '20.0000',
      row_total: '40.0000',
      base_row_total: '40.0000',
      tax_amount: '0.0000',
      base_tax_amount: '0.0000',
    }),
  );
  await insert(
    'sales_flat_order_item',
    item(50002, 50001, {
      product_id: 902,
      product_type: 'simple',
      sku: 'part-a',
      name: 'Part A',
      qty_ordered: 2,
      qty_invoiced: 2,
      qty_shipped: 2,
      price: '10.0000',
      base_price: '10.0000',
      row_total: '20.0000',
      base_row_total: '20.0000',
      tax_amount: '1.6500',
      base_tax_amount: '1.6500',
      row_invoiced: '20.0000',
      base_row_invoiced: '20.0000',
      tax_percent: '8.2500',
    }),
  );
  await insert(
    'sales_flat_order_item',
    item(50003, 50001, {
      product_id: 903,
      product_type: 'simple',
      sku: 'part-b',
      name: 'Part B',
      qty_ordered: 4,
      qty_invoiced: 4,
      qty_shipped: 4,
      price: '5.0000',
      base_price: '5.0000',
      row_total: '20.0000',
      base_row_total: '20.0000',
      tax_amount: '1.6500',
      base_tax_amount: '1.6500',
      row_invoiced: '20.0000',
      base_row_invoiced: '20.0000',
      tax_percent: '8.2500',
    }),
  );
  await insert('sales_flat_order_status_history', {
    entity_id: 50001,
    parent_id: BUNDLE_ORDER,
    is_customer_notified: 2,
    is_visible_on_front: 1,
    comment: 'Bundle paid',
    status: null,
    created_at: '2024-03-01 11:00:00',
    entity_name: 'invoice',
  });
  await insert('sales_flat_invoice', {
    entity_id: 5001,
    store_id: 1,
    order_id: BUNDLE_ORDER,
    increment_id: '200000077',
    state: 2,
    base_grand_total: '53.3000',
    grand_total: '53.3000',
    subtotal: '40.0000',
    base_subtotal: '40.0000',
    tax_amount: '3.3000',
    base_tax_amount: '3.3000',
    shipping_amount: '10.0000',
    base_shipping_amount: '10.0000',
    total_qty: 8,
    created_at: '2024-03-01 11:00:00',
    updated_at: '2024-03-01 11:00:00',
  });
  const docItem = (id: number, parent: number, orderItem: number, extra: Record<string, unknown>) => ({
    entity_id: id,
    parent_id: parent,
    order_item_id: orderItem,
    ...extra,
  });
  await insert(
    'sales_flat_invoice_item',
    docItem(50001, 5001, 50001, {
      qty: 2,
      price: '0.0000',
      base_price: '0.0000',
      row_total: '0.0000',
      base_row_total: '0.0000',
      product_id: 901,
      sku: 'bundle-dyn',
      name: 'Dynamic bundle',
    }),
  );
  await insert(
    'sales_flat_invoice_item',
    docItem(50002, 5001, 50002, {
      qty: 2,
      price: '10.0000',
      base_price: '10.0000',
      row_total: '20.0000',
      base_row_total: '20.0000',
      tax_amount: '1.6500',
      base_tax_amount: '1.6500',
      product_id: 902,
      sku: 'part-a',
      name: 'Part A',
    }),
  );
  await insert(
    'sales_flat_invoice_item',
    docItem(50003, 5001, 50003, {
      qty: 4,
      price: '5.0000',
      base_price: '5.0000',
      row_total: '20.0000',
      base_row_total: '20.0000',
      tax_amount: '1.6500',
      base_tax_amount: '1.6500',
      product_id: 903,
      sku: 'part-b',
      name: 'Part B',
    }),
  );
  await insert('sales_flat_shipment', {
    entity_id: 5001,
    store_id: 1,
    order_id: BUNDLE_ORDER,
    increment_id: 'WEB-S-5001',
    total_qty: 6,
    created_at: '2024-03-02 10:00:00',
    updated_at: '2024-03-02 10:00:00',
  });
  await insert(
    'sales_flat_shipment_item',
    docItem(50001, 5001, 50002, { qty: 2, price: '10.0000', row_total: '20.0000', product_id: 902, sku: 'part-a', name: 'Part A' }),
  );
  await insert(
    'sales_flat_shipment_item',
    docItem(50002, 5001, 50003, { qty: 4, price: '5.0000', row_total: '20.0000', product_id: 903, sku: 'part-b', name: 'Part B' }),
  );
  // the generated schema has no comment tables: they are made here as Magento has them
  for (const kind of ['invoice', 'shipment', 'creditmemo']) {
    await src.pool.query(`CREATE TABLE sales_flat_${kind}_comment (
      entity_id int unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY, parent_id int unsigned NOT NULL, is_customer_notified int NULL,
      is_visible_on_front smallint unsigned NOT NULL DEFAULT 0, comment text NULL, created_at timestamp NULL DEFAULT NULL)`);
  }
  await insert('sales_flat_invoice_comment', {
    entity_id: 7,
    parent_id: 5001,
    is_customer_notified: 1,
    is_visible_on_front: 1,
    comment: 'Paid by cheque',
    created_at: '2024-03-01 12:00:00',
  });
  await insert('sales_flat_shipment_comment', {
    entity_id: 8,
    parent_id: 5001,
    is_customer_notified: 0,
    comment: 'Left at the door',
    created_at: '2024-03-02 12:00:00',
  });
  await insert('sales_flat_shipment_comment', {
    entity_id: 9,
    parent_id: 5001,
    is_customer_notified: 0,
    comment: '  ',
    created_at: '2024-03-02 12:00:00',
  });
  await insert('sales_flat_shipment_track', {
    entity_id: 50001,
    parent_id: 5001,
    order_id: BUNDLE_ORDER,
    track_number: 'TRACK-5001',
    title: null,
    carrier_code: 'ups',
    created_at: '2024-03-02 10:00:00',
    updated_at: '2024-03-02 10:00:00',
  });
}

const entity = (r: Report, name: string) => r.entities.find((e) => e.entity === name)!;

describe('import magento: sales from a Maho shop', () => {
  before(async () => {
    t = await buildTestApp();
    // the test database holds the demo customer; the import wants a fresh one
    await t.database.db.execute(sql`DELETE FROM customer_addresses`);
    await t.database.db.execute(sql`DELETE FROM customers`);
    admin = await t.tokens.admin();
    // order lists read before the import are cached: the import must make them stale
    const listed = await t.req('GET', `${API}/orders`, { token: admin });
    assert.equal(listed.body.totalItems, 0);
    src = await createSourceDatabase('maho');
    shop = await generateShop(src.pool, { variant: 'maho', orders: 60, customers: 25, products: 40 });
    await addHandMadeOrders();
    report = await importMagento({ source: src.url, db: t.database.db, only: [...ONLY] });
    await t.systemCtx().app.settings.reload();
  });

  after(async () => {
    await t?.close();
    await src?.drop();
  });

  test('every order, line and document is imported or skipped with a reason, and the checks agree', () => {
    const orders = entity(report, 'orders');
    assert.equal(orders.found, shop.counts.orders + 3);
    assert.equal(orders.imported, shop.counts.orders + 1);
    assert.equal(orders.skipped, 2);
    assert.deepEqual([...orders.skips.keys()].sort(), ['its store view was not imported', 'no store view (deleted in the source)']);
    assert.equal(entity(report, 'invoices').imported, shop.counts.invoices + 1);
    assert.equal(entity(report, 'shipments').imported, shop.counts.shipments + 1);
    assert.equal(entity(report, 'shipment tracks').imported, shop.counts.tracks + 1);
    assert.equal(entity(report, 'credit memos').imported, shop.counts.creditmemos);
    const items = entity(report, 'order items');
    assert.equal(items.found, shop.counts.orderItems + 3);
    assert.equal(items.imported + items.skipped, items.found);
    assert.deepEqual([...items.skips.keys()], ['configurable or bundle child: kept on its parent line']);
    const statuses = entity(report, 'order statuses');
    assert.equal(statuses.skipped, 1, 'the custom status "packing"');
    const failed = report.checks.filter((c) => !c.ok);
    assert.deepEqual(failed, [], report.lines().join('\n'));
    const names = report.checks.map((c) => c.name);
    for (const n of ['orders', 'orders: sum of base_grand_total', 'invoices', 'shipments', 'credit memos']) assert.ok(names.includes(n), n);
    const sum = report.checks.find((c) => c.name === 'orders: sum of base_grand_total')!;
    assert.equal(sum.target, (Number(shop.sums.orderBaseGrandTotal) + 53.3).toFixed(4));
  });

  test('order lists cached before the import show the imported orders', async () => {
    const listed = await t.req('GET', `${API}/orders`, { token: admin });
    assert.equal(listed.status, 200, listed.text);
    assert.equal(listed.body.totalItems, shop.counts.orders + 1);
  });

  test('a sample order reads back over REST as it was in Magento', async () => {
    const s = shop.samples.order!;
    const r = await t.req('GET', `${API}/orders/${s.entityId}`, { token: admin });
    assert.equal(r.status, 200, r.text);
    const o = r.body;
    assert.equal(o.id, s.entityId);
    assert.equal(o.incrementId, s.incrementId);
    assert.equal(o.state, s.state);
    assert.equal(o.status, s.status);
    assert.equal(o.customerEmail, s.customerEmail);
    const [known] = await rows<{ n: number }>(t.database.db, sql`SELECT count(*)::int AS n FROM customers WHERE id = ${s.customerId}`);
    assert.equal(o.customerId, known.n ? s.customerId : undefined);
    assert.equal(o.customerIsGuest, !known.n);
    assert.equal(o.storeId, 1);
    assert.equal(o.storeName, 'Default Store View');
    assert.equal(o.currency, s.orderCurrency);
    assert.equal(o.baseCurrencyCode, s.baseCurrency);
    assert.equal(o.prices.baseGrandTotal, Number(s.baseGrandTotal));
    assert.equal(o.prices.grandTotal, Number(s.grandTotal));
    assert.equal(o.prices.baseSubtotal, Number(s.baseSubtotal));
    assert.equal(o.prices.baseTaxAmount, Number(s.baseTaxAmount));
    assert.equal(o.prices.baseShippingAmount, Number(s.baseShippingAmount));
    assert.equal(o.prices.baseDiscountAmount, Math.abs(Number(s.baseDiscountAmount)));
    assert.equal(o.prices.totalPaid, Number(s.grandTotal));
    assert.equal(o.prices.totalDue, 0);
    assert.equal(o.totalQtyOrdered, Number(s.totalQtyOrdered));
    assert.equal(o.paymentMethod, s.paymentMethod);
    assert.ok(o.paymentMethodTitle && o.paymentMethodTitle !== s.paymentMethod, o.paymentMethodTitle);
    const lines = s.items.filter((i) => i.parentSku === null);
    assert.deepEqual(
      o.items.map((i: { sku: string; productType: string; qtyOrdered: number; basePrice: number }) => [
        i.sku,
        i.productType,
        i.qtyOrdered,
        i.basePrice,
      ]),
      lines.map((i) => [i.sku, i.productType, Number(i.qtyOrdered), Number(i.basePrice)]),
    );
    for (const i of o.items) {
      assert.equal(i.qtyInvoiced, i.qtyOrdered);
      assert.equal(i.qtyShipped, i.isVirtual ? 0 : i.qtyOrdered);
    }
    assert.equal(o.billingAddress.city, s.billing.city);
    assert.equal(o.billingAddress.countryId, s.billing.countryId);
    assert.deepEqual(o.billingAddress.street, s.billing.street.split('\n'));
    assert.equal(o.billingAddress.postcode, s.billing.postcode);
    if (s.shipping) assert.equal(o.shippingAddress.city, s.shipping.city);
    assert.ok(o.statusHistory.length >= 1);
    assert.equal(o.shipments.length, s.shipments);

    const invoices = await t.req('GET', `${API}/orders/${s.entityId}/invoices`, { token: admin });
    assert.equal(invoices.status, 200, invoices.text);
    const invoiceList = invoices.body.member ?? invoices.body;
    assert.equal(invoiceList.length, s.invoices);
    assert.equal(invoiceList[0].baseGrandTotal, Number(s.baseGrandTotal));
    assert.equal(invoiceList[0].stateName, 'paid');
    assert.equal(invoiceList[0].items.length, lines.length);
    assert.deepEqual(
      invoiceList[0].items.map((i: { orderItemId: number }) => i.orderItemId),
      o.items.map((i: { id: number }) => i.id),
    );

    const shipments = await t.req('GET', `${API}/orders/${s.entityId}/shipments`, { token: admin });
    assert.equal(shipments.status, 200, shipments.text);
    const shipmentList = shipments.body.member ?? shipments.body;
    assert.equal(shipmentList.length, s.shipments);
    if (s.shipments) {
      assert.ok(shipmentList[0].tracks.length >= 1);
      const one = await t.req('GET', `${API}/shipments/${shipmentList[0].id}`, { token: admin });
      assert.equal(one.status, 200, one.text);
    }
  });

  test('a closed order has its credit memo, and a guest order stays a guest order', async () => {
    const [closed] = await rows<{ id: number }>(t.database.db, sql`SELECT id FROM orders WHERE state = 'closed' ORDER BY id LIMIT 1`);
    const memos = await t.req('GET', `${API}/orders/${closed.id}/credit-memos`, { token: admin });
    assert.equal(memos.status, 200, memos.text);
    const list = memos.body.member ?? memos.body;
    assert.equal(list.length, 1);
    assert.equal(list[0].state, 'refunded');
    assert.ok(list[0].invoiceId);
    const one = await t.req('GET', `${API}/credit-memos/${list[0].id}`, { token: admin });
    assert.equal(one.status, 200, one.text);
    assert.equal(one.body.items.length, list[0].items.length);

    const g = shop.samples.guestOrder!;
    const guest = await t.req('GET', `${API}/orders/${g.entityId}`, { token: admin });
    assert.equal(guest.status, 200, guest.text);
    assert.equal(guest.body.customerIsGuest, true);
    assert.equal(guest.body.customerId, undefined);
    assert.equal(guest.body.incrementId, g.incrementId);

    const f = shop.samples.foreignCurrencyOrder!;
    const foreign = await t.req('GET', `${API}/orders/${f.entityId}`, { token: admin });
    assert.equal(foreign.body.currency, 'EUR');
    assert.equal(foreign.body.prices.grandTotal, Number(f.grandTotal));
    assert.equal(foreign.body.prices.baseGrandTotal, Number(f.baseGrandTotal));
  });

  test('a bundle whose children carry money and shipment is one line; its documents too', async () => {
    const r = await t.req('GET', `${API}/orders/${BUNDLE_ORDER}`, { token: admin });
    assert.equal(r.status, 200, r.text);
    const o = r.body;
    assert.equal(o.incrementId, `WEB-${BUNDLE_ORDER}`);
    assert.equal(o.customerId, undefined, 'customer 99999 does not exist: a guest order');
    assert.equal(o.customerIsGuest, true);
    assert.equal(o.paymentMethodTitle, 'Check / Money order');
    assert.deepEqual(o.billingAddress.street, ['Line one', 'Line two']);
    assert.equal(o.items.length, 1);
    const line = o.items[0];
    assert.equal(line.id, 50001);
    assert.equal(line.sku, 'bundle-dyn');
    assert.equal(line.qtyOrdered, 2);
    assert.equal(line.qtyInvoiced, 2);
    assert.equal(line.qtyShipped, 2, 'counted from the children shipped separately, not the dummy parent');
    assert.equal(line.rowTotal, 40);
    assert.equal(line.taxAmount, 3.3);
    assert.equal(line.price, 20);
    assert.deepEqual(line.productOptions, {
      options: [
        { label: 'Main', value: '1 x Part A' },
        { label: 'Extras', value: '2 x Part B' },
      ],
    });
    const [stored] = await rows<{ stockParts: unknown; buyRequest: unknown }>(
      t.database.db,
      sql`SELECT stock_parts AS "stockParts", buy_request AS "buyRequest" FROM order_items WHERE id = 50001`,
    );
    assert.deepEqual(stored.stockParts, [
      { productId: 902, per: '1' },
      { productId: 903, per: '2' },
    ]);
    assert.deepEqual(stored.buyRequest, { bundleOption: { '1': [11], '2': [21] }, bundleOptionQty: { '1': 1, '2': 2 } });
    assert.equal(o.statusHistory[0].note, 'Bundle paid');
    assert.equal(o.statusHistory[0].status, 'processing');
    assert.equal(o.statusHistory[0].isCustomerNotified, false);

    const inv = (await t.req('GET', `${API}/orders/${BUNDLE_ORDER}/invoices`, { token: admin })).body;
    const invoice = (inv.member ?? inv)[0];
    assert.equal(invoice.incrementId, '200000077');
    assert.equal(invoice.items.length, 1);
    assert.equal(invoice.items[0].orderItemId, 50001);
    assert.equal(invoice.items[0].qty, 2);
    assert.equal(invoice.items[0].rowTotal, 40);
    assert.equal(invoice.items[0].taxAmount, 3.3);
    assert.equal(invoice.items[0].price, 20);
    assert.deepEqual(
      invoice.comments.map((c: { comment: string; isCustomerNotified: boolean; isVisibleOnFront: boolean }) => [
        c.comment,
        c.isCustomerNotified,
        c.isVisibleOnFront,
      ]),
      [['Paid by cheque', true, true]],
    );

    const sh = (await t.req('GET', `${API}/orders/${BUNDLE_ORDER}/shipments`, { token: admin })).body;
    const shipment = (sh.member ?? sh)[0];
    assert.equal(shipment.items.length, 1);
    assert.equal(shipment.items[0].orderItemId, 50001);
    assert.equal(shipment.items[0].qty, 2);
    assert.equal(shipment.items[0].sku, 'bundle-dyn');
    assert.equal(shipment.items[0].productId, 901);
    assert.equal(shipment.items[0].rowTotal, 40);
    assert.deepEqual(
      shipment.tracks.map((x: { carrier: string; title: string; trackNumber: string }) => [x.carrier, x.title, x.trackNumber]),
      [['ups', 'ups', 'TRACK-5001']],
    );
    assert.deepEqual(
      shipment.comments.map((c: { comment: string }) => c.comment),
      ['Left at the door'],
    );
    assert.deepEqual([...entity(report, 'shipment comments').skips.keys()], ['empty comment']);
  });

  test('a second run changes nothing', async () => {
    const again = await importMagento({ source: src.url, db: t.database.db, only: ['sales'] });
    for (const e of again.entities) {
      assert.equal(e.imported, 0, `${e.entity} imported`);
      assert.equal(e.updated, 0, `${e.entity} updated`);
    }
    assert.equal(entity(again, 'orders').unchanged, shop.counts.orders + 1);
    assert.deepEqual(
      again.checks.filter((c) => !c.ok),
      [],
    );
    const later = await importMagento({ source: src.url, db: t.database.db, only: ['sales'], since: new Date('2100-01-01T00:00:00Z') });
    assert.equal(entity(later, 'orders').found, 0, '--since: no order changed since');
    assert.equal(entity(later, 'invoice items').found, 0);
  });

  test('numbering goes on after the highest imported number of each store view', async () => {
    const last = shop.lastIncrementIds.order.default;
    const placed = await placeTestOrder(t, { guestEmail: 'after.import@example.com', storeId: 1 });
    assert.equal(placed.incrementId, `1${String(Number(last.slice(1)) + 1).padStart(8, '0')}`);
    const seq = async (entity: string, storeId: number) =>
      (
        await rows<{ n: number }>(
          t.database.db,
          sql`SELECT last_value AS n FROM sales_sequences WHERE entity = ${entity} AND store_id = ${storeId}`,
        )
      )[0]?.n;
    assert.equal(await seq('invoice', 3), Number(shop.lastIncrementIds.invoice.second_en.slice(1)));
    assert.equal(await seq('shipment', 1), Number(shop.lastIncrementIds.shipment.default.slice(1)));
    // the bundle order's invoice is numbered as one of store 2 would be: store 2 must not give that number again
    assert.ok(Number(shop.lastIncrementIds.invoice.french.slice(1)) < 77);
    assert.equal(await seq('invoice', 2), 77);
  });
});

describe('import magento: sales from a Magento 1.9 shop', () => {
  let t19: TestApp;
  let src19: SourceDatabase;
  let shop19: GeneratedShop;
  let report19: Report;

  before(async () => {
    t19 = await buildTestApp();
    await t19.database.db.execute(sql`DELETE FROM customer_addresses`);
    await t19.database.db.execute(sql`DELETE FROM customers`);
    src19 = await createSourceDatabase('magento19');
    shop19 = await generateShop(src19.pool, { variant: 'magento19', orders: 40, customers: 20, products: 40, seed: 7 });
    report19 = await importMagento({ source: src19.url, db: t19.database.db, only: [...ONLY] });
    await t19.systemCtx().app.settings.reload();
  });

  after(async () => {
    await t19?.close();
    await src19?.drop();
  });

  test('orders and documents arrive, PHP-serialized options read, and the checks agree', async () => {
    assert.deepEqual(
      report19.checks.filter((c) => !c.ok),
      [],
    );
    assert.equal(entity(report19, 'orders').imported, shop19.counts.orders);
    assert.equal(entity(report19, 'invoices').imported, shop19.counts.invoices);
    assert.equal(entity(report19, 'shipments').imported, shop19.counts.shipments);
    assert.equal(entity(report19, 'credit memos').imported, shop19.counts.creditmemos);
    const [configurable] = await rows<{
      orderId: number;
      options: { options: { label: string; value: string }[] };
      childProductId: number | null;
    }>(
      t19.database.db,
      sql`SELECT order_id AS "orderId", product_options AS options, child_product_id AS "childProductId" FROM order_items WHERE product_type = 'configurable' ORDER BY id LIMIT 1`,
    );
    assert.ok(configurable, 'the generated shop sold a configurable product');
    assert.ok(configurable.childProductId);
    assert.deepEqual(
      configurable.options.options.map((o) => o.label),
      ['Color', 'Size'],
    );
    const r = await t19.req('GET', `${API}/orders/${configurable.orderId}`, { token: await t19.tokens.admin() });
    assert.equal(r.status, 200, r.text);
    assert.ok(
      r.body.items.every((i: { createdAt: string }) => !i.createdAt.startsWith('1970')),
      'zero dates fall back to the order date',
    );
  });
});
