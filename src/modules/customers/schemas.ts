import { DateRangeQuery, UpdatedSinceQuery } from '../../platform/date-range.js';
import { Type, type Static } from 'typebox';
import { PageQuery } from '../../platform/pagination.js';
import { GraphqlType } from '../../platform/graphql-derive.js';

/** Text that may be sent as null or `""` to clear it. */
const OptText = (maxLength = 255) => Type.Optional(Type.Union([Type.String({ maxLength }), Type.Null()]));
const Id = (description?: string) => Type.Integer({ minimum: 1, maximum: 2147483647, description });

// ---- addresses ----

export const Address = Type.Object({
  id: Type.Integer(),
  customerId: Type.Integer(),
  firstname: Type.String(),
  lastname: Type.String(),
  prefix: Type.Optional(Type.String()),
  middlename: Type.Optional(Type.String()),
  suffix: Type.Optional(Type.String()),
  company: Type.Optional(Type.String()),
  street: Type.Array(Type.String()),
  city: Type.String(),
  region: Type.Optional(Type.String()),
  regionId: Type.Optional(Type.Integer()),
  postcode: Type.Optional(Type.String()),
  countryId: Type.String({ description: 'ISO 3166-1 alpha-2' }),
  telephone: Type.String(),
  fax: Type.Optional(Type.String()),
  vatId: Type.Optional(Type.String()),
  isDefaultBilling: Type.Boolean(),
  isDefaultShipping: Type.Boolean(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

/** Create and partial update; on create firstname, lastname, street, city, postcode, countryId, telephone are required. */
export const AddressInput = Type.Object(
  {
    firstname: OptText(),
    lastname: OptText(),
    prefix: OptText(40),
    middlename: OptText(),
    suffix: OptText(40),
    company: OptText(),
    street: Type.Optional(
      Type.Union([
        Type.String({ maxLength: 1024, description: 'lines separated by new lines' }),
        Type.Array(Type.String({ maxLength: 255 }), { maxItems: 4 }),
        Type.Null(),
      ]),
    ),
    city: OptText(),
    region: OptText(),
    regionId: Type.Optional(Type.Union([Id('directory region id'), Type.Null()])),
    postcode: OptText(20),
    countryId: OptText(3),
    telephone: OptText(40),
    fax: OptText(40),
    vatId: OptText(40),
    isDefaultBilling: Type.Optional(Type.Boolean()),
    isDefaultShipping: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

// ---- customers ----

export const Customer = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  firstname: Type.String(),
  lastname: Type.String(),
  prefix: Type.Optional(Type.String()),
  middlename: Type.Optional(Type.String()),
  suffix: Type.Optional(Type.String()),
  gender: Type.Optional(Type.Integer()),
  dob: Type.Optional(Type.String({ description: 'YYYY-MM-DD' })),
  taxvat: Type.Optional(Type.String()),
  fullName: Type.String(),
  isSubscribed: Type.Boolean(),
  groupId: Type.Integer(),
  isActive: Type.Boolean(),
  websiteId: Type.Integer(),
  storeId: Type.Optional(Type.Integer()),
  createdIn: Type.Optional(Type.String()),
  disableAutoGroupChange: Type.Boolean(),
  isConfirmed: Type.Boolean(),
  defaultBillingAddress: Type.Optional(GraphqlType('Address', Address)),
  defaultShippingAddress: Type.Optional(GraphqlType('Address', Address)),
  addresses: Type.Array(Address),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

const profileFields = {
  firstname: OptText(),
  lastname: OptText(),
  prefix: OptText(40),
  middlename: OptText(),
  suffix: OptText(40),
  email: Type.Optional(Type.String({ maxLength: 254 })),
  gender: Type.Optional(
    Type.Union([Type.Integer({ minimum: 0, maximum: 3, description: '1 male, 2 female, 3 not specified; 0 clears' }), Type.Null()]),
  ),
  dob: Type.Optional(Type.Union([Type.String({ maxLength: 32, description: 'YYYY-MM-DD; "" clears' }), Type.Null()])),
};

/** Admin/API-only fields; ignored for customers and anonymous callers. */
const adminFields = {
  groupId: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647 })),
  isActive: Type.Optional(Type.Boolean()),
  websiteId: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647, description: 'set on create only' })),
  taxvat: OptText(50),
  disableAutoGroupChange: Type.Optional(Type.Boolean()),
};

