/**
 * `cataloginventory_stock_item` (`product_stock`) of the Magento 1 API: the stock of products named by SKU or id
 * (list), and updates of one product or many (update, multiUpdate), over the inventory module's stock writer:
 * rows locked in product id order, a multiUpdate one transaction of a fixed number of statements, all or none.
 */
import { adminWebsiteScope, type Ctx } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { productsByIdOrSku, type LegacyProductKey } from '../../catalog/products/legacy-keys.js';
import { stockOf } from '../../inventory/service.js';
import { setStockMany } from '../../inventory/stock-batch.js';
import type { StockInput } from '../../inventory/stock-input.js';
import { missingRow } from '../../inventory/stock-rows.js';
import { isRecord } from '../encoding.js';
import { defineResource, resourceFault, type LegacyValue } from '../resources.js';
import { stockFields } from './stock-data.js';

/** Most products one list or multiUpdate names (Magento's own limit is the request size). */
const MAX_PRODUCTS = 1000;

/** A product reference as sent: an id or a SKU, both as text. */
function refOf(v: LegacyValue | undefined): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
}

/**
 * The products the references name, as Magento's stock API reads them: a product with that SKU first, else the
 * product with that id; undefined for a reference that names none (or one outside a store-limited user's websites).
 */
async function resolve(ctx: Ctx, refs: (string | undefined)[]): Promise<(LegacyProductKey | undefined)[]> {
  const given = refs.filter((r): r is string => r !== undefined);
  const ids = given.filter((r) => /^\d{1,10}$/.test(r)).map(Number);
  const { byId, bySku } = await productsByIdOrSku(ctx, ids, given, adminWebsiteScope(ctx));
  return refs.map((r) =>
    r === undefined ? undefined : (bySku.get(r.toLowerCase()) ?? (/^\d{1,10}$/.test(r) ? byId.get(Number(r)) : undefined)),
  );
}

/** A wire value as a number when it reads as one ("10", "10.0000", 10), else as sent for the service to refuse. */
function numberOf(v: LegacyValue): unknown {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^\s*[+-]?\d+(\.\d+)?\s*$/.test(v)) return Number(v);
  return v;
}

function flagOf(v: LegacyValue): unknown {
  if (typeof v === 'boolean') return v;
  if (v === 1 || v === '1' || v === 'true') return true;
  if (v === 0 || v === '0' || v === 'false' || v === '') return false;
  return v;
}

/** The stock data of an update in the service's keys; a value the service would refuse is refused by it with its reason. */
function stockInput(data: LegacyValue | undefined): StockInput {
  if (!isRecord(data)) throw resourceFault(stockItem, 'not_updated', 'Stock data must be a struct.');
  return stockFields(data, { number: numberOf, flag: flagOf });
}

/** Writes the updates in one transaction: 101 when a reference names no product, 102 when the service refuses one. */
async function update(ctx: Ctx, refs: (LegacyValue | undefined)[], data: (LegacyValue | undefined)[]): Promise<true> {
  const inputs = data.map(stockInput);
  const products = await resolve(ctx, refs.map(refOf));
  const items = products.map((p, i) => {
    if (!p) throw resourceFault(stockItem, 'not_exists');
    return { productId: p.id, sku: p.sku, input: inputs[i] };
  });
  try {
    await setStockMany(ctx, items);
  } catch (err) {
    if (err instanceof AppError && err.status === 404) throw resourceFault(stockItem, 'not_exists');
    if (err instanceof AppError && err.status < 500) throw resourceFault(stockItem, 'not_updated', err.message);
    throw err;
  }
  return true;
}

const listOf = (v: LegacyValue | undefined): LegacyValue[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);

export const stockItem = defineResource({
  name: 'cataloginventory_stock_item',
  title: 'Inventory API',
  aliases: ['product_stock'],
  faults: {
    not_exists: ['101', 'Product not exists.'],
    not_updated: ['102', 'Product inventory not updated. Details in error message.'],
    multi_update_not_match: ['103', 'Quantity of product IDs and product data should match. Inventory was not updated.'],
  },
  methods: {
    list: {
      title: 'Retrieve stock data by product ids',
      permission: ['inventory', 'read'],
      params: ['products'],
      run: async (ctx, [productIds]) => {
        const refs = listOf(productIds).slice(0, MAX_PRODUCTS).map(refOf);
        const found = [...new Map((await resolve(ctx, refs)).filter((p) => p !== undefined).map((p) => [p.id, p])).values()];
        const stock = await stockOf(
          ctx,
          found.map((p) => p.id),
        );
        // in product id order, as Magento's collection reads them; a product without a stock row reads as a new one
        return found
          .sort((a, b) => a.id - b.id)
          .map((p) => {
            const s = stock.get(p.id) ?? missingRow(p.id);
            return new Map<string, LegacyValue>([
              ['product_id', p.id],
              ['sku', p.sku],
              ['qty', s.qty],
              ['is_in_stock', s.isInStock ? 1 : 0],
            ]);
          });
      },
    },
    update: {
      title: 'Update product stock data',
      permission: ['inventory', 'write'],
      params: ['product', 'data'],
      run: (ctx, [product, data]) => update(ctx, [product], [data]),
    },
    multiUpdate: {
      title: 'Multi update product stock data',
      permission: ['inventory', 'write'],
      params: ['productIds', 'productData'],
      run: async (ctx, [productIds, productData]) => {
        // both are lists of the same length (Magento counts them; anything else cannot match)
        const refs = Array.isArray(productIds) ? productIds : undefined;
        const data = Array.isArray(productData) ? productData : undefined;
        if (!refs || !data || refs.length !== data.length) throw resourceFault(stockItem, 'multi_update_not_match');
        if (refs.length > MAX_PRODUCTS) throw resourceFault(stockItem, 'not_updated', `At most ${MAX_PRODUCTS} products per call.`);
        if (!refs.length) return true;
        return update(ctx, refs, data);
      },
    },
  },
});
