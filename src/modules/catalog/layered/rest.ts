/** Layered navigation of a category or of search results, served by REST and GraphQL (`layeredFilters`). */
import { Type } from 'typebox';
import { access } from '../../../platform/auth/access.js';
import { op, type Operation } from '../../../platform/operations.js';
import { IdArg } from '../graphql-args.js';
import { productListQuery } from '../products/rest.js';
import { ProductListQuery, type ProductListQueryT } from '../products/schemas.js';
import { layeredFilters } from './service.js';

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

/** `layeredFilters` in Maho's names (categoryId; or a search), with the listing's filters the counts should honour. */
const LayeredFilterArgs = Type.Object({
  categoryId: Type.Optional(IdArg()),
  search: Type.Optional(Type.String()),
  priceMin: Type.Optional(Type.Number()),
  priceMax: Type.Optional(Type.Number()),
  attributeFilters: Type.Optional(Type.String({ description: 'JSON object: attribute code → value, list of values (any of) or {"from","to"}' })),
});

export const layeredFilterOperations: Operation[] = [
  op({
    id: 'layeredFilters.list',
    method: 'GET',
    path: '/layered-filters',
    tags: ['products'],
    summary:
      'Layered navigation of a category (categoryId) or of search results (search|q), counted over the product listing with the same filters; empty without either',
    access: access.public,
    shortName: 'LayeredFilter',
    query: ProductListQuery,
    kind: 'collection',
    response: LayeredFilter,
    graphql: { args: LayeredFilterArgs, input: (a) => ({ query: productListQuery(a) }) },
    run: (ctx, { query }) => layeredFilters(ctx, query as ProductListQueryT),
  }),
];
