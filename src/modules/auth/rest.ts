/** Tokens: issue (every grant), refresh and revoke. */
import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import { FreeForm } from '../../platform/free-form.js';
import { op, type Operation } from '../../platform/operations.js';
import { LogoutResponse, TokenRequest, TokenResponse } from './schemas.js';
import * as auth from './service.js';

const tags = ['auth'];
const shortName = 'AuthToken';

/** loginCustomer's arguments: a customer's credentials (the other grants are for REST clients). */
const LoginArgs = Type.Object({ email: Type.String({ maxLength: 320 }), password: Type.String({ maxLength: 1024 }) });

/** No MCP tools: an agent's token is its client's configuration; issuing, rotating or revoking one is not a tool call. */
const mcp = false;

export const operations: Operation[] = [
  op({
    id: 'auth.token',
    method: 'POST',
    path: '/auth/token',
    tags,
    summary: 'Get an access token (grants: customer, client_credentials, api_user); JSON or form-urlencoded; clients may use HTTP Basic',
    access: access.public,
    shortName,
    body: TokenRequest,
    response: TokenResponse,
    // over GraphQL, Maho's customer login: `loginCustomer(input: {email, password}) { authToken { token customer } }`
    mcp,
    graphql: {
      name: 'loginCustomer',
      args: LoginArgs,
      input: (a) => ({ body: { grant_type: 'customer', email: a.email, password: a.password } }),
    },
    // HTTP Basic credentials of an OAuth client come in the Authorization header
    run: (ctx, { body, headers }) => auth.issueToken(ctx, body, (headers as { authorization?: string } | undefined)?.authorization),
  }),
  op({
    id: 'auth.refresh',
    method: 'POST',
    path: '/auth/refresh',
    tags,
    summary: 'Exchange the still-valid bearer token for a new one (the old one is revoked); the body is ignored',
    access: access.authenticated,
    shortName,
    body: Type.Optional(FreeForm(Type.Any())),
    response: TokenResponse,
    mcp,
    graphql: { name: 'refreshToken' },
    run: (ctx) => auth.refreshToken(ctx),
  }),
  op({
    id: 'auth.logout',
    method: 'POST',
    path: '/auth/logout',
    tags,
    summary: 'Revoke the current bearer token',
    access: access.authenticated,
    shortName: 'AuthLogout',
    body: Type.Optional(FreeForm(Type.Any())),
    response: LogoutResponse,
    status: 201,
    mcp,
    graphql: { name: 'logoutCustomer' },
    run: (ctx) => auth.logout(ctx),
  }),
];
