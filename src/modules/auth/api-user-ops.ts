/**
 * API roles and API users over the API: the integrations that sign in with a user name and an API key (grant
 * `api_user`, the legacy SOAP login), managed by admins holding `admin-roles` / `admin-users`, the grants staff
 * roles and users are managed with. A key is made by the server and shown once.
 */
import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import { FreeForm } from '../../platform/free-form.js';
import { op, type Operation } from '../../platform/operations.js';
import {
  ApiRole,
  ApiRoleCreate,
  ApiRoleIdParams,
  ApiRoleListQuery,
  ApiRoleUpdate,
  ApiUser,
  ApiUserCreate,
  ApiUserIdParams,
  ApiUserListQuery,
  ApiUserUpdate,
} from './api-user-schemas.js';
import * as service from './api-user-service.js';

const tags = ['api-users'];
const roleTags = ['api-roles'];
const page = { defaultSize: 20, maxSize: 100 };
const noStore = { 'cache-control': 'no-store' };
const NoBody = Type.Optional(FreeForm(Type.Any()));
/** An answer carrying a new API key: a credential is handed to a person, not to an agent's transcript. */
const mcp = false;

export const apiUserOperations: Operation[] = [
  op({
    id: 'apiRoles.list',
    method: 'GET',
    path: '/api-roles',
    tags: roleTags,
    summary: 'API roles, by name, with the number of API users and OAuth clients holding each; filter search (part of the name)',
    access: access.admin('admin-roles', 'read'),
    shortName: 'ApiRole',
    query: ApiRoleListQuery,
    kind: 'collection',
    response: ApiRole,
    page,
    run: (ctx, { query, page: p }) => service.listApiRoles(ctx, query, p),
  }),
  op({
    id: 'apiRoles.get',
    method: 'GET',
    path: '/api-roles/:id',
    tags: roleTags,
    summary: 'An API role',
    access: access.admin('admin-roles', 'read'),
    shortName: 'ApiRole',
    params: ApiRoleIdParams,
    response: ApiRole,
    run: (ctx, { params }) => service.getApiRole(ctx, params.id),
  }),
  op({
    id: 'apiRoles.create',
    method: 'POST',
    path: '/api-roles',
    tags: roleTags,
    summary: 'Create an API role (permissions: `all`, `<resource>/all` or `<resource>/<read|write|create|delete>`); a taken name is 409',
    access: access.admin('admin-roles', 'create'),
    shortName: 'ApiRole',
    body: ApiRoleCreate,
    response: ApiRole,
    status: 201,
    run: (ctx, { body }) => service.createApiRole(ctx, body),
  }),
  op({
    id: 'apiRoles.update',
    method: 'PUT',
    path: '/api-roles/:id',
    tags: roleTags,
    summary: "Rename an API role or replace its permissions (its holders' tokens carry the new ones at their next request)",
    access: access.admin('admin-roles', 'write'),
    shortName: 'ApiRole',
    params: ApiRoleIdParams,
    body: ApiRoleUpdate,
    response: ApiRole,
    run: (ctx, { params, body }) => service.updateApiRole(ctx, params.id, body),
  }),
  op({
    id: 'apiRoles.delete',
    method: 'DELETE',
    path: '/api-roles/:id',
    tags: roleTags,
    summary: 'Delete an API role no API user or OAuth client holds (409 while one does)',
    access: access.admin('admin-roles', 'delete'),
    shortName: 'ApiRole',
    params: ApiRoleIdParams,
    status: 204,
    run: (ctx, { params }) => service.deleteApiRole(ctx, params.id),
  }),
  op({
    id: 'apiUsers.list',
    method: 'GET',
    path: '/api-users',
    tags,
    summary:
      'API users (never a key or its hash); filters search (part of the user name or email), roleId, isActive; sortBy username, email, createdAt, updatedAt',
    access: access.admin('admin-users', 'read'),
    shortName: 'ApiUser',
    query: ApiUserListQuery,
    kind: 'collection',
    response: ApiUser,
    page,
    run: (ctx, { query, page: p }) => service.listApiUsers(ctx, query, p),
  }),
  op({
    id: 'apiUsers.get',
    method: 'GET',
    path: '/api-users/:id',
    tags,
    summary: 'An API user (never a key or its hash)',
    access: access.admin('admin-users', 'read'),
    shortName: 'ApiUser',
    params: ApiUserIdParams,
    response: ApiUser,
    run: (ctx, { params }) => service.getApiUser(ctx, params.id),
  }),
  op({
    id: 'apiUsers.create',
    method: 'POST',
    path: '/api-users',
    tags,
    summary: 'Create an API user; the answer carries its API key, made by the server and shown this once; a taken user name is 409',
    access: access.admin('admin-users', 'create'),
    shortName: 'ApiUser',
    body: ApiUserCreate,
    response: ApiUser,
    status: 201,
    restHeaders: noStore,
    mcp,
    run: (ctx, { body }) => service.createApiUser(ctx, body),
  }),
  op({
    id: 'apiUsers.update',
    method: 'PUT',
    path: '/api-users/:id',
    tags,
    summary:
      'Change an API user (user name, email, role, active, store views); a deactivation or a new role applies to its tokens at their next request; nobody deactivates themselves (409)',
    access: access.admin('admin-users', 'write'),
    shortName: 'ApiUser',
    params: ApiUserIdParams,
    body: ApiUserUpdate,
    response: ApiUser,
    run: (ctx, { params, body }) => service.updateApiUser(ctx, params.id, body),
  }),
  op({
    id: 'apiUsers.resetKey',
    method: 'POST',
    path: '/api-users/:id/key',
    tags,
    summary:
      'A new API key for the user, made by the server and shown this once; the tokens and SOAP sessions opened with the old key end at once',
    access: access.admin('admin-users', 'write'),
    shortName: 'ApiUser',
    params: ApiUserIdParams,
    body: NoBody,
    response: ApiUser,
    restHeaders: noStore,
    mcp,
    graphql: { name: 'resetApiUserKey' },
    run: (ctx, { params }) => service.resetApiUserKey(ctx, params.id),
  }),
  op({
    id: 'apiUsers.delete',
    method: 'DELETE',
    path: '/api-users/:id',
    tags,
    summary: 'Delete an API user (its tokens and SOAP sessions end); nobody deletes themselves (409)',
    access: access.admin('admin-users', 'delete'),
    shortName: 'ApiUser',
    params: ApiUserIdParams,
    status: 204,
    run: (ctx, { params }) => service.deleteApiUser(ctx, params.id),
  }),
];
