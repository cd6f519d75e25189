/**
 * The stock keys of an admin update (PUT /inventory, PUT /inventory/bulk, a product's stockData) and their
 * rules: types and ranges checked before anything is read (`checkStockInput`), the rules that need the stored
 * row when the row is locked (`applyPlan`). See service.ts for the rules of stock itself.
 */
import { AppError, badRequest } from '../../platform/errors.js';
import { compact } from '../../platform/format.js';
import { MAX_STOCK_QTY } from './schemas.js';
import type { ProductStockInput } from '../../platform/context.js';
import type { StockRow } from './stock-rows.js';

/** The stock keys of an update (wire 2.11): the platform's type, as the catalog passes them through with a product. */
export type StockInput = ProductStockInput;

export interface StockUpdateInput extends StockInput {
  sku: string;
}

/** A bulk item; a missing SKU is refused with the item's index. */
export interface StockBulkItemInput extends StockInput {
  sku?: string;
}

/** Extended keys echoed back in the stock record when they were sent. */
export interface StockEcho {
  minQty?: number;
  minSaleQty?: number;
  maxSaleQty?: number;
  backorders?: number;
  notifyStockQty?: number;
  qtyIncrements?: number;
  isQtyDecimal?: boolean;
  enableQtyIncrements?: boolean;
  useConfigMinQty?: boolean;
  useConfigMinSaleQty?: boolean;
  useConfigMaxSaleQty?: boolean;
  useConfigBackorders?: boolean;
  useConfigNotifyStockQty?: boolean;
  useConfigQtyIncrements?: boolean;
  useConfigEnableQtyInc?: boolean;
  useConfigManageStock?: boolean;
}

export interface StockRecord extends StockEcho {
  sku: string;
  qty: number;
  isInStock: boolean;
  manageStock: boolean;
  previousQty: number;
  success: true;
}

export interface StockBulkResult {
  sku: 'bulk';
  qty: 0;
  success: true;
  results: { sku: string; qty: number; isInStock: boolean; manageStock: boolean; previousQty: number; success: boolean }[];
}

const BOOLEAN_KEYS = [
  'isInStock',
  'manageStock',
  'isQtyDecimal',
  'enableQtyIncrements',
  'useConfigMinQty',
  'useConfigMinSaleQty',
  'useConfigMaxSaleQty',
  'useConfigBackorders',
  'useConfigNotifyStockQty',
  'useConfigQtyIncrements',
  'useConfigEnableQtyInc',
  'useConfigManageStock',
] as const;

/** Integer keys: [min, max, nullable]. */
const INTEGER_KEYS = {
  qty: [0, MAX_STOCK_QTY, false],
  minQty: [-MAX_STOCK_QTY, MAX_STOCK_QTY, false],
  minSaleQty: [1, MAX_STOCK_QTY, false],
  maxSaleQty: [1, MAX_STOCK_QTY, true],
  backorders: [0, 2, false],
  notifyStockQty: [-MAX_STOCK_QTY, MAX_STOCK_QTY, true],
  qtyIncrements: [1, MAX_STOCK_QTY, true],
} as const satisfies Record<string, readonly [number, number, boolean]>;

type IntegerKey = keyof typeof INTEGER_KEYS;
export type StockKey = IntegerKey | (typeof BOOLEAN_KEYS)[number];
const STOCK_KEYS: StockKey[] = [...(Object.keys(INTEGER_KEYS) as IntegerKey[]), ...BOOLEAN_KEYS];

/** Columns a `useConfig*: true` resets to the default, and the value. */
const USE_CONFIG: Record<string, { field: IntegerKey | 'manageStock'; value: number | boolean | null }> = {
  useConfigMinQty: { field: 'minQty', value: 0 },
  useConfigMinSaleQty: { field: 'minSaleQty', value: 1 },
  useConfigMaxSaleQty: { field: 'maxSaleQty', value: null },
  useConfigBackorders: { field: 'backorders', value: 0 },
  useConfigNotifyStockQty: { field: 'notifyStockQty', value: null },
  useConfigQtyIncrements: { field: 'qtyIncrements', value: null },
  useConfigEnableQtyInc: { field: 'qtyIncrements', value: null },
  useConfigManageStock: { field: 'manageStock', value: true },
};

export function invalid(field: string, message: string, constraint = 'invalid'): AppError {
  return badRequest(message, { reason: 'VALIDATION_FAILED', details: { field, constraint } });
}

export const fmt = (n: number) => n.toLocaleString('en-US');

/** A checked update: the keys that were sent, with their (checked) values. */
export interface StockPlan {
  input: Partial<Record<StockKey, number | boolean | null>>;
  sent: StockKey[];
}

