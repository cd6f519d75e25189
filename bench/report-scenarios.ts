/**
 * The dashboard reports and the back office's order grid, read by the demo API user over data
 * bench/report-seed.ts writes (100,000 orders over a year). These are back-office pages a few people open, not
 * storefront traffic: what matters is how long one takes, so they run with a few connections
 * (BENCH_REPORT_CONNECTIONS, default 1) whatever BENCH_CONNECTIONS says, and their p50/p99 is the latency of one
 * request (targets on 100,000 orders: a report under 200 ms, a grid page under 300 ms). The grid scenarios ask a
 * different page or search each time (`{page}`, `{n}`), so that the list cache never answers for the database.
 */
import type { Scenario } from './scenarios.js';

const raw = process.env.BENCH_REPORT_CONNECTIONS;
const connections = raw ? Number(raw) : 1;
if (!Number.isInteger(connections) || connections < 1)
  throw new Error(`BENCH_REPORT_CONNECTIONS must be a whole number of at least 1, got "${raw}"`);

/** the orders bench/report-seed.ts writes (their emails are bench1@example.com and on) */
export const REPORT_ORDERS = Number(process.env.BENCH_REPORT_ORDERS ?? 100_000);
/** the pages of 20 orders the grid scenarios pick from */
export const GRID_PAGES = Math.max(1, Math.floor(REPORT_ORDERS / 20));

const API = '/api/rest/v2';
/** a year of days (the longest range of a daily report is two years; this one is by month) */
const yearAgo = new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10);
const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);

export const REPORT_SCENARIOS = [
  'report-sales',
  'report-sales-year',
  'report-bestsellers',
  'report-bestsellers-year',
  'report-coupons',
  'report-tax',
  'report-tax-year',
  'report-new-customers',
  'report-low-stock',
  'report-abandoned-carts',
  'report-search-terms',
  'grid-orders',
  'grid-orders-sorted',
  'grid-orders-search',
  'legacy-order-list',
  'legacy-order-list-soap',
];

const report = (name: string, query = ''): Scenario => ({
  name: `report-${name}`,
  method: 'GET',
  path: `${API}/reports/${name.replace(/-year$/, '')}${query}`,
  auth: 'admin',
  connections,
});

const grid = (name: string, query: string): Scenario => ({
  name: `grid-${name}`,
  method: 'GET',
  path: `${API}/${name.replace(/-\w+$/, '')}${query}`,
  auth: 'admin',
  connections,
});

export const reportScenarios: Scenario[] = [
  report('sales'),
  report('sales-year', `?period=month&from=${yearAgo}`),
  report('bestsellers'),
  report('bestsellers-year', `?period=month&from=${yearAgo}`),
  report('coupons'),
  report('tax'),
  report('tax-year', `?period=month&from=${yearAgo}`),
  report('new-customers', '?period=week&storeId=1'),
  report('low-stock'),
  report('abandoned-carts'),
  report('search-terms'),
  // newest first, a page anywhere in the 5,000 of 20 orders
  grid('orders', '?page={page}'),
  grid('orders-sorted', '?sortBy=grandTotal&sortDir=desc&page={page}'),
  // one seeded customer's email, found by a part of it: every order's number, email and names are searched
  grid('orders-search', '?search=bench{n}%40'),
  // an ERP's poll of the Magento 1 API: the last week's orders (some 1,900 of the 100,000) over JSON-RPC
  {
    name: 'legacy-order-list',
    method: 'POST',
    path: '/api/jsonrpc/',
    body: {
      jsonrpc: '2.0',
      method: 'call',
      params: ['{legacySession}', 'sales_order.list', [{ created_at: { from: `${weekAgo} 00:00:00` } }]],
      id: 1,
    },
    connections,
  },
  // the same poll as a proxy generated from the V2 WSDL sends it: salesOrderList with a complex_filter
  {
    name: 'legacy-order-list-soap',
    method: 'POST',
    path: '/api/v2_soap/',
    body:
      `<?xml version="1.0" encoding="UTF-8"?><SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/" ` +
      `xmlns:ns1="urn:Magento"><SOAP-ENV:Body><ns1:salesOrderList><sessionId>{legacySession}</sessionId><filters><complex_filter>` +
      `<item><key>created_at</key><value><key>from</key><value>${weekAgo} 00:00:00</value></value></item>` +
      `</complex_filter></filters></ns1:salesOrderList></SOAP-ENV:Body></SOAP-ENV:Envelope>`,
    connections,
  },
];
