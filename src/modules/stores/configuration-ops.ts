/** Store configuration through the API: read per scope, write all-or-nothing, and the history of changes. */
import { access } from '../../platform/auth/access.js';
import { op, type Operation } from '../../platform/operations.js';
import {
  ConfigChange,
  ConfigHistoryQuery,
  ConfigSectionSummary,
  Configuration,
  ConfigurationQuery,
  ConfigurationWrite,
  ConfigurationWriteResult,
} from './configuration-schemas.js';
import * as configuration from './configuration.js';

const tags = ['configuration'];

export const configurationOperations: Operation[] = [
  op({
    id: 'configuration.get',
    method: 'GET',
    path: '/configuration',
    tags,
    summary:
      'Store configuration at a scope (default, websites or stores with scopeId): every declared path by section and group, with label, type, allowed values, default, the value in effect and where it comes from; secrets are never shown, only whether one is set',
    access: access.admin('configuration', 'read'),
    shortName: 'Configuration',
    query: ConfigurationQuery,
    response: Configuration,
    graphql: { name: 'configuration' },
    run: async (ctx, { query }) => configuration.readConfiguration(ctx, query),
  }),
  op({
    id: 'configuration.sections',
    method: 'GET',
    path: '/configuration/sections',
    tags,
    summary: 'The sections of the store configuration with their groups (unpaginated)',
    access: access.admin('configuration', 'read'),
    shortName: 'ConfigSection',
    kind: 'collection',
    response: ConfigSectionSummary,
    graphql: { name: 'configurationSections' },
    run: async () => {
      const items = configuration.configSections();
      return { items, total: items.length };
    },
  }),
  op({
    id: 'configuration.update',
    method: 'PUT',
    path: '/configuration',
    tags,
    summary:
      'Sets (or with null removes) values at one scope: all are checked first and one invalid value writes nothing; each change is audited, and every server applies it within a second',
    access: access.admin('configuration', 'write'),
    shortName: 'ConfigurationWriteResult',
    body: ConfigurationWrite,
    response: ConfigurationWriteResult,
    graphql: { name: 'updateConfiguration' },
    run: (ctx, { body }) => configuration.writeConfiguration(ctx, body),
  }),
  op({
    id: 'configuration.history',
    method: 'GET',
    path: '/configuration/history',
    tags,
    summary:
      'Changes made to the store configuration, newest first: who, when, scope, path, the value before and after; filters path, from, to',
    access: access.admin('configuration', 'read'),
    shortName: 'ConfigChange',
    query: ConfigHistoryQuery,
    kind: 'collection',
    response: ConfigChange,
    page: { defaultSize: 50, maxSize: 200 },
    graphql: { name: 'configurationHistory' },
    run: (ctx, { query, page }) => configuration.configHistory(ctx, query, page),
  }),
];
