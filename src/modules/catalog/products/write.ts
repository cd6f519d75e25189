/**
 * Product writes: create, partial update (default values, or one store view's values with ?store=) and
 * delete. Each runs in one transaction that also keeps the product's URL paths, category assignments,
 * stock, search text and price index in step; the reply is the product as the read side shows it.
 */
import { and, eq, notInArray } from 'drizzle-orm';
import { backOffice, withTx, type Ctx } from '../../../platform/context.js';
import { AppError, badRequest, fromDatabaseError } from '../../../platform/errors.js';
import { removeEntityPaths } from '../../url-resolver/service.js';
import { defaultAttributeSetId } from '../attributes/service.js';
import { normalizeCustomAttributes } from '../attributes/values.js';
import { parentsOf, refreshPriceRanges } from './price.js';
import { purgeProductMediaFiles } from '../product-extras/media-service.js';
import { getProduct } from './read.js';
import { productEvents } from '../events.js';
import { requireProduct, type ProductRow, type ProductType } from './shared.js';
import { explicitUrlKey, formatUrlKey, registerProductPaths } from './urls.js';
import { ATTRIBUTE_FIELDS, type ProductWriteBody } from './write-schemas.js';
import { buildSearchText } from './write-search.js';
import { categoryProducts, products, type StoreValues } from '../tables.js';
import {
  field,
  requiredText,
  optText,
  productType,
  activeFrom,
  visibilityOf,
  dateOf,
  money,
  checkDateOrder,
  checkAttributeSet,
  checkTaxClass,
  checkWebsites,
  checkCategories,
  checkSkuFree,
  mapSkuRace,
} from './write-checks.js';

type ProductReply = Awaited<ReturnType<typeof getProduct>>;
type NewProduct = typeof products.$inferInsert;

/** Values a store view may set for itself (products.store_values keys, as the wire names them). */
export const STORE_FIELDS = [
  'name',
  'description',
  'shortDescription',
  'urlKey',
  'isActive',
  'metaTitle',
  'metaDescription',
  'metaKeywords',
] as const;
type StoreField = (typeof STORE_FIELDS)[number];

/** `useDefault` codes: the wire names and the attribute codes they stand for. */
const USE_DEFAULT_CODES: Record<string, StoreField> = {
  name: 'name',
  description: 'description',
  shortDescription: 'shortDescription',
  short_description: 'shortDescription',
  urlKey: 'urlKey',
  url_key: 'urlKey',
  isActive: 'isActive',
  status: 'isActive',
  metaTitle: 'metaTitle',
  meta_title: 'metaTitle',
  metaDescription: 'metaDescription',
  meta_description: 'metaDescription',
  metaKeywords: 'metaKeywords',
  meta_keyword: 'metaKeywords',
  meta_keywords: 'metaKeywords',
};

// ---- the parts of a write ----

/** Replaces the category assignments, keeping the position of those that stay. */
async function replaceCategories(ctx: Ctx, productId: number, ids: number[]): Promise<void> {
  const cond = ids.length
    ? and(eq(categoryProducts.productId, productId), notInArray(categoryProducts.categoryId, ids))
    : eq(categoryProducts.productId, productId);
  await ctx.db.delete(categoryProducts).where(cond);
  if (ids.length) {
    await ctx.db
      .insert(categoryProducts)
      .values(ids.map((categoryId) => ({ categoryId, productId, position: 0 })))
      .onConflictDoNothing();
  }
}

/** The attribute values a body writes: the attribute-backed fields, then customAttributesWrite. */
function attributeInput(body: ProductWriteBody): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [wire, code] of Object.entries(ATTRIBUTE_FIELDS)) {
    const v = body[wire as keyof typeof ATTRIBUTE_FIELDS];
    if (v !== undefined) out[code] = v;
  }
  Object.assign(out, body.customAttributesWrite ?? {});
  return Object.keys(out).length ? out : undefined;
}

/** Merges normalized custom attribute values; a null value removes the attribute. */
async function mergeAttributes(
  ctx: Ctx,
  attributeSetId: number,
  current: Record<string, unknown>,
  input: Record<string, unknown> | undefined,
): Promise<Record<string, unknown>> {
  if (!input) return current;
  const normalized = await normalizeCustomAttributes(ctx, attributeSetId, input);
  const out = { ...current };
  for (const [code, value] of Object.entries(normalized)) {
    if (value === null || value === undefined || value === '' || (Array.isArray(value) && !value.length)) delete out[code];
    else out[code] = value;
  }
  return out;
}

