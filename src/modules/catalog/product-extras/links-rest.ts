/** Related products, cross-sells and up-sells of a product (REST and GraphQL). */
import { access } from '../../../platform/auth/access.js';
import { op, type Operation } from '../../../platform/operations.js';
import { ProductLink, ProductLinkInput, ProductLinkParams, ProductLinksBody, ProductParams } from '../products/subresource-schemas.js';
import * as linksService from './links-service.js';
import type { LinkKind } from './links-service.js';

const tags = ['products'];
const write = access.admin('products', 'write');
const shortName = 'ProductLink';

/** Operation id part, GraphQL name part and wording of each kind of link. */
const KINDS: { kind: LinkKind; op: string; name: string; label: string }[] = [
  { kind: 'related', op: 'related', name: 'Related', label: 'related products' },
  { kind: 'cross-sell', op: 'crossSell', name: 'CrossSell', label: 'cross-sells' },
  { kind: 'up-sell', op: 'upSell', name: 'UpSell', label: 'up-sells' },
];

export const linkOperations: Operation[] = KINDS.flatMap(({ kind, op: id, name, label }) => {
  const path = `/products/:productId/links/${kind}`;
  return [
    op({
      id: `products.links.${id}.list`,
      method: 'GET',
      path,
      tags,
      summary: `The product's ${label} (unpaginated; storefront callers see enabled, catalog-visible products only)`,
      access: access.public,
      shortName,
      params: ProductParams,
      kind: 'collection',
      response: ProductLink,
      graphql: { name: `product${name}Links` },
      run: async (ctx, { params }) => {
        const items = await linksService.listProductLinks(ctx, params.productId, kind);
        return { items, total: items.length };
      },
    }),
    op({
      id: `products.links.${id}.add`,
      method: 'POST',
      path,
      tags,
      summary: `Add one of the product's ${label}`,
      access: write,
      shortName,
      params: ProductParams,
      body: ProductLinkInput,
      response: ProductLink,
      status: 201,
      graphql: { name: `addProduct${name}Link` },
      run: (ctx, { params, body }) => linksService.addProductLink(ctx, params.productId, kind, body),
    }),
    op({
      id: `products.links.${id}.replace`,
      method: 'PUT',
      path,
      tags,
      summary: `Replace the product's ${label} with the given array`,
      access: write,
      shortName,
      params: ProductParams,
      body: ProductLinksBody,
      kind: 'collection',
      response: ProductLink,
      // the payload is the list of links
      graphql: { name: `replaceProduct${name}Links`, list: 'links' },
      run: async (ctx, { params, body }) => {
        const items = await linksService.replaceProductLinks(ctx, params.productId, kind, body);
        return { items, total: items.length };
      },
    }),
    op({
      id: `products.links.${id}.remove`,
      method: 'DELETE',
      path: `${path}/:linkedProductId`,
      tags,
      summary: `Remove one of the product's ${label}`,
      access: write,
      shortName,
      params: ProductLinkParams,
      status: 204,
      graphql: { name: `removeProduct${name}Link` },
      run: (ctx, { params }) => linksService.removeProductLink(ctx, params.productId, kind, params.linkedProductId),
    }),
  ];
});
