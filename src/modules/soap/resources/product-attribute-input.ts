/**
 * What the attribute resources of the Magento 1 API share: Magento's attribute data read into the attribute
 * service's create and update bodies (checked against the REST schemas, so that a value REST refuses is refused
 * here with the field named), store view arguments, and an attribute's options as Magento's source models list
 * them (the leading empty choice of select lists, Yes/No of booleans, Magento's values of status and visibility,
 * product tax classes, the store view's labels of a store's own options).
 */
import { keptStore, storeIdOf } from '../current-store.js';
import { Value } from 'typebox/value';
import type { Ctx } from '../../../platform/context.js';
import { BUILT_IN_OPTIONS } from '../../catalog/attributes/built-in.js';
import type { ProductAttributeDto } from '../../catalog/attributes/schemas.js';
import { optionsOf } from '../../catalog/attributes/service.js';
import {
  ProductAttributeCreate,
  ProductAttributeUpdate,
  type ProductAttributeCreateBody,
  type ProductAttributeUpdateBody,
} from '../../catalog/attributes/write-schemas.js';
import { listTaxClasses } from '../../tax/service.js';
import { isRecord } from '../encoding.js';
import { resourceFault, type LegacyResource, type LegacyValue } from '../resources.js';

export const rec = (entries: [string, LegacyValue][]) => new Map<string, LegacyValue>(entries);

/** Text without markup, as Magento's stripTags leaves labels and names. */
export const stripTags = (s: string) => s.replace(/<[^>]*>/g, '');

/**
 * The store view a `store` argument names (current-store.ts's rule: id or code; '', 0 and "admin" the default
 * values), or, left out, the one `currentStore` kept (else the default values).
 */
export function storeArg(ctx: Ctx, store: LegacyValue | undefined, resource: LegacyResource): number {
  if (store === undefined || store === null) return keptStore(ctx, resource) ?? 0;
  return storeIdOf(ctx, store, resource);
}

// ---- options ----

/** Magento's values of the built-in lists whose values differ from ours (the product resource uses the same). */
const MAGENTO_VALUES: Record<string, Record<string, number>> = {
  status: { enabled: 1, disabled: 2 },
  visibility: { not_visible: 1, catalog: 2, search: 3, catalog_search: 4 },
};

/** An attribute's default value as Magento writes it (status and visibility by Magento's numbers). */
export function magentoDefault(a: ProductAttributeDto): string | null {
  const v = a.defaultValue ?? null;
  const mapped = v !== null ? MAGENTO_VALUES[a.attributeCode]?.[v] : undefined;
  return mapped !== undefined ? String(mapped) : v;
}

const choice = (value: LegacyValue, label: string) =>
  rec([
    ['value', value],
    ['label', label],
  ]);

/** Magento's Yes/No source: Yes 1, No 0. */
export const yesNo = (): LegacyValue[] => [
  rec([
    ['label', 'Yes'],
    ['value', 1],
  ]),
  rec([
    ['label', 'No'],
    ['value', 0],
  ]),
];

/**
 * The options of an attribute as Magento's `options` lists them: booleans Yes/No; select and multiselect lists
 * after an empty choice ("-- Please Select --" for status and visibility), product tax classes after None; an
 * option's label in store view `storeId` (its own, else the default one). Other inputs have none.
 */
export async function attributeChoices(ctx: Ctx, a: ProductAttributeDto, storeId: number): Promise<LegacyValue[]> {
  if (a.frontendInput === 'boolean') {
    return yesNo();
  }
  if (a.frontendInput !== 'select' && a.frontendInput !== 'multiselect') return [];
  if (a.attributeCode === 'tax_class_id') {
    const { items } = await listTaxClasses(ctx, { classType: 'PRODUCT' });
    return [choice('0', 'None'), ...items.map((c) => choice(c.id, c.className))];
  }
  const empty = rec([
    ['label', ''],
    ['value', ''],
  ]);
  const builtIn = BUILT_IN_OPTIONS[a.attributeCode];
  if (builtIn) {
    const magento = MAGENTO_VALUES[a.attributeCode];
    return [
      magento ? choice('', '-- Please Select --') : empty,
      ...builtIn.map((o) => choice(magento?.[String(o.value)] ?? o.value, o.label)),
    ];
  }
  const options = (await optionsOf(ctx, [a.id])).get(a.id) ?? [];
  return [empty, ...options.map((o) => choice(o.id, (storeId !== 0 && o.storeLabels?.[String(storeId)]) || o.label))];
}

// ---- attribute data ----

type Body = Record<string, unknown>;

/** Magento's flags of an attribute → the service's. */
const FLAGS: Record<string, string> = {
  is_unique: 'isUnique',
  is_required: 'isRequired',
  is_configurable: 'isConfigurable',
  is_searchable: 'isSearchable',
  is_visible_in_advanced_search: 'isVisibleInAdvancedSearch',
  is_comparable: 'isComparable',
  is_used_for_promo_rules: 'isUsedForPriceRules',
  is_visible_on_front: 'isVisibleOnFront',
  used_in_product_listing: 'usedInProductListing',
  is_html_allowed_on_front: 'isHtmlAllowedOnFront',
  used_for_sort_by: 'usedForSortBy',
  is_wysiwyg_enabled: 'isWysiwygEnabled',
  is_filterable_in_search: 'isFilterableInSearch',
};
const TEXTS: Record<string, string> = { default_value: 'defaultValue', frontend_class: 'frontendClass', note: 'note' };
const INTS: Record<string, string> = { is_filterable: 'isFilterable', position: 'position' };

