import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { prepareJson, sendPrepared } from '../../platform/http.js';
import { collectionResponse, sendCollection } from '../../platform/pagination.js';
import { Currency, Store, StoreCodeParams, StoreConfig, StoreSwitch } from './schemas.js';
import * as stores from './service.js';

export function routes(app: RestApp): void {
  app.get(
    '/store-config',
    {
      schema: { operationId: 'stores.config', tags: ['stores'], summary: 'Configuration of the current store', response: { 200: StoreConfig } },
      config: { access: access.public, publicCache: true },
    },
    async (req, reply) =>
      sendPrepared(reply, req.ctx.app.settings.memo(`store-config:${req.ctx.store.storeId}`, () => prepareJson(stores.storeConfig(req.ctx)))),
  );
  app.get(
    '/:storeCode/config',
    {
      schema: {
        operationId: 'stores.configByCode',
        tags: ['stores'],
        summary: 'Configuration of a store code',
        params: StoreCodeParams,
        response: { 200: StoreConfig },
      },
      config: { access: access.public, publicCache: true },
    },
    async (req, reply) => {
      const code = req.params.storeCode.toLowerCase();
      return sendPrepared(reply, req.ctx.app.settings.memo(`store-config:${code}`, () => prepareJson(stores.storeConfig(req.ctx, req.params.storeCode))));
    },
  );
  app.get(
    '/stores',
    {
      schema: { operationId: 'stores.list', tags: ['stores'], summary: 'Active store views', response: { 200: collectionResponse(Store) } },
      config: { access: access.public, publicCache: true },
    },
    async (req, reply) => {
      const items = stores.listStores(req.ctx);
      return sendCollection(req, reply, 'Store', { items, total: items.length });
    },
  );
  app.get(
    '/stores/currencies',
    {
      schema: {
        operationId: 'stores.currencies',
        tags: ['stores'],
        summary: 'Allowed currencies of the current store',
        response: { 200: collectionResponse(Currency) },
      },
      config: { access: access.public, publicCache: true },
    },
    async (req, reply) => {
      const items = stores.listCurrencies(req.ctx);
      return sendCollection(req, reply, 'Currency', { items, total: items.length });
    },
  );
  app.post(
    '/stores/switch/:storeCode',
    {
      schema: {
        operationId: 'stores.switch',
        tags: ['stores'],
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
