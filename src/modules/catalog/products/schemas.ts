/**
 * Wire shapes of product reads (GET /products/{id}, GET /products): every field we store, in the request's
 * store view and response currency. Null values are omitted, so every field that may be missing is optional.
 */
import { Type, type Static } from 'typebox';
import { DateFilter } from '../../../platform/date-range.js';
import { PageQuery } from '../../../platform/pagination.js';

const Num = (description?: string) => Type.Number({ description });
const OptNum = (description?: string) => Type.Optional(Num(description));
const OptStr = (description?: string) => Type.Optional(Type.String({ description }));
const OptInt = (description?: string) => Type.Optional(Type.Integer({ description }));
const OptBool = (description?: string) => Type.Optional(Type.Boolean({ description }));

export const PRODUCT_SORT_FIELDS = [
  'name',
  'price',
  'special_price',
  'created_at',
  'updated_at',
  'position',
  'sku',
  'entity_id',
  'type',
  'status',
  'visibility',
] as const;
export type ProductSortField = (typeof PRODUCT_SORT_FIELDS)[number];

const TierPrice = Type.Object({
  qty: Num('from this quantity'),
  price: Num('unit price in the response currency'),
  savePercent: Type.Integer({ description: 'saving against the final price, in percent' }),
});

const ConfigurableOption = Type.Object({
  id: Type.Integer({ description: 'attribute id' }),
  code: Type.String(),
  label: Type.String(),
  position: OptInt(),
  values: Type.Array(
    Type.Object({
      id: Type.Integer({ description: 'option id' }),
      label: Type.String(),
      swatchType: OptStr('color or text'),
      swatchValue: OptStr(),
    }),
  ),
});

const Variant = Type.Object({
  id: Type.Integer(),
  sku: Type.String(),
  name: OptStr(),
  price: OptNum(),
  finalPrice: OptNum(),
  stockQty: OptNum(),
  inStock: Type.Boolean(),
  attributes: Type.Record(Type.String(), Type.Integer(), { description: 'super attribute code → option id' }),
  barcode: OptStr(),
  imageUrl: OptStr(),
});

const CustomOptionValue = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  price: Num(),
  priceType: Type.String({ description: 'fixed or percent (of the product price)' }),
  sku: OptStr(),
  sortOrder: Type.Integer(),
});

const CustomOption = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  type: Type.String(),
  required: Type.Boolean(),
  sortOrder: Type.Integer(),
  price: OptNum('for options without values'),
  priceType: OptStr('fixed or percent'),
  sku: OptStr(),
  maxCharacters: OptInt(),
  fileExtensions: OptStr(),
  imageSizeX: OptInt(),
  imageSizeY: OptInt(),
  values: Type.Array(CustomOptionValue),
});

const GalleryImage = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  label: OptStr(),
  position: Type.Integer(),
  types: Type.Array(Type.String(), { description: 'image, small_image, thumbnail' }),
});

const LinkedProduct = Type.Object({
  id: Type.Integer(),
  sku: Type.String(),
  name: Type.String(),
  urlKey: OptStr(),
  price: OptNum(),
  specialPrice: OptNum(),
  finalPrice: OptNum(),
  stockStatus: Type.String({ description: 'in_stock or out_of_stock' }),
  imageUrl: OptStr(),
  smallImageUrl: OptStr(),
  thumbnailUrl: OptStr(),
  position: OptInt(),
});

const GroupedProduct = Type.Object({
  id: Type.Integer(),
  sku: Type.String(),
  name: Type.String(),
  price: OptNum(),
  finalPrice: OptNum(),
  imageUrl: OptStr(),
  inStock: Type.Boolean(),
  stockQty: OptNum(),
  defaultQty: Num(),
  position: Type.Integer(),
});

const BundleSelection = Type.Object({
  id: Type.Integer(),
  productId: Type.Integer(),
  sku: Type.String(),
  name: Type.String(),
  price: OptNum('fixed amount in the response currency, or a percentage when priceType is percent'),
  priceType: Type.String({ description: 'fixed or percent' }),
  inStock: Type.Boolean(),
  isDefault: Type.Boolean(),
  canChangeQty: Type.Boolean(),
  defaultQty: Num(),
  position: Type.Integer(),
});

