/** Sign-in with another provider's ID token, as Maho's POST /customers/social-auth (no MCP tool: it exchanges a browser's credential). */
import { access } from '../../platform/auth/access.js';
import { op, type Operation } from '../../platform/operations.js';
import { socialSignIn } from './social-login.js';
import { SocialAuthBody, SocialAuthResponse } from './social-schemas.js';

export const socialOperations: Operation[] = [
  op({
    id: 'auth.socialAuth',
    method: 'POST',
    path: '/customers/social-auth',
    tags: ['auth'],
    summary:
      'Sign in with an OpenID Connect ID token of a configured provider (Google, Apple, Microsoft, oidc); answers a customer token, creating or linking the account',
    access: access.public,
    shortName: 'SocialAuth',
    body: SocialAuthBody,
    response: SocialAuthResponse,
    status: 200,
    mcp: false,
    graphql: { name: 'socialAuth' },
    run: (ctx, { body }) => socialSignIn(ctx, body),
  }),
];
