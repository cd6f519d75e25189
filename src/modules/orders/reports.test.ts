/**
 * The order reports over HTTP: sales, bestsellers, coupons and tax, each checked against figures the test works
 * out from the orders it wrote (across days, store views and time zones, with a canceled order, an unpaid one,
 * a refund and coupons), per day, week and month; bad input, access, store scopes and one statement each.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Decimal } from '../../platform/money.js';
import { countStatements } from '../../platform/db.js';
import { groupBy, insertOrder, periodKey, total, type ReportOrder } from '../../../test/fixtures/reports.js';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let admin: string;

const P1 = { productId: 9_000_001, sku: 'REP-1', name: 'Report One' };
const P2 = { productId: 9_000_002, sku: 'REP-2', name: 'Report Two' };
const P3 = { productId: 9_000_003, sku: 'REP-3', name: 'Report Three' };

/** Store 1 counts days in UTC, store 2 (demo "german") in Europe/Berlin. */
const ORDERS: ReportOrder[] = [
  {
    at: '2025-03-10T10:00:00Z',
    storeId: 1,
    state: 'processing',
    subtotal: '100',
    tax: '8',
    shipping: '10',
    grandTotal: '118',
    items: [{ ...P1, qty: '2', rowTotal: '100', taxPercent: '8', tax: '8' }],
  },
  // 23:30 UTC: the 11th in Berlin
  {
    at: '2025-03-10T23:30:00Z',
    storeId: 2,
    state: 'complete',
    subtotal: '50',
    tax: '9.5',
    shipping: '5',
    shippingTax: '0.95',
    discount: '5',
    grandTotal: '60.45',
    refunded: '20',
    coupon: 'SAVE10',
    items: [{ ...P2, qty: '1', rowTotal: '50', discount: '5', taxPercent: '19', tax: '9.5' }],
  },
  {
    at: '2025-03-11T09:00:00Z',
    storeId: 1,
    state: 'canceled',
    subtotal: '999',
    grandTotal: '999',
    canceled: '999',
    coupon: 'SAVE10',
    items: [{ ...P3, qty: '50', rowTotal: '999' }],
  },
  {
    at: '2025-03-12T09:00:00Z',
    storeId: 1,
    state: 'pending_payment',
    subtotal: '500',
    grandTotal: '500',
    items: [{ ...P3, qty: '40', rowTotal: '500' }],
  },
  {
    at: '2025-03-17T12:00:00Z',
    storeId: 1,
    state: 'new',
    subtotal: '30',
    shipping: '5',
    discount: '3',
    grandTotal: '32',
    coupon: 'save10',
    items: [{ ...P1, qty: '3', rowTotal: '30', discount: '3' }],
  },
  // partly canceled: 10 of its 40 came off
  {
    at: '2025-04-02T08:00:00Z',
    storeId: 2,
    state: 'processing',
    subtotal: '40',
    tax: '7.6',
    grandTotal: '47.6',
    canceled: '10',
    items: [{ ...P3, qty: '2', rowTotal: '40', taxPercent: '19', tax: '7.6' }],
  },
  // 23:30 UTC on the last of February: March 1st in Berlin
  {
    at: '2025-02-28T23:30:00Z',
    storeId: 2,
    state: 'complete',
    subtotal: '10',
    grandTotal: '10',
    items: [{ ...P2, qty: '1', rowTotal: '10' }],
  },
];

type Period = 'day' | 'week' | 'month';

/** The orders a report counts: in the range (dates of `zone`), of the store views, neither canceled nor unpaid. */
function counted(from: string, to: string, zone: string, stores: number[]): ReportOrder[] {
  return ORDERS.filter((o) => {
    const day = periodKey(o.at, zone, 'day');
    return day >= from && day <= to && stores.includes(o.storeId) && o.state !== 'canceled' && o.state !== 'pending_payment';
  });
}

function salesFigures(list: ReportOrder[]) {
  const revenue = total(list.map((o) => new Decimal(o.grandTotal).sub(o.canceled ?? '0').toString()));
  return {
    orders: list.length,
    revenue,
    subtotal: total(list.map((o) => new Decimal(o.subtotal).sub(o.canceled ?? '0').toString())),
    tax: total(list.map((o) => o.tax)),
    shipping: total(list.map((o) => o.shipping)),
    discounts: total(list.map((o) => o.discount)),
    refunds: total(list.map((o) => o.refunded)),
    averageOrderValue: list.length ? new Decimal(revenue).div(list.length).toFixed(2) : '0.00',
  };
}

function expectedSales(from: string, to: string, period: Period, zone: string, stores: number[]) {
  const list = counted(from, to, zone, stores);
  const byPeriod = groupBy(list, (o) => periodKey(o.at, zone, period));
  const rows = [...byPeriod.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([p, os]) => ({ period: p, ...salesFigures(os) }));
  return { rows, total: salesFigures(list) };
}

const get = (path: string, token = admin) => t.req('GET', `${API}${path}`, { token });

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  for (const o of ORDERS) await insertOrder(t, o);
});
after(() => t.close());