export const CustomerCreate = Type.Object(
  { ...profileFields, ...adminFields, password: Type.Optional(Type.String({ maxLength: 256 })) },
  { additionalProperties: false },
);

export const CustomerUpdate = Type.Object(
  {
    ...profileFields,
    ...adminFields,
    currentPassword: Type.Optional(
      Type.String({
        maxLength: 256,
        description: "write-only: the signed-in customer's password, needed to change the email; not asked of admins",
      }),
    ),
  },
  { additionalProperties: false },
);

/** The columns the customer list sorts by. */
export const CUSTOMER_SORTS = ['id', 'email', 'firstname', 'lastname', 'name', 'group', 'websiteId', 'createdAt', 'updatedAt'] as const;

export const CustomerListQuery = Type.Object({
  ...PageQuery,
  email: Type.Optional(Type.String({ maxLength: 254, description: 'exact email' })),
  search: Type.Optional(Type.String({ maxLength: 255, description: 'name or email contains' })),
  firstname: Type.Optional(Type.String({ maxLength: 255, description: 'first name, case-insensitive' })),
  lastname: Type.Optional(Type.String({ maxLength: 255, description: 'last name, case-insensitive' })),
  telephone: Type.Optional(Type.String({ maxLength: 40, description: 'telephone of one of the addresses' })),
  groupId: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647, description: 'customers of this group' })),
  websiteId: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647, description: 'customers of this website' })),
  isActive: Type.Optional(Type.String({ pattern: '^(true|false|1|0)$', description: 'true/false (or 1/0): active or inactive accounts' })),
  ...DateRangeQuery,
  ...UpdatedSinceQuery,
  sortBy: Type.Optional(
    Type.Enum([...CUSTOMER_SORTS], { description: 'default id; name is last name then first name, group the group code' }),
  ),
  sortDir: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: 'default asc' })),
});

// ---- passwords ----

export const PasswordChange = Type.Object(
  {
    currentPassword: Type.Optional(Type.String({ maxLength: 256 })),
    newPassword: Type.Optional(Type.String({ maxLength: 256 })),
  },
  { additionalProperties: false },
);

export const ForgotPassword = Type.Object({ email: Type.Optional(Type.String({ maxLength: 254 })) }, { additionalProperties: false });
export const ForgotPasswordReply = Type.Object({ email: Type.String() });

export const ResetPassword = Type.Object(
  {
    email: Type.Optional(Type.String({ maxLength: 254 })),
    resetToken: Type.Optional(Type.String({ maxLength: 128 })),
    token: Type.Optional(Type.String({ maxLength: 128, description: 'alias of resetToken' })),
    newPassword: Type.Optional(Type.String({ maxLength: 256 })),
  },
  { additionalProperties: false },
);

export const SuccessReply = Type.Object({ success: Type.Boolean(), message: Type.String() });

// ---- params ----

export const IdParams = Type.Object({ id: Id() });
export const CustomerIdParams = Type.Object({ customerId: Id() });
export const CustomerAddressParams = Type.Object({ customerId: Id(), id: Id('the address id') });

export type AddressDto = Static<typeof Address>;
export type AddressInputBody = Static<typeof AddressInput>;
export type CustomerDto = Static<typeof Customer>;
export type CustomerCreateBody = Static<typeof CustomerCreate>;
export type CustomerUpdateBody = Static<typeof CustomerUpdate>;
export type CustomerListQueryT = Static<typeof CustomerListQuery>;
export type PasswordChangeBody = Static<typeof PasswordChange>;
export type ForgotPasswordBody = Static<typeof ForgotPassword>;
export type ResetPasswordBody = Static<typeof ResetPassword>;
export type SuccessReplyDto = Static<typeof SuccessReply>;
