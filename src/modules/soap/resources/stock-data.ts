/**
 * Magento's stock data (a product's `stock_data` in catalog_product.create/update, the updates of
 * cataloginventory_stock_item) in the stock service's keys: one table of keys for both, each caller reading the
 * values its own way (the product API refuses a bad value with its own fault, the stock API leaves it to the
 * service's rules).
 */
import type { StockInput } from '../../inventory/stock-input.js';
import type { SoapRecord } from '../encoding.js';
import type { LegacyValue } from '../resources.js';

/** Magento's stock keys → the service's. */
export const STOCK_KEYS: Record<string, keyof StockInput> = {
  qty: 'qty',
  is_in_stock: 'isInStock',
  manage_stock: 'manageStock',
  use_config_manage_stock: 'useConfigManageStock',
  backorders: 'backorders',
  use_config_backorders: 'useConfigBackorders',
  min_qty: 'minQty',
  use_config_min_qty: 'useConfigMinQty',
  min_sale_qty: 'minSaleQty',
  use_config_min_sale_qty: 'useConfigMinSaleQty',
  max_sale_qty: 'maxSaleQty',
  use_config_max_sale_qty: 'useConfigMaxSaleQty',
  notify_stock_qty: 'notifyStockQty',
  use_config_notify_stock_qty: 'useConfigNotifyStockQty',
  qty_increments: 'qtyIncrements',
  enable_qty_increments: 'enableQtyIncrements',
  use_config_qty_increments: 'useConfigQtyIncrements',
  use_config_enable_qty_inc: 'useConfigEnableQtyInc',
  is_qty_decimal: 'isQtyDecimal',
};

/** The keys holding a number (quantities, the backorders mode); every other one is a flag. */
const NUMBERS = new Set<keyof StockInput>(['qty', 'minQty', 'minSaleQty', 'maxSaleQty', 'backorders', 'notifyStockQty', 'qtyIncrements']);

/** How a caller reads a number and a flag; `key` is Magento's, for naming the value in a fault. */
export interface StockValueReader {
  number(v: LegacyValue, key: string): unknown;
  flag(v: LegacyValue, key: string): unknown;
}

/** The stock data in the service's keys: unknown keys are left out, and null values, as Magento's isset() skips them. */
export function stockFields(data: SoapRecord, read: StockValueReader): StockInput {
  const out: Record<string, unknown> = {};
  for (const [key, v] of data) {
    const k = Object.hasOwn(STOCK_KEYS, key) ? STOCK_KEYS[key] : undefined;
    if (!k || v === null || v === undefined) continue;
    out[k] = NUMBERS.has(k) ? read.number(v, key) : read.flag(v, key);
  }
  return out as StockInput;
}
