/**
 * `catalog_product_attribute` (`product_attribute`) of the Magento 1 API: the attributes of a set, an attribute's
 * options (labels in a store view), the input types, create, update, remove and info, and one option added with
 * its store-view labels or removed, over the catalog's attribute service and its legacy helpers. Attributes are
 * named by id or code. Unlike Magento, an update changes only the fields it sends (Magento resets the scope and
 * some flags it leaves out), labels of other store views than the default one are not kept for attributes (they
 * are for options), and the input types are those Magento lists that our attributes have (no media_image).
 */
import { currentStoreMethod } from '../current-store.js';
import type { Ctx } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { addOption, removeOption, setAttributes } from '../../catalog/attributes/legacy.js';
import type { ProductAttributeDto } from '../../catalog/attributes/schemas.js';
import { getProductAttribute, getProductAttributeByCode } from '../../catalog/attributes/service.js';
import { createProductAttribute, deleteProductAttribute, updateProductAttribute } from '../../catalog/attributes/write.js';
import { isRecord } from '../encoding.js';
import { defineResource, idArg, resourceFault, serviceFault, type LegacyValue } from '../resources.js';
import { attributeBody, attributeChoices, magentoDefault, rec, storeArg, stripTags } from './product-attribute-input.js';

/** The input types an attribute may be created with, as Magento lists them. */
const TYPES: [string, string][] = [
  ['text', 'Text Field'],
  ['textarea', 'Text Area'],
  ['date', 'Date'],
  ['boolean', 'Yes/No'],
  ['multiselect', 'Multiple Select'],
  ['select', 'Dropdown'],
  ['price', 'Price'],
];

/** What Magento's attribute API leaves out of a set's list. */
const IGNORED_CODES = new Set(['entity_id', 'attribute_set_id', 'entity_type_id', 'type_id']);
const IGNORED_INPUTS = new Set(['gallery', 'media_image']);

const bit = (b: boolean) => (b ? 1 : 0);

/** An attribute by id (digits) or code; not_exists when there is none. */
async function attributeOf(ctx: Ctx, ref: LegacyValue | undefined): Promise<ProductAttributeDto> {
  const text = typeof ref === 'number' ? String(ref) : typeof ref === 'string' ? ref.trim() : '';
  try {
    if (/^\d+$/.test(text)) {
      const id = idArg(text);
      if (id !== undefined) return await getProductAttribute(ctx, id);
    } else if (text) return await getProductAttributeByCode(ctx, text);
  } catch (err) {
    serviceFault(productAttribute, err, { missing: 'not_exists', invalid: 'not_exists' });
  }
  throw resourceFault(productAttribute, 'not_exists');
}

/** The fields Magento's info adds for each input type. */
function additionalFields(a: ProductAttributeDto): LegacyValue {
  const f: Record<string, [string, LegacyValue][]> = {
    text: [
      ['frontend_class', a.frontendClass ?? null],
      ['is_html_allowed_on_front', bit(a.isHtmlAllowedOnFront)],
      ['used_for_sort_by', bit(a.usedForSortBy)],
    ],
    textarea: [
      ['is_wysiwyg_enabled', bit(a.isWysiwygEnabled)],
      ['is_html_allowed_on_front', bit(a.isHtmlAllowedOnFront)],
    ],
    date: [['used_for_sort_by', bit(a.usedForSortBy)]],
    boolean: [['used_for_sort_by', bit(a.usedForSortBy)]],
    multiselect: [
      ['is_filterable', a.isFilterable],
      ['is_filterable_in_search', bit(a.isFilterableInSearch)],
      ['position', a.position],
    ],
    select: [
      ['is_filterable', a.isFilterable],
      ['is_filterable_in_search', bit(a.isFilterableInSearch)],
      ['position', a.position],
      ['used_for_sort_by', bit(a.usedForSortBy)],
    ],
  };
  f.price = f.select;
  const fields = Object.hasOwn(f, a.frontendInput) ? f[a.frontendInput] : undefined;
  return fields ? rec(fields) : [];
}

function asSaveFault(err: unknown): never {
  return serviceFault(productAttribute, err, { missing: 'not_exists', invalid: 'unable_to_save', forbidden: 'unable_to_save' });
}