describe('sales report', () => {
  for (const period of ['day', 'week', 'month'] as const) {
    test(`every store view by ${period}, in the default store view's zone (UTC)`, async () => {
      const r = await get(`/reports/sales?from=2025-03-01&to=2025-04-30&period=${period}`);
      assert.equal(r.status, 200, r.text);
      const want = expectedSales('2025-03-01', '2025-04-30', period, 'UTC', [1, 2]);
      assert.deepEqual(r.body.rows, want.rows);
      assert.deepEqual(r.body.total, want.total);
      assert.equal(r.body.timezone, 'UTC');
      assert.equal(r.body.currency, 'USD');
      assert.equal(r.body.period, period);
    });

    test(`store view 2 by ${period}, in its own zone (Europe/Berlin)`, async () => {
      const r = await get(`/reports/sales?from=2025-03-01&to=2025-04-30&period=${period}&storeId=2`);
      assert.equal(r.status, 200, r.text);
      const want = expectedSales('2025-03-01', '2025-04-30', period, 'Europe/Berlin', [2]);
      assert.deepEqual(r.body.rows, want.rows);
      assert.deepEqual(r.body.total, want.total);
      assert.equal(r.body.timezone, 'Europe/Berlin');
      assert.equal(r.body.storeId, 2);
    });
  }

  test('an order at 23:30 UTC falls on the next day in Berlin', async () => {
    const utc = await get('/reports/sales?from=2025-03-10&to=2025-03-11');
    assert.deepEqual(
      utc.body.rows.map((x: { period: string; orders: number }) => [x.period, x.orders]),
      [['2025-03-10', 2]],
    );
    const berlin = await get('/reports/sales?from=2025-03-10&to=2025-03-11&storeId=2');
    assert.deepEqual(
      berlin.body.rows.map((x: { period: string; orders: number }) => [x.period, x.orders]),
      [['2025-03-11', 1]],
    );
    // the last of February in UTC is March 1st in Berlin
    const march = await get('/reports/sales?from=2025-03-01&to=2025-03-01&storeId=2');
    assert.equal(march.body.total.orders, 1);
    const all = await get('/reports/sales?from=2025-03-01&to=2025-03-01');
    assert.equal(all.body.total.orders, 0);
  });

  test('a range without orders answers zeros', async () => {
    const r = await get('/reports/sales?from=2020-01-01&to=2020-01-31');
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.rows, []);
    assert.equal(r.body.total.orders, 0);
    assert.equal(r.body.total.revenue, '0.00');
  });

  test('defaults: the last 30 days by day', async () => {
    const r = await get('/reports/sales');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.period, 'day');
    const days = (Date.parse(`${r.body.to}T00:00:00Z`) - Date.parse(`${r.body.from}T00:00:00Z`)) / 86_400_000;
    assert.equal(days, 29);
  });
});

describe('bestsellers, coupons and tax', () => {
  test('bestsellers: quantity, revenue net of line discounts, canceled and unpaid left out', async () => {
    const r = await get('/reports/bestsellers?from=2025-03-01&to=2025-04-30');
    assert.equal(r.status, 200, r.text);
    const lines = counted('2025-03-01', '2025-04-30', 'UTC', [1, 2]).flatMap((o) => o.items.map((i) => ({ ...i, order: o })));
    const want = [...groupBy(lines, (l) => String(l.productId)).values()]
      .map((ls) => ({
        productId: ls[0].productId,
        sku: ls[0].sku,
        name: ls[0].name,
        qty: ls.reduce((s, l) => s.add(l.qty), new Decimal(0)).toString(),
        revenue: total(ls.map((l) => new Decimal(l.rowTotal).sub(l.discount ?? '0').toString())),
        orders: new Set(ls.map((l) => l.order)).size,
      }))
      .sort((a, b) => Number(b.qty) - Number(a.qty) || a.productId - b.productId);
    assert.deepEqual(r.body.rows, want);
    assert.equal(want[0].sku, 'REP-1');
    const top = await get('/reports/bestsellers?from=2025-03-01&to=2025-04-30&limit=1');
    assert.deepEqual(top.body.rows, want.slice(0, 1));
  });

  test('coupons: per code (any case) over the range and per period', async () => {
    const r = await get('/reports/coupons?from=2025-03-01&to=2025-04-30&period=month');
    assert.equal(r.status, 200, r.text);
    const used = counted('2025-03-01', '2025-04-30', 'UTC', [1, 2]).filter((o) => o.coupon);
    const figures = (os: ReportOrder[]) => ({
      code: 'SAVE10',
      ruleName: 'Rule of SAVE10',
      uses: os.length,
      discount: total(os.map((o) => o.discount)),
      revenue: total(os.map((o) => new Decimal(o.grandTotal).sub(o.canceled ?? '0').toString())),
    });
    assert.equal(used.length, 2);
    const [total0] = r.body.coupons;
    assert.deepEqual({ ...total0, ruleName: 'Rule of SAVE10' }, figures(used));
    assert.deepEqual(
      r.body.rows.map((x: Record<string, unknown>) => ({ ...x, ruleName: 'Rule of SAVE10' })),
      [{ period: '2025-03-01', ...figures(used) }],
    );
  });

  test('tax: per rate, items and shipping, per period and over the range', async () => {
    const r = await get('/reports/tax?from=2025-03-01&to=2025-04-30&period=month&storeId=2');
    assert.equal(r.status, 200, r.text);
    const list = counted('2025-03-01', '2025-04-30', 'Europe/Berlin', [2]);
    const charges = list.flatMap((o) => [
      ...o.items.filter((i) => i.tax && i.tax !== '0').map((i) => ({ o, percent: i.taxPercent!, tax: i.tax! })),
      ...(o.shippingTax ? [{ o, percent: new Decimal(o.shippingTax).mul(100).div(o.shipping!).toString(), tax: o.shippingTax }] : []),
    ]);
    const fig = (cs: typeof charges) => ({
      percent: cs[0].percent,
      tax: total(cs.map((c) => c.tax)),
      orders: new Set(cs.map((c) => c.o)).size,
    });
    assert.deepEqual(r.body.rates, [fig(charges)]);
    const byMonth = [...groupBy(charges, (c) => periodKey(c.o.at, 'Europe/Berlin', 'month')).entries()].map(([p, cs]) => ({
      period: p,
      ...fig(cs),
    }));
    assert.deepEqual(r.body.rows, byMonth);
    assert.equal(r.body.rates[0].percent, '19');
    assert.equal(r.body.rates[0].tax, '18.05');
  });
});

