/**
 * `catalog_category_attribute` (`category_attribute`) of the Magento 1 API: the category attributes and the
 * options of those with choices.
 *
 * Our categories keep fixed fields, not EAV records, so the attributes are those fields under Magento's codes,
 * declared once below: each keeps the attribute id a Magento 1.9 install gives it (name 41 ... filter_price_range
 * 70), so that the ids are stable and an integration written against Magento finds the ones it knows. Only the
 * fields our categories carry are listed (no custom design, layout update or path_in_store); the scope is ours
 * (store for the values a store view may override: name, description, url key, status and meta data; global for
 * the rest), and only the name is required, as our category create requires. The choices are Magento's source
 * models over our data: Yes/No, the display modes, the CMS blocks the caller may read (landing_page), the page
 * layouts, and "Best Value" (position) with the attributes products may be sorted by.
 */
import { currentStoreMethod } from '../current-store.js';
import { hasPermission } from '../../../platform/auth/access.js';
import type { Ctx } from '../../../platform/context.js';
import { sortableAttributes } from '../../catalog/attributes/legacy.js';
import { BUILT_IN_OPTIONS } from '../../catalog/attributes/built-in.js';
import { listBlocks } from '../../cms/blocks.js';
import { defineResource, resourceFault, type LegacyValue } from '../resources.js';
import { rec, storeArg, yesNo } from './product-attribute-input.js';

type Source = 'boolean' | 'mode' | 'page' | 'layout' | 'sortby';

interface CategoryAttribute {
  id: number;
  code: string;
  type: string;
  required?: boolean;
  scope: 'store' | 'global';
  source?: Source;
}

// one attribute per line: a table to read down
// prettier-ignore
const ATTRIBUTES: CategoryAttribute[] = [
  { id: 41, code: 'name', type: 'text', required: true, scope: 'store' },
  { id: 42, code: 'is_active', type: 'select', scope: 'store', source: 'boolean' },
  { id: 43, code: 'url_key', type: 'text', scope: 'store' },
  { id: 44, code: 'description', type: 'textarea', scope: 'store' },
  { id: 45, code: 'image', type: 'image', scope: 'global' },
  { id: 46, code: 'meta_title', type: 'text', scope: 'store' },
  { id: 47, code: 'meta_keywords', type: 'textarea', scope: 'store' },
  { id: 48, code: 'meta_description', type: 'textarea', scope: 'store' },
  { id: 49, code: 'display_mode', type: 'select', scope: 'global', source: 'mode' },
  { id: 50, code: 'landing_page', type: 'select', scope: 'global', source: 'page' },
  { id: 51, code: 'is_anchor', type: 'select', scope: 'global', source: 'boolean' },
  { id: 52, code: 'path', type: 'text', scope: 'global' },
  { id: 53, code: 'position', type: 'text', scope: 'global' },
  { id: 54, code: 'all_children', type: 'text', scope: 'global' },
  { id: 56, code: 'children', type: 'text', scope: 'global' },
  { id: 57, code: 'url_path', type: 'text', scope: 'store' },
  { id: 61, code: 'page_layout', type: 'select', scope: 'global', source: 'layout' },
  { id: 63, code: 'level', type: 'text', scope: 'global' },
  { id: 64, code: 'children_count', type: 'text', scope: 'global' },
  { id: 65, code: 'available_sort_by', type: 'multiselect', scope: 'global', source: 'sortby' },
  { id: 66, code: 'default_sort_by', type: 'select', scope: 'global', source: 'sortby' },
  { id: 67, code: 'include_in_menu', type: 'select', scope: 'global', source: 'boolean' },
  { id: 70, code: 'filter_price_range', type: 'text', scope: 'global' },
];

const choice = (value: LegacyValue, label: string) =>
  rec([
    ['value', value],
    ['label', label],
  ]);

/** The CMS blocks as the caller may read them (every one for a reader of blocks), by title; at most 1000. */
async function blocks(ctx: Ctx): Promise<LegacyValue[]> {
  const reader = ctx.actor.kind === 'admin' && hasPermission(ctx.actor.permissions, 'cms-blocks', 'read');
  const { items } = await listBlocks(ctx, { scope: reader ? 'all' : undefined }, { page: 1, size: 1000, offset: 0 });
  return items.map((b) => choice(b.id, b.title));
}

/** The choices of an attribute with a source, as Magento's source model lists them. */
async function choices(ctx: Ctx, source: Source | undefined): Promise<LegacyValue[]> {
  switch (source) {
    case 'boolean':
      return yesNo();
    case 'mode':
      return [
        choice('PRODUCTS', 'Products only'),
        choice('PAGE', 'Static block only'),
        choice('PRODUCTS_AND_PAGE', 'Static block and products'),
      ];
    case 'page':
      return [choice('', 'Please select a static block ...'), ...(await blocks(ctx))];
    case 'layout':
      return [choice('', 'No layout updates'), ...(BUILT_IN_OPTIONS.page_layout ?? []).map((o) => choice(o.value, o.label))];
    case 'sortby': {
      const sortable = await sortableAttributes(ctx);
      const entry = (label: string, value: string) =>
        rec([
          ['label', label],
          ['value', value],
        ]);
      return [entry('Best Value', 'position'), ...sortable.map((a) => entry(a.label, a.code))];
    }
    default:
      return [];
  }
}

export const categoryAttribute = defineResource({
  name: 'catalog_category_attribute',
  title: 'Category attributes API',
  aliases: ['category_attribute'],
  faults: {
    store_not_exists: ['100', 'Requested store view not found.'],
    not_exists: ['101', 'Requested attribute not found.'],
  },
  methods: {
    currentStore: currentStoreMethod({
      name: 'catalog_category_attribute',
      faults: { store_not_exists: ['100', 'Requested store view not found.'] },
    }),
    list: {
      title: 'Retrieve category attributes',
      permission: ['categories', 'read'],
      params: [],
      run: async () =>
        ATTRIBUTES.map((a) =>
          rec([
            ['attribute_id', a.id],
            ['code', a.code],
            ['type', a.type],
            ['required', a.required ? 1 : 0],
            ['scope', a.scope],
          ]),
        ),
    },
    options: {
      title: 'Retrieve attribute options',
      permission: ['categories', 'read'],
      params: ['attributeId', 'store'],
      run: async (ctx, [attributeId, store]) => {
        storeArg(ctx, store, categoryAttribute);
        const ref = typeof attributeId === 'number' ? String(attributeId) : typeof attributeId === 'string' ? attributeId.trim() : '';
        const a = ATTRIBUTES.find((x) => (/^\d+$/.test(ref) ? x.id === Number(ref) : x.code === ref));
        if (!a) throw resourceFault(categoryAttribute, 'not_exists');
        return choices(ctx, a.source);
      },
    },
  },
});