const invalid = (resource: LegacyResource, field: string) => resourceFault(resource, 'invalid_parameters', `Invalid value for ${field}.`);

function flagOf(resource: LegacyResource, field: string, v: LegacyValue): boolean {
  if (typeof v === 'boolean') return v;
  const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim().toLowerCase() : undefined;
  if (s === '1' || s === 'true') return true;
  if (s === '0' || s === 'false' || s === '') return false;
  throw invalid(resource, field);
}

function intOf(resource: LegacyResource, field: string, v: LegacyValue): number {
  const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '';
  if (!/^[+-]?\d{1,10}$/.test(s)) throw invalid(resource, field);
  return Number(s);
}

/** `additional_fields` as V1 sends it (a struct) or as V2 does (a list of key/value pairs). */
function additional(resource: LegacyResource, v: LegacyValue | undefined): [string, LegacyValue][] {
  if (v === undefined || v === null || v === '') return [];
  if (isRecord(v)) return [...v];
  if (Array.isArray(v)) {
    return v.map((pair) => {
      if (!isRecord(pair) || typeof pair.get('key') !== 'string') throw invalid(resource, 'additional_fields');
      return [pair.get('key') as string, pair.get('value') ?? null];
    });
  }
  throw invalid(resource, 'additional_fields');
}

/** The default (store 0) label of `frontend_label`: a list of {store_id, label}; undefined when it names none. */
function defaultLabel(resource: LegacyResource, v: LegacyValue): string | undefined {
  if (!Array.isArray(v)) throw resourceFault(resource, 'invalid_parameters');
  let label: string | undefined;
  for (const l of v) {
    if (!isRecord(l)) throw invalid(resource, 'frontend_label');
    const store = l.get('store_id');
    const text = l.get('label');
    if (String(store ?? '').trim() !== '0' && store !== 0) continue;
    if (typeof text !== 'string' && typeof text !== 'number') throw invalid(resource, 'frontend_label');
    label = stripTags(String(text)).trim();
  }
  return label;
}

/**
 * Magento's attribute data in the service's names, checked against the REST schema (102 with the field named):
 * on create a scope left out is `store` (Magento's default), on update what is left out stays as it is. Labels of
 * other store views are not kept (attributes have one label here).
 */
export function attributeBody(resource: LegacyResource, data: LegacyValue | undefined, mode: 'create'): ProductAttributeCreateBody;
export function attributeBody(resource: LegacyResource, data: LegacyValue | undefined, mode: 'update'): ProductAttributeUpdateBody;
export function attributeBody(resource: LegacyResource, data: LegacyValue | undefined, mode: 'create' | 'update'): Body {
  if (!isRecord(data)) throw resourceFault(resource, 'invalid_parameters');
  const fields = new Map([...data, ...additional(resource, data.get('additional_fields'))]);
  const body: Body = {};
  for (const [key, v] of fields) {
    if (v === undefined || v === null) continue;
    if (Object.hasOwn(FLAGS, key)) body[FLAGS[key]] = flagOf(resource, key, v);
    else if (Object.hasOwn(INTS, key)) body[INTS[key]] = intOf(resource, key, v);
    else if (Object.hasOwn(TEXTS, key)) {
      if (typeof v !== 'string' && typeof v !== 'number') throw invalid(resource, key);
      body[TEXTS[key]] = key === 'default_value' ? stripTags(String(v)) : String(v);
    } else if (key === 'scope') {
      if (typeof v !== 'string') throw invalid(resource, key);
      // Magento reads anything but global and website as store
      body.scope = v === 'global' || v === 'website' ? v : 'store';
    } else if (key === 'apply_to') {
      const list = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : undefined;
      if (!list) throw invalid(resource, key);
      body.applyTo = [...new Set(list.map((t) => String(t).trim()).filter(Boolean))];
    } else if (key === 'frontend_label') {
      const label = defaultLabel(resource, v);
      if (label === undefined || label === '') throw resourceFault(resource, 'unable_to_save', 'Frontend label is not defined');
      body.frontendLabel = label;
    }
  }
  if (mode === 'create') {
    body.attributeCode = data.get('attribute_code');
    body.frontendInput = data.get('frontend_input');
    body.scope ??= 'store';
    if (body.frontendLabel === undefined) throw resourceFault(resource, 'unable_to_save', 'Frontend label is not defined');
  }
  const [first] = [...Value.Errors(mode === 'create' ? ProductAttributeCreate : ProductAttributeUpdate, body)];
  if (first) {
    const field = first.instancePath.split('/')[1] || 'data';
    throw resourceFault(resource, 'invalid_parameters', `Invalid value for ${magentoName(field)}: ${first.message}.`);
  }
  return body;
}

/** The Magento name of a service field, for messages. */
function magentoName(field: string): string {
  for (const map of [FLAGS, TEXTS, INTS]) for (const [k, v] of Object.entries(map)) if (v === field) return k;
  return { frontendLabel: 'frontend_label', applyTo: 'apply_to', scope: 'scope' }[field] ?? field;
}
