/**
 * `cart_customer` (`cart_customer_address`) of the Magento 1 API: who buys (set: an existing customer by
 * `customer_id`, a guest with an email and names, or a new account in register mode) and the cart's addresses
 * (addresses: billing and shipping entries, typed in or taken from the customer's address book by `address_id`,
 * a billing address `use_for_shipping` also the shipping one). Register mode makes the account at once, in the
 * transaction that gives it the cart; the addresses are checked first and set together.
 */
import { Value } from 'typebox/value';
import type { Ctx } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { isEmailAddress } from '../../../platform/format.js';
import { registerCartCustomer, setAddresses, setGuestCustomer } from '../../carts/legacy.js';
import { addressFrom } from '../../carts/details.js';
import { cartContext, type CartRow } from '../../carts/pricing.js';
import { AddressBody, type AddressBodyT } from '../../carts/schemas.js';
import { assignCustomer } from '../../carts/service.js';
import { findAddress } from '../../customers/addresses.js';
import { minPasswordLength } from '../../customers/fields.js';
import { isRecord } from '../encoding.js';
import { defineResource, idArg, resourceFault, serviceFault, type LegacyValue } from '../resources.js';
import { cartRef, entriesOf, QUOTE_FAULTS, quoteArg } from './cart-shared.js';

type CartAddress = NonNullable<CartRow['billingAddress']>;

type Rec = Map<string, LegacyValue>;
const text = (v: LegacyValue | undefined): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;

/** What Magento's customer validation says of a guest's or a new account's data (empty: nothing). */
function customerErrors(ctx: Ctx, data: Rec, register: boolean): string[] {
  const errors: string[] = [];
  for (const [key, label] of [
    ['firstname', 'first name'],
    ['lastname', 'last name'],
  ] as const) {
    const v = text(data.get(key))?.trim();
    if (!v) errors.push(`The ${label} cannot be empty.`);
    else if (v.length > 255) errors.push(`The ${label} has at most 255 characters.`);
  }
  const email = text(data.get('email'))?.trim() ?? '';
  if (email.length > 254 || !isEmailAddress(email)) errors.push(`Invalid email address "${email}".`);
  if (register) {
    const password = text(data.get('password')) ?? '';
    const confirmation = text(data.get('confirmation') ?? data.get('password_confirmation')) ?? '';
    const min = minPasswordLength(ctx);
    if (!password) errors.push('The password cannot be empty.');
    else if (password.length < min) errors.push(`The minimum password length is ${min}`);
    else if (password.length > 256) errors.push('The password has at most 256 characters.');
    if (password !== confirmation) errors.push('Please make sure your passwords match.');
  }
  return errors;
}

/** Magento's words for the address fields a cart address lacks (the service names them). */
const REQUIRED: Record<string, string> = {
  firstName: 'Please enter the first name.',
  lastName: 'Please enter the last name.',
  street: 'Please enter the street.',
  city: 'Please enter the city.',
  telephone: 'Please enter the telephone number.',
  postcode: 'Please enter the zip/postal code.',
  countryId: 'Please enter the country.',
};

const invalidAddress = (detail?: string) => resourceFault(cartCustomer, 'customer_address_invalid', detail);

/** An address entry's fields in the shape of PUT /carts/{id}/shipping-address, checked by its schema. */
function addressBody(entry: Rec): AddressBodyT {
  const body: Record<string, unknown> = {};
  for (const [key, to] of [
    ['firstname', 'firstname'],
    ['lastname', 'lastname'],
    ['company', 'company'],
    ['city', 'city'],
    ['postcode', 'postcode'],
    ['country_id', 'countryId'],
    ['telephone', 'telephone'],
    ['region', 'region'],
    ['email', 'email'],
  ] as const) {
    const v = entry.get(key);
    if (v !== undefined && v !== null) body[to] = text(v) ?? v;
  }
  const street = entry.get('street');
  if (Array.isArray(street)) body.street = street.map((l) => text(l) ?? l);
  else if (street !== undefined && street !== null) body.street = text(street) ?? street;
  const region = text(entry.get('region_id'))?.trim();
  if (region && region !== '0') body.regionId = /^\d{1,10}$/.test(region) ? Number(region) : region;
  const [first] = [...Value.Errors(AddressBody, body)];
  if (first) throw invalidAddress(`${first.instancePath.split('/').filter(Boolean).join('.') || 'address'} ${first.message}`.trim());
  return body as AddressBodyT;
}

