/**
 * GraphQL-only fields of the catalog, with no REST twin:
 * - `categoryProducts(categoryId:)`: Maho's listing of a category (category position order unless sortBy), a
 *   `ProductConnection` served by the product listing's service path. It is declared as an operation that is never
 *   registered as a REST route; its resolver (cursor paging, argument checks, access) is the derived one.
 * - `deleteProductMedia(input: {productId, valueId})`: its REST route is a plain one (an empty body reads as `{}`);
 *   the GraphQL field is derived from a declaration that is never registered as a route, as above.
 * - the replacements that answer a list (`replaceProductTierPrices`, `replaceProductGroupedChildren`,
 *   `replaceProduct{Related,CrossSell,UpSell}Links`): their declarations say `graphql.via` this field, since a
 *   derived mutation payload holds one item. The payload holds the list: `{ <list> [Type!]! clientMutationId }`.
 */
import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import { checkBody, checkParams } from '../../platform/http.js';
import { deriveGraphql } from '../../platform/graphql-derive.js';
import { resolver, type GraphqlContribution } from '../../platform/graphql.js';
import { op, type Operation } from '../../platform/operations.js';
import type { CollectionResult } from '../../platform/pagination.js';
import { groupedOperations } from './product-types/grouped-rest.js';
import { deleteProductMedia } from './product-extras/media-rest.js';
import { linkOperations } from './product-extras/links-rest.js';
import { tierPriceOperations } from './product-extras/tier-prices-rest.js';
import { PageQuery } from '../../platform/pagination.js';
import { IdArg } from './graphql-args.js';
import { PRODUCT_PAGE } from './products/read.js';
import { productList } from './products/rest.js';
import { Product, PRODUCT_SORT_FIELDS, type ProductListQueryT } from './products/schemas.js';

const CategoryProductsQuery = Type.Object({
  categoryId: IdArg('anchor categories include their sub-categories'),
  sortBy: Type.Optional(Type.Enum([...PRODUCT_SORT_FIELDS])),
  sortDir: Type.Optional(Type.Enum(['asc', 'desc', 'ASC', 'DESC'])),
  ...PageQuery,
});

const categoryProducts = op({
  id: 'products.categoryProducts',
  method: 'GET',
  path: '/categories/:categoryId/products',
  tags: ['products'],
  summary: 'Products of a category, in category position order (GraphQL only)',
  access: access.public,
  shortName: 'Product',
  query: CategoryProductsQuery,
  kind: 'collection',
  response: Product,
  page: PRODUCT_PAGE,
  graphql: { name: 'categoryProducts' },
  run: (ctx, { query, page }) => productList(ctx, { ...query, sortBy: query.sortBy ?? 'position' } as ProductListQueryT, page),
});

const derived = deriveGraphql([categoryProducts, deleteProductMedia], { apiPrefix: '/api/rest/v2' });

/** A mutation `name(input: {productId, <list>}) { <list> clientMutationId }` running the declaration named `via` it. */
function listMutation(ops: Operation[], name: string, list: string) {
  const o = ops.find((x) => x.graphql && x.graphql.via === name);
  if (!o) throw new Error(`no declaration is served by ${name}`);
  const typeDefs = `input ${name}Input {
  productId: Int!
  ${list}: Iterable!
  clientMutationId: String
}
type ${name}Payload {
  ${list}: [${o.shortName}!]!
  clientMutationId: String
}
extend type Mutation {
  ${name}(input: ${name}Input!): ${name}Payload
}`;
  const resolve = resolver<{ input: Record<string, unknown> }>(o.access, async (ctx, { input }) => {
    const params = checkParams(o.params as object, { productId: input.productId });
    const body = checkBody(o.body as object, input[list]);
    const result = (await o.run(ctx, { params, query: {}, body, headers: {}, page: { page: 1, size: 0, offset: 0 } })) as CollectionResult<unknown>;
    return { [list]: result.items, clientMutationId: input.clientMutationId ?? null };
  });
  return { typeDefs, name, resolve };
}

const lists = [
  listMutation(tierPriceOperations, 'replaceProductTierPrices', 'tierPrices'),
  listMutation(groupedOperations, 'replaceProductGroupedChildren', 'children'),
  ...['Related', 'CrossSell', 'UpSell'].map((k) => listMutation(linkOperations, `replaceProduct${k}Links`, 'links')),
];

export const catalogGraphql: GraphqlContribution = {
  typeDefs: [
    `extend type Query {
  categoryProducts(categoryId: Int!, sortBy: String, sortDir: String, pageSize: Int, page: Int, first: Int, last: Int, before: String, after: String): ProductConnection
}`,
    `input deleteProductMediaInput {
  productId: Int!
  valueId: Int!
  clientMutationId: String
}
type deleteProductMediaPayload {
  productMedia: ProductMedia
  clientMutationId: String
}
extend type Mutation {
  deleteProductMedia(input: deleteProductMediaInput!): deleteProductMediaPayload
}`,
    ...lists.map((l) => l.typeDefs),
  ].join('\n'),
  resolvers: {
    Query: { categoryProducts: (derived.resolvers.Query as Record<string, unknown>).categoryProducts },
    Mutation: {
      deleteProductMedia: (derived.resolvers.Mutation as Record<string, unknown>).deleteProductMedia,
      ...Object.fromEntries(lists.map((l) => [l.name, l.resolve])),
    },
  } as GraphqlContribution['resolvers'],
};
