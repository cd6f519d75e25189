/** Address books: the signed-in customer's (under two URL families) and, for admins, any customer's. */
import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import { op, type GraphqlOp, type Operation } from '../../platform/operations.js';
import * as addresses from './addresses.js';
import { iriId, personNames } from './gql-input.js';
import { Address, AddressInput, CustomerAddressParams, CustomerIdParams, IdParams } from './schemas.js';
import { assertCustomerInScope, selfId } from './service.js';

const tags = ['addresses'];
const shortName = 'Address';
const INT_MAX = 2147483647;

/** Maho's createAddress/updateAddress arguments: the REST fields plus firstName/lastName. */
const names = {
  firstName: Type.Optional(Type.String({ maxLength: 255 })),
  lastName: Type.Optional(Type.String({ maxLength: 255 })),
};
const WriteArgs = Type.Object({ ...names, ...AddressInput.properties });
const UpdateArgs = Type.Object({ id: Type.String({ description: 'the IRI or id of the address' }), ...names, ...AddressInput.properties });
const ForArgs = Type.Object({ customerId: Type.Integer({ minimum: 1, maximum: INT_MAX }), ...names, ...AddressInput.properties });
const ForUpdateArgs = Type.Object({
  customerId: Type.Integer({ minimum: 1, maximum: INT_MAX }),
  id: Type.Integer({ minimum: 1, maximum: INT_MAX, description: 'the address id' }),
  ...names,
  ...AddressInput.properties,
});

const addressId = (v: unknown) => iriId(v, '/addresses', 'Address');

/**
 * The own-address operations of one URL family. `/addresses` carries the GraphQL fields (Maho's `addresses`,
 * `address`, `createAddress`, `updateAddress`, `deleteAddress`); `/customers/me/addresses` is the same operation
 * under another URL, so its GraphQL field is the same one (`via`), except its list, which is Maho's `myAddresses`.
 */
function ownAddressOperations(base: string, opId: string, primary: boolean): Operation[] {
  const common = { tags, shortName, access: access.customer };
  const gq = (name: string, g: GraphqlOp = {}): GraphqlOp => (primary ? g : { via: name });
  return [
    op({
      ...common,
      id: `${opId}.list`,
      method: 'GET',
      path: base,
      summary: 'Own addresses (unpaginated)',
      kind: 'collection',
      response: Address,
      graphql: primary ? {} : { name: 'myAddresses' },
      run: async (ctx) => {
        const items = await addresses.listAddresses(ctx, selfId(ctx));
        return { items, total: items.length };
      },
    }),
    op({
      ...common,
      id: `${opId}.create`,
      method: 'POST',
      path: base,
      summary: 'Add an address (firstname, lastname, street, city, postcode, countryId, telephone required)',
      body: AddressInput,
      response: Address,
      status: 201,
      graphql: gq('createAddress', { args: WriteArgs, input: (a) => ({ body: personNames(a) }) }),
      run: (ctx, { body }) => addresses.createAddress(ctx, selfId(ctx), body),
    }),
    op({
      ...common,
      id: `${opId}.get`,
      method: 'GET',
      path: `${base}/:id`,
      summary: 'One own address',
      params: IdParams,
      response: Address,
      graphql: gq('address'),
      run: (ctx, { params }) => addresses.getAddress(ctx, selfId(ctx), params.id),
    }),
    op({
      ...common,
      id: `${opId}.update`,
      method: 'PUT',
      path: `${base}/:id`,
      summary: 'Update an own address (partial)',
      params: IdParams,
      body: AddressInput,
      response: Address,
      graphql: gq('updateAddress', {
        args: UpdateArgs,
        input: ({ id, ...a }) => ({ params: { id: addressId(id) }, body: personNames(a) }),
      }),
      run: (ctx, { params, body }) => addresses.updateAddress(ctx, selfId(ctx), params.id, body),
    }),
    op({
      ...common,
      id: `${opId}.delete`,
      method: 'DELETE',
      path: `${base}/:id`,
      summary: 'Delete an own address',
      params: IdParams,
      status: 204,
      graphql: gq('deleteAddress'),
      run: (ctx, { params }) => addresses.deleteAddress(ctx, selfId(ctx), params.id),
    }),
  ];
}

export const addressOperations: Operation[] = [
  ...ownAddressOperations('/customers/me/addresses', 'customers.addresses', false),
  ...ownAddressOperations('/addresses', 'addresses', true),
  op({
    id: 'customers.addresses.listFor',
    method: 'GET',
    path: '/customers/:customerId/addresses',
    tags,
    summary: "A customer's addresses (unpaginated)",
    access: access.admin('addresses', 'read'),
    shortName,
    params: CustomerIdParams,
    kind: 'collection',
    response: Address,
    graphql: { name: 'customerAddresses' },
    run: async (ctx, { params }) => {
      await assertCustomerInScope(ctx, params.customerId);
      const items = await addresses.listAddresses(ctx, params.customerId);
      return { items, total: items.length };
    },
  }),
  op({
    id: 'customers.addresses.createFor',
    method: 'POST',
    path: '/customers/:customerId/addresses',
    tags,
    summary: 'Add an address to a customer',
    access: access.admin('addresses', 'create'),
    shortName,
    params: CustomerIdParams,
    body: AddressInput,
    response: Address,
    status: 201,
    graphql: {
      name: 'createCustomerAddress',
      args: ForArgs,
      input: ({ customerId, ...a }) => ({ params: { customerId }, body: personNames(a) }),
    },
    run: async (ctx, { params, body }) => {
      await assertCustomerInScope(ctx, params.customerId);
      return addresses.createAddress(ctx, params.customerId, body);
    },
  }),
  op({
    id: 'customers.addresses.updateFor',
    method: 'PUT',
    path: '/customers/:customerId/addresses/:id',
    tags,
    summary: "Update a customer's address (partial; isDefaultBilling/isDefaultShipping make it a default)",
    access: access.admin('addresses', 'write'),
    shortName,
    params: CustomerAddressParams,
    body: AddressInput,
    response: Address,
    graphql: {
      name: 'updateCustomerAddress',
      args: ForUpdateArgs,
      input: ({ customerId, id, ...a }) => ({ params: { customerId, id }, body: personNames(a) }),
    },
    run: async (ctx, { params, body }) => {
      await assertCustomerInScope(ctx, params.customerId);
      return addresses.updateAddress(ctx, params.customerId, params.id, body);
    },
  }),
  op({
    id: 'customers.addresses.deleteFor',
    method: 'DELETE',
    path: '/customers/:customerId/addresses/:id',
    tags,
    summary: "Delete a customer's address (a default address stops being the default)",
    access: access.admin('addresses', 'delete'),
    shortName,
    params: CustomerAddressParams,
    status: 204,
    graphql: { name: 'deleteCustomerAddress' },
    run: async (ctx, { params }) => {
      await assertCustomerInScope(ctx, params.customerId);
      await addresses.deleteAddress(ctx, params.customerId, params.id);
    },
  }),
];
