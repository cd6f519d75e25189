/** API roles, API users and OAuth clients: who may call the API and with which permissions. */
import * as auth from '../modules/auth/accounts.js';
import { JSON_OPT, list, out, print, required, storeIds, UsageError, type Command } from './command.js';

/** roles:*, api-users:* and oauth-clients:*. */
export const ACCESS_COMMANDS: Record<string, Command> = {
  'roles:list': {
    usage: 'roles:list [--json]',
    summary: 'list API roles and their permissions',
    options: JSON_OPT,
    async run({ db }, opts) {
      print(await auth.listRoles(db), ['id', 'name', 'permissions'], opts.json);
    },
  },
  'roles:create': {
    usage: 'roles:create --name <name> --permissions <p1,p2,...>',
    summary: 'create a role; permissions are all, <resource>/all or <resource>/<read|write|create|delete>',
    options: { name: { type: 'string' }, permissions: { type: 'string' } },
    async run({ db }, opts) {
      const name = required(opts, 'name');
      if (typeof opts.permissions !== 'string') throw new UsageError('--permissions is required (an empty string for none)');
      const id = await auth.createRole(db, name, list(opts.permissions));
      out(`Role created: ${name} (id ${id})`);
    },
  },
  'roles:set-permissions': {
    usage: 'roles:set-permissions --name <name> --permissions <p1,p2,...>',
    summary: "replace a role's permissions (applies at once to tokens already issued)",
    options: { name: { type: 'string' }, permissions: { type: 'string' } },
    async run({ db }, opts) {
      const name = required(opts, 'name');
      if (typeof opts.permissions !== 'string') throw new UsageError('--permissions is required (an empty string for none)');
      await auth.setRolePermissions(db, name, list(opts.permissions));
      out(`Permissions of ${name} set.`);
    },
  },
  'api-users:list': {
    usage: 'api-users:list [--json]',
    summary: 'list API users',
    options: JSON_OPT,
    async run({ db }, opts) {
      print(await auth.listApiUsers(db), ['id', 'username', 'role', 'isActive', 'allowedStoreIds', 'email'], opts.json);
    },
  },
  'api-users:create': {
    usage: 'api-users:create --username <name> --role <role> [--api-key <key>] [--email <email>] [--stores <id|code,...>]',
    summary: 'create an API user (api_user grant); a key is generated and printed when --api-key is omitted',
    options: {
      username: { type: 'string' },
      role: { type: 'string' },
      'api-key': { type: 'string' },
      email: { type: 'string' },
      stores: { type: 'string' },
    },
    async run({ db, registry }, opts) {
      const username = required(opts, 'username');
      const given = opts['api-key'] as string | undefined;
      const apiKey = given ?? auth.generateSecret();
      const id = await auth.createApiUser(db, {
        username,
        apiKey,
        role: required(opts, 'role'),
        email: opts.email as string | undefined,
        allowedStoreIds: storeIds(registry, opts.stores as string | undefined),
      });
      out(`API user created: ${username} (id ${id})`);
      if (given === undefined) out(`API key (shown once): ${apiKey}`);
    },
  },
  'api-users:set-key': {
    usage: 'api-users:set-key --username <name> [--api-key <key>]',
    summary:
      "replace an API user's key (its tokens and SOAP sessions end at once); a key is generated and printed when --api-key is omitted",
    options: { username: { type: 'string' }, 'api-key': { type: 'string' } },
    async run({ db }, opts) {
      const username = required(opts, 'username');
      const given = opts['api-key'] as string | undefined;
      const apiKey = given ?? auth.generateSecret();
      await auth.setApiUserKey(db, username, apiKey);
      out(`API key of ${username} replaced.`);
      if (given === undefined) out(`API key (shown once): ${apiKey}`);
    },
  },
  'api-users:disable': {
    usage: 'api-users:disable --username <name>',
    summary: 'disable an API user: it cannot log in and its tokens are refused at once',
    options: { username: { type: 'string' } },
    async run({ db }, opts) {
      const username = required(opts, 'username');
      await auth.setApiUserActive(db, username, false);
      out(`API user ${username} disabled.`);
    },
  },
  'api-users:enable': {
    usage: 'api-users:enable --username <name>',
    summary: 'enable an API user again',
    options: { username: { type: 'string' } },
    async run({ db }, opts) {
      const username = required(opts, 'username');
      await auth.setApiUserActive(db, username, true);
      out(`API user ${username} enabled.`);
    },
  },
  'oauth-clients:list': {
    usage: 'oauth-clients:list [--json]',
    summary: 'list OAuth clients',
    options: JSON_OPT,
    async run({ db }, opts) {
      print(await auth.listOauthClients(db), ['id', 'clientId', 'name', 'role', 'isActive', 'allowedStoreIds'], opts.json);
    },
  },
  'oauth-clients:create': {
    usage: 'oauth-clients:create --client-id <id> --role <role> [--secret <secret>] [--name <name>] [--stores <id|code,...>]',
    summary: 'create an OAuth client (client_credentials grant); a secret is generated and printed when --secret is omitted',
    options: {
      'client-id': { type: 'string' },
      role: { type: 'string' },
      secret: { type: 'string' },
      name: { type: 'string' },
      stores: { type: 'string' },
    },
    async run({ db, registry }, opts) {
      const clientId = required(opts, 'client-id');
      const given = opts.secret as string | undefined;
      const secret = given ?? auth.generateSecret();
      const id = await auth.createOauthClient(db, {
        clientId,
        secret,
        role: required(opts, 'role'),
        name: opts.name as string | undefined,
        allowedStoreIds: storeIds(registry, opts.stores as string | undefined),
      });
      out(`OAuth client created: ${clientId} (id ${id})`);
      if (given === undefined) out(`Client secret (shown once): ${secret}`);
    },
  },
  'oauth-clients:set-secret': {
    usage: 'oauth-clients:set-secret --client-id <id> [--secret <secret>]',
    summary: "replace an OAuth client's secret (its tokens end at once); a secret is generated and printed when --secret is omitted",
    options: { 'client-id': { type: 'string' }, secret: { type: 'string' } },
    async run({ db }, opts) {
      const clientId = required(opts, 'client-id');
      const given = opts.secret as string | undefined;
      const secret = given ?? auth.generateSecret();
      await auth.setOauthClientSecret(db, clientId, secret);
      out(`Client secret of ${clientId} replaced.`);
      if (given === undefined) out(`Client secret (shown once): ${secret}`);
    },
  },
  'oauth-clients:disable': {
    usage: 'oauth-clients:disable --client-id <id>',
    summary: 'disable an OAuth client: it cannot get tokens and its tokens are refused at once',
    options: { 'client-id': { type: 'string' } },
    async run({ db }, opts) {
      const clientId = required(opts, 'client-id');
      await auth.setOauthClientActive(db, clientId, false);
      out(`OAuth client ${clientId} disabled.`);
    },
  },
  'oauth-clients:enable': {
    usage: 'oauth-clients:enable --client-id <id>',
    summary: 'enable an OAuth client again',
    options: { 'client-id': { type: 'string' } },
    async run({ db }, opts) {
      const clientId = required(opts, 'client-id');
      await auth.setOauthClientActive(db, clientId, true);
      out(`OAuth client ${clientId} enabled.`);
    },
  },
};
