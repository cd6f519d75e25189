/**
 * `catalog_category` (`category`) and `catalog_category_attribute` of the Magento 1 API: the tree, one level,
 * a category's data, create, update, move and delete, and the products assigned to a category, over the catalog's
 * category service (tree lock, paths, positions, url paths). Store views are named by id or code; without one a
 * method works in the store view `currentStore` kept in the session (current-store.ts), else on the default values.
 * Products are named by id or SKU (`identifierType` 'sku').
 */
import type { Ctx } from '../../../platform/context.js';
import { assignedProducts, categoryNodes, setCategoryProduct, type LegacyCategoryNode } from '../../catalog/categories/legacy.js';
import type { CategoryWriteBody } from '../../catalog/categories/schemas.js';
import { createCategory, deleteCategory, getCategory, TREE_ROOT_ID, updateCategory } from '../../catalog/categories/service.js';
import { productsByIdOrSku } from '../../catalog/products/legacy-keys.js';
import { currentStoreMethod, keptStore } from '../current-store.js';
import { isRecord } from '../encoding.js';
import { defineResource, idArg, magentoDate, resourceFault, serviceFault, type LegacyResource, type LegacyValue } from '../resources.js';

const rec = (entries: [string, LegacyValue][]) => new Map<string, LegacyValue>(entries);

/**
 * The store view a `store` argument names (id or code), the one kept by `currentStore` when it is left out (null);
 * undefined for the default values (0, ''); fault 100 for an unknown one.
 */
function storeOf(ctx: Ctx, store: LegacyValue | undefined, resource: LegacyResource): number | undefined {
  if (store === undefined || store === null) return keptStore(ctx, resource);
  if (store === '') return undefined;
  const r = ctx.app.settings;
  const s = typeof store === 'number' || (typeof store === 'string' && /^\d+$/.test(store.trim())) ? Number(store) : undefined;
  if (s === 0) return undefined;
  const found = s !== undefined ? r.store(s) : typeof store === 'string' ? r.storeByCode(store.trim()) : undefined;
  if (!found) throw resourceFault(resource, 'store_not_exists');
  return found.id;
}

/** The context of a call in store view `storeId` (its values read and written), or the default values. */
function inStore(ctx: Ctx, storeId: number | undefined): Ctx {
  if (storeId === undefined) return { ...ctx, store: { ...ctx.store, explicit: false } };
  const s = ctx.app.settings.store(storeId)!;
  return { ...ctx, store: { ...ctx.store, storeId: s.id, storeCode: s.code, websiteId: s.websiteId, groupId: s.groupId, explicit: true } };
}

function asFault(err: unknown, invalid: string): never {
  return serviceFault(category, err, { missing: 'not_exists', invalid });
}

async function load(ctx: Ctx, id: LegacyValue | undefined) {
  const n = idArg(id);
  if (n === undefined) throw resourceFault(category, 'not_exists');
  try {
    return await getCategory(ctx, n, { all: true });
  } catch (err) {
    asFault(err, 'not_exists');
  }
}

const node = (c: LegacyCategoryNode, name?: string) =>
  rec([
    ['category_id', c.id],
    ['parent_id', c.parentId ?? 0],
    ['name', name ?? c.name],
    ['is_active', c.isActive ? 1 : 0],
    ['position', c.position],
    ['level', c.level],
  ]);

const str = (v: LegacyValue | undefined) => (v === undefined || v === null ? undefined : String(v));
const flag = (v: LegacyValue | undefined) => (v === undefined || v === null ? undefined : ['1', 'true', 1, true].includes(v as string));
function int(v: LegacyValue | undefined, f: string): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n)) throw resourceFault(category, 'data_invalid', `Invalid value for ${f}.`);
  return n;
}