/** The options of an option data map: labels by store id (0 the default one), its order, whether it is the default. */
function optionData(ctx: Ctx, data: LegacyValue | undefined) {
  if (!isRecord(data) || !Array.isArray(data.get('label'))) throw resourceFault(productAttribute, 'invalid_parameters');
  const labels = new Map<number, string>();
  const allowed = ctx.actor.kind === 'admin' ? ctx.actor.allowedStoreIds : undefined;
  for (const l of data.get('label') as LegacyValue[]) {
    const value = isRecord(l) ? l.get('value') : undefined;
    const stores = isRecord(l) ? l.get('store_id') : undefined;
    if ((typeof value !== 'string' && typeof value !== 'number') || stores === undefined || stores === null) {
      throw resourceFault(productAttribute, 'invalid_parameters', 'Each label has a store_id and a value.');
    }
    for (const s of Array.isArray(stores) ? stores : [stores]) {
      const id = s === 0 || s === '0' ? 0 : idArg(s);
      // Magento keeps the labels of store views that exist and drops the others
      if (id === undefined || (id !== 0 && !ctx.app.settings.store(id))) continue;
      if (id !== 0 && allowed && !allowed.includes(id)) {
        throw resourceFault(productAttribute, 'unable_to_add_option', `This API user may not write labels of store view ${id}.`);
      }
      labels.set(id, stripTags(String(value)));
    }
  }
  const order = data.get('order');
  const sortOrder = order === undefined || order === null || order === '' ? 0 : Number(order);
  if (!Number.isInteger(sortOrder) || Math.abs(sortOrder) > 1_000_000) {
    throw resourceFault(productAttribute, 'invalid_parameters', 'Invalid value for order.');
  }
  const isDefault = ['1', 'true', 1, true].includes(data.get('is_default') as string | number | boolean);
  return { labels, sortOrder, isDefault };
}

const usesOptions = (a: ProductAttributeDto) => a.frontendInput === 'select' || a.frontendInput === 'multiselect';

