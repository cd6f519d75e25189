/** The dashboard reports, read by the demo API user over data bench/report-seed.ts writes (100,000 orders over a year). */
import type { Scenario } from './scenarios.js';

const API = '/api/rest/v2';
/** a year of days (the longest range of a daily report is two years; this one is by month) */
const yearAgo = new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10);

export const REPORT_SCENARIOS = [
  'report-sales',
  'report-sales-year',
  'report-bestsellers',
  'report-coupons',
  'report-tax',
  'report-new-customers',
  'report-low-stock',
  'report-abandoned-carts',
  'report-search-terms',
];

export const reportScenarios: Scenario[] = [
  { name: 'report-sales', method: 'GET', path: `${API}/reports/sales`, auth: 'admin' },
  { name: 'report-sales-year', method: 'GET', path: `${API}/reports/sales?period=month&from=${yearAgo}`, auth: 'admin' },
  { name: 'report-bestsellers', method: 'GET', path: `${API}/reports/bestsellers`, auth: 'admin' },
  { name: 'report-coupons', method: 'GET', path: `${API}/reports/coupons`, auth: 'admin' },
  { name: 'report-tax', method: 'GET', path: `${API}/reports/tax`, auth: 'admin' },
  { name: 'report-new-customers', method: 'GET', path: `${API}/reports/new-customers?period=week&storeId=1`, auth: 'admin' },
  { name: 'report-low-stock', method: 'GET', path: `${API}/reports/low-stock`, auth: 'admin' },
  { name: 'report-abandoned-carts', method: 'GET', path: `${API}/reports/abandoned-carts`, auth: 'admin' },
  { name: 'report-search-terms', method: 'GET', path: `${API}/reports/search-terms`, auth: 'admin' },
];