/** Writes stock through the module that keeps it (`ctx.app.catalogParts`). */
async function writeStock(ctx: Ctx, productId: number, body: ProductWriteBody): Promise<void> {
  if (!body.stockData || !Object.keys(body.stockData).length) return;
  await ctx.app.catalogParts.setProductStock(ctx, productId, body.stockData);
}

/** Types that keep a quantity of their own; configurable, grouped and bundle products sell their children's. */
const STOCK_TYPES: readonly ProductType[] = ['simple', 'virtual', 'downloadable'];

/**
 * Every new product gets its stock row. Simple, virtual and downloadable products: managed, qty 0, out of stock;
 * configurable, grouped and bundle products: not managed (their availability is their children's). stockData
 * overrides either; a partial stockData starts from the row the inventory service creates (qty 0, managed,
 * out of stock).
 */
async function createStock(ctx: Ctx, productId: number, type: ProductType, body: ProductWriteBody): Promise<void> {
  if (body.stockData && Object.keys(body.stockData).length) {
    await ctx.app.catalogParts.setProductStock(ctx, productId, body.stockData);
    return;
  }
  const initial = STOCK_TYPES.includes(type)
    ? { qty: 0, isInStock: false, manageStock: true }
    : { qty: 0, isInStock: true, manageStock: false };
  await ctx.app.catalogParts.setProductStock(ctx, productId, initial);
}

/** Bundle and downloadable fields, for products of those types (ignored on the others). */
function typeFields(type: ProductType, body: ProductWriteBody, creating: boolean): Partial<NewProduct> {
  const out: Partial<NewProduct> = {};
  if (type === 'bundle') {
    for (const k of ['skuType', 'priceType', 'weightType', 'priceView', 'shipmentType'] as const) {
      const v = body[k];
      if (v !== undefined) out[k] = v ?? 0;
      else if (creating) out[k] = 0;
    }
  }
  if (type === 'downloadable') {
    if (body.linksTitle !== undefined) out.linksTitle = optText(body.linksTitle);
    else if (creating) out.linksTitle = 'Links';
    if (body.samplesTitle !== undefined) out.samplesTitle = optText(body.samplesTitle);
    else if (creating) out.samplesTitle = 'Samples';
    if (body.linksPurchasedSeparately !== undefined) out.linksPurchasedSeparately = body.linksPurchasedSeparately;
    else if (creating) out.linksPurchasedSeparately = true;
  }
  return out;
}

/** Global values of the body (everything except sku, type, name, url key and the references). */
function globalValues(body: ProductWriteBody): Partial<NewProduct> {
  const out: Partial<NewProduct> = {};
  if (body.visibility !== undefined) out.visibility = visibilityOf(body.visibility);
  for (const k of ['price', 'specialPrice', 'cost', 'msrp'] as const) if (body[k] !== undefined) out[k] = money(body[k]);
  if (body.weight !== undefined) out.weight = money(body.weight);
  for (const k of ['specialFromDate', 'specialToDate', 'newsFromDate', 'newsToDate'] as const) {
    if (body[k] !== undefined) out[k] = dateOf(body[k], k);
  }
  return out;
}

function checkDates(row: Pick<ProductRow, 'specialFromDate' | 'specialToDate' | 'newsFromDate' | 'newsToDate'>): void {
  checkDateOrder(row.specialFromDate, row.specialToDate, 'specialFromDate', 'specialToDate');
  checkDateOrder(row.newsFromDate, row.newsToDate, 'newsFromDate', 'newsToDate');
}

/** The url key from the body: an explicit one normalized, or one generated from the name (then `generated`). */
function urlKeyFor(value: string | null | undefined, name: string, sku: string): { key: string; generated: boolean } | undefined {
  if (value === undefined) return undefined;
  if (value !== null && value.trim() !== '') return { key: explicitUrlKey(value), generated: false };
  return { key: formatUrlKey(name) || formatUrlKey(sku) || 'product', generated: true };
}

// ---- create ----

/** product.created / product.updated, with the product as the back office reads it once the change is done. */
function emitProductEvent(tx: Ctx, type: 'product.created' | 'product.updated', id: number): void {
  productEvents.emit(tx, type, { resource: 'product', id, storeId: null }, () => getProduct(backOffice(tx), id));
}

