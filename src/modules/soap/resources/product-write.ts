/**
 * The writes of `catalog_product`: create, update (and multiUpdate, setSpecialPrice through it) and delete, over
 * the product service the REST operations use. A create or an update is one transaction: the product, its tier
 * prices and, for a configurable product, its super attributes and children (the configurable service) are
 * written together or not at all. multiUpdate updates each product on its own, as Magento's does, and reports the
 * products it could not update in one fault (108).
 */
import { adminWebsiteScope, withTx, type Ctx } from '../../../platform/context.js';
import { attributeSetExists } from '../../catalog/attributes/service.js';
import { replaceTierPrices } from '../../catalog/product-extras/tier-prices-service.js';
import { setConfigurable } from '../../catalog/product-types/configurable-service.js';
import { productsByIdOrSku } from '../../catalog/products/legacy-keys.js';
import { legacySetAttributes } from '../../catalog/products/legacy-read.js';
import { createProduct, deleteProduct, updateProduct } from '../../catalog/products/write.js';
import { SoapFault } from '../faults.js';
import { idArg, type LegacyValue } from '../resources.js';
import { productInput, type ProductInput } from './product-data.js';
import { findProduct, given, isProductType, productFault, productServiceFault, refText, storeView } from './product-shared.js';

/** Most products one multiUpdate names. */
export const MULTI_UPDATE_MAX = 1000;

/**
 * The service answers a write with the product as a catalog reader sees it, and a role that may create products
 * but not read them would be refused that answer: the write runs with that read granted (the API answers the id).
 */
function writer(ctx: Ctx): Ctx {
  const a = ctx.actor;
  return a.kind === 'admin' ? { ...ctx, actor: { ...a, permissions: [...a.permissions, 'products/read'] } } : ctx;
}

/** Tier prices and the configurable setup of a write, in its transaction. */
async function writeParts(tx: Ctx, productId: number, websiteIds: readonly number[], input: ProductInput): Promise<void> {
  if (input.tierPrices) {
    if (input.tierWebsites?.some((w) => !websiteIds.includes(w))) {
      throw productFault('data_invalid', 'Invalid tier prices. The product is not associated to the requested website.');
    }
    await replaceTierPrices(tx, productId, input.tierPrices);
  }
  if (input.configurable) {
    const children = input.configurable.childProductIds ?? [];
    const scope = adminWebsiteScope(tx);
    if (scope && children.length) {
      // a limited principal links only products of its own websites
      const { byId } = await productsByIdOrSku(tx, children, [], scope);
      const outside = children.find((id) => !byId.has(id));
      if (outside !== undefined) throw productFault('data_invalid', `Product ${outside} not exists.`);
    }
    await setConfigurable(tx, productId, input.configurable);
  }
}

const websitesOf = (p: unknown): number[] => (p as { websiteIds?: number[] }).websiteIds ?? [];

/** catalog_product.create: the new product's id. */
export async function createLegacyProduct(ctx: Ctx, args: (LegacyValue | undefined)[]): Promise<number> {
  const [type, set, sku, data, store] = args;
  if (!given(type) || !given(set) || !given(sku)) throw productFault('data_invalid');
  if (!isProductType(type)) throw productFault('product_type_not_exists');
  const setId = idArg(set);
  if (setId === undefined || !(await attributeSetExists(ctx, setId))) throw productFault('product_attribute_set_not_exists');
  const skuText = refText(sku);
  if (skuText === undefined) throw productFault('data_invalid', 'Attribute "sku" is invalid.');
  const view = storeView(ctx, store);
  const input = productInput(ctx, data, { type, attributes: await legacySetAttributes(ctx, setId), creating: true });
  // Magento's API makes a product sent without stock data one whose stock is not managed
  const body = { stockData: { useConfigManageStock: false, manageStock: false }, ...input.body, sku: skuText, type, attributeSetId: setId };
  try {
    return await withTx(writer(view.ctx), async (tx) => {
      const p = await createProduct(tx, body);
      await writeParts(tx, p.id, websitesOf(p), input);
      return p.id;
    });
  } catch (err) {
    productServiceFault(err);
  }
}

/** catalog_product.update: the product's values (in the store view, for those a store view keeps), all or nothing. */
export async function updateLegacyProduct(
  ctx: Ctx,
  ref: LegacyValue | undefined,
  data: LegacyValue | undefined,
  store: LegacyValue | undefined,
  identifierType: LegacyValue | undefined,
): Promise<true> {
  const view = storeView(ctx, store);
  const key = await findProduct(ctx, ref, identifierType);
  const input = productInput(ctx, data, {
    type: key.type,
    attributes: await legacySetAttributes(ctx, key.attributeSetId),
    creating: false,
  });
  try {
    await withTx(writer(view.ctx), async (tx) => {
      const p = await updateProduct(tx, key.id, input.body);
      await writeParts(tx, key.id, websitesOf(p), input);
    });
  } catch (err) {
    productServiceFault(err);
  }
  return true;
}

/** catalog_product.multiUpdate: each product updated on its own; 108 lists those that failed (the others stay updated). */
export async function multiUpdateLegacyProducts(ctx: Ctx, args: (LegacyValue | undefined)[]): Promise<true> {
  const [productIds, productData, store, identifierType] = args;
  const refs = Array.isArray(productIds) ? productIds : undefined;
  const data = Array.isArray(productData) ? productData : undefined;
  if (!refs || !data || refs.length !== data.length) throw productFault('multi_update_not_match');
  if (refs.length > MULTI_UPDATE_MAX) throw productFault('data_invalid', `At most ${MULTI_UPDATE_MAX} products per call.`);
  const failed: string[] = [];
  for (const [i, ref] of refs.entries()) {
    try {
      await updateLegacyProduct(ctx, ref, data[i], store, identifierType);
    } catch (err) {
      if (!(err instanceof SoapFault)) throw err;
      failed.push(`Product ID ${refText(ref) ?? ''}:\n ${err.message}`);
    }
  }
  if (failed.length) throw productFault('partially_updated', failed.join('\n'));
  return true;
}

/** catalog_product.setSpecialPrice: an update of the three values given (a null one is left as it is). */
export async function setLegacySpecialPrice(ctx: Ctx, args: (LegacyValue | undefined)[]): Promise<true> {
  const [product, price, from, to, store, identifierType] = args;
  const data = new Map<string, LegacyValue>();
  for (const [k, v] of [
    ['special_price', price],
    ['special_from_date', from],
    ['special_to_date', to],
  ] as const) {
    if (v !== undefined && v !== null) data.set(k, v);
  }
  return updateLegacyProduct(ctx, product, data, store, identifierType);
}

/** catalog_product.delete. */
export async function deleteLegacyProduct(ctx: Ctx, ref: LegacyValue | undefined, identifierType: LegacyValue | undefined): Promise<true> {
  const key = await findProduct(ctx, ref, identifierType);
  try {
    await deleteProduct(ctx, key.id);
  } catch (err) {
    productServiceFault(err, 'not_deleted');
  }
  return true;
}
