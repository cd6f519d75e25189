import { access } from '../../platform/auth/access.js';
import { AppError } from '../../platform/errors.js';
import { toAppError } from '../../platform/http.js';
import type { RestApp } from '../../platform/module.js';
import { StockBulkResult, StockBulkUpdate, StockRecordSchema, StockUpdate } from './schemas.js';
import * as inventory from './service.js';

const tags = ['inventory'];

/** A body validation error of a bulk item, reported as the service reports item errors: "Item at index N: ...". */
function bulkValidationError(err: Error): AppError {
  const e = toAppError(err);
  const field = typeof e.details?.field === 'string' ? e.details.field : '';
  const m = /^items\.(\d+)(?:\.(.+))?$/.exec(field);
  if (!m) return e;
  const index = Number(m[1]);
  const message = e.message.startsWith(field) ? `${m[2] ?? 'the item'}${e.message.slice(field.length)}` : e.message;
  return new AppError(e.kind, `Item at index ${index}: ${message}`, {
    reason: e.reason,
    details: { ...e.details, field: m[2] ?? 'item', index },
  });
}

export function routes(app: RestApp): void {
  app.put(
    '/inventory',
    {
      schema: {
        operationId: 'inventory.update',
        tags,
        summary: 'Update the stock of one product by SKU (only the keys sent; qty an integer 0 to 99,999,999)',
        body: StockUpdate,
        response: { 200: StockRecordSchema },
      },
      config: { access: access.admin('inventory', 'write') },
    },
    async (req) => inventory.updateStockBySku(req.ctx, req.body),
  );
  app.put(
    '/inventory/bulk',
    {
      schema: {
        operationId: 'inventory.bulkUpdate',
        tags,
        summary: 'Update the stock of 1 to 100 products, validated first and applied in one transaction',
        body: StockBulkUpdate,
        response: { 200: StockBulkResult },
      },
      attachValidation: true,
      config: { access: access.admin('inventory', 'write') },
    },
    async (req) => {
      if (req.validationError) throw bulkValidationError(req.validationError);
      return inventory.updateStockBulk(req.ctx, req.body.items);
    },
  );
}
