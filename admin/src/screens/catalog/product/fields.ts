/**
 * How a product's attributes map onto the API's product fields: system and built-in attributes have a field of
 * their own (camelCase), the rest are read from customAttributes and written through customAttributesWrite.
 * Values are kept as text in the form and turned back into the API's types when sent.
 */
import type { Answer } from '../../../api/client';
import type { Attribute } from '../shared';

export type Product = Answer<'/api/rest/v2/products/{id}', 'get'>;

const OWN_FIELDS: Record<string, string> = {
  name: 'name',
  sku: 'sku',
  description: 'description',
  short_description: 'shortDescription',
  weight: 'weight',
  news_from_date: 'newsFromDate',
  news_to_date: 'newsToDate',
  status: 'status',
  url_key: 'urlKey',
  visibility: 'visibility',
  price: 'price',
  special_price: 'specialPrice',
  special_from_date: 'specialFromDate',
  special_to_date: 'specialToDate',
  cost: 'cost',
  msrp: 'msrp',
  tax_class_id: 'taxClassId',
  meta_title: 'metaTitle',
  meta_keywords: 'metaKeywords',
  meta_description: 'metaDescription',
  sku_type: 'skuType',
  weight_type: 'weightType',
  price_type: 'priceType',
  price_view: 'priceView',
  shipment_type: 'shipmentType',
  links_title: 'linksTitle',
  links_purchased_separately: 'linksPurchasedSeparately',
  samples_title: 'samplesTitle',
  barcode: 'barcode',
  gtin: 'gtin',
  mpn: 'mpn',
  country_of_manufacture: 'countryOfManufacture',
  msrp_enabled: 'msrpEnabled',
  msrp_display_actual_price_type: 'msrpDisplayActualPriceType',
  meta_robots: 'metaRobots',
  page_layout: 'pageLayout',
  options_container: 'optionsContainer',
  gift_message_available: 'giftMessageAvailable',
  image_label: 'imageLabel',
  small_image_label: 'smallImageLabel',
  thumbnail_label: 'thumbnailLabel',
  custom_design: 'customDesign',
  custom_design_from: 'customDesignFrom',
  custom_design_to: 'customDesignTo',
  custom_layout_update: 'customLayoutUpdate',
};

/** Attributes with a screen of their own (images, tier prices) or none (read-only). */
export const NOT_IN_FORM = new Set([
  'image',
  'small_image',
  'thumbnail',
  'media_gallery',
  'tier_price',
  'minimal_price',
  'has_options',
  'required_options',
]);

/** Fields a store view may have its own value of (the rest are shared by every store view). */
export const STORE_VIEW_FIELDS = new Set([
  'name',
  'description',
  'shortDescription',
  'urlKey',
  'status',
  'metaTitle',
  'metaDescription',
  'metaKeywords',
]);

/** The request field an attribute is written through: its own field, or customAttributesWrite.<code>. */
export function fieldOf(code: string): string {
  return OWN_FIELDS[code] ?? `customAttributesWrite.${code}`;
}

export type FormValue = string | string[];

function asText(v: unknown): FormValue {
  if (v === undefined || v === null) return '';
  if (Array.isArray(v)) return v.map(String);
  if (typeof v === 'boolean') return v ? '1' : '0';
  return String(v);
}

/** The form value of an attribute as the product has it. */
export function readValue(p: Product, code: string): FormValue {
  const own = OWN_FIELDS[code];
  if (own) return asText((p as Record<string, unknown>)[own]);
  const v = p.customAttributes?.[code];
  if (typeof v === 'string' && v.includes(',') && v.split(',').every((s) => /^\d+$/.test(s))) return v.split(',');
  return asText(v);
}

/** A form value as the API takes it for this attribute. */
export function toApi(attr: Attribute, v: FormValue): unknown {
  const input = attr.frontendInput;
  if (Array.isArray(v)) return v.map((x) => (/^\d+$/.test(x) ? Number(x) : x));
  if (input === 'boolean') return attr.attributeCode === 'links_purchased_separately' ? v === '1' : v === '' ? null : Number(v);
  if (v === '') return null;
  if (input === 'price' || input === 'weight' || attr.backendType === 'decimal') return Number(v);
  if (input === 'select' && /^\d+$/.test(v)) return Number(v);
  return v;
}

/** Adds a value to a request body at its field (customAttributesWrite.<code> nests). */
export function put(body: Record<string, unknown>, field: string, value: unknown): void {
  if (field.startsWith('customAttributesWrite.')) {
    const custom = (body.customAttributesWrite ??= {}) as Record<string, unknown>;
    custom[field.slice('customAttributesWrite.'.length)] = value;
  } else body[field] = value;
}

export const same = (a: FormValue | undefined, b: FormValue | undefined) => JSON.stringify(a ?? '') === JSON.stringify(b ?? '');

/** Whether an attribute applies to a product type (an empty list: every type). */
export const appliesTo = (a: Attribute, type: string) => !a.applyTo.length || a.applyTo.includes(type);
