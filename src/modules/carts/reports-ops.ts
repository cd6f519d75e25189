/** GET /reports/abandoned-carts: active carts left with items, their count, value and one page of them. */
import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import { op } from '../../platform/operations.js';
import { pageOf, PageQuery } from '../../platform/pagination.js';
import { ReportStoreQuery } from '../../platform/report-period.js';
import { abandonedCartsReport } from './reports.js';

const AbandonedCartsReport = Type.Object({
  hours: Type.Integer({ description: 'carts untouched for at least this many hours' }),
  storeId: Type.Optional(Type.Integer()),
  currency: Type.String({ description: 'the base currency' }),
  count: Type.Integer({ description: 'abandoned carts in all' }),
  value: Type.String({ description: "their estimated value: quantities at today's catalog prices, before discounts and tax" }),
  page: Type.Integer(),
  itemsPerPage: Type.Integer(),
  carts: Type.Array(
    Type.Object({
      cartId: Type.Integer(),
      storeId: Type.Integer(),
      customerId: Type.Optional(Type.Integer()),
      email: Type.Optional(Type.String({ description: "the customer's, or the one given at checkout" })),
      items: Type.Integer({ description: 'lines' }),
      qty: Type.String({ description: 'units, a decimal' }),
      subtotal: Type.String({ description: 'estimated, as value' }),
      updatedAt: Type.String({ description: 'last change (UTC)' }),
    }),
    { description: 'this page, most recently left first' },
  ),
});

export const abandonedCartsReportOperation = op({
  id: 'reports.abandonedCarts',
  method: 'GET',
  path: '/reports/abandoned-carts',
  tags: ['reports'],
  summary:
    'Active carts with items untouched for `hours` (default reports/abandoned_carts/hours, 24): count, estimated value, and a page of them (page, itemsPerPage up to 100)',
  access: access.admin('reports', 'read'),
  shortName: 'AbandonedCartsReport',
  query: Type.Object({
    hours: Type.Optional(Type.Integer({ minimum: 1, maximum: 8760, description: 'hours untouched (1 to 8760)' })),
    ...ReportStoreQuery,
    ...PageQuery,
  }),
  response: AbandonedCartsReport,
  graphql: { name: 'abandonedCartsReport' },
  run: (ctx, { query }) => abandonedCartsReport(ctx, query, pageOf(query, { defaultSize: 20, maxSize: 100 })),
});
