/**
 * The back office's quick creation of an account from an email and a name (Maho's GraphQL
 * `quickCreateCustomer`): a random password, which the customer replaces through a reset link.
 */
import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import { randomToken } from '../../platform/auth/secrets.js';
import { op } from '../../platform/operations.js';
import { Customer } from './schemas.js';
import { createCustomer } from './service.js';

const QuickCreate = Type.Object(
  {
    email: Type.String({ maxLength: 255 }),
    firstname: Type.String({ maxLength: 255 }),
    lastname: Type.String({ maxLength: 255 }),
    telephone: Type.Optional(
      Type.Union([Type.String({ maxLength: 255 }), Type.Null()], {
        description: "accepted for Maho's clients; not stored (an address needs a street, a city and a postcode)",
      }),
    ),
  },
  { additionalProperties: false },
);

export const quickCreateCustomer = op({
  id: 'customers.quickCreate',
  method: 'POST',
  path: '/customers/quick-create',
  tags: ['customers'],
  summary: 'Create an account from an email and a name, with a random password the customer replaces through a reset link',
  access: access.admin('customers', 'create'),
  shortName: 'Customer',
  body: QuickCreate,
  response: Customer,
  status: 201,
  graphql: { name: 'quickCreateCustomer' },
  run: (ctx, { body }) =>
    createCustomer(ctx, { email: body.email, firstname: body.firstname, lastname: body.lastname, password: randomToken(16) }),
});
