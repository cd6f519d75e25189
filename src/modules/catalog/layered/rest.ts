/** Layered navigation of a category or of search results, served by REST and GraphQL (`layeredFilters`). */
import { Type } from 'typebox';
import { access } from '../../../platform/auth/access.js';
import { op, type Operation } from '../../../platform/operations.js';
import { GraphqlId } from '../../../platform/graphql-derive.js';
import { notFound } from '../../../platform/errors.js';
import { storeRootId } from '../categories/read.js';
import { IdArg } from '../graphql-args.js';
import { productListQuery } from '../products/rest.js';
import { ProductListQuery, type ProductListQueryT } from '../products/schemas.js';
import { searchText } from '../products/listing.js';
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
  attributeFilters: Type.Optional(
    Type.String({ description: 'JSON object: attribute code → value, list of values (any of) or {"from","to"}' }),
  ),
});

const LayeredFilterParams = Type.Object({
  code: Type.String({ pattern: '^[a-zA-Z][a-zA-Z0-9_]{0,254}$', description: 'attribute code, or price' }),
});

/** The code a `layeredFilter(id:)` names: the code itself, or the IRI `/api/rest/v2/layered-filters/<code>`. */
function codeOfId(id: string): string {
  const s = String(id);
  return s.slice(s.lastIndexOf('/') + 1).split('?')[0]!;
}

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
  op({
    id: 'layeredFilters.get',
    method: 'GET',
    path: '/layered-filters/:code',
    tags: ['products'],
    summary:
      'One filter of the layered navigation by its code (an attribute code, or price): of a category (categoryId) or of search results (search|q), else of the whole catalog of the store view (its root category); 404 when the listing has no such filter',
    access: access.public,
    shortName: 'LayeredFilter',
    params: LayeredFilterParams,
    query: ProductListQuery,
    response: LayeredFilter,
    // Maho's item query `layeredFilter(id:)`: the id is the filter's code (or its REST path)
    graphql: {
      name: 'layeredFilter',
      args: Type.Object({
        id: GraphqlId({ description: 'the code, or /api/rest/v2/layered-filters/<code>' }),
        ...LayeredFilterArgs.properties,
      }),
      input: ({ id, ...a }) => ({ params: { code: codeOfId(id) }, query: productListQuery(a) }),
    },
    run: async (ctx, { params, query }) => {
      const q = query as ProductListQueryT;
      const scoped = q.categoryId !== undefined || searchText(q) ? q : { ...q, categoryId: storeRootId(ctx) };
      const { items } = await layeredFilters(ctx, scoped);
      const hit = items.find((f) => f.code === params.code);
      if (!hit) throw notFound(`No filter ${params.code} in this listing`);
      return hit;
    },
  }),
];