/** Magento's category attributes in the service's names; values of other attributes are ignored, as Magento does. */
function categoryData(v: LegacyValue | undefined): CategoryWriteBody {
  if (!isRecord(v)) throw resourceFault(category, 'data_invalid', 'Category data must be a struct.');
  const sortBy = v.get('available_sort_by');
  const price = v.get('filter_price_range');
  const body: Record<string, unknown> = {
    name: str(v.get('name')),
    description: str(v.get('description')),
    urlKey: str(v.get('url_key')),
    image: str(v.get('image')),
    isActive: flag(v.get('is_active')),
    includeInMenu: flag(v.get('include_in_menu')),
    isAnchor: flag(v.get('is_anchor')),
    availableSortBy:
      sortBy === undefined || sortBy === null || sortBy === 'use_config'
        ? undefined
        : (Array.isArray(sortBy) ? sortBy.map(String) : String(sortBy).split(',')).filter((s) => s && s !== 'use_config'),
    defaultSortBy: v.get('default_sort_by') === 'use_config' ? undefined : str(v.get('default_sort_by')),
    landingPageId: int(v.get('landing_page'), 'landing_page'),
    displayMode: str(v.get('display_mode')),
    metaTitle: str(v.get('meta_title')),
    metaKeywords: str(v.get('meta_keywords')),
    metaDescription: str(v.get('meta_description')),
    pageLayout: str(v.get('page_layout')),
    filterPriceRange: price === undefined || price === null || price === '' ? undefined : Number(price),
    position: int(v.get('position'), 'position'),
  };
  if (body.filterPriceRange !== undefined && !Number.isFinite(body.filterPriceRange)) {
    throw resourceFault(category, 'data_invalid', 'Invalid value for filter_price_range.');
  }
  return Object.fromEntries(Object.entries(body).filter(([, x]) => x !== undefined)) as CategoryWriteBody;
}

/** The product a reference names: an id unless `identifierType` is 'sku' or it does not read as one (Magento's rule). */
async function productId(ctx: Ctx, ref: LegacyValue | undefined, identifierType: LegacyValue | undefined): Promise<number> {
  const text = typeof ref === 'number' ? String(ref) : typeof ref === 'string' ? ref.trim() : '';
  const bySku = identifierType === 'sku' || (typeof ref === 'string' && !/^[+-]?[1-9][0-9]*$|^0$/.test(text));
  const id = /^\+?\d{1,10}$/.test(text) ? Number(text) : undefined;
  const { byId, bySku: skus } = await productsByIdOrSku(ctx, id !== undefined ? [id] : [], text ? [text] : []);
  const found = bySku
    ? (skus.get(text.toLowerCase()) ?? (identifierType === 'sku' ? undefined : id !== undefined ? byId.get(id) : undefined))
    : id !== undefined
      ? byId.get(id)
      : undefined;
  if (!found) throw resourceFault(category, 'not_exists', 'Product not exists.');
  return found.id;
}

async function assignment(ctx: Ctx, args: (LegacyValue | undefined)[], mode: 'assign' | 'update' | 'remove'): Promise<true> {
  const [categoryId, product, a, b] = args;
  const c = await load(ctx, categoryId);
  const position = mode === 'remove' ? null : (int(a, 'position') ?? 0);
  const id = await productId(ctx, product, mode === 'remove' ? a : b);
  if (position !== null && position < 0) throw resourceFault(category, 'data_invalid', 'Invalid value for position.');
  let done: boolean;
  try {
    done = await setCategoryProduct(ctx, c.id, id, position, mode !== 'assign');
  } catch (err) {
    asFault(err, 'data_invalid');
  }
  if (!done) throw resourceFault(category, 'product_not_assigned');
  return true;
}

const read = ['categories', 'read'] as [string, 'read'];

const NAME = 'catalog_category';
const FAULTS: LegacyResource['faults'] = {
  store_not_exists: ['100', 'Requested store view not found.'],
  website_not_exists: ['101', 'Requested website not found.'],
  not_exists: ['102', 'Category not exists.'],
  data_invalid: ['103', 'Invalid data given. Details in error message.'],
  not_moved: ['104', 'Category not moved. Details in error message.'],
  not_deleted: ['105', 'Category not deleted. Details in error message.'],
  product_not_assigned: ['106', 'Requested product is not assigned to category.'],
};

