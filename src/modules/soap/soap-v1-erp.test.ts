/**
 * SOAP V1 as integrations written against Magento 1 call it from PHP's SoapClient (php/erp_v1.php): `call` and
 * `multiCall` with resource paths over orders, invoices, shipments, refunds, the stock of 100 SKUs, a
 * configurable product with its children and an order through the shopping cart API, read back over REST.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { API, type TestApp } from '../../../test/helpers.js';
import { runScenario, skipWithout, stepOk as ok, stockedProducts, twoLineOrder, type Step } from '../../../test/fixtures/legacy-api.js';
import { startSoapApp } from '../../../test/fixtures/soap.js';

const skip = skipWithout('php');

let t: TestApp;
let base: string;

before(async () => {
  if (skip) return;
  ({ t, base } = await startSoapApp());
});
after(() => t?.close());

describe("an ERP on SOAP V1 with PHP's SoapClient", { skip }, () => {
  let r: Record<string, Step<string>>;
  let placed: Awaited<ReturnType<typeof twoLineOrder>>;
  let skus: string[];
  let admin: string;
  const tag = `v1-${crypto.randomBytes(4).toString('hex')}`;
  const guest = `${tag}@example.com`;

  before(async () => {
    admin = await t.tokens.admin();
    skus = (await stockedProducts(t, 100)).map((p) => p.sku);
    placed = await twoLineOrder(t, `${tag}-order@example.com`);
    r = await runScenario('php', 'erp_v1.php', base, {
      SOAP_ORDER: placed.incrementId,
      SOAP_SINCE: new Date(Date.now() - 3_600_000).toISOString().slice(0, 19).replace('T', ' '),
      SOAP_SKUS: skus.join(','),
      SOAP_TAG: tag,
      SOAP_GUEST: guest,
    });
  });

  test('the new order by a date filter and its details', () => {
    assert.deepEqual(ok(r.newOrders, 'newOrders'), [placed.incrementId]);
    assert.equal(ok(r.info, 'info').items.length, 2);
  });

  test('invoice, shipment and refund in one multiCall, each answering on its own; tracking added', async () => {
    const batch = ok(r.batch, 'batch');
    assert.match(batch[0], /^\d+$/);
    assert.match(batch[1], /^\d+$/);
    assert.match(batch[2], /^\d+$/);
    assert.deepEqual(batch[3], { isFault: true, faultCode: '100', faultMessage: 'Requested order not exists.' });
    assert.ok(Number(ok(r.track, 'track')) > 0);
    assert.equal(ok(r.shipmentInfo, 'shipmentInfo'), '1Z-V1');
    const rest = await t.req('GET', `${API}/orders/${placed.id}`, { token: admin });
    assert.deepEqual([rest.body.items[0].qtyInvoiced, rest.body.items[0].qtyShipped, rest.body.items[0].qtyRefunded], [1, 1, 1]);
  });

  test('the stock of 100 SKUs in one call', async () => {
    assert.equal(ok(r.stock, 'stock'), true);
    assert.deepEqual(ok(r.stockList, 'stockList'), ['200', '201']);
    assert.equal((await t.req('GET', `${API}/inventory/${encodeURIComponent(skus[99])}`, { token: admin })).body.qty, 299);
  });

  test('a configurable product created over two children and updated with a third', async () => {
    const ids = ['child1', 'child2', 'child3'].map((n) => Number(ok(r[n], n)));
    const id = Number(ok(r.configurable, 'configurable'));
    assert.equal(ok(r.configurableUpdate, 'configurableUpdate'), true);
    const conf = await t.req('GET', `${API}/products/${id}/configurable`, { token: admin });
    const body = conf.body.member?.[0] ?? conf.body.items?.[0] ?? conf.body;
    assert.deepEqual(body.childProductIds, ids);
  });

  test('an order through the shopping cart API', () => {
    assert.deepEqual(ok(r.cartFill, 'cartFill'), [true, true, true, true, true]);
    assert.match(ok(r.cartOrder, 'cartOrder'), /^\d+$/);
    assert.equal(ok(r.cartOrderInfo, 'cartOrderInfo'), guest);
    assert.equal(ok(r.endSession, 'endSession'), true);
  });
});