describe('input, access and cost', () => {
  const paths = ['sales', 'bestsellers', 'coupons', 'tax'];

  test('bad input is a 400 in the error shape', async () => {
    for (const p of paths) {
      for (const q of [
        'from=2025-03-10&to=2025-03-01',
        'period=year',
        'from=2025-02-30',
        'to=10/03/2025',
        'from=2020-01-01&to=2025-01-01&period=day',
        'storeId=999',
        'storeId=abc',
      ]) {
        const r = await get(`/reports/${p}?${q}`);
        assert.equal(r.status, 400, `${p}?${q}: ${r.status} ${r.text}`);
        assert.equal(typeof r.body.error, 'string');
        assert.equal(typeof r.body.message, 'string');
      }
    }
    assert.equal((await get('/reports/bestsellers?limit=101')).status, 400);
    assert.equal((await get('/reports/bestsellers?limit=0')).status, 400);
    // a long range is fine by month
    assert.equal((await get('/reports/sales?from=2020-01-01&to=2025-01-01&period=month')).status, 200);
  });

  test('anonymous 401, customer 403, API user without reports/read 403, with it 200', async () => {
    const customer = await t.tokens.customer();
    const without = await t.tokens.apiUser(['orders/read']);
    const withIt = await t.tokens.apiUser(['reports/read']);
    for (const p of paths) {
      assert.equal((await t.req('GET', `${API}/reports/${p}`)).status, 401, p);
      assert.equal((await get(`/reports/${p}`, customer)).status, 403, p);
      assert.equal((await get(`/reports/${p}`, without)).status, 403, p);
      assert.equal((await get(`/reports/${p}`, withIt)).status, 200, p);
    }
  });

  test('a token limited to store view 2 sees only it, and may not ask for store view 1', async () => {
    const limited = await t.tokens.apiUser(['reports/read'], { allowedStoreIds: [2] });
    for (const p of paths) {
      const r = await get(`/reports/${p}?storeId=1&store=german`, limited);
      assert.equal(r.status, 403, `${p}: ${r.text}`);
    }
    const r = await get('/reports/sales?from=2025-03-01&to=2025-04-30&store=german', limited);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.total, expectedSales('2025-03-01', '2025-04-30', 'day', 'UTC', [2]).total);
    const best = await get('/reports/bestsellers?from=2025-03-01&to=2025-04-30&store=german', limited);
    assert.deepEqual(
      best.body.rows.map((x: { sku: string }) => x.sku),
      ['REP-3', 'REP-2'],
    );
  });

  test('each report is one statement (beside the token check every admin request makes)', async () => {
    const auth = await countStatements(() => t.req('GET', `${API}/reports/sales?period=year`, { token: admin }));
    assert.equal(auth.result.status, 400);
    for (const p of paths) {
      const url = `${API}/reports/${p}?from=2025-03-01&to=2025-04-30&period=week`;
      assert.equal((await t.req('GET', url, { token: admin })).status, 200);
      const { n, result } = await countStatements(() => t.req('GET', url, { token: admin }));
      assert.equal(result.status, 200);
      assert.equal(n - auth.n, 1, p);
    }
  });

  test('GraphQL: salesReport', async () => {
    const r = await t.gql(
      '{ salesReport(from: "2025-03-01", to: "2025-04-30", period: "month") { timezone rows total { orders revenue refunds } } }',
      admin,
    );
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    const want = expectedSales('2025-03-01', '2025-04-30', 'month', 'UTC', [1, 2]);
    assert.deepEqual(r.data.salesReport.rows, want.rows);
    assert.deepEqual(r.data.salesReport.total, { orders: want.total.orders, revenue: want.total.revenue, refunds: want.total.refunds });
  });
});
