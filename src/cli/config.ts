/** Store configuration values, set, unset and read per scope. */
import { notFound } from '../platform/errors.js';
import { deleteConfig, setConfig } from '../modules/stores/service.js';
import { out, scopeOf, storeIds, type Command } from './command.js';

/** config:set, config:unset and config:get. */
export const CONFIG_COMMANDS: Record<string, Command> = {
  'config:set': {
    usage: 'config:set <path> <value> [--scope default|websites|stores] [--scope-id <id>]',
    summary: 'set a store configuration value (running servers see it within seconds)',
    options: { scope: { type: 'string' }, 'scope-id': { type: 'string' } },
    positionals: 2,
    async run({ db, registry }, opts, [path, value]) {
      const { scope, scopeId } = scopeOf(registry, opts);
      await setConfig(db, registry, path, value, scope, scopeId);
      out(`${path} = ${value} (${scope} ${scopeId})`);
    },
  },
  'config:unset': {
    usage: 'config:unset <path> [--scope default|websites|stores] [--scope-id <id>]',
    summary: 'remove a value set at one scope (the next scope up applies again)',
    options: { scope: { type: 'string' }, 'scope-id': { type: 'string' } },
    positionals: 1,
    async run({ db, registry }, opts, [path]) {
      const { scope, scopeId } = scopeOf(registry, opts);
      await deleteConfig(db, registry, path, scope, scopeId);
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
