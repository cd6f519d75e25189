/**
 * `cart_product` of the Magento 1 API: products added to a cart, their quantities changed, removed, listed, and
 * moved to the customer's own cart. Products are named by `product_id` or `sku` with the choices their type needs
 * (qty, options, super_attribute, bundle_option, bundle_option_qty, links, super_group). Every request of a call is
 * checked first and its refusals reported together, as Magento does; then the change is one transaction (all or
 * nothing) with the REST operations' stock and size checks, in a fixed number of statements.
 */
import { inArray } from 'drizzle-orm';
import type { Ctx } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { legacyProductList } from '../../catalog/products/legacy-read.js';
import {
  addLines,
  lineOf,
  type LegacyLineRequest,
  moveLines,
  otherCustomerCart,
  removeLines,
  resolveRequests,
  setLineQtys,
} from '../../carts/legacy.js';
import type { Loaded } from '../../carts/load.js';
import { cartContext, type CartItemRow } from '../../carts/pricing.js';
import { defineResource, resourceFault, type LegacyValue } from '../resources.js';
import { entriesOf, productEntry, productRequests, QUOTE_FAULTS, quoteArg, type ProductEntry } from './cart-shared.js';

const NOT_IN_CART = 'One item of products is not belong any of quote item';

/** The product entries of a call; invalid_product_data when there are none. */
function entries(v: LegacyValue | undefined): ProductEntry[] {
  const list = entriesOf(v);
  if (!list?.length) throw resourceFault(cartProduct, 'invalid_product_data');
  return list.map((e) => productEntry(e) ?? { ref: undefined, entry: new Map() });
}

/** A refusal of the carts service as the fault `name` with the service's message; anything else as it is. */
function refused(err: unknown, name: string): never {
  if (err instanceof AppError && err.status < 500) throw resourceFault(cartProduct, name, err.message);
  throw err;
}

/** The cart's lines the entries name (by product and choices), with each entry's own qty; the refusals otherwise. */
async function linesNamed(
  ctx: Ctx,
  { cart, items, version }: Loaded,
  list: ProductEntry[],
): Promise<{ found: { item: CartItemRow; qty: LegacyValue | undefined }[]; errors: string[] }> {
  const cctx = cartContext(ctx, cart);
  const requests = await productRequests(cctx, list, false);
  const ok = requests.filter((r): r is LegacyLineRequest => !('error' in r));
  const resolved = await resolveRequests(cctx, ok, version);
  const found: { item: CartItemRow; qty: LegacyValue | undefined }[] = [];
  const errors: string[] = [];
  requests.forEach((r, i) => {
    if ('error' in r) return errors.push(r.error);
    const item = lineOf(items, r, resolved[ok.indexOf(r)]);
    if (!item) return errors.push(NOT_IN_CART);
    found.push({ item, qty: list[i].entry.get('qty') });
  });
  return { found, errors };
}

/** A qty Magento takes: a number above zero (as text or as a number); anything else leaves the line's qty alone. */
function qtyOf(v: LegacyValue | undefined): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : undefined;
  return n !== undefined && n > 0 ? n : undefined;
}

