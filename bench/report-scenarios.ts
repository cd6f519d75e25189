/**
 * The dashboard reports, read by the demo API user over data bench/report-seed.ts writes (100,000 orders over a
 * year). A report is a back-office page a few people open, not storefront traffic: what matters is how long one
 * takes, so these run with a few connections (BENCH_REPORT_CONNECTIONS, default 1) whatever BENCH_CONNECTIONS
 * says, and their p50/p99 is the latency of one report (target: under 200 ms on 100,000 orders).
 */
import type { Scenario } from './scenarios.js';

const raw = process.env.BENCH_REPORT_CONNECTIONS;
const connections = raw ? Number(raw) : 1;
if (!Number.isInteger(connections) || connections < 1)
  throw new Error(`BENCH_REPORT_CONNECTIONS must be a whole number of at least 1, got "${raw}"`);

const API = '/api/rest/v2';
/** a year of days (the longest range of a daily report is two years; this one is by month) */
const yearAgo = new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10);

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
];

const report = (name: string, query = ''): Scenario => ({
  name: `report-${name}`,
  method: 'GET',
  path: `${API}/reports/${name.replace(/-year$/, '')}${query}`,
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
];
