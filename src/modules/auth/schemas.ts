import { Type, type Static } from 'typebox';
import { FreeForm } from '../../platform/free-form.js';

export const TokenRequest = Type.Object(
  {
    grant_type: Type.Optional(
      Type.String({ description: 'customer (default), client_credentials, api_user or admin_user', maxLength: 64 }),
    ),
    grantType: Type.Optional(Type.String({ maxLength: 64, description: 'alias of grant_type' })),
    email: Type.Optional(Type.String({ maxLength: 320 })),
    username: Type.Optional(
      Type.String({ maxLength: 320, description: 'customer grant: alias of email; api_user and admin_user grants: the user name' }),
    ),
    password: Type.Optional(Type.String({ maxLength: 1024 })),
    client_id: Type.Optional(Type.String({ maxLength: 256 })),
    client_secret: Type.Optional(Type.String({ maxLength: 1024 })),
    api_key: Type.Optional(Type.String({ maxLength: 1024 })),
    apiKey: Type.Optional(Type.String({ maxLength: 1024, description: 'alias of api_key' })),
    twofa_code: Type.Optional(
      Type.String({ maxLength: 64, description: 'admin_user grant: the 6-digit TOTP code, or one of the recovery codes' }),
    ),
    twofaCode: Type.Optional(Type.String({ maxLength: 64, description: 'alias of twofa_code' })),
    passkey: Type.Optional(
      FreeForm(Type.Unknown({ description: 'admin_user grant: a WebAuthn assertion (the JSON a browser gives) as the second factor' })),
    ),
    session: Type.Optional(
      Type.String({
        maxLength: 16,
        description: 'admin_user grant: `cookie` also opens a back-office session (refresh cookie; the body carries its csrfToken)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type TokenRequest = Static<typeof TokenRequest>;

export const TokenResponse = Type.Object({
  token: Type.String({ description: 'JWT' }),
  tokenType: Type.String(),
  expiresIn: Type.Integer({ description: 'seconds' }),
  access_token: Type.String({ description: 'OAuth 2.0 name of token' }),
  token_type: Type.String({ description: 'OAuth 2.0 name of tokenType' }),
  expires_in: Type.Integer({ description: 'OAuth 2.0 name of expiresIn' }),
  customer: Type.Optional(Type.Object({ id: Type.Integer(), email: Type.String(), firstName: Type.String(), lastName: Type.String() })),
  apiUser: Type.Optional(Type.Object({ id: Type.Integer(), username: Type.String() })),
  adminUser: Type.Optional(
    Type.Object({
      id: Type.Integer(),
      username: Type.String(),
      email: Type.String(),
      firstName: Type.String(),
      lastName: Type.String(),
      locale: Type.String(),
      role: Type.String(),
    }),
  ),
  csrfToken: Type.Optional(
    Type.String({ description: 'a back-office session: the X-CSRF-Token header POST /auth/admin/refresh must carry' }),
  ),
  permissions: Type.Optional(
    Type.Array(Type.String(), { description: '`all`, `<resource>/all` or `<resource>/<read|write|create|delete>`' }),
  ),
});
export type TokenResponse = Static<typeof TokenResponse>;

export const LogoutResponse = Type.Object({ success: Type.Boolean(), message: Type.String() });
