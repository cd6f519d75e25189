/** Countries and their regions: REST and GraphQL (`countries`, `country(id:)`) from one declaration each. */
import { access } from '../../platform/auth/access.js';
import { op, type Operation } from '../../platform/operations.js';
import { Country, CountryParams } from './schemas.js';
import * as directory from './service.js';

const tags = ['directory'];

export const operations: Operation[] = [
  op({
    id: 'directory.countries',
    method: 'GET',
    path: '/countries',
    tags,
    summary: "The store's allowed countries, by name, with their regions (unpaginated)",
    access: access.public,
    publicCache: true,
    shortName: 'Country',
    kind: 'collection',
    response: Country,
    run: async (ctx) => {
      const items = directory.listCountries(ctx);
      return { items, total: items.length };
    },
  }),
  op({
    id: 'directory.country',
    method: 'GET',
    path: '/countries/:id',
    tags,
    summary: 'One country by ISO-2 or ISO-3 code (any case), with its regions',
    access: access.public,
    publicCache: true,
    shortName: 'Country',
    params: CountryParams,
    response: Country,
    // the type's id is the ISO code; the IRI of the REST item is accepted too
    graphql: { input: (a) => ({ params: { id: String(a.id ?? '').replace(/^\/api\/rest\/v2\/countries\//, '') } }) },
    run: async (ctx, { params }) => directory.getCountry(ctx, params.id),
  }),
];