/** POST /products. */
export async function createProduct(ctx: Ctx, body: ProductWriteBody): Promise<ProductReply> {
  const id = await withTx(ctx, async (tx) => {
    const sku = requiredText(body.sku, 'SKU is required', 'sku');
    const name = requiredText(body.name, 'Name is required', 'name');
    const type = productType(body.type ?? 'simple');
    if (body.useDefault?.length && !tx.store.explicit) throw useDefaultNeedsStore();
    const attributeSetId = body.attributeSetId ?? (await defaultAttributeSetId(tx));
    if (body.attributeSetId !== undefined) await checkAttributeSet(tx, attributeSetId);
    const taxClassId = body.taxClassId ?? 0;
    await checkTaxClass(tx, taxClassId);
    const websiteIds = checkWebsites(tx, body.websiteIds ?? [tx.store.websiteId]);
    const categoryIds = body.categoryIds ? await checkCategories(tx, body.categoryIds) : [];
    const url = urlKeyFor(body.urlKey ?? null, name, sku)!;
    const values: NewProduct = {
      sku,
      type,
      name,
      attributeSetId,
      taxClassId,
      urlKey: url.key,
      isActive: activeFrom(body) ?? true,
      visibility: 'catalog_search',
      description: optText(body.description),
      shortDescription: optText(body.shortDescription),
      metaTitle: optText(body.metaTitle),
      metaDescription: optText(body.metaDescription),
      metaKeywords: optText(body.metaKeywords),
      websiteIds,
      storeValues: {},
      ...globalValues(body),
      ...typeFields(type, body, true),
      createdAt: tx.now,
      updatedAt: tx.now,
    };
    checkDates({
      specialFromDate: values.specialFromDate ?? null,
      specialToDate: values.specialToDate ?? null,
      newsFromDate: values.newsFromDate ?? null,
      newsToDate: values.newsToDate ?? null,
    });
    await checkSkuFree(tx, sku);
    values.attributes = await mergeAttributes(tx, attributeSetId, {}, attributeInput(body));
    values.searchText = await buildSearchText(tx, values);
    const [row] = await tx.db.insert(products).values(values).returning({ id: products.id }).catch(mapSkuRace(sku));
    const urlKey = await registerProductPaths(tx, { id: row.id, urlKey: url.key, websiteIds, storeValues: {} }, url.generated);
    if (urlKey !== url.key) await tx.db.update(products).set({ urlKey }).where(eq(products.id, row.id));
    if (categoryIds.length) await replaceCategories(tx, row.id, categoryIds);
    await createStock(tx, row.id, type, body);
    await refreshPriceRanges(tx, [row.id]);
    emitProductEvent(tx, 'product.created', row.id);
    return row.id;
  });
  return getProduct(ctx, id);
}

// ---- update ----

const useDefaultNeedsStore = () =>
  badRequest('useDefault needs a store view (?store=<code>)', { reason: 'STORE_REQUIRED', ...field('useDefault') });

/** The store-view values of the body, for PUT with ?store=: a null value drops the override. */
function storeOverrides(body: ProductWriteBody, current: Record<string, unknown>): Record<string, unknown> {
  const out = { ...current };
  const set = (k: StoreField, v: unknown) => {
    if (v === null || v === undefined) delete out[k];
    else out[k] = v;
  };
  if (body.name !== undefined) set('name', body.name === null ? null : requiredText(body.name, 'Name is required', 'name'));
  for (const k of ['description', 'shortDescription', 'metaTitle', 'metaDescription', 'metaKeywords'] as const) {
    if (body[k] !== undefined) set(k, body[k]);
  }
  if (body.urlKey !== undefined) set('urlKey', body.urlKey === null || body.urlKey.trim() === '' ? null : explicitUrlKey(body.urlKey));
  const active = activeFrom(body);
  if (active !== undefined) set('isActive', active);
  for (const code of body.useDefault ?? []) {
    const k = USE_DEFAULT_CODES[code];
    if (!k) {
      throw badRequest(`useDefault: "${code}" is not a store-view value (use ${STORE_FIELDS.join(', ')})`, {
        reason: 'INVALID_USE_DEFAULT',
        ...field('useDefault'),
      });
    }
    delete out[k];
  }
  return out;
}

