/**
 * The rows of the product read SQL (`read-sql.ts`), as the driver gives them: the columns every read has, the
 * detail's JSON sub-resources, and the products inside a product, read once and named by id.
 */
import type { PriceFields } from './price.js';

export interface StockJson {
  qty: number;
  isInStock: boolean;
  manageStock: boolean;
  minQty: number;
  minSaleQty: number;
  maxSaleQty: number | null;
  backorders: number;
  notifyStockQty: number | null;
  qtyIncrements: number | null;
}

export interface RoleImage {
  file: string;
  label: string | null;
  types: string[];
}

export interface StockFields {
  type: string;
  stock: StockJson | null;
  childInStock: boolean | null;
}

/** A product inside another one (variant, linked, grouped, bundle selection). */
export interface ChildJson extends PriceFields, StockFields {
  id: number;
  sku: string;
  name: string;
  urlKey: string;
  minPrice: string | null;
  roleImages: RoleImage[] | null;
  barcode?: string | null;
  /** variants: the variant's own attribute values */
  attributes?: Record<string, unknown> | null;
}

export interface BaseRow extends PriceFields, StockFields {
  id: number;
  sku: string;
  attributeSetId: number;
  taxClassId: number;
  name: string;
  urlKey: string;
  isActive: boolean;
  visibility: string;
  description: string | null;
  shortDescription: string | null;
  metaTitle: string | null;
  metaDescription: string | null;
  metaKeywords: string | null;
  websiteIds: number[];
  newsFromDate: string | null;
  newsToDate: string | null;
  cost: string | null;
  msrp: string | null;
  weight: string | null;
  minPrice: string | null;
  maxPrice: string | null;
  hasRequiredOptions: boolean;
  skuType: number | null;
  priceType: number | null;
  weightType: number | null;
  priceView: number | null;
  shipmentType: number | null;
  linksTitle: string | null;
  linksPurchasedSeparately: boolean | null;
  samplesTitle: string | null;
  attributes: Record<string, unknown> | null;
  reviewCount: number;
  ratingSummary: string | null;
  createdAt: string;
  updatedAt: string;
  countryOfManufacture: string | null;
  roleImages: RoleImage[] | null;
  categoryIds: number[] | null;
  /** the caller's group price (lowest of its group's and all groups'), when the product has one */
  groupPrice: string | null;
}

export interface DetailRow {
  id: number;
  tierPrices: { qty: string; price: string }[];
  configurableOptions: {
    id: number;
    code: string;
    label: string;
    position: number;
    values: { id: number; label: string; swatchType: string | null; swatchValue: string | null }[];
  }[];
  variants: ChildJson[];
  customOptions: {
    id: number;
    title: string;
    type: string;
    required: boolean;
    sortOrder: number;
    price: string | null;
    priceType: string;
    sku: string | null;
    maxCharacters: number | null;
    fileExtensions: string | null;
    imageSizeX: number | null;
    imageSizeY: number | null;
    values: { id: number; title: string; price: string; priceType: string; sku: string | null; sortOrder: number }[];
  }[];
  mediaGallery: { id: number; file: string; label: string | null; position: number; types: string[] }[];
  links: { type: string; position: number; product: ChildJson }[];
  groupedProducts: { qty: string; position: number; product: ChildJson }[];
  bundleOptions: {
    id: number;
    title: string;
    type: string;
    required: boolean;
    position: number;
    selections: {
      id: number;
      qty: string;
      canChangeQty: boolean;
      isDefault: boolean;
      position: number;
      price: string | null;
      priceType: string;
      product: ChildJson;
    }[];
  }[];
  downloadableLinks: {
    id: number;
    title: string;
    price: string;
    sortOrder: number;
    numberOfDownloads: number;
    sampleType: string | null;
    sampleUrl: string | null;
    sampleFile: string | null;
  }[];
  additionalAttributes: { code: string; label: string; input: string; value: unknown; options: Record<string, string> | null }[];
}

/** The detail as the SQL returns it: products inside the product once in `children`, named by id elsewhere. */
export interface DetailSqlRow extends Omit<DetailRow, 'variants' | 'links' | 'groupedProducts' | 'bundleOptions'> {
  children: Record<string, ChildJson> | null;
  variants: { id: number; barcode: string | null; attributes: Record<string, unknown> | null }[];
  links: { type: string; position: number; id: number }[];
  groupedProducts: { qty: string; position: number; id: number }[];
  bundleOptions: (Omit<DetailRow['bundleOptions'][number], 'selections'> & {
    selections: (Omit<DetailRow['bundleOptions'][number]['selections'][number], 'product'> & { productId: number })[];
  })[];
}

/** The detail with the products inside it in place. */
export function resolveDetail(r: DetailSqlRow): DetailRow {
  const children = r.children ?? {};
  const product = (id: number) => children[String(id)];
  return {
    ...r,
    variants: r.variants.map((v) => ({ ...product(v.id), barcode: v.barcode, attributes: v.attributes })),
    links: r.links.map((l) => ({ type: l.type, position: l.position, product: product(l.id) })),
    groupedProducts: r.groupedProducts.map((g) => ({ qty: g.qty, position: g.position, product: product(g.id) })),
    bundleOptions: r.bundleOptions.map(({ selections, ...o }) => ({
      ...o,
      selections: selections.map(({ productId, ...sel }) => ({ ...sel, product: product(productId) })),
    })),
  };
}
