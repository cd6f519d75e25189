/**
 * The wishlist over GraphQL, as Maho's GraphQL clients use it: myWishlistItems (a connection), addWishlistItem,
 * removeWishlistItem, syncWishlistItem and moveToCartWishlistItem with `input` and payload; per access level.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { registerCustomer } from '../customers/service.js';

let t: TestApp;
let customer: string;
let other: string;
let admin: string;
let product: Record<string, any>;

const gql = (query: string, token?: string, variables?: Record<string, unknown>) => t.gql(query, token, variables);

before(async () => {
  t = await buildTestApp();
  customer = await t.tokens.customer();
  admin = await t.tokens.admin();
  await registerCustomer(t.systemCtx(), { email: 'gql-wish@example.com', password: 'Password123!', firstname: 'G', lastname: 'Wish' });
  other = await t.tokens.customer('gql-wish@example.com', 'Password123!');
  product = await createTestProduct(t, { price: 20, specialPrice: 15, stockData: { qty: 100, isInStock: true } });
});
after(() => t.close());

const LIST =
  '{ myWishlistItems { totalCount edges { cursor node { id _id productId productName productSku qty } } pageInfo { hasNextPage } } }';

describe('wishlist over GraphQL', () => {
  test('anonymous: myWishlistItems is null with a 401 error; an admin gets 403', async () => {
    const anon = await gql(LIST);
    assert.equal(anon.data.myWishlistItems, null);
    assert.equal(anon.errors[0].extensions.status, 401);
    const adm = await gql(LIST, admin);
    assert.equal(adm.errors[0].extensions.status, 403);
  });

  test('add, list, remove round trip with IRIs and numeric ids', async () => {
    const added = await gql(
      `mutation { addWishlistItem(input: {productId: ${product.id}, qty: 1, clientMutationId: "m1"}) {
        clientMutationId
        wishlistItem { id _id productId productName productSku productPrice productFinalPrice productType qty inStock } } }`,
      customer,
    );
    assert.equal(added.errors, undefined, JSON.stringify(added.errors));
    const item = added.data.addWishlistItem.wishlistItem;
    assert.equal(added.data.addWishlistItem.clientMutationId, 'm1');
    assert.equal(item.productId, product.id);
    assert.equal(item.productPrice, 20);
    assert.equal(item.productFinalPrice, 15);
    assert.equal(item.inStock, true);
    assert.equal(typeof item._id, 'number');
    assert.equal(item.id, `/api/rest/v2/customers/me/wishlist/${item._id}`);

    const list = await gql(LIST, customer);
    assert.equal(list.errors, undefined);
    assert.equal(list.data.myWishlistItems.totalCount, 1);
    assert.deepEqual(
      list.data.myWishlistItems.edges.map((e: any) => e.node._id),
      [item._id],
    );
    assert.equal(list.data.myWishlistItems.pageInfo.hasNextPage, false);
    // the reference's second name answers the same list
    const same = await gql('{ wishlistItems { totalCount edges { node { _id } } } }', customer);
    assert.deepEqual(
      same.data.wishlistItems.edges.map((e: any) => e.node._id),
      [item._id],
    );
    assert.equal(
      (await gql('{ wishlistItems { totalCount } }', other)).data.wishlistItems.totalCount,
      0,
      "another customer's list is their own",
    );

    // another customer cannot remove it
    const foreign = await gql(`mutation { removeWishlistItem(input: {itemId: ${item._id}}) { wishlistItem { _id } } }`, other);
    assert.equal(foreign.data.removeWishlistItem, null);
    assert.equal(foreign.errors[0].extensions.status, 404);

    const removed = await gql(`mutation { removeWishlistItem(input: {itemId: ${item._id}}) { wishlistItem { id _id } } }`, customer);
    assert.equal(removed.errors, undefined, JSON.stringify(removed.errors));
    assert.equal(removed.data.removeWishlistItem.wishlistItem._id, item._id);
    assert.equal((await gql(LIST, customer)).data.myWishlistItems.totalCount, 0);
  });

  test('sync: an empty list succeeds with a null item; product ids are added', async () => {
    const empty = await gql('mutation { syncWishlistItem(input: {productIds: []}) { wishlistItem { _id } } }', customer);
    assert.equal(empty.errors, undefined, JSON.stringify(empty.errors));
    assert.equal(empty.data.syncWishlistItem.wishlistItem, null);
    const synced = await gql(
      `mutation { syncWishlistItem(input: {productIds: [${product.id}]}) { wishlistItem { _id productId } } }`,
      customer,
    );
    assert.equal(synced.errors, undefined, JSON.stringify(synced.errors));
    assert.equal(synced.data.syncWishlistItem.wishlistItem.productId, product.id);
  });

  test('move to cart answers the item moved and empties the list', async () => {
    const list = await gql(LIST, customer);
    const id = list.data.myWishlistItems.edges[0].node._id;
    const moved = await gql(
      `mutation { moveToCartWishlistItem(input: {itemId: ${id}, qty: 2}) { wishlistItem { _id productId } } }`,
      customer,
    );
    assert.equal(moved.errors, undefined, JSON.stringify(moved.errors));
    assert.equal(moved.data.moveToCartWishlistItem.wishlistItem._id, id);
    assert.equal((await gql(LIST, customer)).data.myWishlistItems.totalCount, 0);
  });

  test('bad input is an error with status 400 or a GraphQL validation error, never a 500', async () => {
    const noProduct = await gql('mutation { addWishlistItem(input: {productId: 0}) { wishlistItem { _id } } }', customer);
    assert.equal(noProduct.data.addWishlistItem, null);
    assert.equal(noProduct.errors[0].extensions.status, 400);
    const wrongType = await gql('mutation { addWishlistItem(input: {productId: "x"}) { wishlistItem { _id } } }', customer);
    assert.equal(wrongType.errors[0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
    const unknown = await gql(`mutation { addWishlistItem(input: {productId: 999999}) { wishlistItem { _id } } }`, customer);
    assert.equal(unknown.errors[0].extensions.status, 404);
  });
});