const BundleOption = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  type: Type.String({ description: 'select, radio, checkbox, multi' }),
  required: Type.Boolean(),
  position: Type.Integer(),
  selections: Type.Array(BundleSelection),
});

const DownloadableLink = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  price: Num(),
  sortOrder: Type.Integer(),
  numberOfDownloads: Type.Integer({ description: '0: unlimited' }),
  sampleUrl: OptStr(),
});

const AdditionalAttribute = Type.Object({
  code: Type.String(),
  label: Type.String(),
  value: Type.String(),
});

const StockItem = Type.Object({
  qty: Num(),
  isInStock: Type.Boolean(),
  manageStock: Type.Boolean(),
  minQty: Num(),
  minSaleQty: Num(),
  maxSaleQty: OptNum(),
  backorders: Type.Integer({ description: '0 no, 1 allow below zero, 2 allow and notify' }),
  notifyStockQty: OptNum(),
  qtyIncrements: OptNum(),
});

export const Product = Type.Object({
  id: Type.Integer(),
  sku: Type.String(),
  name: Type.String(),
  type: Type.String({ description: 'simple, virtual, configurable, bundle, grouped, downloadable' }),
  status: Type.String({ description: 'enabled or disabled (in the current store view)' }),
  isActive: Type.Boolean(),
  visibility: Type.String({ description: 'not_visible, catalog, search, catalog_search' }),
  stockStatus: Type.String({ description: 'in_stock or out_of_stock' }),
  stockQty: OptNum(),
  price: OptNum('in the response currency; configurable, bundle and grouped list items: the price-index minimum'),
  specialPrice: OptNum(),
  specialFromDate: OptStr('YYYY-MM-DD'),
  specialToDate: OptStr('YYYY-MM-DD'),
  newsFromDate: OptStr('YYYY-MM-DD'),
  newsToDate: OptStr('YYYY-MM-DD'),
  finalPrice: OptNum('the price a shopper pays today before options'),
  minimalPrice: OptNum('the price-index minimum'),
  maximalPrice: OptNum('the price-index maximum'),
  currency: Type.String({ description: 'currency of every price of this object' }),
  msrp: OptNum(),
  msrpEnabled: OptInt('0 no, 1 yes, 2 use config'),
  msrpDisplayActualPriceType: OptInt(),
  weight: OptNum(),
  barcode: OptStr(),
  gtin: OptStr(),
  mpn: OptStr(),
  countryOfManufacture: OptStr(),
  giftMessageAvailable: OptInt(),
  optionsContainer: OptStr(),
  urlKey: OptStr(),
  urlPath: OptStr('url key and the store view product URL suffix'),
  metaTitle: OptStr(),
  metaDescription: OptStr(),
  metaKeywords: OptStr(),
  metaRobots: OptStr(),
  pageLayout: OptStr(),
  description: OptStr(),
  shortDescription: OptStr(),
  imageLabel: OptStr(),
  smallImageLabel: OptStr(),
  thumbnailLabel: OptStr(),
  imageUrl: OptStr(),
  smallImageUrl: OptStr(),
  thumbnailUrl: OptStr(),
  categoryIds: Type.Array(Type.Integer()),
  attributeSetId: Type.Integer(),
  taxClassId: Type.Integer(),
  hasRequiredOptions: Type.Boolean(),
  reviewCount: Type.Integer(),
  averageRating: OptNum('1 to 5'),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  skuType: OptInt('bundle: 0 dynamic, 1 fixed'),
  priceType: OptInt('bundle: 0 dynamic, 1 fixed'),
  weightType: OptInt('bundle: 0 dynamic, 1 fixed'),
  priceView: OptInt('bundle: 0 price range, 1 as low as'),
  shipmentType: OptInt('bundle: 0 together, 1 separately'),
  // backend readers only (products/read)
  cost: OptNum('backend readers only'),
  customDesign: OptStr('backend readers only'),
  customDesignFrom: OptStr('backend readers only'),
  customDesignTo: OptStr('backend readers only'),
  customLayoutUpdate: OptStr('backend readers only'),
  customAttributes: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), { description: 'backend readers only: attribute code → stored value' }),
  ),
  // detail only (item GET; list items with fullDetail=1)
  tierPrices: Type.Optional(Type.Array(TierPrice)),
  configurableOptions: Type.Optional(Type.Array(ConfigurableOption)),
  variants: Type.Optional(Type.Array(Variant)),
  customOptions: Type.Optional(Type.Array(CustomOption)),
  mediaGallery: Type.Optional(Type.Array(GalleryImage)),
  relatedProducts: Type.Optional(Type.Array(LinkedProduct)),
  crosssellProducts: Type.Optional(Type.Array(LinkedProduct)),
  upsellProducts: Type.Optional(Type.Array(LinkedProduct)),
  groupedProducts: Type.Optional(Type.Array(GroupedProduct)),
  bundleOptions: Type.Optional(Type.Array(BundleOption)),
  downloadableLinks: Type.Optional(Type.Array(DownloadableLink)),
  linksTitle: OptStr(),
  linksPurchasedSeparately: OptBool(),
  samplesTitle: OptStr(),
  additionalAttributes: Type.Optional(Type.Array(AdditionalAttribute)),
  websiteIds: Type.Optional(Type.Array(Type.Integer())),
  stockItem: Type.Optional(StockItem),
});
export type ProductDto = Static<typeof Product>;

