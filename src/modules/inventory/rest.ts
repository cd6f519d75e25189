/**
 * Stock by SKU: the reads GET /inventory and /inventory/{sku} (Maho's GraphQL `stocks` and `stock(id:)`, which its
 * REST has not) and the updates PUT /inventory and /inventory/bulk (`updateStock`, `bulkUpdateStock`).
 */
import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import { AppError } from '../../platform/errors.js';
import { compact } from '../../platform/format.js';
import { GraphqlId } from '../../platform/graphql-derive.js';
import { checkBody, toAppError } from '../../platform/http.js';
import type { RestApp } from '../../platform/module.js';
import { op, type Operation } from '../../platform/operations.js';
import { PageQuery } from '../../platform/pagination.js';
import { StockBulkResult, StockBulkUpdate, StockRecordSchema, StockSkuParams, StockUpdate, StockViewSchema } from './schemas.js';
import * as inventory from './service.js';
import { updateStockBulk, updateStockBySku } from './admin.js';

const tags = ['inventory'];
const BULK_PATH = '/inventory/bulk';

/** A body validation error of a bulk item, reported as the service reports item errors: "Item at index N: ...". */
function bulkValidationError(err: unknown): AppError {
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

/** Keys that an explicit GraphQL null clears; a null elsewhere reads as "not sent". */
const CLEARABLE = new Set(['maxSaleQty', 'notifyStockQty', 'qtyIncrements']);

function stockInput(input: unknown): unknown {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return input;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) if (v !== null || CLEARABLE.has(k)) out[k] = v;
  return out;
}

/** The IRI prefix of a stock (its REST item path); `stock(id:)` takes the SKU or its IRI. */
const IRI_PREFIX = '/api/rest/v2/inventory/';

export const operations: Operation[] = [
  op({
    id: 'inventory.update',
    method: 'PUT',
    path: '/inventory',
    tags,
    summary: 'Update the stock of one product by SKU (only the keys sent; qty an integer 0 to 99,999,999)',
    access: access.admin('inventory', 'write'),
    shortName: 'Stock',
    body: StockUpdate,
    response: StockRecordSchema,
    graphql: { name: 'updateStock', input: ({ clientMutationId: _, ...a }) => ({ body: stockInput(a) }) },
    run: (ctx, { body }) => updateStockBySku(ctx, body),
  }),
  op({
    id: 'inventory.bulkUpdate',
    method: 'PUT',
    path: BULK_PATH,
    tags,
    summary: 'Update the stock of 1 to 100 products, validated first and applied in one transaction',
    access: access.admin('inventory', 'write'),
    shortName: 'Stock',
    body: StockBulkUpdate,
    response: StockBulkResult,
    graphql: {
      name: 'bulkUpdateStock',
      // the spec's name
      aliases: ['updateStockBulk'],
      input: (a) => ({ body: { items: Array.isArray(a.items) ? a.items.map(stockInput) : a.items } }),
      // a bad item names its index, as over REST
      around: (args, next) => next(args).catch((err: unknown) => Promise.reject(bulkValidationError(err))),
    },
    run: (ctx, { body }) => updateStockBulk(ctx, body.items),
  }),
  op({
    id: 'inventory.list',
    method: 'GET',
    path: '/inventory',
    tags,
    summary: "Every stock row, by product id (a store-limited principal's websites' products only)",
    access: access.admin('inventory', 'read'),
    shortName: 'Stock',
    query: Type.Object(PageQuery),
    kind: 'collection',
    response: StockViewSchema,
    page: { defaultSize: 20, maxSize: 100 },
    // Maho's `stocks` takes the cursor arguments only
    graphql: { args: Type.Object({}), input: () => ({}) },
    mcp: { name: 'stock_list' },
    run: async (ctx, { page }) => {
      const { items, total } = await inventory.listStock(ctx, page);
      return { items: items.map((s) => compact({ ...s })), total };
    },
  }),
  op({
    id: 'inventory.get',
    method: 'GET',
    path: '/inventory/:sku',
    tags,
    summary: 'The stock of a product by SKU (any case); 404 when no product has it or it keeps no stock row',
    access: access.admin('inventory', 'read'),
    shortName: 'Stock',
    params: StockSkuParams,
    response: StockViewSchema,
    mcp: { name: 'stock_get' },
    graphql: {
      name: 'stock',
      args: Type.Object({ id: GraphqlId({ description: 'the SKU, or the IRI /api/rest/v2/inventory/{sku}' }) }),
      input: (a) => ({ params: { sku: String(a.id).startsWith(IRI_PREFIX) ? String(a.id).slice(IRI_PREFIX.length) : String(a.id) } }),
    },
    run: async (ctx, { params }) => compact({ ...(await inventory.stockBySku(ctx, params.sku)) }),
  }),
];

/**
 * A body validation error of PUT /inventory/bulk names the item's index, as the service's own item errors do:
 * the body is checked here, before Fastify's validation (with the same validator), and an error is reworded.
 * (A declaration cannot ask for Fastify's `attachValidation`; this hook sees every API route and acts on one.)
 */
export function routes(app: RestApp): void {
  const url = `${app.prefix}${BULK_PATH}`;
  app.addHook('preValidation', async (req) => {
    if (req.method !== 'PUT' || req.routeOptions.url !== url) return;
    try {
      checkBody(StockBulkUpdate, req.body === undefined ? null : req.body);
    } catch (err) {
      throw bulkValidationError(err);
    }
  });
}
