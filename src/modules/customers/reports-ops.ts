/** GET /reports/new-customers: accounts created per period and per store view, for holders of reports/read. */
import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import { op, type Operation } from '../../platform/operations.js';
import { ReportMeta, ReportRangeQuery, reportRange } from '../../platform/report-period.js';
import { newCustomersReport } from './reports.js';

const NewCustomersReport = Type.Object({
  ...ReportMeta,
  rows: Type.Array(Type.Object({ period: Type.String({ description: 'first day of the period' }), customers: Type.Integer() }), {
    description: 'per period that has new accounts, oldest first',
  }),
  stores: Type.Array(
    Type.Object({
      storeId: Type.Optional(Type.Integer({ description: 'the store view registered in; omitted for accounts made elsewhere' })),
      customers: Type.Integer(),
    }),
    { description: 'per store view over the range' },
  ),
  total: Type.Integer({ description: 'new accounts over the range' }),
});

export const customerReportOperations: Operation[] = [
  op({
    id: 'reports.newCustomers',
    method: 'GET',
    path: '/reports/new-customers',
    tags: ['reports'],
    summary: 'Customer accounts created per period (store time zone) and per store view they registered in',
    access: access.admin('reports', 'read'),
    shortName: 'NewCustomersReport',
    query: Type.Object(ReportRangeQuery),
    response: NewCustomersReport,
    graphql: { name: 'newCustomersReport' },
    run: (ctx, { query }) => newCustomersReport(ctx, reportRange(ctx, query)),
  }),
];