/**
 * Query of GET /products. `attr_<code>=<value>` parameters (comma list: any of the values) are read from the
 * same query object, so the schema lets other keys through.
 */
export const ProductListQuery = Type.Object(
  {
    ...PageQuery,
    search: Type.Optional(Type.String({ maxLength: 255, description: 'full-text search (names, descriptions, sku) and sku prefix' })),
    q: Type.Optional(Type.String({ maxLength: 255, description: 'alias of search' })),
    categoryId: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 2147483647, description: 'anchor categories include their sub-categories' }),
    ),
    priceMin: Type.Optional(Type.Number({ minimum: 0, description: 'in the response currency, on the price-index minimum' })),
    priceMax: Type.Optional(Type.Number({ minimum: 0, description: 'in the response currency, on the price-index minimum' })),
    attributeFilters: Type.Optional(
      Type.String({ maxLength: 4096, description: 'JSON object: attribute code → value, list of values (any of) or {"from","to"}' }),
    ),
    sku: Type.Optional(Type.String({ maxLength: 255, description: 'exact sku (case-insensitive)' })),
    urlKey: Type.Optional(Type.String({ maxLength: 255, description: 'url key in the current store view' })),
    type: Type.Optional(Type.String({ maxLength: 32, description: 'product type' })),
    status: Type.Optional(Type.Enum(['enabled', 'disabled'], { description: 'enabled or disabled in the store view read' })),
    visibility: Type.Optional(Type.Enum(['not_visible', 'catalog', 'search', 'catalog_search'])),
    stockStatus: Type.Optional(Type.Enum(['in_stock', 'out_of_stock'], { description: 'as the stockStatus field says' })),
    websiteId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647, description: 'products assigned to this website' })),
    createdFrom: DateFilter('created at or after'),
    createdTo: DateFilter('created at or before (a bare date covers the whole day)'),
    updatedSince: DateFilter('updated at or after'),
    sortBy: Type.Optional(Type.Enum([...PRODUCT_SORT_FIELDS], { description: 'default name (relevance first when searching)' })),
    sortDir: Type.Optional(Type.Enum(['asc', 'desc', 'ASC', 'DESC'])),
    fullDetail: Type.Optional(Type.Enum(['0', '1', 'true', 'false'], { description: '1: list items carry the detail fields' })),
  },
  { additionalProperties: true },
);
export type ProductListQueryT = Static<typeof ProductListQuery> & { [key: string]: unknown };
