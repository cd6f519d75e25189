/**
 * SOAP V2 and its WS-I form for the whole method table, driven by PHP's SoapClient from our WSDL as a proxy
 * generated from Magento's would call it: an ERP's round trip in each style (php/erp.php), the documents
 * declaring every served operation and only those, and the typed wire read and written by the declared types
 * (integers, flags, decimals, lists of one, missing parts).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { API, type TestApp } from '../../../test/helpers.js';
import { runScenario, skipWithout, stepOk as ok, stockedProducts, twoLineOrder, type Step } from '../../../test/fixtures/legacy-api.js';
import { envelope, login, newApiUser, post, startSoapApp } from '../../../test/fixtures/soap.js';
import { serves } from './handler.js';
import { V2_OPS, WSI_OPS } from './typed/schema.js';

const skip = skipWithout('php');

let t: TestApp;
let base: string;
let admin: string;
let skus: string[];
let denied: { username: string; apiKey: string };

before(async () => {
  ({ t, base } = await startSoapApp());
  admin = await t.tokens.admin();
  denied = await newApiUser(t, ['addresses/read']);
  skus = (await stockedProducts(t, 100)).map((p) => p.sku);
});
after(() => t?.close());

async function erp(style: 'v2' | 'wsi', wsdlPath: string, order: string): Promise<Record<string, Step<string>>> {
  return runScenario('php', 'erp.php', base, {
    SOAP_WSDL_PATH: wsdlPath,
    SOAP_STYLE: style,
    SOAP_DENIED_USER: denied.username,
    SOAP_DENIED_KEY: denied.apiKey,
    SOAP_ORDER: order,
    SOAP_SINCE: new Date(Date.now() - 3_600_000).toISOString().slice(0, 19).replace('T', ' '),
    SOAP_SKUS: skus.join(','),
    SOAP_GUEST: `cart-${style}-${crypto.randomBytes(4).toString('hex')}@example.com`,
  });
}

for (const [style, wsdlPath] of [
  ['v2', '/api/v2_soap/?wsdl'],
  ['wsi', '/api/v2_soap/wsi/?wsdl'],
] as const) {
  describe(`an ERP over ${style === 'v2' ? 'SOAP V2' : 'WS-I'} with PHP's SoapClient`, { skip }, () => {
    let r: Record<string, Step<string>>;
    let placed: Awaited<ReturnType<typeof twoLineOrder>>;

    before(async () => {
      placed = await twoLineOrder(t, `typed-${crypto.randomBytes(4).toString('hex')}@example.com`);
      r = await erp(style, wsdlPath, placed.incrementId);
    });

    test('stores, version, directory and groups', () => {
      const stores = ok(r.stores, 'stores');
      assert.ok(stores.some((s: any) => s.code === 'default'));
      assert.deepEqual(ok(r.version, 'version'), { magento_version: '1.9.4.5', magento_edition: 'Community' });
      assert.ok(ok(r.countries, 'countries') > 200);
      assert.ok(ok(r.regions, 'regions').code);
      assert.ok(ok(r.groups, 'groups').some((g: any) => g.customer_group_code === 'General'));
    });

    test('the new order by a date filter, its details, typed', () => {
      const list = ok(r.newOrders, 'newOrders');
      assert.deepEqual(
        list.map((o: any) => o.increment_id),
        [placed.incrementId],
      );
      const info = ok(r.info, 'info');
      assert.equal(info.increment_id, placed.incrementId);
      assert.equal(info.items.length, 2);
      assert.equal(info.billing_address.firstname, 'Tess');
      assert.match(info.created_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    });

    test('a partial invoice, a shipment with tracking and a refund, seen by REST', async () => {
      const invoice = ok(r.invoice, 'invoice');
      assert.match(invoice, /^\d+$/);
      assert.equal(ok(r.invoiceInfo, 'invoiceInfo').items.length, 1);
      const shipment = ok(r.ship, 'ship');
      assert.match(shipment, /^\d+$/);
      assert.ok(ok(r.carriers, 'carriers').some((c: any) => c.key === 'ups'));
      assert.ok(Number(ok(r.track, 'track')) > 0);
      assert.equal(ok(r.shipmentInfo, 'shipmentInfo').tracks[0].number, '1Z999');
      assert.match(ok(r.refund, 'refund'), /^\d+$/);
      assert.equal(ok(r.refundInfo, 'refundInfo').adjustment_positive, '0.5000');
      const rest = await t.req('GET', `${API}/orders/${placed.id}`, { token: admin });
      assert.equal(rest.body.items[0].qtyInvoiced, 1);
      assert.equal(rest.body.items[0].qtyShipped, 1);
      assert.equal(rest.body.items[0].qtyRefunded, 1);
    });

    test('the stock of 100 SKUs in one call, read back', async () => {
      assert.equal(ok(r.stock, 'stock'), true);
      const list = ok(r.stockList, 'stockList');
      assert.deepEqual(
        list.map((s: any) => [s.sku, s.qty]),
        skus.slice(0, 3).map((sku, i) => [sku, String(10 + i)]),
      );
      const last = await t.req('GET', `${API}/inventory/${encodeURIComponent(skus[99])}`, { token: admin });
      assert.equal(last.body.qty, 109);
    });

    test('an order placed through the shopping cart API', async () => {
      assert.ok(ok(r.cartAdd, 'cartAdd'));
      assert.deepEqual(ok(r.cartProducts, 'cartProducts'), [skus[5]]);
      assert.ok(ok(r.cartCustomer, 'cartCustomer'));
      assert.ok(ok(r.cartAddresses, 'cartAddresses'));
      assert.ok(ok(r.cartRates, 'cartRates').includes('flatrate_flatrate'));
      assert.ok(ok(r.cartShipping, 'cartShipping'));
      assert.ok(ok(r.cartPayments, 'cartPayments').includes('checkmo'));
      assert.ok(ok(r.cartPayment, 'cartPayment'));
      const totals = new Map(ok(r.cartTotals, 'cartTotals').map((x: any) => [x.title, x.amount]));
      assert.ok(Number(totals.get('Grand Total')) > 0, JSON.stringify([...totals]));
      const number = ok(r.cartOrder, 'cartOrder');
      assert.match(number, /^\d+$/);
      const info = ok(r.cartOrderInfo, 'cartOrderInfo');
      assert.equal(info.customer_email.startsWith('cart-'), true);
      assert.equal(Number(info.grand_total), Number(totals.get('Grand Total')));
      assert.equal(info.items[0].sku, skus[5]);
    });

    test("the category tree and the interface's own operations", () => {
      assert.ok(Number(ok(r.tree, 'tree')) >= 1);
      const resources = ok(r.resources, 'resources');
      assert.ok(resources.includes('sales_order') && resources.includes('cataloginventory_stock_item'));
      assert.equal(ok(r.globalFaults, 'globalFaults'), 7);
      assert.ok(ok(r.resourceFaults, 'resourceFaults').some((f: any) => f.code === '100' && f.message === 'Requested order not exists.'));
      assert.equal(ok(r.endSession, 'endSession'), true);
    });

    test('faults: a missing order, a bad filter, an unknown session, a role without the permission', () => {
      assert.deepEqual(r.missingOrder.fault, ['100', 'Requested order not exists.']);
      assert.equal(r.badFilter.fault?.[0], '101');
      assert.deepEqual(r.expired.fault, ['5', 'Session expired. Try to relogin.']);
      assert.deepEqual(r.denied.fault, ['2', 'Access denied.']);
    });
  });
}

describe('the typed documents and wire', () => {
  test('each document declares every served operation of the tables and no other', async () => {
    for (const [path, ops, op] of [
      ['/api/v2_soap/?wsdl', V2_OPS, (n: string) => `<operation name="${n}">`],
      ['/api/v2_soap/wsi/?wsdl', WSI_OPS, (n: string) => `<wsdl:operation name="${n}">`],
    ] as const) {
      const doc = await (await fetch(`${base}${path}`)).text();
      for (const o of ops.values()) assert.equal(doc.includes(op(o.name)), serves(o.path), `${path}: ${o.name}`);
      assert.ok(doc.includes(op('salesOrderList')));
    }
  });

  test('V2: integers as their types, a list of one is a list, a value not of its type is a client fault', async () => {
    const session = await login(base);
    const placed = await twoLineOrder(t, `typed-${crypto.randomBytes(4).toString('hex')}@example.com`);
    const list = await post(
      base,
      '/api/v2_soap/',
      envelope(
        `<ns1:salesOrderList><sessionId>${session}</sessionId><filters><filter><item><key>increment_id</key><value>${placed.incrementId}</value></item></filter></filters></ns1:salesOrderList>`,
      ),
    );
    assert.equal(list.status, 200, list.text);
    assert.match(
      list.text,
      /<result SOAP-ENC:arrayType="ns1:salesOrderListEntity\[1\]" xsi:type="ns1:salesOrderListEntityArray"><item xsi:type="ns1:salesOrderListEntity">/,
    );
    assert.match(list.text, /<increment_id xsi:type="xsd:string">\d+<\/increment_id>/);
    const stock = await post(
      base,
      '/api/v2_soap/',
      envelope(
        `<ns1:catalogInventoryStockItemUpdate><sessionId>${session}</sessionId><product>${skus[0]}</product><data><qty>7</qty><is_in_stock>1</is_in_stock></data></ns1:catalogInventoryStockItemUpdate>`,
      ),
    );
    assert.match(stock.text, /<result xsi:type="xsd:int">1<\/result>/);
    const bad = await post(
      base,
      '/api/v2_soap/',
      envelope(
        `<ns1:catalogInventoryStockItemUpdate><sessionId>${session}</sessionId><product>${skus[0]}</product><data><is_in_stock>lots</is_in_stock></data></ns1:catalogInventoryStockItemUpdate>`,
      ),
    );
    assert.equal(bad.status, 500);
    assert.match(bad.text, /Encoding/);
  });

  test('WS-I: call and multiCall answer untyped values in a well-formed reply', async () => {
    const session = await login(base);
    const call = await post(
      base,
      '/api/v2_soap/',
      envelope(`<ns1:callParam><sessionId>${session}</sessionId><apiPath>directory_region.list</apiPath><args>US</args></ns1:callParam>`),
    );
    assert.equal(call.status, 200, call.text);
    assert.match(call.text, /<ns1:callResponseParam><result SOAP-ENC:arrayType="ns2:Map\[\d+\]" xsi:type="SOAP-ENC:Array">/);
    assert.match(call.text, /xmlns:SOAP-ENC="http:\/\/schemas.xmlsoap.org\/soap\/encoding\/"/);
    const multi = await post(
      base,
      '/api/v2_soap/',
      envelope(
        `<ns1:multiCallParam><sessionId>${session}</sessionId><calls><item><item>core_magento.info</item></item><item><item>order.info</item><item>none</item></item></calls><options/></ns1:multiCallParam>`,
      ),
    );
    assert.equal(multi.status, 200, multi.text);
    assert.match(multi.text, /<key xsi:type="xsd:string">magento_edition<\/key>/);
    assert.match(multi.text, /<key xsi:type="xsd:string">faultCode<\/key><value xsi:type="xsd:string">100<\/value>/);
  });

  test('WS-I: a required child missing is fault 6; lists of one are lists', async () => {
    const session = await login(base);
    const missing = await post(
      base,
      '/api/v2_soap/',
      envelope(`<ns1:salesOrderInfoRequestParam><sessionId>${session}</sessionId></ns1:salesOrderInfoRequestParam>`),
    );
    assert.equal(missing.status, 500);
    assert.match(missing.text, /<faultcode>6<\/faultcode>/);
    const one = await post(
      base,
      '/api/v2_soap/',
      envelope(
        `<ns1:catalogInventoryStockItemListRequestParam><sessionId>${session}</sessionId><productIds><complexObjectArray>${skus[1]}</complexObjectArray></productIds></ns1:catalogInventoryStockItemListRequestParam>`,
      ),
    );
    assert.equal(one.status, 200, one.text);
    assert.match(
      one.text,
      /<ns1:catalogInventoryStockItemListResponseParam><result><complexObjectArray><product_id>\d+<\/product_id><sku>/,
    );
  });
});
