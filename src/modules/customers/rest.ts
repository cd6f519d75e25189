/** Customers: registration, the signed-in customer's profile and passwords, and the admin reads and updates. */
import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import { forbidden } from '../../platform/errors.js';
import { op, type Operation } from '../../platform/operations.js';
import { addressOperations } from './addresses-rest.js';
import { dropNulls, iriId, personNames } from './gql-input.js';
import { groupOperations } from './groups-rest.js';
import { listCustomers } from './list.js';
import * as passwords from './passwords.js';
import {
  Customer,
  CustomerCreate,
  CustomerListQuery,
  CustomerUpdate,
  ForgotPassword,
  ForgotPasswordReply,
  IdParams,
  PasswordChange,
  ResetPassword,
  SuccessReply,
} from './schemas.js';
import * as customers from './service.js';

const tags = ['customers'];
const shortName = 'Customer';
/** what the password operations answer (not a customer): their own GraphQL type */
const passwordReply = 'CustomerPassword';

/** updateCustomer's arguments: the profile fields, Maho's firstName/lastName, and `id` for an admin updating another customer. */
const UpdateArgs = Type.Object({
  id: Type.Optional(Type.String({ description: "an admin's target: the customer's IRI or id; without it, the signed-in customer" })),
  firstName: Type.Optional(Type.String({ maxLength: 255 })),
  lastName: Type.Optional(Type.String({ maxLength: 255 })),
  ...CustomerUpdate.properties,
});

const updateBody = (a: Record<string, any>) => {
  const { id: _id, ...rest } = personNames(a);
  return dropNulls(rest);
};

const updateById: Operation = op({
  id: 'customers.update',
  method: 'PUT',
  path: '/customers/:id',
  tags,
  summary: 'Update a customer (partial); isActive false makes every token of the customer fail',
  access: access.admin('customers', 'write'),
  shortName,
  params: IdParams,
  body: CustomerUpdate,
  response: Customer,
  // served by updateCustomer when an `id` is given
  graphql: { via: 'updateCustomer', input: (a) => ({ params: { id: iriId(a.id, '/customers', 'Customer') }, body: updateBody(a) }) },
  run: (ctx, { params, body }) => customers.updateCustomer(ctx, params.id, body),
});

const deleteById: Operation = op({
  id: 'customers.delete',
  method: 'DELETE',
  path: '/customers/:id',
  tags,
  summary:
    "Delete a customer account and its address book (orders, reviews and newsletter subscriptions stay); the customer's tokens stop working",
  access: access.admin('customers', 'delete'),
  shortName,
  params: IdParams,
  status: 204,
  run: (ctx, { params }) => customers.deleteCustomer(ctx, params.id),
});

export const operations: Operation[] = [
  op({
    id: 'customers.register',
    method: 'POST',
    path: '/customers',
    tags,
    summary: 'Register a customer (admin/API callers may also set groupId, isActive, websiteId, taxvat, disableAutoGroupChange)',
    access: access.public,
    shortName,
    body: CustomerCreate,
    response: Customer,
    status: 201,
    graphql: {
      input: (a) => ({ body: dropNulls(personNames(a)) }),
      args: Type.Object({
        firstName: Type.Optional(Type.String({ maxLength: 255 })),
        lastName: Type.Optional(Type.String({ maxLength: 255 })),
        ...CustomerCreate.properties,
      }),
    },
    run: (ctx, { body }) => customers.createCustomer(ctx, body),
  }),
  op({
    id: 'customers.list',
    method: 'GET',
    path: '/customers',
    tags,
    summary:
      'List customers (15 per page), by id unless sortBy; filters email, search, firstname, lastname, telephone, groupId, websiteId, isActive, createdFrom, createdTo, updatedSince',
    access: access.admin('customers', 'read'),
    shortName,
    query: CustomerListQuery,
    kind: 'collection',
    page: { defaultSize: 15, maxSize: 100 },
    response: Customer,
    run: async (ctx, { query, page }) => (await listCustomers(ctx, query, page)).result,
  }),
  op({
    id: 'customers.me',
    method: 'GET',
    path: '/customers/me',
    tags,
    summary: 'The signed-in customer',
    access: access.customer,
    shortName,
    response: Customer,
    graphql: { name: 'currentCustomer' },
    run: (ctx) => customers.getMe(ctx),
  }),
  op({
    id: 'customers.updateMe',
    method: 'PUT',
    path: '/customers/me',
    tags,
    summary: 'Update the signed-in customer (name parts, email, gender, dob); other keys are ignored',
    access: access.customer,
    shortName,
    body: CustomerUpdate,
    response: Customer,
    graphql: {
      name: 'updateCustomer',
      args: UpdateArgs,
      input: (a) => ({ body: updateBody(a) }),
      // an admin names the customer; a customer updates itself
      select: (a) => (a.id !== undefined && a.id !== null ? updateById : undefined),
    },
    run: (ctx, { body }) => customers.updateMe(ctx, body),
  }),
  op({
    id: 'customers.changePassword',
    method: 'POST',
    path: '/customers/me/password',
    tags,
    summary: 'Change the signed-in customer password',
    access: access.customer,
    shortName: passwordReply,
    body: PasswordChange,
    response: SuccessReply,
    status: 201,
    graphql: { name: 'changePasswordCustomer' },
    run: (ctx, { body }) => passwords.changePassword(ctx, body),
  }),
  op({
    id: 'customers.forgotPassword',
    method: 'POST',
    path: '/customers/forgot-password',
    tags,
    summary: 'Mail a password reset link (the reply is the same whether or not the account exists)',
    access: access.public,
    shortName: passwordReply,
    body: ForgotPassword,
    response: ForgotPasswordReply,
    status: 201,
    graphql: { name: 'forgotPasswordCustomer' },
    run: (ctx, { body }) => passwords.forgotPassword(ctx, body),
  }),
  op({
    id: 'customers.resetPassword',
    method: 'POST',
    path: '/customers/reset-password',
    tags,
    summary: 'Set a new password with the token of a reset link',
    access: access.public,
    shortName: passwordReply,
    body: ResetPassword,
    response: SuccessReply,
    status: 201,
    graphql: { name: 'resetPasswordCustomer' },
    run: (ctx, { body }) => passwords.resetPassword(ctx, body),
  }),
  op({
    id: 'customers.get',
    method: 'GET',
    path: '/customers/:id',
    tags,
    summary: 'A customer (a customer token may read only its own: another id is 403)',
    access: access.customerOrAdmin('customers', 'read'),
    shortName,
    params: IdParams,
    response: Customer,
    // Maho's customer(id:) is for admins: a customer reads itself with currentCustomer
    graphql: {
      around: (args, next, ctx) => {
        if (ctx.actor.kind === 'customer')
          throw forbidden('Access denied: customer(id) is for admin and API callers; use currentCustomer', { reason: 'ADMIN_REQUIRED' });
        return next(args);
      },
    },
    run: (ctx, { params }) => customers.getCustomer(ctx, params.id),
  }),
  op({
    id: 'customers.sendPasswordReset',
    method: 'POST',
    path: '/customers/:id/password-reset',
    tags,
    summary:
      "Mail a customer a password reset link to the store view of the account (the back office's reset); an inactive account is a 409",
    access: access.admin('customers', 'write'),
    shortName: passwordReply,
    params: IdParams,
    response: SuccessReply,
    status: 201,
    graphql: { name: 'sendPasswordResetCustomer' },
    run: (ctx, { params }) => passwords.sendPasswordReset(ctx, params.id),
  }),
  updateById,
  deleteById,
  ...addressOperations,
  ...groupOperations,
];
