/** GET /reports/low-stock: managed stock under its notify threshold, a paginated list, for holders of reports/read. */
import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import { op } from '../../platform/operations.js';
import { PageQuery } from '../../platform/pagination.js';
import { ReportStoreQuery } from '../../platform/report-period.js';
import { lowStockReport } from './reports.js';

const LowStockItem = Type.Object({
  productId: Type.Integer(),
  sku: Type.String(),
  name: Type.String({ description: 'the default name' }),
  qty: Type.Integer({ description: 'quantity in stock' }),
  notifyStockQty: Type.Integer({ description: 'the threshold it is under (its own, or the configured default)' }),
  isInStock: Type.Boolean(),
});

export const lowStockReportOperation = op({
  id: 'reports.lowStock',
  method: 'GET',
  path: '/reports/low-stock',
  tags: ['reports'],
  summary:
    "Products with managed stock under their notify threshold (cataloginventory/item_options/notify_stock_qty by default), lowest quantity first; storeId limits it to the products of that store view's website",
  access: access.admin('reports', 'read'),
  shortName: 'LowStockItem',
  kind: 'collection',
  query: Type.Object({ ...ReportStoreQuery, ...PageQuery }),
  response: LowStockItem,
  page: { defaultSize: 20, maxSize: 100 },
  graphql: { name: 'lowStockReport' },
  run: (ctx, { query, page }) => lowStockReport(ctx, query, page),
});
