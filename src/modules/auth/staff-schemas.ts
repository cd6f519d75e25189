/** Wire shapes of staff (back-office) roles and users, their own account, TOTP and password reset. */
import { Type, type Static } from 'typebox';
import { PageQuery } from '../../platform/pagination.js';

const Permissions = Type.Array(Type.String({ maxLength: 64 }), {
  maxItems: 200,
  description: '`all`, `<resource>/all` or `<resource>/<read|write|create|delete>`',
});

export const AdminRole = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  permissions: Type.Array(Type.String()),
  userCount: Type.Integer({ description: 'staff users holding the role' }),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type AdminRoleDto = Static<typeof AdminRole>;

export const AdminRoleIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) });
export const AdminUserIdParams = AdminRoleIdParams;

export const AdminRoleCreate = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 64 }), permissions: Permissions },
  { additionalProperties: false },
);
export type AdminRoleCreate = Static<typeof AdminRoleCreate>;

export const AdminRoleUpdate = Type.Object(
  { name: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })), permissions: Type.Optional(Permissions) },
  { additionalProperties: false },
);
export type AdminRoleUpdate = Static<typeof AdminRoleUpdate>;

export const AdminUser = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  isActive: Type.Boolean(),
  locale: Type.String(),
  roleId: Type.Integer(),
  role: Type.String({ description: 'the role name' }),
  permissions: Type.Array(Type.String(), {
    description: "the role's permissions (`all`: every one), which the back office shows its screens by",
  }),
  allowedStoreIds: Type.Optional(Type.Array(Type.Integer(), { description: 'store views the user is limited to; absent: every one' })),
  twofaEnabled: Type.Boolean({ description: 'a TOTP code is asked at sign-in' }),
  passkeys: Type.Integer({ description: 'passkeys registered (each may serve as the second factor)' }),
  locked: Type.Boolean({ description: 'locked after too many failed sign-ins' }),
  lockedUntil: Type.Optional(Type.String()),
  failedLogins: Type.Integer(),
  lastLoginAt: Type.Optional(Type.String()),
  loginCount: Type.Integer(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type AdminUserDto = Static<typeof AdminUser>;

const Username = Type.String({ minLength: 2, maxLength: 64, pattern: '^[A-Za-z0-9._@-]+$' });
const Email = Type.String({ minLength: 3, maxLength: 254 });
const Password = Type.String({ maxLength: 256, description: 'at least 8 characters, with letters and digits' });
const Name = Type.String({ maxLength: 128 });
const Locale = Type.String({ pattern: '^[a-z]{2,3}_[A-Z]{2}$', maxLength: 10, description: 'e.g. en_US' });
const StoreIds = Type.Array(Type.Integer({ minimum: 0, maximum: 2147483647 }), { minItems: 1, maxItems: 1000 });

export const AdminUserCreate = Type.Object(
  {
    username: Username,
    email: Email,
    password: Password,
    firstName: Type.Optional(Name),
    lastName: Type.Optional(Name),
    isActive: Type.Optional(Type.Boolean()),
    locale: Type.Optional(Locale),
    roleId: Type.Integer({ minimum: 1, maximum: 2147483647 }),
    allowedStoreIds: Type.Optional(Type.Union([StoreIds, Type.Null()])),
  },
  { additionalProperties: false },
);
export type AdminUserCreate = Static<typeof AdminUserCreate>;

export const AdminUserUpdate = Type.Object(
  {
    username: Type.Optional(Username),
    email: Type.Optional(Email),
    password: Type.Optional(Password),
    firstName: Type.Optional(Name),
    lastName: Type.Optional(Name),
    isActive: Type.Optional(Type.Boolean()),
    locale: Type.Optional(Locale),
    roleId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
    allowedStoreIds: Type.Optional(Type.Union([StoreIds, Type.Null()])),
    unlock: Type.Optional(Type.Boolean({ description: 'true clears a lockout and the failed sign-in count' })),
  },
  { additionalProperties: false },
);
export type AdminUserUpdate = Static<typeof AdminUserUpdate>;

export const ADMIN_USER_SORTS = ['username', 'email', 'lastLoginAt', 'createdAt'] as const;

export const AdminUserListQuery = Type.Object(
  {
    ...PageQuery,
    username: Type.Optional(Type.String({ maxLength: 64, description: 'exact user name' })),
    email: Type.Optional(Type.String({ maxLength: 254, description: 'exact email' })),
    search: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'part of the user name, email or name' })),
    roleId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
    isActive: Type.Optional(Type.Boolean()),
    sortBy: Type.Optional(
      Type.Union(
        ADMIN_USER_SORTS.map((k) => Type.Literal(k)),
        { description: 'default username' },
      ),
    ),
    sortDir: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: 'default asc' })),
  },
  { additionalProperties: false },
);
export type AdminUserListQuery = Static<typeof AdminUserListQuery>;

export const MyAccountUpdate = Type.Object(
  {
    email: Type.Optional(Email),
    firstName: Type.Optional(Name),
    lastName: Type.Optional(Name),
    locale: Type.Optional(Locale),
    password: Type.Optional(Password),
    currentPassword: Type.Optional(Type.String({ maxLength: 256, description: 'required to change the password or the email' })),
  },
  { additionalProperties: false },
);
export type MyAccountUpdate = Static<typeof MyAccountUpdate>;

export const TwofaSetup = Type.Object({
  secret: Type.String({ description: 'base32; enter it in an authenticator app, or scan the URI' }),
  uri: Type.String({ description: 'otpauth://totp/...' }),
});

export const TwofaCode = Type.Object(
  { code: Type.String({ minLength: 1, maxLength: 16, description: 'the current 6-digit code' }) },
  { additionalProperties: false },
);
export type TwofaCode = Static<typeof TwofaCode>;

export const TwofaDisable = Type.Object(
  {
    currentPassword: Type.Optional(Type.String({ maxLength: 256 })),
    code: Type.Optional(Type.String({ maxLength: 64, description: 'a current 6-digit code or a recovery code' })),
  },
  { additionalProperties: false },
);
export type TwofaDisable = Static<typeof TwofaDisable>;

export const RecoveryCodes = Type.Object({
  recoveryCodes: Type.Array(Type.String(), { description: 'shown once: each works once in place of a code' }),
});

export const TwofaStatus = Type.Object({ twofaEnabled: Type.Boolean() });

export const PasswordResetRequest = Type.Object(
  { username: Type.Optional(Type.String({ maxLength: 254 })), email: Type.Optional(Type.String({ maxLength: 254 })) },
  { additionalProperties: false },
);
export type PasswordResetRequest = Static<typeof PasswordResetRequest>;

export const PasswordResetConfirm = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 256 }), password: Password },
  { additionalProperties: false },
);
export type PasswordResetConfirm = Static<typeof PasswordResetConfirm>;

export const StaffReply = Type.Object({ success: Type.Boolean(), message: Type.String() });
export type StaffReplyDto = Static<typeof StaffReply>;
