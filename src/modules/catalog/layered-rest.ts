import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { collectionResponse, sendCollection } from '../../platform/pagination.js';
import { ProductListQuery } from './products-schemas.js';
import { layeredFilters } from './layered-service.js';

const LayeredFilterOption = Type.Object({
  value: Type.String({ description: 'an option id, or for price a range "from-to" (from included, to excluded)' }),
  label: Type.String(),
  count: Type.Integer({ description: 'products of the listing with this option' }),
  swatch: Type.Optional(Type.Object({ type: Type.String({ description: 'color (#rrggbb) or text' }), value: Type.String() })),
});

const LayeredFilter = Type.Object({
  code: Type.String({ description: 'attribute code; the listing filter is attr_<code> (price: priceMin/priceMax)' }),
  label: Type.String(),
  type: Type.Union([Type.Literal('select'), Type.Literal('multiselect'), Type.Literal('price')]),
  position: Type.Integer(),
  multiple: Type.Boolean({ description: 'several options may be chosen at once (any of them)' }),
  options: Type.Array(LayeredFilterOption),
});

export function layeredFilterRoutes(app: RestApp): void {
  app.get(
    '/layered-filters',
    {
      schema: {
        operationId: 'layeredFilters.list',
        tags: ['products'],
        summary:
          'Layered navigation of a category (categoryId) or of search results (search|q), counted over the product listing with the same filters; empty without either',
        querystring: ProductListQuery,
        response: { 200: collectionResponse(LayeredFilter) },
      },
      config: { access: access.public },
    },
    async (req, reply) => sendCollection(req, reply, 'LayeredFilter', await layeredFilters(req.ctx, req.query)),
  );
}