/** Checks types, ranges and the rules that need no stored row; throws a 400 naming the field. */
export function checkStockInput(input: unknown): StockPlan {
  if (!input || typeof input !== 'object' || Array.isArray(input)) throw invalid('body', 'The stock update must be an object', 'type');
  const src = input as Record<string, unknown>;
  const plan: StockPlan = { input: {}, sent: [] };
  for (const key of STOCK_KEYS) {
    const v = src[key];
    if (v === undefined) continue;
    if (key in INTEGER_KEYS) {
      const [min, max, nullable] = INTEGER_KEYS[key as IntegerKey];
      if (v === null && nullable) {
        plan.input[key] = null;
      } else if (typeof v !== 'number' || !Number.isInteger(v)) {
        throw invalid(key, `${key} must be an integer${key === 'qty' ? ` from 0 to ${fmt(MAX_STOCK_QTY)}` : ''}`, 'type');
      } else if (v < min || v > max) {
        throw invalid(key, `${key} must be an integer from ${fmt(min)} to ${fmt(max)}`, v < min ? 'minimum' : 'maximum');
      } else {
        plan.input[key] = v;
      }
    } else {
      if (typeof v !== 'boolean') throw invalid(key, `${key} must be a boolean`, 'type');
      plan.input[key] = v;
    }
    plan.sent.push(key);
  }
  if (!plan.sent.length) {
    throw badRequest('At least one stock field is required (qty, isInStock, manageStock, or an extended stock key)', {
      reason: 'NO_STOCK_FIELDS',
      details: { field: 'qty', constraint: 'required' },
    });
  }
  if (plan.input.isQtyDecimal === true) {
    throw invalid('isQtyDecimal', 'isQtyDecimal cannot be true: stock quantities are integers');
  }
  for (const [flag, target] of Object.entries(USE_CONFIG)) {
    if (plan.input[flag as StockKey] === true && target.field !== 'manageStock' && plan.input[target.field] !== undefined) {
      throw invalid(flag, `Send either ${target.field} or ${flag}: true, not both`, 'conflict');
    }
  }
  if (plan.input.useConfigManageStock === true && plan.input.manageStock === false) {
    throw invalid('useConfigManageStock', 'Send either manageStock: false or useConfigManageStock: true, not both', 'conflict');
  }
  if (plan.input.enableQtyIncrements === false && typeof plan.input.qtyIncrements === 'number') {
    throw invalid('enableQtyIncrements', 'qtyIncrements cannot be set while enableQtyIncrements is false', 'conflict');
  }
  return plan;
}

/** The column values an update writes, given the stored row; throws a 400 for rules that need the row. */
export function applyPlan(plan: StockPlan, row: StockRow): Partial<StockRow> {
  const i = plan.input;
  const set: Partial<StockRow> = {};
  for (const [flag, target] of Object.entries(USE_CONFIG)) {
    if (i[flag as StockKey] === true) (set as Record<string, unknown>)[target.field] = target.value;
  }
  for (const key of ['minQty', 'minSaleQty', 'maxSaleQty', 'backorders', 'notifyStockQty', 'qtyIncrements'] as const) {
    if (i[key] !== undefined) (set as Record<string, unknown>)[key] = i[key];
  }
  if (i.enableQtyIncrements === false) set.qtyIncrements = null;
  if (i.qty !== undefined) set.qty = i.qty as number;
  set.manageStock = (i.manageStock as boolean | undefined) ?? true;

  const next = { ...row, ...set };
  if (i.enableQtyIncrements === true && next.qtyIncrements === null) {
    throw invalid('qtyIncrements', 'qtyIncrements is required when enableQtyIncrements is true', 'required');
  }
  if (next.minQty < 0 && next.backorders === 0) {
    throw invalid('minQty', 'minQty can be negative only when backorders are allowed', 'minimum');
  }
  if (next.maxSaleQty !== null && next.maxSaleQty < next.minSaleQty) {
    throw invalid(i.maxSaleQty !== undefined ? 'maxSaleQty' : 'minSaleQty', 'maxSaleQty must not be less than minSaleQty', 'range');
  }
  if (i.isInStock !== undefined) set.isInStock = i.isInStock as boolean;
  else if (i.qty !== undefined) set.isInStock = next.qty > 0;
  return set;
}

export function echoOf(plan: StockPlan, row: StockRow): StockEcho {
  const out: Record<string, unknown> = {};
  for (const key of plan.sent) {
    if (key === 'qty' || key === 'isInStock' || key === 'manageStock') continue;
    out[key] = key in row ? row[key as keyof StockRow] : plan.input[key];
  }
  return compact(out) as StockEcho;
}
