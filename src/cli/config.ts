/** Store configuration values, set, unset and read per scope. */
import os from 'node:os';
import { notFound } from '../platform/errors.js';
import { configDeclaration } from '../platform/settings.js';
import { applyConfigChanges, type ConfigActor } from '../modules/stores/configuration.js';
import { out, scopeOf, storeIds, type Command } from './command.js';

/** The audit rows of CLI changes name the operating-system user who ran the command. */
function cliActor(): ConfigActor {
  try {
    return { kind: 'cli', username: os.userInfo().username };
  } catch {
    return { kind: 'cli' };
  }
}

/**
 * config:set, config:unset and config:get. A declared path's value is checked as the API checks it (the same
 * message when refused); a path no module declares is stored with a warning (a Maho setting kept for later).
 */
export const CONFIG_COMMANDS: Record<string, Command> = {
  'config:set': {
    usage: 'config:set <path> <value> [--scope default|websites|stores] [--scope-id <id>]',
    summary: 'set a store configuration value (checked against its declaration; running servers see it within a second)',
    options: { scope: { type: 'string' }, 'scope-id': { type: 'string' } },
    positionals: 2,
    async run({ db, registry }, opts, [path, value]) {
      const { scope, scopeId } = scopeOf(registry, opts);
      if (!configDeclaration(path)) process.stderr.write(`warning: ${path} is not a declared configuration path; stored as given\n`);
      await applyConfigChanges(db, registry, cliActor(), scope, scopeId, { [path]: value }, { allowUndeclared: true });
      out(
        `${path} = ${configDeclaration(path)?.type === 'secret' ? '[secret]' : (registry.getAtScope(path, scope, scopeId) ?? value)} (${scope} ${scopeId})`,
      );
    },
  },
  'config:unset': {
    usage: 'config:unset <path> [--scope default|websites|stores] [--scope-id <id>]',
    summary: 'remove a value set at one scope (the next scope up applies again)',
    options: { scope: { type: 'string' }, 'scope-id': { type: 'string' } },
    positionals: 1,
    async run({ db, registry }, opts, [path]) {
      const { scope, scopeId } = scopeOf(registry, opts);
      await applyConfigChanges(db, registry, cliActor(), scope, scopeId, { [path]: null }, { allowUndeclared: true });
      out(`${path} unset (${scope} ${scopeId})`);
    },
  },
  'config:get': {
    usage: 'config:get <path> [--store <id|code>]',
    summary: 'print the value in effect for a store view (the default one when --store is omitted)',
    options: { store: { type: 'string' } },
    positionals: 1,
    async run({ registry }, opts, [path]) {
      const storeId = opts.store === undefined ? registry.defaultStore.id : storeIds(registry, opts.store as string)![0];
      const value = registry.get(path, storeId);
      if (value === undefined) throw notFound(`${path} is not set`);
      out(value);
    },
  },
};