/** PUT /products/{id}: a partial update; with ?store= the store-view values go to that store view. */
export async function updateProduct(ctx: Ctx, id: number, body: ProductWriteBody): Promise<ProductReply> {
  await withTx(ctx, async (tx) => {
    // a product outside a store-restricted principal's websites is missing to it: checked before any change
    const row = await requireProduct(tx, id, { forUpdate: true, inScope: true });
    const scoped = tx.store.explicit;
    if (body.useDefault?.length && !scoped) throw useDefaultNeedsStore();
    if (body.type !== undefined && productType(body.type) !== row.type) {
      throw badRequest(`The type of a product cannot be changed (it is ${row.type})`, { reason: 'TYPE_IMMUTABLE', ...field('type') });
    }
    const type = row.type as ProductType;
    const set: Partial<NewProduct> = { ...globalValues(body), ...typeFields(type, body, false), updatedAt: tx.now };
    if (body.sku !== undefined) {
      set.sku = requiredText(body.sku, 'SKU is required', 'sku');
      if (set.sku.toLowerCase() !== row.sku.toLowerCase()) await checkSkuFree(tx, set.sku, id);
    }
    if (body.attributeSetId !== undefined && body.attributeSetId !== row.attributeSetId) {
      await checkAttributeSet(tx, body.attributeSetId);
      set.attributeSetId = body.attributeSetId;
    }
    if (body.taxClassId !== undefined) {
      await checkTaxClass(tx, body.taxClassId);
      set.taxClassId = body.taxClassId;
    }
    if (body.websiteIds !== undefined) set.websiteIds = checkWebsites(tx, body.websiteIds, row.websiteIds);
    const categoryIds = body.categoryIds ? await checkCategories(tx, body.categoryIds) : undefined;

    let url: { key: string; generated: boolean } | undefined;
    let storeValues: StoreValues = row.storeValues ?? {};
    if (scoped) {
      const sid = String(tx.store.storeId);
      const own = storeOverrides(body, storeValues[sid] ?? {});
      storeValues = { ...storeValues };
      if (Object.keys(own).length) storeValues[sid] = own;
      else delete storeValues[sid];
      set.storeValues = storeValues;
    } else {
      if (body.name !== undefined) set.name = requiredText(body.name, 'Name is required', 'name');
      for (const k of ['description', 'shortDescription', 'metaTitle', 'metaDescription', 'metaKeywords'] as const) {
        if (body[k] !== undefined) set[k] = optText(body[k]);
      }
      const active = activeFrom(body);
      if (active !== undefined) set.isActive = active;
      url = urlKeyFor(body.urlKey, set.name ?? row.name, set.sku ?? row.sku);
      if (url) set.urlKey = url.key;
    }

    const merged: ProductRow = { ...row, ...(set as Partial<ProductRow>) };
    checkDates(merged);
    const attrs = attributeInput(body);
    merged.attributes = await mergeAttributes(tx, merged.attributeSetId, row.attributes ?? {}, attrs);
    if (attrs) set.attributes = merged.attributes;
    set.searchText = await buildSearchText(tx, merged);

    await tx.db.update(products).set(set).where(eq(products.id, id)).catch(mapSkuRace(merged.sku));
    const storeKeysChanged = JSON.stringify(urlKeysOf(row.storeValues)) !== JSON.stringify(urlKeysOf(merged.storeValues));
    if (url || set.websiteIds || storeKeysChanged) {
      const urlKey = await registerProductPaths(
        tx,
        { id, urlKey: merged.urlKey, websiteIds: merged.websiteIds, storeValues: merged.storeValues },
        url?.generated ?? false,
      );
      if (urlKey !== merged.urlKey) await tx.db.update(products).set({ urlKey }).where(eq(products.id, id));
    }
    if (categoryIds) await replaceCategories(tx, id, categoryIds);
    await writeStock(tx, id, body);
    await refreshPriceRanges(tx, [id]);
    emitProductEvent(tx, 'product.updated', id);
  });
  return getProduct(ctx, id);
}

function urlKeysOf(values: StoreValues | null | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [sid, v] of Object.entries(values ?? {})) if (v?.urlKey !== undefined) out[sid] = v.urlKey;
  return out;
}

// ---- delete ----

/** DELETE /products/{id}: the product and everything that hangs on it; its parents' price ranges follow. */
export async function deleteProduct(ctx: Ctx, id: number): Promise<void> {
  await withTx(ctx, async (tx) => {
    await requireProduct(tx, id, { forUpdate: true, inScope: true });
    // the event carries the product as it was
    const gone = tx.app.events.wants('product.deleted', null) ? await getProduct(backOffice(tx), id) : null;
    productEvents.emit(tx, 'product.deleted', { resource: 'product', id, storeId: null }, gone);
    const parents = await parentsOf(tx, [id]);
    await removeEntityPaths(tx, 'product', id);
    await purgeProductMediaFiles(tx, id);
    await tx.db
      .delete(products)
      .where(eq(products.id, id))
      .catch((err: unknown) => {
        const db = fromDatabaseError(err);
        if (db?.reason === 'FOREIGN_KEY') {
          throw new AppError('conflict', 'The product is still referenced and cannot be deleted', { reason: 'PRODUCT_IN_USE' });
        }
        throw err;
      });
    await refreshPriceRanges(tx, parents);
  });
}
