import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { collectionResponse, sendCollection } from '../../platform/pagination.js';
import { Country, CountryParams } from './schemas.js';
import * as directory from './service.js';

export function routes(app: RestApp): void {
  app.get(
    '/countries',
    {
      schema: {
        operationId: 'directory.countries',
        tags: ['directory'],
        summary: "The store's allowed countries, by name, with their regions (unpaginated)",
        response: { 200: collectionResponse(Country) },
      },
      config: { access: access.public, publicCache: true },
    },
    async (req, reply) => {
      const items = directory.listCountries(req.ctx);
      return sendCollection(req, reply, 'Country', { items, total: items.length });
    },
  );
  app.get(
    '/countries/:id',
    {
      schema: {
        operationId: 'directory.country',
        tags: ['directory'],
        summary: 'One country by ISO-2 or ISO-3 code (any case), with its regions',
        params: CountryParams,
        response: { 200: Country },
      },
      config: { access: access.public, publicCache: true },
    },
    async (req) => directory.getCountry(req.ctx, req.params.id),
  );
}
