/**
 * Passkeys of staff users: a signed-in staff user registers, lists and removes their own; admins holding
 * `admin-users` list and remove another user's; anyone asks for the options of a passkey sign-in.
 */
import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import { assertGlobalWriter, type Ctx } from '../../platform/context.js';
import { forbidden } from '../../platform/errors.js';
import { FreeForm } from '../../platform/free-form.js';
import { op, type Operation } from '../../platform/operations.js';
import * as passkeys from './passkeys.js';

const tags = ['admin-users'];
/** Passkey ceremonies need a person at an authenticator: nothing for an agent. */
const mcp = false;
const noStore = { 'cache-control': 'no-store' };

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });
const PasskeyIdParams = Type.Object({ passkeyId: Id });
const UserIdParams = Type.Object({ id: Id });
const UserPasskeyParams = Type.Object({ id: Id, passkeyId: Id });
const NoBody = Type.Optional(FreeForm(Type.Any()));

const Passkey = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  createdAt: Type.String({ description: 'YYYY-MM-DD HH:MM:SS (UTC)' }),
  lastUsedAt: Type.Optional(Type.String({ description: 'the last sign-in with it; absent: never used' })),
  transports: Type.Optional(
    Type.Array(Type.String(), { description: 'how the browser reaches the authenticator (internal, hybrid, usb, ...)' }),
  ),
});

const PasskeyCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', description: 'a label to tell the passkeys apart' }),
    response: FreeForm(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'what navigator.credentials.create() answered, as JSON (@simplewebauthn/browser startRegistration)',
      }),
    ),
  },
  { additionalProperties: false },
);

const SignInOptionsBody = Type.Object(
  {
    username: Type.Optional(
      Type.String({ maxLength: 254, description: 'omit for a discoverable credential (the passkey names the user)' }),
    ),
  },
  { additionalProperties: false },
);

const CredentialDescriptor = Type.Object({
  id: Type.String({ description: 'credential id, base64url' }),
  type: Type.String(),
  transports: Type.Optional(Type.Array(Type.String())),
});

const RegistrationOptions = Type.Object(
  {
    challenge: Type.String({ description: 'base64url' }),
    rp: Type.Object({ id: Type.Optional(Type.String()), name: Type.String() }),
    user: Type.Object({ id: Type.String({ description: 'user handle, base64url' }), name: Type.String(), displayName: Type.String() }),
    pubKeyCredParams: Type.Array(Type.Object({ alg: Type.Integer(), type: Type.String() })),
    timeout: Type.Optional(Type.Integer({ description: 'milliseconds' })),
    excludeCredentials: Type.Optional(Type.Array(CredentialDescriptor)),
    authenticatorSelection: Type.Optional(
      Type.Object({
        authenticatorAttachment: Type.Optional(Type.String()),
        residentKey: Type.Optional(Type.String()),
        requireResidentKey: Type.Optional(Type.Boolean()),
        userVerification: Type.Optional(Type.String()),
      }),
    ),
    attestation: Type.Optional(Type.String()),
    extensions: Type.Optional(Type.Object({ credProps: Type.Optional(Type.Boolean()) })),
    hints: Type.Optional(Type.Array(Type.String())),
  },
  { description: 'the options for navigator.credentials.create() (@simplewebauthn/browser startRegistration)' },
);

const AuthenticationOptions = Type.Object(
  {
    challenge: Type.String({ description: 'base64url' }),
    rpId: Type.Optional(Type.String()),
    timeout: Type.Optional(Type.Integer({ description: 'milliseconds' })),
    userVerification: Type.Optional(Type.String()),
    allowCredentials: Type.Optional(Type.Array(CredentialDescriptor)),
    hints: Type.Optional(Type.Array(Type.String())),
  },
  { description: 'the options for navigator.credentials.get() (@simplewebauthn/browser startAuthentication)' },
);

/** The staff user of the token; any other caller (an API user, an OAuth client, a customer) is a 403. */
function self(ctx: Ctx): number {
  const a = ctx.actor;
  if (a.kind === 'admin' && a.principal === 'admin_user') return a.id;
  throw forbidden('Only a signed-in staff user has passkeys of their own', { reason: 'STAFF_USER_REQUIRED' });
}