export const category = defineResource({
  name: NAME,
  title: 'Category API',
  aliases: ['category'],
  faults: FAULTS,
  methods: {
    currentStore: currentStoreMethod({ name: NAME, faults: FAULTS }),
    tree: {
      title: 'Retrieve hierarchical tree',
      permission: read,
      params: ['parentId', 'store'],
      run: async (ctx, [parent, store]) => {
        const storeId = storeOf(ctx, store, category);
        // without a parent: the root of a store view named in the call, else the whole tree (in a kept store's names)
        const rootId =
          parent === undefined || parent === null || parent === ''
            ? storeId !== undefined && store !== undefined && store !== null
              ? (ctx.app.settings.group(ctx.app.settings.store(storeId)!.groupId)?.rootCategoryId ?? TREE_ROOT_ID)
              : TREE_ROOT_ID
            : idArg(parent);
        if (rootId === undefined) throw resourceFault(category, 'not_exists');
        const nodes = await categoryNodes(ctx, { rootId, storeId: storeId ?? 0 });
        const root = nodes.find((n) => n.id === rootId);
        if (!root) throw resourceFault(category, 'not_exists');
        const children = new Map<number, Map<string, LegacyValue>[]>();
        const out = new Map<number, Map<string, LegacyValue>>();
        for (const n of nodes) {
          if (!pathsFrom(n.path, rootId)) continue;
          const r = node(n, n.id === TREE_ROOT_ID ? 'Root' : undefined);
          const list: Map<string, LegacyValue>[] = [];
          r.set('children', list);
          children.set(n.id, list);
          out.set(n.id, r);
          if (n.id !== rootId && n.parentId !== null) children.get(n.parentId)?.push(r);
        }
        return out.get(rootId)!;
      },
    },
    level: {
      title: 'Retrieve one level of categories by website/store view/parent category',
      permission: read,
      params: ['website', 'store', 'categoryId'],
      run: async (ctx, [website, store, categoryId]) => {
        const r = ctx.app.settings;
        let storeId: number | undefined;
        let where: { parentOf?: number; ids?: number[] };
        const given = (v: LegacyValue | undefined) => v !== undefined && v !== null && v !== '';
        if (given(website)) {
          const w =
            typeof website === 'number' || /^\d+$/.test(String(website).trim())
              ? r.allWebsites().find((x) => x.id === Number(website))
              : r.allWebsites().find((x) => x.code === String(website).trim());
          if (!w) throw resourceFault(category, 'website_not_exists');
          const stores = r.allStores().filter((s) => s.websiteId === w.id);
          if (!given(store)) {
            where = given(categoryId)
              ? { parentOf: idArg(categoryId) ?? -1 }
              : { ids: [...new Set(stores.map((s) => r.group(s.groupId)?.rootCategoryId).filter((x): x is number => !!x))] };
          } else {
            storeId = storeOf(ctx, store, category);
            const s = stores.find((x) => x.id === storeId);
            if (!s) throw resourceFault(category, 'store_not_exists');
            where = { parentOf: given(categoryId) ? (idArg(categoryId) ?? -1) : (r.group(s.groupId)?.rootCategoryId ?? -1) };
          }
        } else if (given(store)) {
          storeId = storeOf(ctx, store, category);
          const s = storeId !== undefined ? r.store(storeId) : undefined;
          where = {
            parentOf: given(categoryId) ? (idArg(categoryId) ?? -1) : s ? (r.group(s.groupId)?.rootCategoryId ?? -1) : TREE_ROOT_ID,
          };
        } else {
          where = { parentOf: given(categoryId) ? (idArg(categoryId) ?? -1) : TREE_ROOT_ID };
        }
        return (await categoryNodes(ctx, { ...where, storeId: storeId ?? 0 })).map((n) => node(n));
      },
    },
    info: {
      title: 'Retrieve category data',
      permission: read,
      params: ['categoryId', 'store', 'attributes'],
      run: async (ctx, [categoryId, store, attributes]) => {
        const c = await load(inStore(ctx, storeOf(ctx, store, category)), categoryId);
        const all = await categoryNodes(ctx, { rootId: c.id, storeId: 0 });
        const attrs: [string, LegacyValue][] = [
          ['name', c.name],
          ['url_key', c.urlKey ?? null],
          ['description', c.description ?? null],
          ['image', c.image ?? null],
          ['meta_title', c.metaTitle ?? null],
          ['meta_keywords', c.metaKeywords ?? null],
          ['meta_description', c.metaDescription ?? null],
          ['display_mode', c.displayMode ?? null],
          ['landing_page', c.landingPageId ?? null],
          ['is_anchor', c.isAnchor ? 1 : 0],
          ['path', c.path],
          ['children_count', c.childrenCount],
          ['url_path', c.urlPath ?? null],
          ['include_in_menu', c.includeInMenu ? 1 : 0],
          ['available_sort_by', c.availableSortBy?.join(',') ?? null],
          ['default_sort_by', c.defaultSortBy ?? null],
          ['page_layout', c.pageLayout ?? null],
          ['filter_price_range', c.filterPriceRange ?? null],
          ['created_at', magentoDate(c.createdAt)],
          ['updated_at', magentoDate(c.updatedAt)],
        ];
        const wanted = typeof attributes === 'string' ? [attributes] : Array.isArray(attributes) ? attributes.map(String) : undefined;
        return rec([
          ['category_id', c.id],
          ['is_active', c.isActive ? 1 : 0],
          ['position', c.position],
          ['level', c.level],
          ...attrs.filter(([k]) => !wanted?.length || wanted.includes(k)),
          ['parent_id', c.parentId ?? 0],
          ['children', c.childrenIds.join(',')],
          ['all_children', all.map((n) => n.id).join(',')],
        ]);
      },
    },
    create: {
      title: 'Create new category',
      permission: ['categories', 'create'],
      params: ['parentId', 'categoryData', 'store'],
      run: async (ctx, [parentId, data, store]) => {
        const scoped = inStore(ctx, storeOf(ctx, store, category));
        const parent = await load(scoped, parentId);
        const body = categoryData(data);
        if (!body.name?.trim()) throw resourceFault(category, 'data_invalid', 'Attribute "name" is required.');
        try {
          return (await createCategory(scoped, { ...body, parentId: parent.id })).id;
        } catch (err) {
          asFault(err, 'data_invalid');
        }
      },
    },
    update: {
      title: 'Update category',
      permission: ['categories', 'write'],
      params: ['categoryId', 'categoryData', 'store'],
      run: async (ctx, [categoryId, data, store]) => {
        const scoped = inStore(ctx, storeOf(ctx, store, category));
        const c = await load(scoped, categoryId);
        try {
          await updateCategory(scoped, c.id, categoryData(data));
        } catch (err) {
          asFault(err, 'data_invalid');
        }
        return true;
      },
    },
    move: {
      title: 'Move category in tree',
      permission: ['categories', 'write'],
      params: ['categoryId', 'parentId', 'afterId'],
      run: async (ctx, [categoryId, parentId, afterId]) => {
        const c = await load(ctx, categoryId);
        const parent = await load(ctx, parentId);
        if (`${parent.path}/`.startsWith(`${c.path}/`)) {
          throw resourceFault(category, 'not_moved', 'Operation do not allow to move a parent category to any of children category');
        }
        // after `afterId` among the new siblings; without it last, as Magento puts it after the last child
        const siblings = parent.childrenIds.filter((id) => id !== c.id);
        const after = idArg(afterId);
        const index = after === undefined ? (afterId === undefined || afterId === null ? siblings.length : 0) : siblings.indexOf(after) + 1;
        try {
          await updateCategory(ctx, c.id, { parentId: parent.id, position: index + 1 });
        } catch (err) {
          asFault(err, 'not_moved');
        }
        return true;
      },
    },
    delete: {
      title: 'Delete category',
      permission: ['categories', 'delete'],
      params: ['categoryId'],
      run: async (ctx, [categoryId]) => {
        if (idArg(categoryId) === TREE_ROOT_ID) throw resourceFault(category, 'not_deleted', 'Cannot remove the system category.');
        const c = await load(ctx, categoryId);
        try {
          await deleteCategory(ctx, c.id);
        } catch (err) {
          asFault(err, 'not_deleted');
        }
        return true;
      },
    },
    assignedProducts: {
      title: 'Retrieve list of assigned products',
      permission: read,
      params: ['categoryId', 'store'],
      run: async (ctx, [categoryId, store]) => {
        storeOf(ctx, store, category);
        const c = await load(ctx, categoryId);
        return (await assignedProducts(ctx, c.id)).map((p) =>
          rec([
            ['product_id', p.productId],
            ['type', p.type],
            ['set', p.attributeSetId],
            ['sku', p.sku],
            ['position', p.position],
          ]),
        );
      },
    },
    assignProduct: {
      title: 'Assign product to category',
      permission: ['categories', 'write'],
      params: ['categoryId', 'product', 'position', 'identifierType'],
      run: (ctx, args) => assignment(ctx, args, 'assign'),
    },
    updateProduct: {
      title: 'Update assigned product',
      permission: ['categories', 'write'],
      params: ['categoryId', 'product', 'position', 'identifierType'],
      run: (ctx, args) => assignment(ctx, args, 'update'),
    },
    removeProduct: {
      title: 'Remove product assignment',
      permission: ['categories', 'write'],
      params: ['categoryId', 'product', 'identifierType'],
      run: (ctx, args) => assignment(ctx, args, 'remove'),
    },
  },
});

/** Whether a category path lies at or below `rootId`. */
function pathsFrom(path: string, rootId: number): boolean {
  return `/${path}/`.includes(`/${rootId}/`);
}
