/**
 * GET /reports/sales, /reports/bestsellers, /reports/coupons and /reports/tax: the dashboard's figures over
 * orders (reports.ts), for back-office principals holding reports/read, each within the caller's store views.
 */
import { Type, type TSchema } from 'typebox';
import { access } from '../../platform/auth/access.js';
import { GraphqlType } from '../../platform/graphql-derive.js';
import { op, type Operation } from '../../platform/operations.js';
import { ReportMeta, ReportRangeQuery, reportRange } from '../../platform/report-period.js';
import { bestsellersReport, couponsReport, salesReport, taxReport } from './reports.js';

const tags = ['reports'];
const rule = access.admin('reports', 'read');
const Amount = (description: string) => Type.String({ description: `${description}, a decimal in the base currency` });
const PeriodKey = Type.String({ description: 'first day of the period (YYYY-MM-DD)' });

const salesFigures = {
  orders: Type.Integer({ description: 'orders placed (canceled and unpaid pending_payment orders left out)' }),
  revenue: Amount('grand totals, less what was canceled of them'),
  subtotal: Amount('subtotals, less what was canceled of them'),
  tax: Amount('tax'),
  shipping: Amount('shipping, tax excluded'),
  discounts: Amount('discounts given'),
  refunds: Amount('refunded so far'),
  averageOrderValue: Amount('revenue per order'),
};

const SalesReport = Type.Object({
  ...ReportMeta,
  rows: Type.Array(Type.Object({ period: PeriodKey, ...salesFigures }), {
    description: 'one per period that has orders, oldest first',
  }),
  total: GraphqlType('SalesReportTotal', Type.Object(salesFigures)),
});

const BestsellersReport = Type.Object({
  ...ReportMeta,
  rows: Type.Array(
    Type.Object({
      productId: Type.Integer(),
      sku: Type.String(),
      name: Type.String({ description: 'the name on its latest order line' }),
      qty: Type.String({ description: 'quantity ordered, a decimal' }),
      revenue: Amount('row totals less line discounts, tax excluded'),
      orders: Type.Integer({ description: 'orders it was on' }),
    }),
    { description: 'most sold first' },
  ),
});

const couponFigures = {
  code: Type.String({ description: 'the coupon code, upper case' }),
  ruleName: Type.Optional(Type.String({ description: 'the name of its rule' })),
  uses: Type.Integer({ description: 'orders that used it' }),
  discount: Amount('discounts of those orders'),
  revenue: Amount('grand totals of those orders'),
};
const CouponsReport = Type.Object({
  ...ReportMeta,
  coupons: Type.Array(Type.Object(couponFigures), { description: 'per code over the range, most used first' }),
  rows: Type.Array(Type.Object({ period: PeriodKey, ...couponFigures }), {
    description: 'per period and code',
  }),
});

const taxFigures = {
  percent: Type.Optional(Type.String({ description: 'the rate, in percent (omitted for shipping tax on free shipping)' })),
  tax: Amount('tax charged'),
  orders: Type.Integer({ description: 'orders charged at this rate' }),
};
const TaxReport = Type.Object({
  ...ReportMeta,
  rates: Type.Array(Type.Object(taxFigures), { description: 'per rate over the range' }),
  rows: Type.Array(Type.Object({ period: PeriodKey, ...taxFigures }), { description: 'per period and rate' }),
});

const RangeQuery = Type.Object(ReportRangeQuery);
const BestsellersQuery = Type.Object({
  ...ReportRangeQuery,
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'how many products (default 10, at most 100)' })),
});

function report(name: string, summary: string, shortName: string, response: TSchema, run: Operation['run'], query = RangeQuery): Operation {
  const graphql = { name: shortName.charAt(0).toLowerCase() + shortName.slice(1) };
  return op({
    id: `reports.${name}`,
    method: 'GET',
    path: `/reports/${name}`,
    tags,
    summary,
    access: rule,
    shortName,
    query,
    response,
    graphql,
    run,
  });
}

export const orderReportOperations: Operation[] = [
  report(
    'sales',
    'Sales per period (day, week or month in the store time zone): orders, revenue, subtotal, tax, shipping, discounts, refunds, average order value, and the range total; canceled orders excluded',
    'SalesReport',
    SalesReport,
    (ctx, { query }) => salesReport(ctx, reportRange(ctx, query)),
  ),
  report(
    'bestsellers',
    'The products ordered most in the range (quantity), with their revenue; canceled orders excluded',
    'BestsellersReport',
    BestsellersReport,
    (ctx, { query }) => bestsellersReport(ctx, reportRange(ctx, query), (query as { limit?: number }).limit ?? 10),
    BestsellersQuery,
  ),
  report(
    'coupons',
    'Coupon codes used in the range: uses, discount and revenue of the orders, per code and per period',
    'CouponsReport',
    CouponsReport,
    (ctx, { query }) => couponsReport(ctx, reportRange(ctx, query)),
  ),
  report('tax', 'Tax charged per rate (percent), per period and over the range', 'TaxReport', TaxReport, (ctx, { query }) =>
    taxReport(ctx, reportRange(ctx, query)),
  ),
];
