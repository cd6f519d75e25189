/**
 * `cart` of the Magento 1 API (Mage_Checkout's shopping cart API): create a cart in a store view, read it (info)
 * and its totals, the terms to agree to (license), and place its order (order), over the carts and checkout
 * services the REST operations use. The API user acts as the back office: a cart is named by its id, in any store
 * view the user may work in; a store view argument (id or code) limits the lookup to its website.
 */
import { createCustomerCart } from '../../carts/service.js';
import { shown } from '../../carts/load.js';
import { placeCartOrder } from '../../checkout/legacy.js';
import { defineResource, resourceFault, serviceFault } from '../resources.js';
import { infoRecord, totalsList } from './cart-info.js';
import { QUOTE_FAULTS, quoteArg, storeArg } from './cart-shared.js';

export const cart = defineResource({
  name: 'cart',
  title: 'Shopping Cart',
  faults: {
    ...QUOTE_FAULTS,
    quote_create_fault: ['1003', 'Can not create a quote. '],
    quote_already_exists: ['1004', 'Can not create a quote because quote with such identifier is already exists'],
    required_agreements_are_not_all: ['1005', 'You did not set all required agreements'],
    invalid_checkout_type: ['1006', 'The checkout type is not valid. Select single checkout type.'],
    guest_checkout_is_not_enabled: ['1007', 'Checkout is not available for guest'],
    create_order_fault: ['1008', 'Can not create an order. '],
  },
  methods: {
    create: {
      title: 'Create shopping cart',
      permission: ['carts', 'create'],
      params: ['store'],
      run: async (ctx, [store]) => {
        const s = storeArg(ctx, cart, store);
        try {
          return (await createCustomerCart(ctx, { storeId: s?.id ?? ctx.store.storeId })).id;
        } catch (err) {
          // a store view that takes no carts (or that the user may not work in) is no store for a cart
          serviceFault(cart, err, { missing: 'store_not_exists', forbidden: 'store_not_exists', invalid: 'quote_create_fault' });
        }
      },
    },
    order: {
      title: 'Create an order from shopping cart',
      // placing an order is what POST /carts/{id}/place-order allows
      permission: ['orders', 'create'],
      params: ['quoteId', 'store', 'agreements'],
      run: async (ctx, [quoteId, store]) => {
        // the platform has no terms and conditions to agree to: no agreement is ever missing
        const { cart: row } = await quoteArg(ctx, cart, quoteId, store);
        if (!row.isActive) throw resourceFault(cart, 'create_order_fault', 'This cart has been ordered already.');
        try {
          return await placeCartOrder(ctx, row.id);
        } catch (err) {
          serviceFault(cart, err, {
            missing: 'quote_not_exists',
            invalid: 'create_order_fault',
            forbidden: 'create_order_fault',
            reasons: { GUEST_CHECKOUT_DISABLED: 'guest_checkout_is_not_enabled' },
          });
        }
      },
    },
    info: {
      title: 'Retrieve information about shopping cart',
      permission: ['carts', 'read'],
      params: ['quoteId', 'store'],
      run: async (ctx, [quoteId, store]) => {
        const { ctx: cctx, priced } = await shown(ctx, await quoteArg(ctx, cart, quoteId, store));
        return infoRecord(cctx, priced);
      },
    },
    totals: {
      title: 'Get total prices for shopping cart',
      permission: ['carts', 'read'],
      params: ['quoteId', 'store'],
      run: async (ctx, [quoteId, store]) => totalsList((await shown(ctx, await quoteArg(ctx, cart, quoteId, store))).priced),
    },
    license: {
      title: 'Get terms and conditions',
      permission: ['carts', 'read'],
      params: ['quoteId', 'store'],
      run: async (ctx, [quoteId, store]) => {
        await quoteArg(ctx, cart, quoteId, store);
        // Magento lists its checkout agreements here; the platform has none (checkout/options/enable_agreements off)
        return [];
      },
    },
  },
});
