/**
 * Wire shapes of product writes (POST /products, PUT /products/{id}). Unknown and read-only keys are dropped;
 * a value of the wrong type is a 400. Rules that need more than the value itself (existence, uniqueness,
 * dates in order) are checked by the service.
 */
import { Type, type Static } from 'typebox';
import { FreeForm } from '../../../platform/free-form.js';

const MAX_MONEY = 999_999_999_999;
const Text = (maxLength: number, description?: string) => Type.Optional(Type.Union([Type.String({ maxLength, description }), Type.Null()]));
const Money = (description: string) =>
  Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: MAX_MONEY, description }), Type.Null()]));
const DateText = (description: string) =>
  Type.Optional(Type.Union([Type.String({ maxLength: 32, description: `${description}; YYYY-MM-DD, "" or null clears` }), Type.Null()]));
const Flag01 = (description: string) => Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 1, description }), Type.Null()]));
const IdList = (description: string) =>
  Type.Optional(Type.Array(Type.Integer({ minimum: 0, maximum: 2147483647 }), { maxItems: 1000, description }));

/** Stock keys of the inventory update (sku comes from the product). */
export const ProductStockData = Type.Object(
  {
    qty: Type.Optional(Type.Integer({ minimum: 0, maximum: 99_999_999, description: 'an integer from 0 to 99,999,999' })),
    isInStock: Type.Optional(Type.Boolean()),
    manageStock: Type.Optional(Type.Boolean()),
    minQty: Type.Optional(Type.Integer()),
    minSaleQty: Type.Optional(Type.Integer()),
    maxSaleQty: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
    backorders: Type.Optional(Type.Integer()),
    notifyStockQty: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
    qtyIncrements: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
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
  },
  { additionalProperties: false, description: 'written to the product stock (keys as PUT /inventory)' },
);
export type ProductStockDataT = Static<typeof ProductStockData>;

/**
 * Product fields kept as attribute values (products.attributes): the wire name and the attribute code.
 * They are written as if sent in customAttributesWrite (which wins when both name the same attribute).
 */
export const ATTRIBUTE_FIELDS = {
  barcode: 'barcode',
  gtin: 'gtin',
  mpn: 'mpn',
  countryOfManufacture: 'country_of_manufacture',
  msrpEnabled: 'msrp_enabled',
  msrpDisplayActualPriceType: 'msrp_display_actual_price_type',
  metaRobots: 'meta_robots',
  pageLayout: 'page_layout',
  optionsContainer: 'options_container',
  giftMessageAvailable: 'gift_message_available',
  imageLabel: 'image_label',
  smallImageLabel: 'small_image_label',
  thumbnailLabel: 'thumbnail_label',
  customDesign: 'custom_design',
  customDesignFrom: 'custom_design_from',
  customDesignTo: 'custom_design_to',
  customLayoutUpdate: 'custom_layout_update',
} as const;

const AttributeValue = Type.Optional(
  Type.Union([Type.String({ maxLength: 65_535 }), Type.Number(), Type.Boolean(), Type.Null()], {
    description: 'stored as the attribute of the same name; null clears',
  }),
);
const attributeFields = Object.fromEntries(Object.keys(ATTRIBUTE_FIELDS).map((k) => [k, AttributeValue])) as Record<
  keyof typeof ATTRIBUTE_FIELDS,
  typeof AttributeValue
>;

/** Create and partial update. On create `sku` and `name` are required. */
export const ProductWrite = Type.Object(
  {
    sku: Text(64, 'unique, case-insensitively'),
    name: Text(255),
    type: Type.Optional(
      Type.String({ maxLength: 32, description: 'simple, virtual, configurable, bundle, grouped, downloadable; set on create only' }),
    ),
    status: Type.Optional(
      Type.Union([
        Type.String({ maxLength: 16, description: 'enabled or disabled' }),
        Type.Integer({ minimum: 1, maximum: 2, description: '1 enabled, 2 disabled' }),
      ]),
    ),
    isActive: Type.Optional(Type.Boolean()),
    visibility: Type.Optional(
      Type.Union([
        Type.String({ maxLength: 32, description: 'not_visible, catalog, search, catalog_search' }),
        Type.Integer({ minimum: 1, maximum: 4, description: '1 not visible, 2 catalog, 3 search, 4 catalog and search' }),
      ]),
    ),
    price: Money('price in the base currency'),
    specialPrice: Money('special price; null clears'),
    specialFromDate: DateText('first day of the special price'),
    specialToDate: DateText('last day of the special price'),
    newsFromDate: DateText('first day shown as new'),
    newsToDate: DateText('last day shown as new'),
    cost: Money('cost'),
    msrp: Money('manufacturer suggested retail price'),
    weight: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 99_999_999 }), Type.Null()])),
    urlKey: Text(255, 'generated from the name when omitted on create; "" or null regenerates it'),
    description: Text(1_000_000),
    shortDescription: Text(100_000),
    metaTitle: Text(1024),
    metaDescription: Text(10_000),
    metaKeywords: Text(10_000),
    attributeSetId: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647 })),
    taxClassId: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647, description: 'a PRODUCT tax class, or 0 for none' })),
    websiteIds: IdList('websites the product is sold in'),
    categoryIds: IdList('replaces the category assignments'),
    skuType: Flag01('bundle: 0 dynamic, 1 fixed'),
    priceType: Flag01('bundle: 0 dynamic, 1 fixed'),
    weightType: Flag01('bundle: 0 dynamic, 1 fixed'),
    priceView: Flag01('bundle: 0 price range, 1 as low as'),
    shipmentType: Flag01('bundle: 0 together, 1 separately'),
    linksTitle: Text(255, 'downloadable'),
    linksPurchasedSeparately: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
    samplesTitle: Text(255, 'downloadable'),
    ...attributeFields,
    stockData: Type.Optional(ProductStockData),
    customAttributesWrite: Type.Optional(
      Type.Record(Type.String({ maxLength: 255 }), FreeForm(Type.Unknown(), { maxBytes: 64 * 1024 }), {
        maxProperties: 500,
        description: 'attribute code → value, for attributes without a field of their own (each value at most 10 levels and 64 KB of JSON)',
      }),
    ),
    useDefault: Type.Optional(
      Type.Array(Type.String({ maxLength: 255 }), { maxItems: 100, description: 'store-view values to drop (needs ?store=)' }),
    ),
  },
  { additionalProperties: false },
);
export type ProductWriteBody = Static<typeof ProductWrite>;

export const ProductIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) });