export const cartProduct = defineResource({
  name: 'cart_product',
  title: 'Cart Product API',
  faults: {
    ...QUOTE_FAULTS,
    invalid_product_data: ['1021', "Product's data is not valid."],
    add_product_fault: ['1022', 'Product(s) could not be added. '],
    add_product_quote_save_fault: ['1023', 'Quote could not be saved during adding product(s) operation.'],
    update_product_fault: ['1024', 'Product(s) could not be updated. '],
    update_product_quote_save_fault: ['1025', 'Quote could not be saved during updating product(s) operation.'],
    remove_product_fault: ['1026', 'Product(s) could not be removed. '],
    remove_product_quote_save_fault: ['1027', 'Quote could not be saved during removing product(s) operation.'],
    customer_not_set_for_quote: ['1028', 'Customer is not set for quote.'],
    customer_quote_not_exist: ['1029', "Customer's quote is not existed."],
    quotes_are_similar: ['1030', 'Quotes are identical.'],
    unable_to_move_all_products: ['1031', 'Product(s) could not be moved. '],
    product_move_quote_save_fault: ['1032', 'One of quote could not be saved during moving product(s) operation.'],
  },
  methods: {
    add: {
      title: 'Add product to shopping cart',
      permission: ['carts', 'write'],
      params: ['quoteId', 'productsData', 'store'],
      run: async (ctx, [quoteId, productsData, store]) => {
        const loaded = await quoteArg(ctx, cartProduct, quoteId, store);
        const list = entries(productsData);
        const cctx = cartContext(ctx, loaded.cart);
        const requests = await productRequests(cctx, list, true);
        const ok = requests.filter((r): r is LegacyLineRequest => !('error' in r));
        const resolved = await resolveRequests(cctx, ok, loaded.version);
        const errors = [...requests, ...resolved].flatMap((r) => ('error' in r ? [r.error] : []));
        if (errors.length) throw resourceFault(cartProduct, 'add_product_fault', errors.join('\n'));
        try {
          await addLines(
            ctx,
            loaded.cart.id,
            resolved.flatMap((r) => ('lines' in r ? r.lines : [])),
          );
        } catch (err) {
          refused(err, 'add_product_fault');
        }
        return true;
      },
    },
    update: {
      title: 'Update product quantities in shopping cart',
      permission: ['carts', 'write'],
      params: ['quoteId', 'productsData', 'store'],
      run: async (ctx, [quoteId, productsData, store]) => {
        const loaded = await quoteArg(ctx, cartProduct, quoteId, store);
        const { found, errors } = await linesNamed(ctx, loaded, entries(productsData));
        if (errors.length) throw resourceFault(cartProduct, 'update_product_fault', errors.join('\n'));
        const qtys = new Map<number, number>();
        for (const f of found) {
          const qty = qtyOf(f.qty);
          if (qty !== undefined) qtys.set(f.item.id, qty);
        }
        try {
          await setLineQtys(ctx, loaded.cart.id, qtys);
        } catch (err) {
          refused(err, 'update_product_fault');
        }
        return true;
      },
    },
    remove: {
      title: 'Remove product from shopping cart',
      permission: ['carts', 'write'],
      params: ['quoteId', 'productsData', 'store'],
      run: async (ctx, [quoteId, productsData, store]) => {
        const loaded = await quoteArg(ctx, cartProduct, quoteId, store);
        const { found, errors } = await linesNamed(ctx, loaded, entries(productsData));
        if (errors.length) throw resourceFault(cartProduct, 'remove_product_fault', errors.join('\n'));
        try {
          await removeLines(
            ctx,
            loaded.cart.id,
            found.map((f) => f.item.id),
          );
        } catch (err) {
          refused(err, 'remove_product_fault');
        }
        return true;
      },
    },
    list: {
      title: 'Get list of products in shopping cart',
      permission: ['carts', 'read'],
      params: ['quoteId', 'store'],
      run: async (ctx, [quoteId, store]) => {
        const { cart, items } = await quoteArg(ctx, cartProduct, quoteId, store);
        if (!items.length) return [];
        // one entry per line, the product it was added as; a configurable's line shows the chosen child's SKU
        const ids = [...new Set(items.flatMap((i) => (i.childProductId ? [i.productId, i.childProductId] : [i.productId])))];
        const rows = await legacyProductList(ctx, { storeKey: String(cart.storeId), where: (c) => inArray(c.table.id, ids) });
        const byId = new Map(rows.map((r) => [r.id, r]));
        return items.flatMap((i) => {
          const p = byId.get(i.productId);
          if (!p) return [];
          return [
            new Map<string, LegacyValue>([
              ['product_id', p.id],
              ['sku', (i.childProductId && byId.get(i.childProductId)?.sku) || p.sku],
              ['name', p.name],
              ['set', p.attributeSetId],
              ['type', p.type],
              ['category_ids', p.categoryIds],
              ['website_ids', p.websiteIds],
            ]),
          ];
        });
      },
    },
    moveToCustomerQuote: {
      title: 'Move product(s) to customer quote',
      permission: ['carts', 'write'],
      params: ['quoteId', 'productsData', 'store'],
      run: async (ctx, [quoteId, productsData, store]) => {
        const loaded = await quoteArg(ctx, cartProduct, quoteId, store);
        const { cart } = loaded;
        if (cart.customerId === null) throw resourceFault(cartProduct, 'customer_not_set_for_quote');
        // the customer's own cart: their newest other active cart in the store view (the one their storefront shows);
        // API carts are active carts here, so the cart itself is never taken for it (quotes_are_similar cannot arise)
        const target = await otherCustomerCart(ctx, cart.customerId, cart.storeId, cart.id);
        if (target === undefined) throw resourceFault(cartProduct, 'customer_quote_not_exist');
        const { found, errors } = await linesNamed(ctx, loaded, entries(productsData));
        if (errors.length) throw resourceFault(cartProduct, 'unable_to_move_all_products', errors.join('\n'));
        try {
          await moveLines(
            ctx,
            cart.id,
            target,
            found.map((f) => f.item.id),
          );
        } catch (err) {
          refused(err, 'product_move_quote_save_fault');
        }
        return true;
      },
    },
  },
});
