/** Wire shapes of API roles and API users (integrations that sign in with a user name and an API key). */
import { Type, type Static } from 'typebox';
import { PageQuery } from '../../platform/pagination.js';

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });
const Permissions = Type.Array(Type.String({ maxLength: 64 }), {
  maxItems: 200,
  description: '`all`, `<resource>/all` or `<resource>/<read|write|create|delete>`',
});
const RoleName = Type.String({ minLength: 1, maxLength: 64 });

export const ApiRole = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  permissions: Type.Array(Type.String()),
  userCount: Type.Integer({ description: 'API users holding the role' }),
  clientCount: Type.Integer({ description: 'OAuth clients holding the role' }),
  createdAt: Type.String(),
});
export type ApiRoleDto = Static<typeof ApiRole>;

export const ApiRoleIdParams = Type.Object({ id: Id });
export const ApiUserIdParams = ApiRoleIdParams;

export const ApiRoleCreate = Type.Object({ name: RoleName, permissions: Permissions }, { additionalProperties: false });
export type ApiRoleCreate = Static<typeof ApiRoleCreate>;

export const ApiRoleUpdate = Type.Object(
  { name: Type.Optional(RoleName), permissions: Type.Optional(Permissions) },
  { additionalProperties: false },
);
export type ApiRoleUpdate = Static<typeof ApiRoleUpdate>;

export const ApiUser = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  email: Type.Optional(Type.String()),
  roleId: Type.Integer(),
  role: Type.String({ description: 'the role name' }),
  isActive: Type.Boolean(),
  allowedStoreIds: Type.Optional(Type.Array(Type.Integer(), { description: 'store views the user is limited to; absent: every one' })),
  apiKey: Type.Optional(
    Type.String({ description: 'the new API key: only in the answer of a create or a key reset, shown once (only its hash is kept)' }),
  ),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type ApiUserDto = Static<typeof ApiUser>;

const Username = Type.String({ minLength: 2, maxLength: 64, pattern: '^[A-Za-z0-9._@-]+$' });
const Email = Type.Union([Type.String({ minLength: 3, maxLength: 254 }), Type.Null()], { description: 'null removes it' });
const StoreIds = Type.Union([Type.Array(Type.Integer({ minimum: 0, maximum: 2147483647 }), { minItems: 1, maxItems: 1000 }), Type.Null()], {
  description: 'store view ids the user is limited to; null: every store view',
});

export const ApiUserCreate = Type.Object(
  {
    username: Username,
    email: Type.Optional(Email),
    roleId: Id,
    isActive: Type.Optional(Type.Boolean()),
    allowedStoreIds: Type.Optional(StoreIds),
  },
  { additionalProperties: false },
);
export type ApiUserCreate = Static<typeof ApiUserCreate>;

export const ApiUserUpdate = Type.Object(
  {
    username: Type.Optional(Username),
    email: Type.Optional(Email),
    roleId: Type.Optional(Id),
    isActive: Type.Optional(Type.Boolean({ description: 'false ends its tokens and SOAP sessions at their next use' })),
    allowedStoreIds: Type.Optional(StoreIds),
  },
  { additionalProperties: false },
);
export type ApiUserUpdate = Static<typeof ApiUserUpdate>;

export const API_USER_SORTS = ['username', 'email', 'createdAt', 'updatedAt'] as const;

export const ApiUserListQuery = Type.Object(
  {
    ...PageQuery,
    search: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'part of the user name or email' })),
    roleId: Type.Optional(Id),
    isActive: Type.Optional(Type.Boolean()),
    sortBy: Type.Optional(
      Type.Union(
        API_USER_SORTS.map((s) => Type.Literal(s)),
        { description: 'default username' },
      ),
    ),
    sortDir: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: 'default asc' })),
  },
  { additionalProperties: false },
);
export type ApiUserListQuery = Static<typeof ApiUserListQuery>;

export const ApiRoleListQuery = Type.Object(
  { ...PageQuery, search: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'part of the role name' })) },
  { additionalProperties: false },
);
export type ApiRoleListQuery = Static<typeof ApiRoleListQuery>;
