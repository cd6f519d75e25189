/** Store views, their configuration and currencies: REST, GraphQL and MCP from one declaration each. */
import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import { notFound } from '../../platform/errors.js';
import type { RestApp } from '../../platform/module.js';
import { op, type Operation } from '../../platform/operations.js';
import { Currency, Store, StoreCodeParams, StoreConfig, StoreSwitch } from './schemas.js';
import * as stores from './service.js';

const tags = ['stores'];

/** The store code of a `storeConfig(id:)` argument: a code, or the IRI of its REST item (`/api/rest/v2/<code>/config`). */
export function storeCodeOf(id: unknown): string {
  const s = String(id ?? '');
  const m = /^\/api\/rest\/v2\/([^/]+)\/config$/.exec(s);
  return m ? decodeURIComponent(m[1]) : s;
}

export const operations: Operation[] = [
  op({
    id: 'stores.config',
    method: 'GET',
    path: '/store-config',
    tags,
    summary: 'Configuration of the current store',
    access: access.public,
    publicCache: true,
    shortName: 'StoreConfig',
    response: StoreConfig,
    graphql: { name: 'currentStoreConfig' },
    run: async (ctx) => ctx.app.settings.memo(`store-config:${ctx.store.storeId}`, () => stores.storeConfig(ctx)),
  }),
  op({
    id: 'stores.configs',
    method: 'GET',
    path: '/store-configs',
    tags,
    summary: 'Configuration of every active store view (unpaginated)',
    access: access.public,
    publicCache: true,
    shortName: 'StoreConfig',
    kind: 'collection',
    response: StoreConfig,
    mcp: { name: 'store_configs_list' },
    run: async (ctx) => {
      const items = stores
        .listStores(ctx)
        .map((s) => ctx.app.settings.memo(`store-config:${s.code.toLowerCase()}`, () => stores.storeConfig(ctx, s.code)));
      return { items, total: items.length };
    },
  }),
  op({
    id: 'stores.configByCode',
    method: 'GET',
    path: '/:storeCode/config',
    tags,
    summary: 'Configuration of a store code',
    access: access.public,
    publicCache: true,
    shortName: 'StoreConfig',
    params: StoreCodeParams,
    response: StoreConfig,
    // Maho's item query: `storeConfig(id:)` takes the store code (the type's id) or the IRI of the REST item
    graphql: {
      name: 'storeConfig',
      args: Type.Object({ id: Type.String() }),
      input: (a) => ({ params: { storeCode: storeCodeOf(a.id) } }),
    },
    run: async (ctx, { params }) => {
      const code = params.storeCode.toLowerCase();
      return ctx.app.settings.memo(`store-config:${code}`, () => stores.storeConfig(ctx, params.storeCode));
    },
  }),
  op({
    id: 'stores.list',
    method: 'GET',
    path: '/stores',
    tags,
    summary: 'Active store views',
    access: access.public,
    publicCache: true,
    shortName: 'Store',
    kind: 'collection',
    response: Store,
    run: async (ctx) => {
      const items = stores.listStores(ctx);
      return { items, total: items.length };
    },
  }),
  op({
    id: 'stores.get',
    method: 'GET',
    path: '/stores/:id',
    tags,
    summary: 'One active store view by id',
    access: access.public,
    publicCache: true,
    shortName: 'Store',
    params: Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647, description: 'store view id' }) }),
    response: Store,
    run: async (ctx, { params }) => {
      const store = stores.listStores(ctx).find((s) => s.id === params.id);
      if (!store) throw notFound('Store not found', { reason: 'STORE_NOT_FOUND' });
      return store;
    },
  }),
  op({
    id: 'stores.currencies',
    method: 'GET',
    path: '/stores/currencies',
    tags,
    summary: 'Allowed currencies of the current store',
    access: access.public,
    publicCache: true,
    shortName: 'Currency',
    kind: 'collection',
    response: Currency,
    run: async (ctx) => {
      const items = stores.listCurrencies(ctx);
      return { items, total: items.length };
    },
  }),
];

/**
 * POST /stores/switch/:storeCode stays a plain route: it accepts a request without any body (a preValidation
 * hook supplies `{}`), which a declaration cannot express; Maho
 * has no GraphQL twin of it (a GraphQL client sends X-Store-Code itself).
 */
export function routes(app: RestApp): void {
  app.post(
    '/stores/switch/:storeCode',
    {
      schema: {
        operationId: 'stores.switch',
        tags,
        summary: 'Switch store context (validates the code and returns the store to send as X-Store-Code)',
        params: StoreCodeParams,
        body: Type.Object({}, { additionalProperties: false, description: 'optional; the action takes no input' }),
        response: { 201: StoreSwitch },
      },
      config: { access: access.public },
      // a POST without any body is a switch too (the schema alone would refuse an absent body)
      preValidation: async (req) => {
        req.body ??= {};
      },
    },
    async (req, reply) => reply.code(201).send(stores.switchStore(req.ctx, req.params.storeCode)),
  );
}
