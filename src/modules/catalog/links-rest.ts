import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { collectionResponse, sendCollection } from '../../platform/pagination.js';
import { NoContent, ProductLink, ProductLinkInput, ProductLinkParams, ProductLinksBody, ProductParams } from './composites-schemas.js';
import * as linksService from './links-service.js';
import type { LinkKind } from './links-service.js';

const tags = ['products'];
const write = { access: access.admin('products', 'write') };

/** Operation id part and wording of each kind of link. */
const KINDS: { kind: LinkKind; op: string; label: string }[] = [
  { kind: 'related', op: 'related', label: 'related products' },
  { kind: 'cross-sell', op: 'crossSell', label: 'cross-sells' },
  { kind: 'up-sell', op: 'upSell', label: 'up-sells' },
];

export function linkRoutes(app: RestApp): void {
  for (const { kind, op, label } of KINDS) {
    const path = `/products/:productId/links/${kind}`;
    app.get(
      path,
      {
        schema: {
          operationId: `products.links.${op}.list`,
          tags,
          summary: `The product's ${label} (unpaginated; storefront callers see enabled, catalog-visible products only)`,
          params: ProductParams,
          response: { 200: collectionResponse(ProductLink) },
        },
        config: { access: access.public },
      },
      async (req, reply) => {
        const items = await linksService.listProductLinks(req.ctx, req.params.productId, kind);
        return sendCollection(req, reply, 'ProductLink', { items, total: items.length });
      },
    );
    app.post(
      path,
      {
        schema: {
          operationId: `products.links.${op}.add`,
          tags,
          summary: `Add one of the product's ${label}`,
          params: ProductParams,
          body: ProductLinkInput,
          response: { 201: ProductLink },
        },
        config: write,
      },
      async (req, reply) => reply.code(201).send(await linksService.addProductLink(req.ctx, req.params.productId, kind, req.body)),
    );
    app.put(
      path,
      {
        schema: {
          operationId: `products.links.${op}.replace`,
          tags,
          summary: `Replace the product's ${label} with the given array`,
          params: ProductParams,
          body: ProductLinksBody,
          response: { 200: collectionResponse(ProductLink) },
        },
        config: write,
      },
      async (req, reply) => {
        const items = await linksService.replaceProductLinks(req.ctx, req.params.productId, kind, req.body);
        return sendCollection(req, reply, 'ProductLink', { items, total: items.length });
      },
    );
    app.delete(
      `${path}/:linkedProductId`,
      {
        schema: {
          operationId: `products.links.${op}.remove`,
          tags,
          summary: `Remove one of the product's ${label}`,
          params: ProductLinkParams,
          response: { 204: NoContent },
        },
        config: write,
      },
      async (req, reply) => {
        await linksService.removeProductLink(req.ctx, req.params.productId, kind, req.params.linkedProductId);
        return reply.code(204).send(null);
      },
    );
  }
}
