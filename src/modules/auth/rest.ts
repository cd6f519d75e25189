/**
 * Tokens: issue (every grant), refresh and revoke. The web back office's cookie session (sign-in, refresh,
 * sign-out) are plain routes: they read and set a cookie, which means nothing outside HTTP.
 */
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import { access } from '../../platform/auth/access.js';
import { FreeForm } from '../../platform/free-form.js';
import type { RestApp } from '../../platform/module.js';
import { op, type Operation } from '../../platform/operations.js';
import { LogoutResponse, TokenRequest, TokenResponse } from './schemas.js';
import * as auth from './service.js';
import {
  clearSessionCookie,
  closeStaffSession,
  openStaffSession,
  rotateStaffSession,
  sessionCookie,
  setSessionCookie,
} from './staff-sessions.js';

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
    summary:
      'Get an access token (grants: customer, client_credentials, api_user, admin_user with twofa_code or passkey); JSON or form-urlencoded; clients may use HTTP Basic',
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
    activity: false,
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
    activity: false,
    graphql: { name: 'logoutCustomer' },
    run: (ctx) => auth.logout(ctx),
  }),
];

const csrfHeader = (req: FastifyRequest) => {
  const v = req.headers['x-csrf-token'];
  return typeof v === 'string' && v.length <= 128 ? v : undefined;
};

const StaffSignIn = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
    twofa_code: Type.Optional(Type.String({ maxLength: 64, description: 'the 6-digit TOTP code, or a recovery code' })),
    twofaCode: Type.Optional(Type.String({ maxLength: 64, description: 'alias of twofa_code' })),
    passkey: Type.Optional(FreeForm(Type.Unknown({ description: 'a WebAuthn assertion as the second factor' }))),
  },
  { additionalProperties: false },
);

const AdminLogoutResponse = Type.Null({ description: 'No content' });

/** The web back office's session: the refresh cookie is set, read and cleared here. */
export function routes(app: RestApp): void {
  app.post(
    '/auth/admin/login',
    {
      schema: {
        operationId: 'auth.adminLogin',
        tags,
        summary:
          'Staff sign-in opening a web back-office session: the admin_user grant, plus an HttpOnly refresh cookie (Path=/api/rest/v2/auth/admin) and the csrfToken its refreshes send as X-CSRF-Token',
        body: StaffSignIn,
        response: { 200: TokenResponse },
      },
      config: { access: access.public },
    },
    async (req, reply) => {
      const ctx = req.ctx;
      const { principal, token } = await auth.signInStaff(ctx, { ...req.body, grant_type: 'admin_user' });
      const s = await openStaffSession(ctx, principal.id, new Date(Math.floor(ctx.now.getTime() / 1000) * 1000), req.headers['user-agent']);
      setSessionCookie(reply, s.refreshToken, s.maxAgeSeconds);
      return { ...token, csrfToken: s.csrfToken };
    },
  );
  app.post(
    '/auth/admin/refresh',
    {
      schema: {
        operationId: 'auth.adminRefresh',
        tags,
        summary:
          "A new access token from the back-office session's cookie and its X-CSRF-Token header (401 without a live session, 403 without the matching header); the refresh cookie is rotated",
        body: Type.Optional(FreeForm(Type.Any())),
        response: { 200: TokenResponse },
      },
      config: { access: access.public },
    },
    async (req, reply) => {
      const ctx = req.ctx;
      const s = await rotateStaffSession(ctx, sessionCookie(req), csrfHeader(req));
      // the cookie is rotated before the token is issued: a refused issue (inactive user) leaves a cookie that no longer works
      setSessionCookie(reply, s.refreshToken, s.maxAgeSeconds);
      const token = await auth.issueForStaff(ctx, s.userId, Math.floor(s.authTime.getTime() / 1000));
      return { ...token, csrfToken: csrfHeader(req) };
    },
  );
  app.post(
    '/auth/admin/logout',
    {
      schema: {
        operationId: 'auth.adminLogout',
        tags,
        summary:
          'End the back-office session of the cookie (with its X-CSRF-Token header) and clear the cookie; 204 also when there was none',
        body: Type.Optional(FreeForm(Type.Any())),
        response: { 204: AdminLogoutResponse },
      },
      config: { access: access.public },
    },
    async (req, reply) => {
      await closeStaffSession(req.ctx, sessionCookie(req), csrfHeader(req));
      clearSessionCookie(reply);
      return reply.code(204).send(null);
    },
  );
}
