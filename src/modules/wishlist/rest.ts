/** The calling customer's wishlist: list, add, sync, remove, move to a cart. */
import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import { op, type Operation } from '../../platform/operations.js';
import { AddWishlistBody, MoveToCartBody, SyncBody, WishlistItem, WishlistItemParams } from './schemas.js';
import * as wishlist from './service.js';

const tags = ['wishlist'];
const shortName = 'WishlistItem';
const INT_MAX = 2147483647;
const ItemArg = Type.Object({ itemId: Type.Integer({ minimum: 1, maximum: INT_MAX }) });
const CustomerParams = Type.Object({ customerId: Type.Integer({ minimum: 1, maximum: INT_MAX }) });

export const operations: Operation[] = [
  op({
    id: 'wishlist.list',
    method: 'GET',
    path: '/customers/me/wishlist',
    tags,
    summary: "The calling customer's wishlist, whole (not paginated), oldest first",
    access: access.customer,
    shortName,
    kind: 'collection',
    response: WishlistItem,
    graphql: { name: 'myWishlistItems', aliases: ['wishlistItems'] },
    run: (ctx) => wishlist.listWishlist(ctx),
  }),
  op({
    id: 'wishlist.listFor',
    method: 'GET',
    path: '/customers/:customerId/wishlist',
    tags,
    summary: "A customer's wishlist for the back office, whole (not paginated), oldest first, priced in the request's store view",
    access: access.admin('wishlists', 'read'),
    shortName,
    params: CustomerParams,
    kind: 'collection',
    response: WishlistItem,
    graphql: { name: 'customerWishlistItems' },
    run: (ctx, { params }) => wishlist.customerWishlist(ctx, params.customerId),
  }),
  op({
    id: 'wishlist.add',
    method: 'POST',
    path: '/customers/me/wishlist',
    tags,
    summary: 'Add a product (unknown or not sellable: 404); a product already on the list gets the qty added',
    access: access.customer,
    shortName,
    body: AddWishlistBody,
    response: WishlistItem,
    status: 201,
    graphql: { name: 'addWishlistItem' },
    run: (ctx, { body }) => wishlist.addToWishlist(ctx, body),
  }),
  op({
    id: 'wishlist.sync',
    method: 'POST',
    path: '/customers/me/wishlist/sync',
    tags,
    summary:
      'Merge a guest wishlist: add the products not yet on the list (unknown ids skipped); answers with the first added, else the first already there',
    access: access.customer,
    shortName,
    body: SyncBody,
    response: WishlistItem,
    status: 201,
    // an empty guest list has nothing to merge: GraphQL answers a null item, as Maho's does
    graphql: {
      name: 'syncWishlistItem',
      around: (args, next) => (Array.isArray(args.productIds) && args.productIds.length === 0 ? Promise.resolve(null) : next(args)),
    },
    run: (ctx, { body }) => wishlist.syncWishlist(ctx, body),
  }),
  op({
    id: 'wishlist.delete',
    method: 'DELETE',
    path: '/customers/me/wishlist/:id',
    tags,
    summary: "Remove an item (not on the caller's list: 404)",
    access: access.customer,
    shortName,
    params: WishlistItemParams,
    status: 204,
    graphql: { name: 'removeWishlistItem', args: ItemArg, input: (a) => ({ params: { id: a.itemId } }) },
    run: (ctx, { params }) => wishlist.removeFromWishlist(ctx, params.id),
  }),
  op({
    id: 'wishlist.moveToCart',
    method: 'POST',
    path: '/customers/me/wishlist/:id/move-to-cart',
    tags,
    summary:
      'Add the item to a cart of the caller (cartId, numeric or masked; default a new cart) and remove it from the list; a refused addition is 400 and keeps the item. Answers with the item moved.',
    access: access.customer,
    shortName,
    params: WishlistItemParams,
    body: MoveToCartBody,
    response: WishlistItem,
    status: 201,
    graphql: {
      name: 'moveToCartWishlistItem',
      args: Type.Object({ ...ItemArg.properties, ...MoveToCartBody.properties }),
      input: ({ itemId, ...body }) => ({ params: { id: itemId }, body }),
    },
    run: async (ctx, { params, body }) => (await wishlist.moveToCart(ctx, params.id, body)).item,
  }),
];