/** One entry of `addresses` as a cart address: from the address book (`address_id`) or typed in, checked. */
async function cartAddressOf(ctx: Ctx, cart: CartRow, entry: Rec): Promise<CartAddress> {
  const bookId = entry.get('address_id') ?? entry.get('entity_id');
  let body: AddressBodyT;
  if (bookId !== undefined && bookId !== null && bookId !== '' && bookId !== 0) {
    const id = idArg(bookId);
    const found = id === undefined ? undefined : await findAddress(ctx, id);
    if (!found) throw resourceFault(cartCustomer, 'invalid_address_id');
    if (found.address.customerId !== cart.customerId) throw resourceFault(cartCustomer, 'address_not_belong_customer');
    body = { customerAddressId: found.address.id };
  } else body = addressBody(entry);
  try {
    const address = await addressFrom(cartContext(ctx, cart), cart, body);
    // as Magento: an address without an email takes the cart's
    return address.email || !cart.customerEmail ? address : { ...address, email: cart.customerEmail };
  } catch (err) {
    if (!(err instanceof AppError) || err.status >= 500) throw err;
    const fields = (err.details?.fields ?? []) as string[];
    if (err.reason === 'INVALID_ADDRESS' && fields.length)
      throw invalidAddress(fields.map((f) => REQUIRED[f] ?? `Please enter ${f}.`).join('\n'));
    if (err.reason === 'REGION_REQUIRED') throw invalidAddress('Please enter the state/province.');
    throw invalidAddress(err.message);
  }
}

const flag = (v: LegacyValue | undefined) => v === 1 || v === '1' || v === true || v === 'true';

export const cartCustomer = defineResource({
  name: 'cart_customer',
  title: 'Customer Information',
  aliases: ['cart_customer_address'],
  faults: {
    ...QUOTE_FAULTS,
    customer_not_set: ['1041', 'Customer is not set. '],
    customer_not_exists: ['1042', "The customer's identifier is not valid or customer is not existed"],
    customer_not_created: ['1043', 'Customer could not be created. '],
    customer_data_invalid: ['1044', 'Customer data is not valid. '],
    customer_mode_is_unknown: ['1045', "Customer's mode is unknown"],
    customer_address_data_empty: ['1051', 'Customer address data is empty.'],
    customer_address_invalid: ['1052', "Customer's address data is not valid."],
    invalid_address_id: ['1053', "The customer's address identifier is not valid"],
    address_is_not_set: ['1054', 'Customer address is not set.'],
    address_not_belong_customer: ['1055', 'Customer address identifier do not belong customer, which set in quote'],
  },
  methods: {
    set: {
      title: 'Set customer for shopping cart',
      permission: ['carts', 'write'],
      params: ['quoteId', 'customerData', 'store'],
      run: async (ctx, [quoteId, customerData, store]) => {
        const { cart } = await quoteArg(ctx, cartCustomer, quoteId, store);
        const data = isRecord(customerData) ? customerData : new Map<string, LegacyValue>();
        const mode = data.get('mode');
        if (mode === 'customer') {
          const id = idArg(data.get('customer_id') ?? data.get('entity_id'));
          if (id === undefined) throw resourceFault(cartCustomer, 'customer_not_exists');
          try {
            await assignCustomer(ctx, cartRef(cart.id), { customerId: id });
          } catch (err) {
            serviceFault(cartCustomer, err, {
              missing: 'customer_not_exists',
              invalid: 'customer_not_set',
              reasons: { CART_NOT_FOUND: 'quote_not_exists' },
            });
          }
          return true;
        }
        if (mode !== 'guest' && mode !== 'register') throw resourceFault(cartCustomer, 'customer_mode_is_unknown');
        const errors = customerErrors(ctx, data, mode === 'register');
        if (errors.length) throw resourceFault(cartCustomer, 'customer_data_invalid', errors.join('\n'));
        const email = text(data.get('email'))!.trim();
        try {
          if (mode === 'guest') await setGuestCustomer(ctx, cart.id, email);
          else {
            const group = idArg(data.get('group_id'));
            await registerCartCustomer(ctx, cart.id, {
              email,
              password: text(data.get('password'))!,
              firstname: text(data.get('firstname'))!.trim(),
              lastname: text(data.get('lastname'))!.trim(),
              ...(group !== undefined ? { groupId: group } : {}),
            });
          }
        } catch (err) {
          serviceFault(cartCustomer, err, {
            missing: 'quote_not_exists',
            invalid: mode === 'guest' ? 'customer_not_set' : 'customer_not_created',
          });
        }
        return true;
      },
    },
    addresses: {
      title: "Set customer's addresses in shopping cart",
      permission: ['carts', 'write'],
      params: ['quoteId', 'customerAddressData', 'store'],
      run: async (ctx, [quoteId, customerAddressData, store]) => {
        const { cart } = await quoteArg(ctx, cartCustomer, quoteId, store);
        const list = entriesOf(customerAddressData) ?? [];
        if (!list.length || !isRecord(list[0])) throw resourceFault(cartCustomer, 'customer_address_data_empty');
        const set: { billing?: CartAddress; shipping?: CartAddress } = {};
        for (const entry of list) {
          if (!isRecord(entry)) throw invalidAddress('Each address is a struct.');
          const mode = entry.get('mode');
          if (mode !== 'billing' && mode !== 'shipping') throw invalidAddress('The mode of an address is billing or shipping.');
          const address = await cartAddressOf(ctx, cart, entry);
          set[mode] = address;
          if (mode === 'billing' && flag(entry.get('use_for_shipping'))) set.shipping = { ...address };
        }
        try {
          await setAddresses(ctx, cart.id, set);
        } catch (err) {
          serviceFault(cartCustomer, err, { missing: 'quote_not_exists', invalid: 'address_is_not_set' });
        }
        return true;
      },
    },
  },
});
