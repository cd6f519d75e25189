/**
 * The Magento 1 API's cart.order: the order of a cart named by its id, placed with what the cart holds (its
 * customer or guest email, addresses, shipping and payment method and data), by the placement the REST
 * operations use, so the same totals, stock, coupon and gift card rules hold, all or nothing. As Magento's
 * cart.order does for a customer's cart, the addresses typed in for the order (not taken from the customer's
 * address book) are added to the book in the same transaction, the first ones becoming the defaults.
 */
import { withTx, type Ctx } from '../../platform/context.js';
import { lockCartForOrder } from '../carts/checkout.js';
import type { CartRef } from '../carts/load.js';
import type { CartRow } from '../carts/pricing.js';
import { addressBookInput, createAddress } from '../customers/addresses.js';
import { placeOrder } from './service.js';

type CartAddress = NonNullable<CartRow['billingAddress']>;

const sameAddress = (a: CartAddress, b: CartAddress) =>
  JSON.stringify({ ...a, email: null, customerAddressId: null }) === JSON.stringify({ ...b, email: null, customerAddressId: null });

async function addToAddressBook(ctx: Ctx, customerId: number, a: CartAddress): Promise<void> {
  await createAddress(ctx, customerId, addressBookInput(a));
}

/** Places the order of cart `cartId` (the caller needs orders/create, as for POST /carts/{id}/place-order); its increment id. */
export async function placeCartOrder(ctx: Ctx, cartId: number): Promise<string> {
  const ref: CartRef = { kind: 'customer', id: cartId };
  return withTx(ctx, async (tx) => {
    const { cart } = await lockCartForOrder(tx, ref);
    const order = await placeOrder(tx, ref, {});
    if (cart.customerId !== null) {
      const billing = cart.billingAddress ?? cart.shippingAddress;
      const shipping = order.isVirtual ? null : cart.shippingAddress;
      if (billing && !billing.customerAddressId) await addToAddressBook(tx, cart.customerId, billing);
      if (shipping && !shipping.customerAddressId && !(billing && sameAddress(billing, shipping)))
        await addToAddressBook(tx, cart.customerId, shipping);
    }
    return order.incrementId;
  });
}
