import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import { FreeForm } from '../../platform/free-form.js';
import type { RestApp } from '../../platform/module.js';
import { LogoutResponse, TokenRequest, TokenResponse } from './schemas.js';
import * as auth from './service.js';

export function routes(app: RestApp): void {
  app.post(
    '/auth/token',
    {
      schema: {
        operationId: 'auth.token',
        tags: ['auth'],
        summary: 'Get an access token (grants: customer, client_credentials, api_user); JSON or form-urlencoded; clients may use HTTP Basic',
        body: TokenRequest,
        response: { 200: TokenResponse },
      },
      config: { access: access.public },
    },
    async (req) => auth.issueToken(req.ctx, req.body, req.headers.authorization),
  );
  app.post(
    '/auth/refresh',
    {
      schema: {
        operationId: 'auth.refresh',
        tags: ['auth'],
        summary: 'Exchange the still-valid bearer token for a new one (the old one is revoked); the body is ignored',
        body: Type.Optional(FreeForm(Type.Any())),
        response: { 200: TokenResponse },
      },
      config: { access: access.authenticated },
    },
    async (req) => auth.refreshToken(req.ctx),
  );
  app.post(
    '/auth/logout',
    {
      schema: {
        operationId: 'auth.logout',
        tags: ['auth'],
        summary: 'Revoke the current bearer token',
        body: Type.Optional(FreeForm(Type.Any())),
        response: { 201: LogoutResponse },
      },
      config: { access: access.authenticated },
    },
    async (req, reply) => reply.code(201).send(await auth.logout(req.ctx)),
  );
}
