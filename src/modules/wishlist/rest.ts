import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { collectionResponse, sendCollection } from '../../platform/pagination.js';
import { AddWishlistBody, MoveToCartBody, SyncBody, WishlistItem, WishlistItemParams } from './schemas.js';
import * as wishlist from './service.js';

const tags = ['wishlist'];

export function routes(app: RestApp): void {
  app.get(
    '/customers/me/wishlist',
    {
      schema: {
        operationId: 'wishlist.list',
        tags,
        summary: "The calling customer's wishlist, whole (not paginated), oldest first",
        response: { 200: collectionResponse(WishlistItem) },
      },
      config: { access: access.customer },
    },
    async (req, reply) => sendCollection(req, reply, 'WishlistItem', await wishlist.listWishlist(req.ctx)),
  );
  app.post(
    '/customers/me/wishlist',
    {
      schema: {
        operationId: 'wishlist.add',
        tags,
        summary: 'Add a product (unknown or not sellable: 404); a product already on the list gets the qty added',
        body: AddWishlistBody,
        response: { 201: WishlistItem },
      },
      config: { access: access.customer },
    },
    async (req, reply) => reply.code(201).send(await wishlist.addToWishlist(req.ctx, req.body)),
  );
  app.post(
    '/customers/me/wishlist/sync',
    {
      schema: {
        operationId: 'wishlist.sync',
        tags,
        summary: 'Merge a guest wishlist: add the products not yet on the list (unknown ids skipped); answers with the first added, else the first already there',
        body: SyncBody,
        response: { 201: WishlistItem },
      },
      config: { access: access.customer },
    },
    async (req, reply) => reply.code(201).send(await wishlist.syncWishlist(req.ctx, req.body)),
  );
  app.delete(
    '/customers/me/wishlist/:id',
    {
      schema: {
        operationId: 'wishlist.delete',
        tags,
        summary: 'Remove an item (not on the caller\'s list: 404)',
        params: WishlistItemParams,
        response: { 204: Type.Null({ description: 'Removed' }) },
      },
      config: { access: access.customer },
    },
    async (req, reply) => {
      await wishlist.removeFromWishlist(req.ctx, req.params.id);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/customers/me/wishlist/:id/move-to-cart',
    {
      schema: {
        operationId: 'wishlist.moveToCart',
        tags,
        summary: 'Add the item to a cart of the caller (cartId, numeric or masked; default a new cart) and remove it from the list; a refused addition is 400 and keeps the item. Answers with the item moved.',
        params: WishlistItemParams,
        body: MoveToCartBody,
        response: { 201: WishlistItem },
      },
      config: { access: access.customer },
    },
    async (req, reply) => reply.code(201).send((await wishlist.moveToCart(req.ctx, req.params.id, req.body)).item),
  );
}
