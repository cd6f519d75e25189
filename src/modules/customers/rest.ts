import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { collectionResponse, sendCollection } from '../../platform/pagination.js';
import { addressRoutes } from './addresses-rest.js';
import { CreateFromOrder, createCustomerFromOrder } from './from-order.js';
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

export function routes(app: RestApp): void {
  app.post(
    '/customers',
    {
      schema: {
        operationId: 'customers.register',
        tags,
        summary: 'Register a customer (admin/API callers may also set groupId, isActive, websiteId, taxvat, disableAutoGroupChange)',
        body: CustomerCreate,
        response: { 201: Customer },
      },
      config: { access: access.public },
    },
    async (req, reply) => reply.code(201).send(await customers.createCustomer(req.ctx, req.body)),
  );
  app.post(
    '/customers/create-from-order',
    {
      schema: {
        operationId: 'customers.createFromOrder',
        tags,
        summary:
          'Create an account from a guest order with the accountToken of its guest lookup: the order email and names, the billing address as default address, and the order itself',
        body: CreateFromOrder,
        response: { 201: Customer },
      },
      config: { access: access.public },
    },
    async (req, reply) => reply.code(201).send(await createCustomerFromOrder(req.ctx, req.body)),
  );
  app.get(
    '/customers',
    {
      schema: {
        operationId: 'customers.list',
        tags,
        summary: 'List customers by id (15 per page); filters email, search, firstname, lastname, telephone',
        querystring: CustomerListQuery,
        response: { 200: collectionResponse(Customer) },
      },
      config: { access: access.admin('customers', 'read') },
    },
    async (req, reply) => {
      const { result, page } = await customers.listCustomers(req.ctx, req.query);
      return sendCollection(req, reply, 'Customer', result, page);
    },
  );
  app.get(
    '/customers/me',
    {
      schema: { operationId: 'customers.me', tags, summary: 'The signed-in customer', response: { 200: Customer } },
      config: { access: access.customer },
    },
    async (req) => customers.getMe(req.ctx),
  );
  app.put(
    '/customers/me',
    {
      schema: {
        operationId: 'customers.updateMe',
        tags,
        summary: 'Update the signed-in customer (name parts, email, gender, dob); other keys are ignored',
        body: CustomerUpdate,
        response: { 200: Customer },
      },
      config: { access: access.customer },
    },
    async (req) => customers.updateMe(req.ctx, req.body),
  );
  app.post(
    '/customers/me/password',
    {
      schema: {
        operationId: 'customers.changePassword',
        tags,
        summary: 'Change the signed-in customer password',
        body: PasswordChange,
        response: { 201: SuccessReply },
      },
      config: { access: access.customer },
    },
    async (req, reply) => reply.code(201).send(await passwords.changePassword(req.ctx, req.body)),
  );
  app.post(
    '/customers/forgot-password',
    {
      schema: {
        operationId: 'customers.forgotPassword',
        tags,
        summary: 'Mail a password reset link (the reply is the same whether or not the account exists)',
        body: ForgotPassword,
        response: { 201: ForgotPasswordReply },
      },
      config: { access: access.public },
    },
    async (req, reply) => reply.code(201).send(await passwords.forgotPassword(req.ctx, req.body)),
  );
  app.post(
    '/customers/reset-password',
    {
      schema: {
        operationId: 'customers.resetPassword',
        tags,
        summary: 'Set a new password with the token of a reset link',
        body: ResetPassword,
        response: { 201: SuccessReply },
      },
      config: { access: access.public },
    },
    async (req, reply) => reply.code(201).send(await passwords.resetPassword(req.ctx, req.body)),
  );
  app.get(
    '/customers/:id',
    {
      schema: {
        operationId: 'customers.get',
        tags,
        summary: 'A customer (a customer token may read only its own: another id is 403)',
        params: IdParams,
        response: { 200: Customer },
      },
      config: { access: access.customerOrAdmin('customers', 'read') },
    },
    async (req) => customers.getCustomer(req.ctx, req.params.id),
  );
  app.put(
    '/customers/:id',
    {
      schema: {
        operationId: 'customers.update',
        tags,
        summary: 'Update a customer (partial); isActive false makes every token of the customer fail',
        params: IdParams,
        body: CustomerUpdate,
        response: { 200: Customer },
      },
      config: { access: access.admin('customers', 'write') },
    },
    async (req) => customers.updateCustomer(req.ctx, req.params.id, req.body),
  );
  addressRoutes(app);
}