export const productAttribute = defineResource({
  name: 'catalog_product_attribute',
  title: 'Product attributes API',
  aliases: ['product_attribute'],
  faults: {
    store_not_exists: ['100', 'Requested store view not found.'],
    not_exists: ['101', 'Requested attribute not found.'],
    invalid_parameters: ['102', 'Invalid request parameters.'],
    invalid_code: [
      '103',
      'Attribute code is invalid. Please use only letters (a-z), numbers (0-9) or underscore(_) in this field, first character should be a letter.',
    ],
    invalid_frontend_input: ['104', 'Incorrect attribute type.'],
    unable_to_save: ['105', 'Unable to save attribute.'],
    can_not_delete: ['106', 'This attribute cannot be deleted.'],
    can_not_edit: ['107', 'This attribute cannot be edited.'],
    unable_to_add_option: ['108', 'Unable to add option.'],
    unable_to_remove_option: ['109', 'Unable to remove option.'],
  },
  methods: {
    currentStore: currentStoreMethod({
      name: 'catalog_product_attribute',
      faults: { store_not_exists: ['100', 'Requested store view not found.'] },
    }),
    list: {
      title: 'Retrieve attribute list',
      permission: ['product-attributes', 'read'],
      params: ['setId'],
      run: async (ctx, [setId]) => {
        const id = idArg(setId);
        const attrs = id === undefined ? [] : await setAttributes(ctx, id);
        return attrs
          .filter((a) => !IGNORED_CODES.has(a.code) && !IGNORED_INPUTS.has(a.frontendInput))
          .map((a) =>
            rec([
              ['attribute_id', a.id],
              ['code', a.code],
              ['type', a.frontendInput],
              ['required', bit(a.isRequired)],
              ['scope', a.scope],
            ]),
          );
      },
    },
    options: {
      title: 'Retrieve attribute options',
      permission: ['product-attributes', 'read'],
      params: ['attributeId', 'store'],
      run: async (ctx, [attributeId, store]) => {
        const storeId = storeArg(ctx, store, productAttribute);
        return attributeChoices(ctx, await attributeOf(ctx, attributeId), storeId);
      },
    },
    types: {
      title: 'Get list of possible attribute types',
      permission: ['product-attributes', 'read'],
      params: [],
      run: async () =>
        TYPES.map(([value, label]) =>
          rec([
            ['value', value],
            ['label', label],
          ]),
        ),
    },
    create: {
      title: 'Create new attribute',
      permission: ['product-attributes', 'create'],
      params: ['data'],
      run: async (ctx, [data]) => {
        const code = isRecord(data) ? data.get('attribute_code') : undefined;
        if (!isRecord(data) || code === undefined || code === null || code === '' || code === 0) {
          throw resourceFault(productAttribute, 'invalid_parameters');
        }
        const label = data.get('frontend_label');
        if (label !== undefined && label !== null && !Array.isArray(label)) throw resourceFault(productAttribute, 'invalid_parameters');
        if (typeof code !== 'string' || !/^[a-z][a-z_0-9]{0,254}$/.test(code)) throw resourceFault(productAttribute, 'invalid_code');
        if (code.length > 60) throw resourceFault(productAttribute, 'invalid_code', 'An attribute code has at most 60 characters.');
        const input = data.get('frontend_input');
        if (!TYPES.some(([t]) => t === input)) throw resourceFault(productAttribute, 'invalid_frontend_input');
        const body = attributeBody(productAttribute, data, 'create');
        try {
          return (await createProductAttribute(ctx, body)).id;
        } catch (err) {
          asSaveFault(err);
        }
      },
    },
    update: {
      title: 'Update attribute',
      permission: ['product-attributes', 'write'],
      params: ['attribute', 'data'],
      run: async (ctx, [attribute, data]) => {
        const a = await attributeOf(ctx, attribute);
        const body = attributeBody(productAttribute, data, 'update');
        try {
          await updateProductAttribute(ctx, a.id, body);
        } catch (err) {
          asSaveFault(err);
        }
        return true;
      },
    },
    remove: {
      title: 'Delete attribute',
      permission: ['product-attributes', 'delete'],
      params: ['attribute'],
      run: async (ctx, [attribute]) => {
        const a = await attributeOf(ctx, attribute);
        if (!a.isUserDefined) throw resourceFault(productAttribute, 'can_not_delete');
        try {
          await deleteProductAttribute(ctx, a.id);
        } catch (err) {
          serviceFault(productAttribute, err, { missing: 'not_exists', invalid: 'can_not_delete', forbidden: 'can_not_delete' });
        }
        return true;
      },
    },
    info: {
      title: 'Get full information about attribute with list of options',
      permission: ['product-attributes', 'read'],
      params: ['attribute'],
      run: async (ctx, [attribute]) => {
        const a = await attributeOf(ctx, attribute);
        const out = rec([
          ['attribute_id', a.id],
          ['attribute_code', a.attributeCode],
          ['frontend_input', a.frontendInput],
          ['default_value', magentoDefault(a)],
          ['is_unique', bit(a.isUnique)],
          ['is_required', bit(a.isRequired)],
          ['apply_to', a.applyTo],
          ['is_configurable', bit(a.isConfigurable)],
          ['is_searchable', bit(a.isSearchable)],
          ['is_visible_in_advanced_search', bit(a.isVisibleInAdvancedSearch)],
          ['is_comparable', bit(a.isComparable)],
          ['is_used_for_promo_rules', bit(a.isUsedForPriceRules)],
          ['is_visible_on_front', bit(a.isVisibleOnFront)],
          ['used_in_product_listing', bit(a.usedInProductListing)],
          [
            'frontend_label',
            [
              rec([
                ['store_id', 0],
                ['label', a.frontendLabel],
              ]),
            ],
          ],
        ]);
        if (a.frontendInput !== 'price') out.set('scope', a.scope);
        out.set('additional_fields', additionalFields(a));
        // Magento's info drops the first choice (the empty one) of every list but Yes/No
        const options = await attributeChoices(ctx, a, 0);
        if (a.frontendInput !== 'boolean') options.shift();
        if (options.length) out.set('options', options);
        return out;
      },
    },
    addOption: {
      title: 'Add option',
      permission: ['product-attributes', 'write'],
      params: ['attribute', 'data'],
      run: async (ctx, [attribute, data]) => {
        const a = await attributeOf(ctx, attribute);
        if (!usesOptions(a)) throw resourceFault(productAttribute, 'invalid_frontend_input');
        const input = optionData(ctx, data);
        try {
          await addOption(ctx, a.id, input);
        } catch (err) {
          serviceFault(productAttribute, err, { missing: 'not_exists', invalid: 'unable_to_add_option' });
        }
        return true;
      },
    },
    removeOption: {
      title: 'Remove option',
      permission: ['product-attributes', 'write'],
      params: ['attribute', 'optionId'],
      run: async (ctx, [attribute, optionId]) => {
        const a = await attributeOf(ctx, attribute);
        if (!usesOptions(a)) throw resourceFault(productAttribute, 'invalid_frontend_input');
        const id = idArg(optionId);
        if (id === undefined)
          throw resourceFault(productAttribute, 'unable_to_remove_option', `${String(optionId)} is not an option of ${a.attributeCode}`);
        try {
          await removeOption(ctx, a.id, id);
        } catch (err) {
          // an option id the attribute does not have is Magento's failed save, with the reason
          if (err instanceof AppError && err.reason === 'OPTION_NOT_FOUND')
            throw resourceFault(productAttribute, 'unable_to_remove_option', err.message);
          serviceFault(productAttribute, err, { missing: 'not_exists', invalid: 'unable_to_remove_option' });
        }
        return true;
      },
    },
  },
});