export const passkeyOperations: Operation[] = [
  op({
    id: 'adminUsers.passkeyRegistrationOptions',
    method: 'POST',
    path: '/admin-users/me/passkeys/options',
    tags,
    summary: 'Options to register a new passkey (navigator.credentials.create()); its challenge is good for one registration, 5 minutes',
    access: access.authenticated,
    shortName: 'AdminPasskeyRegistrationOptions',
    body: NoBody,
    response: RegistrationOptions,
    restHeaders: noStore,
    mcp,
    graphql: { name: 'adminPasskeyRegistrationOptions' },
    run: (ctx) => passkeys.registrationOptions(ctx, self(ctx)),
  }),
  op({
    id: 'adminUsers.passkeyRegister',
    method: 'POST',
    path: '/admin-users/me/passkeys',
    tags,
    summary:
      'Register a passkey from the browser’s answer to the registration options (user verification required); one already registered is 409',
    access: access.authenticated,
    shortName: 'AdminPasskey',
    body: PasskeyCreate,
    response: Passkey,
    status: 201,
    mcp,
    graphql: { name: 'registerAdminPasskey' },
    run: (ctx, { body }) => passkeys.registerPasskey(ctx, self(ctx), body),
  }),
  op({
    id: 'adminUsers.passkeysMine',
    method: 'GET',
    path: '/admin-users/me/passkeys',
    tags,
    summary: 'Your passkeys, oldest first: name, when registered and last used, transports (never a key)',
    access: access.authenticated,
    shortName: 'AdminPasskey',
    kind: 'collection',
    response: Passkey,
    mcp,
    graphql: { name: 'myAdminPasskeys' },
    run: (ctx) => passkeys.listPasskeys(ctx, self(ctx)),
  }),
  op({
    id: 'adminUsers.passkeyDeleteMine',
    method: 'DELETE',
    path: '/admin-users/me/passkeys/:passkeyId',
    tags,
    summary: 'Remove one of your passkeys',
    access: access.authenticated,
    shortName: 'AdminPasskey',
    params: PasskeyIdParams,
    status: 204,
    mcp,
    graphql: { name: 'deleteMyAdminPasskey' },
    run: (ctx, { params }) => passkeys.deletePasskey(ctx, self(ctx), params.passkeyId),
  }),
  op({
    id: 'adminUsers.passkeys',
    method: 'GET',
    path: '/admin-users/:id/passkeys',
    tags,
    summary: "A back-office user's passkeys, oldest first (never a key)",
    access: access.admin('admin-users', 'read'),
    shortName: 'AdminPasskey',
    params: UserIdParams,
    kind: 'collection',
    response: Passkey,
    mcp,
    graphql: { name: 'adminUserPasskeys' },
    run: async (ctx, { params }) => {
      await passkeys.assertStaffUser(ctx, params.id);
      return passkeys.listPasskeys(ctx, params.id);
    },
  }),
  op({
    id: 'adminUsers.passkeyDelete',
    method: 'DELETE',
    path: '/admin-users/:id/passkeys/:passkeyId',
    tags,
    summary: "Remove a back-office user's passkey (a lost device)",
    access: access.admin('admin-users', 'write'),
    shortName: 'AdminPasskey',
    params: UserPasskeyParams,
    status: 204,
    mcp,
    graphql: { name: 'deleteAdminUserPasskey' },
    run: (ctx, { params }) => {
      // staff accounts are shared by every store view: a token limited to some may read them, not weaken them
      assertGlobalWriter(ctx, 'staff accounts');
      return passkeys.deletePasskey(ctx, params.id, params.passkeyId);
    },
  }),
  op({
    id: 'auth.passkeyOptions',
    method: 'POST',
    path: '/auth/passkey/options',
    tags: ['auth'],
    summary:
      'Options of a staff passkey sign-in (navigator.credentials.get()): with a user name its passkeys, without one a discoverable credential; rate limited',
    access: access.public,
    shortName: 'AdminPasskeySignInOptions',
    body: SignInOptionsBody,
    response: AuthenticationOptions,
    restHeaders: noStore,
    mcp,
    graphql: { name: 'adminPasskeySignInOptions' },
    run: (ctx, { body }) => passkeys.authenticationOptions(ctx, body.username || undefined),
  }),
];
