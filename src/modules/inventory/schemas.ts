/** Wire shapes of stock updates: PUT /inventory and PUT /inventory/bulk. */
import { Type, type Static } from 'typebox';

/** The largest stock quantity (and the bound of every other stock quantity field). */
export const MAX_STOCK_QTY = 99_999_999;
export const MAX_BULK_ITEMS = 100;

const Qty = Type.Integer({ minimum: 0, maximum: MAX_STOCK_QTY, description: 'an integer from 0 to 99,999,999' });
const Flag = (description: string) => Type.Optional(Type.Boolean({ description }));

/**
 * The stock keys of an update, each optional: qty, isInStock, manageStock and the extended keys.
 * Ranges are checked by the service (one rule for REST, GraphQL and product writes), types here.
 */
const stockKeys = {
  qty: Type.Optional(Qty),
  isInStock: Flag('default when qty is sent: qty > 0'),
  manageStock: Flag('default true'),
  minQty: Type.Optional(
    Type.Integer({ description: 'the qty at or below which the item goes out of stock; negative only with backorders' }),
  ),
  minSaleQty: Type.Optional(Type.Integer({ description: 'smallest qty a cart line may hold; at least 1' })),
  maxSaleQty: Type.Optional(Type.Union([Type.Integer({ description: 'largest qty a cart line may hold' }), Type.Null()])),
  backorders: Type.Optional(Type.Integer({ description: '0 no backorders, 1 allow qty below 0, 2 allow and notify' })),
  notifyStockQty: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  qtyIncrements: Type.Optional(Type.Union([Type.Integer({ description: 'cart quantities must be a multiple of it' }), Type.Null()])),
  isQtyDecimal: Flag('stock quantities are integers: only false is accepted'),
  enableQtyIncrements: Flag('false clears qtyIncrements'),
  useConfigMinQty: Flag('true resets minQty to the default (0)'),
  useConfigMinSaleQty: Flag('true resets minSaleQty to the default (1)'),
  useConfigMaxSaleQty: Flag('true clears maxSaleQty'),
  useConfigBackorders: Flag('true resets backorders to the default (0)'),
  useConfigNotifyStockQty: Flag('true clears notifyStockQty'),
  useConfigQtyIncrements: Flag('true clears qtyIncrements'),
  useConfigEnableQtyInc: Flag('true clears qtyIncrements'),
  useConfigManageStock: Flag('true sets manageStock to the default (true)'),
};

export const StockUpdate = Type.Object(
  { sku: Type.String({ minLength: 1, maxLength: 255, description: 'the product SKU' }), ...stockKeys },
  { additionalProperties: false },
);

/** A bulk item: the same keys; a missing SKU is reported by the service with the item's index. */
export const StockBulkItem = Type.Object(
  { sku: Type.Optional(Type.String({ maxLength: 255, description: 'the product SKU (required)' })), ...stockKeys },
  { additionalProperties: false },
);

export const StockBulkUpdate = Type.Object(
  { items: Type.Array(StockBulkItem, { description: '1 to 100 items, validated first and applied in one transaction' }) },
  { additionalProperties: false },
);

const echo = {
  minQty: Type.Optional(Type.Integer()),
  minSaleQty: Type.Optional(Type.Integer()),
  maxSaleQty: Type.Optional(Type.Integer()),
  backorders: Type.Optional(Type.Integer()),
  notifyStockQty: Type.Optional(Type.Integer()),
  qtyIncrements: Type.Optional(Type.Integer()),
  isQtyDecimal: Type.Optional(Type.Boolean()),
  enableQtyIncrements: Type.Optional(Type.Boolean()),
  useConfigMinQty: Type.Optional(Type.Boolean()),
  useConfigMinSaleQty: Type.Optional(Type.Boolean()),
  useConfigMaxSaleQty: Type.Optional(Type.Boolean()),
  useConfigBackorders: Type.Optional(Type.Boolean()),
  useConfigNotifyStockQty: Type.Optional(Type.Boolean()),
  useConfigQtyIncrements: Type.Optional(Type.Boolean()),
  useConfigEnableQtyInc: Type.Optional(Type.Boolean()),
  useConfigManageStock: Type.Optional(Type.Boolean()),
};

const recordCore = {
  sku: Type.String(),
  qty: Type.Integer({ description: 'the new qty, or the unchanged one when qty was not sent' }),
  isInStock: Type.Boolean(),
  manageStock: Type.Boolean(),
  previousQty: Type.Integer({ description: 'the qty before the update (0 for a new stock row)' }),
  success: Type.Boolean(),
};

/** The stock record: the core keys plus the extended keys that were sent, as stored. */
export const StockRecordSchema = Type.Object({ ...recordCore, ...echo });

export const StockBulkResult = Type.Object({
  sku: Type.Literal('bulk'),
  qty: Type.Integer(),
  success: Type.Boolean(),
  results: Type.Array(Type.Object(recordCore)),
});

export type StockUpdateBody = Static<typeof StockUpdate>;
export type StockBulkItemBody = Static<typeof StockBulkItem>;
export type StockBulkBody = Static<typeof StockBulkUpdate>;

/** The stock of a product as stored (GET /inventory, /inventory/{sku}); keys without a value are left out. */
export const StockViewSchema = Type.Object({
  sku: Type.String(),
  qty: Type.Integer(),
  isInStock: Type.Boolean(),
  manageStock: Type.Boolean(),
  minQty: Type.Integer(),
  minSaleQty: Type.Integer(),
  maxSaleQty: Type.Optional(Type.Integer()),
  backorders: Type.Integer(),
  notifyStockQty: Type.Optional(Type.Integer()),
  qtyIncrements: Type.Optional(Type.Integer()),
  isQtyDecimal: Type.Boolean(),
  enableQtyIncrements: Type.Boolean(),
  success: Type.Boolean(),
});

export const StockSkuParams = Type.Object({
  sku: Type.String({ minLength: 1, maxLength: 255, description: 'the product SKU (any case)' }),
});
