/**
 * The catalog over GraphQL, as Maho's GraphQL clients use it: products (every listing filter, cursor paging),
 * product(id), categoryProducts, categories and category(id), layeredFilters, the admin writes with `input` and
 * payloads, product attributes and attribute sets; per access level, and bad input (400, never 500).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { countStatements } from '../../platform/db.js';

let t: TestApp;
let admin: string;
let customer: string;
let reader: string;
let cat: number;
let child: number;
const p: Record<string, Record<string, any>> = {};

const gql = (query: string, token?: string, variables?: Record<string, unknown>) => t.gql(query, token, variables);

const ids = (conn: { edges: { node: { _id: number } }[] }) => conn.edges.map((e) => e.node._id);

async function createCategory(body: Record<string, unknown>): Promise<Record<string, any>> {
  const r = await t.req('POST', `${API}/categories`, { token: admin, body: { parentId: 2, ...body } });
  assert.equal(r.status, 201, r.text);
  return r.body;
}

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  reader = await t.tokens.apiUser(['product-attributes/read', 'attribute-sets/read']);
  cat = (await createCategory({ name: 'GQL Dresses', urlKey: 'gql-dresses' })).id;
  child = (await createCategory({ name: 'GQL Evening', urlKey: 'gql-evening', parentId: cat, includeInMenu: false })).id;
  p.cheap = await createTestProduct(t, {
    name: 'Gql Alpha Dress',
    price: 10,
    categoryIds: [cat],
    customAttributesWrite: { color: 'Red', barcode: 'BC-GQL-1' },
  });
  p.mid = await createTestProduct(t, { name: 'Gql Beta Dress', price: 60, categoryIds: [cat], customAttributesWrite: { color: 'Blue' } });
  p.dear = await createTestProduct(t, {
    name: 'Gql Gamma Dress',
    price: 150,
    categoryIds: [child],
    customAttributesWrite: { color: 'Red' },
  });
  p.off = await createTestProduct(t, { name: 'Gql Delta Dress', price: 20, categoryIds: [cat], status: 'disabled' });
});
after(() => t.close());

const NODE = 'id _id sku name price finalPrice stockStatus categoryIds';

describe('products', () => {
  test('products: IRIs and numeric ids, the REST list fields', async () => {
    const r = await gql(
      `{ products(pageSize: 5) { totalCount edges { cursor node { ${NODE} } } pageInfo { hasNextPage endCursor } } }`,
      customer,
    );
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    const edges = r.data!.products.edges;
    assert.ok(edges.length > 0 && edges.length <= 5);
    for (const { node } of edges) {
      assert.equal(typeof node._id, 'number');
      assert.equal(node.id, `/api/rest/v2/products/${node._id}`);
      assert.equal(typeof node.sku, 'string');
      assert.equal(typeof node.stockStatus, 'string');
    }
    const rest = await t.req('GET', `${API}/products?pageSize=5`, { token: customer });
    assert.equal(r.data!.products.totalCount, rest.body.totalItems);
    assert.deepEqual(
      ids(r.data!.products),
      rest.body.member.map((m: { id: number }) => m.id),
    );
  });

  test('filters: categoryId, priceMin/priceMax, sku, barcode, search, attributeFilters, sortBy', async () => {
    const inCat = await gql(`{ products(categoryId: ${cat}) { totalCount edges { node { _id categoryIds } } } }`);
    assert.equal(inCat.errors, undefined, JSON.stringify(inCat.errors));
    // the category is an anchor: its sub-category's product is in it; the disabled one is not shown
    assert.deepEqual(ids(inCat.data!.products).sort(), [p.cheap.id, p.mid.id, p.dear.id].sort());
    const priced = await gql(`{ products(categoryId: ${cat}, priceMin: 50, priceMax: 200) { edges { node { _id price } } } }`);
    assert.deepEqual(ids(priced.data!.products).sort(), [p.mid.id, p.dear.id].sort());
    for (const e of priced.data!.products.edges) assert.ok(e.node.price >= 50 && e.node.price <= 200);
    const bySku = await gql(`{ products(sku: "${p.mid.sku.toUpperCase()}") { edges { node { _id sku } } } }`);
    assert.deepEqual(ids(bySku.data!.products), [p.mid.id]);
    const byBarcode = await gql('{ products(barcode: "BC-GQL-1") { edges { node { _id } } } }');
    assert.equal(byBarcode.errors, undefined, JSON.stringify(byBarcode.errors));
    assert.deepEqual(ids(byBarcode.data!.products), [p.cheap.id]);
    const searched = await gql('{ products(search: "Gamma") { edges { node { _id name } } } }');
    assert.deepEqual(ids(searched.data!.products), [p.dear.id]);
    const red = await gql(`{ products(categoryId: ${cat}, attributeFilters: "{\\"color\\": \\"Red\\"}") { edges { node { _id } } } }`);
    assert.equal(red.errors, undefined, JSON.stringify(red.errors));
    assert.deepEqual(ids(red.data!.products).sort(), [p.cheap.id, p.dear.id].sort());
    const sorted = await gql(`{ products(categoryId: ${cat}, sortBy: "price", sortDir: "desc") { edges { node { _id } } } }`);
    assert.deepEqual(ids(sorted.data!.products), [p.dear.id, p.mid.id, p.cheap.id]);
  });

  test('cursor paging: first/after and last/before walk the same list as REST pages', async () => {
    const q = (args: string) =>
      gql(
        `{ products(categoryId: ${cat}, sortBy: "price", ${args}) { totalCount edges { cursor node { _id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`,
      );
    const first = await q('first: 2');
    assert.equal(first.errors, undefined, JSON.stringify(first.errors));
    assert.deepEqual(ids(first.data!.products), [p.cheap.id, p.mid.id]);
    assert.equal(first.data!.products.totalCount, 3);
    assert.equal(first.data!.products.pageInfo.hasNextPage, true);
    assert.equal(first.data!.products.pageInfo.hasPreviousPage, false);
    const next = await q(`first: 2, after: "${first.data!.products.pageInfo.endCursor}"`);
    assert.deepEqual(ids(next.data!.products), [p.dear.id]);
    assert.equal(next.data!.products.pageInfo.hasNextPage, false);
    assert.equal(next.data!.products.pageInfo.hasPreviousPage, true);
    const last = await q('last: 1');
    assert.deepEqual(ids(last.data!.products), [p.dear.id]);
    const before = await q(`last: 1, before: "${last.data!.products.edges[0].cursor}"`);
    assert.deepEqual(ids(before.data!.products), [p.mid.id]);
    const paged = await q('pageSize: 1, page: 2');
    assert.deepEqual(ids(paged.data!.products), [p.mid.id]);
  });

  test('product(id): IRI, number; unknown, disabled or another resource is null with a 404', async () => {
    const byIri = await gql(
      `{ product(id: "/api/rest/v2/products/${p.mid.id}") { id _id sku name price finalPrice mediaGallery tierPrices categoryIds } }`,
    );
    assert.equal(byIri.errors, undefined, JSON.stringify(byIri.errors));
    assert.equal(byIri.data!.product._id, p.mid.id);
    assert.equal(byIri.data!.product.sku, p.mid.sku);
    assert.deepEqual(byIri.data!.product.categoryIds, [cat]);
    assert.ok(Array.isArray(byIri.data!.product.mediaGallery));
    const byNumber = await gql(`{ product(id: ${p.mid.id}) { _id } }`, customer);
    assert.equal(byNumber.data!.product._id, p.mid.id);
    for (const id of ['/api/rest/v2/products/999999', `/api/rest/v2/categories/${p.mid.id}`, String(p.off.id)]) {
      const r = await gql(`{ product(id: "${id}") { _id } }`);
      assert.equal(r.data!.product, null, id);
      assert.equal(r.errors![0].extensions.status, 404, id);
    }
    // an admin reads the disabled product
    const adm = await gql(`{ product(id: ${p.off.id}) { _id status } }`, admin);
    assert.equal(adm.errors, undefined, JSON.stringify(adm.errors));
    assert.equal(adm.data!.product._id, p.off.id);
  });

  test('a page of 20 products costs the statements of a page of 5 (no statement per node), signed in or not', async () => {
    const batch = (await createCategory({ name: 'GQL Batch', urlKey: 'gql-batch' })).id;
    for (let i = 0; i < 20; i++) await createTestProduct(t, { name: `Gql Batch ${i}`, price: 5 + i, categoryIds: [batch] });
    const page = (n: number) =>
      `{ products(first: ${n}, categoryId: ${batch}) { totalCount edges { node { ${NODE} urlKey thumbnailUrl tierPrices } } } }`;
    for (const token of [undefined, customer, admin]) {
      const count = async (n: number) => {
        await gql(page(n), token); // warm: the first read of a shape fills caches
        // the request's own statements: a background pass landing meanwhile is not the request's
        const { n: statements, result: r } = await countStatements(() => gql(page(n), token));
        assert.equal(r.errors, undefined, JSON.stringify(r.errors));
        assert.equal(r.data!.products.edges.length, n);
        assert.ok(r.data!.products.edges.every((e: any) => e.node.categoryIds.length > 0 && typeof e.node.price === 'number'));
        assert.ok(statements > 0, "the request's statements are counted");
        return statements;
      };
      const five = await count(5);
      assert.equal(await count(20), five, `statements for 20 products (${token ? 'signed in' : 'anonymous'})`);
    }
  });

  test('categoryProducts: the products of a category, paged', async () => {
    const r = await gql(
      `{ categoryProducts(categoryId: ${cat}, pageSize: 2) { totalCount edges { node { _id id name } } pageInfo { hasNextPage endCursor } } }`,
      customer,
    );
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    assert.equal(r.data!.categoryProducts.totalCount, 3);
    assert.equal(r.data!.categoryProducts.edges.length, 2);
    assert.equal(r.data!.categoryProducts.pageInfo.hasNextPage, true);
    const rest = await gql(
      `{ categoryProducts(categoryId: ${cat}, first: 5, after: "${r.data!.categoryProducts.pageInfo.endCursor}") { edges { node { _id } } } }`,
    );
    const all = [...ids(r.data!.categoryProducts), ...ids(rest.data!.categoryProducts)];
    assert.deepEqual(all.sort(), [p.cheap.id, p.mid.id, p.dear.id].sort());
    const sorted = await gql(`{ categoryProducts(categoryId: ${cat}, sortBy: "price", sortDir: "asc") { edges { node { _id } } } }`);
    assert.deepEqual(ids(sorted.data!.categoryProducts), [p.cheap.id, p.mid.id, p.dear.id]);
    const none = await gql('{ categoryProducts(categoryId: 999999) { totalCount edges { node { _id } } } }');
    assert.equal(none.data!.categoryProducts.totalCount, 0);
  });

  test('bad input: a 400 or a validation error, never a 500', async () => {
    for (const [query, status] of [
      ['{ products(categoryId: 0) { totalCount } }', 400],
      ['{ products(sortBy: "bogus") { totalCount } }', 400],
      ['{ products(priceMin: 10, priceMax: 5) { totalCount } }', 400],
      ['{ products(attributeFilters: "not json") { totalCount } }', 400],
      ['{ products(createdFrom: "yesterday") { totalCount } }', 400],
      ['{ products(after: "YWJj") { totalCount } }', 400],
      ['{ products(first: -1) { totalCount } }', 400],
      ['{ categoryProducts(categoryId: -3) { totalCount } }', 400],
      ['{ categoryProducts(categoryId: 2, sortDir: "sideways") { totalCount } }', 400],
    ] as const) {
      const r = await gql(query);
      assert.ok(r.errors?.length, query);
      assert.equal(r.errors![0].extensions.status, status, `${query}: ${JSON.stringify(r.errors)}`);
    }
    const missing = await gql('{ categoryProducts { totalCount } }');
    assert.equal(missing.errors![0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
  });

  test('createProduct, updateProduct, deleteProduct: admins only, with input and payload', async () => {
    const denied = await gql('mutation { createProduct(input: {sku: "gql-new", name: "New", price: 5}) { product { _id } } }', customer);
    assert.equal(denied.data!.createProduct, null);
    assert.equal(denied.errors![0].extensions.status, 403);
    const anon = await gql('mutation { createProduct(input: {sku: "gql-new", name: "New", price: 5}) { product { _id } } }');
    assert.equal(anon.errors![0].extensions.status, 401);
    const created = await gql(
      'mutation { createProduct(input: {sku: "gql-new", name: "New", price: 5, clientMutationId: "c1"}) { clientMutationId product { id _id sku price } } }',
      admin,
    );
    assert.equal(created.errors, undefined, JSON.stringify(created.errors));
    const made = created.data!.createProduct.product;
    assert.equal(created.data!.createProduct.clientMutationId, 'c1');
    assert.equal(made.sku, 'gql-new');
    assert.equal(made.id, `/api/rest/v2/products/${made._id}`);
    const updated = await gql(`mutation { updateProduct(input: {id: "${made.id}", price: 12.34}) { product { _id price } } }`, admin);
    assert.equal(updated.errors, undefined, JSON.stringify(updated.errors));
    assert.equal(updated.data!.updateProduct.product.price, 12.34);
    const bad = await gql(`mutation { updateProduct(input: {id: "${made.id}", price: -1}) { product { _id } } }`, admin);
    assert.equal(bad.errors![0].extensions.status, 400);
    const dup = await gql('mutation { createProduct(input: {sku: "gql-new", name: "Again", price: 5}) { product { _id } } }', admin);
    assert.ok(dup.errors![0].extensions.status >= 400 && dup.errors![0].extensions.status < 500, JSON.stringify(dup.errors));
    const deleted = await gql(`mutation { deleteProduct(input: {id: "${made.id}"}) { product { id } } }`, admin);
    assert.equal(deleted.errors, undefined, JSON.stringify(deleted.errors));
    assert.equal(deleted.data!.deleteProduct.product.id, made.id);
    assert.equal((await t.req('GET', `${API}/products/${made._id}`, { token: admin })).status, 404);
  });
});

describe('categories', () => {
  test('categories: connection, parentId, includeInMenu, urlKey, search', async () => {
    const all = await gql('{ categories { totalCount edges { node { id _id name parentId level isActive includeInMenu } } } }', customer);
    assert.equal(all.errors, undefined, JSON.stringify(all.errors));
    assert.ok(all.data!.categories.edges.length > 0);
    const node = all.data!.categories.edges[0].node;
    assert.equal(node.id, `/api/rest/v2/categories/${node._id}`);
    const children = await gql(`{ categories(parentId: ${cat}) { edges { node { _id parentId } } } }`);
    assert.deepEqual(ids(children.data!.categories), [child]);
    for (const e of children.data!.categories.edges) assert.equal(e.node.parentId, cat);
    const inMenu = await gql(`{ categories(parentId: ${cat}, includeInMenu: true) { totalCount } }`);
    assert.equal(inMenu.data!.categories.totalCount, 0);
    const byKey = await gql('{ categories(urlKey: "gql-evening") { totalCount edges { node { _id urlKey } } } }');
    assert.equal(byKey.errors, undefined, JSON.stringify(byKey.errors));
    assert.deepEqual(ids(byKey.data!.categories), [child]);
    assert.equal(byKey.data!.categories.edges[0].node.urlKey, 'gql-evening');
    const noKey = await gql('{ categories(urlKey: "no-such-key") { totalCount edges { node { _id } } } }');
    assert.equal(noKey.data!.categories.totalCount, 0);
    const searched = await gql('{ categories(search: "GQL Ev") { edges { node { _id } } } }');
    assert.deepEqual(ids(searched.data!.categories), [child]);
    const paged = await gql('{ categories(first: 1) { totalCount edges { node { _id } } pageInfo { hasNextPage } } }');
    assert.equal(paged.data!.categories.edges.length, 1);
    assert.equal(paged.data!.categories.pageInfo.hasNextPage, paged.data!.categories.totalCount > 1);
  });

  test('category(id): IRI or number, with urlKey, urlPath, productCount, children; unknown is null with a 404', async () => {
    const r = await gql(
      `{ category(id: "/api/rest/v2/categories/${cat}") { id _id name parentId urlKey urlPath level isActive productCount children childrenIds } }`,
      customer,
    );
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    assert.equal(r.data!.category._id, cat);
    assert.equal(r.data!.category.urlKey, 'gql-dresses');
    assert.equal(r.data!.category.productCount, 3);
    assert.deepEqual(r.data!.category.childrenIds, [child]);
    assert.equal(r.data!.category.children[0].id, child);
    for (const id of ['/api/rest/v2/categories/999999', `/api/rest/v2/products/${cat}`, '0']) {
      const missing = await gql(`{ category(id: "${id}") { _id } }`);
      assert.equal(missing.data!.category, null, id);
      assert.ok([400, 404].includes(missing.errors![0].extensions.status), id);
    }
  });

  test('createCategory, updateCategory, deleteCategory: admins only; bad input is a 400', async () => {
    const denied = await gql('mutation { createCategory(input: {name: "Nope"}) { category { _id } } }', customer);
    assert.equal(denied.errors![0].extensions.status, 403);
    const created = await gql(
      `mutation { createCategory(input: {name: "GQL Made", parentId: ${cat}}) { category { id _id name parentId level } } }`,
      admin,
    );
    assert.equal(created.errors, undefined, JSON.stringify(created.errors));
    const made = created.data!.createCategory.category;
    assert.equal(made.parentId, cat);
    const updated = await gql(
      `mutation { updateCategory(input: {id: "${made.id}", name: "GQL Renamed"}) { category { _id name } } }`,
      admin,
    );
    assert.equal(updated.data!.updateCategory.category.name, 'GQL Renamed');
    const bad = await gql(`mutation { updateCategory(input: {id: "${made.id}", parentId: 999999}) { category { _id } } }`, admin);
    assert.ok([400, 404].includes(bad.errors![0].extensions.status), JSON.stringify(bad.errors));
    const badType = await gql(`mutation { createCategory(input: {name: "x", position: -5}) { category { _id } } }`, admin);
    assert.equal(badType.errors![0].extensions.status, 400);
    const deleted = await gql(`mutation { deleteCategory(input: {id: "${made.id}"}) { category { id } } }`, admin);
    assert.equal(deleted.errors, undefined, JSON.stringify(deleted.errors));
    assert.equal(deleted.data!.deleteCategory.category.id, made.id);
    const again = await gql(`mutation { deleteCategory(input: {id: "${made.id}"}) { category { id } } }`, admin);
    assert.equal(again.errors![0].extensions.status, 404);
  });
});

describe('layered filters', () => {
  test('layeredFilters(categoryId:): the same filters and counts as REST', async () => {
    const r = await gql(
      `{ layeredFilters(categoryId: ${cat}) { totalCount edges { node { code label type position multiple options } } } }`,
    );
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    const rest = await t.req('GET', `${API}/layered-filters?categoryId=${cat}`);
    assert.deepEqual(
      r.data!.layeredFilters.edges.map((e: { node: unknown }) => e.node),
      rest.body.member,
    );
    const color = r.data!.layeredFilters.edges.find((e: { node: { code: string } }) => e.node.code === 'color');
    assert.ok(color, 'a color filter');
    const narrowed = await gql(`{ layeredFilters(categoryId: ${cat}, priceMax: 100) { edges { node { code options } } } }`);
    const restNarrowed = await t.req('GET', `${API}/layered-filters?categoryId=${cat}&priceMax=100`);
    assert.deepEqual(
      narrowed.data!.layeredFilters.edges.map((e: { node: { code: string; options: unknown } }) => e.node.options),
      restNarrowed.body.member.map((m: { options: unknown }) => m.options),
    );
    const bad = await gql('{ layeredFilters(categoryId: 0) { totalCount } }');
    assert.equal(bad.errors![0].extensions.status, 400);
  });

  test('layeredFilter(id:) and GET /layered-filters/{code}: one filter by code or IRI, of a category or the whole store', async () => {
    const rest = await t.req('GET', `${API}/layered-filters?categoryId=${cat}`);
    const color = rest.body.member.find((m: { code: string }) => m.code === 'color');
    const one = await t.req('GET', `${API}/layered-filters/color?categoryId=${cat}`);
    assert.equal(one.status, 200, one.text);
    assert.deepEqual(
      { ...one.body, '@context': undefined, '@id': undefined, '@type': undefined },
      { ...color, '@context': undefined, '@id': undefined, '@type': undefined },
    );
    const byIri = await gql(`{ layeredFilter(id: "/api/rest/v2/layered-filters/color", categoryId: ${cat}) { code label type options } }`);
    assert.equal(byIri.errors, undefined, JSON.stringify(byIri.errors));
    assert.deepEqual(byIri.data!.layeredFilter.options, color.options);
    // without a category or a search: the store view's whole catalog, which has at least the category's products
    const whole = await gql('query ($id: ID!) { layeredFilter(id: $id) { code options } }', undefined, { id: 'color' });
    assert.equal(whole.errors, undefined, JSON.stringify(whole.errors));
    const count = (opts: { count: number }[]) => opts.reduce((n, o) => n + o.count, 0);
    assert.ok(count(whole.data!.layeredFilter.options) >= count(color.options));
    const price = await t.req('GET', `${API}/layered-filters/price?categoryId=${cat}`);
    assert.equal(price.body.type, 'price');
    const missing = await gql(`{ layeredFilter(id: "no_such_attribute", categoryId: ${cat}) { code } }`);
    assert.equal(missing.data!.layeredFilter, null);
    assert.equal(missing.errors![0].extensions.status, 404);
    const restMissing = await t.req('GET', `${API}/layered-filters/no_such_attribute`);
    assert.equal(restMissing.status, 404);
    const trick = await t.req('GET', `${API}/layered-filters/..%2Fproducts`);
    assert.equal(trick.status, 400);
    const badArg = await gql('{ layeredFilter(id: "color", categoryId: -1) { code } }');
    assert.equal(badArg.errors![0].extensions.status, 400);
  });
});

describe('attributes', () => {
  test('productAttributes, productAttribute(id or code), attributeSets, attributeSet: for readers with the grants', async () => {
    const list = await gql('{ productAttributes(code: "color") { totalCount edges { node { id _id attributeCode options } } } }', reader);
    assert.equal(list.errors, undefined, JSON.stringify(list.errors));
    assert.equal(list.data!.productAttributes.totalCount, 1);
    const color = list.data!.productAttributes.edges[0].node;
    assert.equal(color.id, `/api/rest/v2/product-attributes/${color._id}`);
    const byIri = await gql(`{ productAttribute(id: "${color.id}") { _id attributeCode } }`, reader);
    assert.equal(byIri.data!.productAttribute._id, color._id);
    const byCode = await gql('{ productAttribute(code: "color") { _id } }', reader);
    assert.equal(byCode.data!.productAttribute._id, color._id);
    const foreign = await gql(`{ productAttribute(id: "/api/rest/v2/products/${color._id}") { _id } }`, reader);
    assert.equal(foreign.data!.productAttribute, null);
    assert.equal(foreign.errors![0].extensions.status, 404);
    const neither = await gql('{ productAttribute { _id } }', reader);
    assert.equal(neither.errors![0].extensions.status, 400);
    const sets = await gql(
      '{ attributeSets(first: 1) { totalCount edges { node { id _id attributeSetName attributeCodes groups } } pageInfo { hasNextPage endCursor } } }',
      reader,
    );
    assert.equal(sets.errors, undefined, JSON.stringify(sets.errors));
    assert.equal(sets.data!.attributeSets.edges.length, 1);
    assert.equal(sets.data!.attributeSets.pageInfo.hasNextPage, sets.data!.attributeSets.totalCount > 1);
    const set = sets.data!.attributeSets.edges[0].node;
    const one = await gql(`{ attributeSet(id: "${set.id}") { _id attributeSetName } }`, reader);
    assert.equal(one.data!.attributeSet.attributeSetName, set.attributeSetName);
    for (const token of [undefined, customer]) {
      const r = await gql('{ attributeSets { totalCount } productAttributes { totalCount } }', token);
      assert.equal(r.data?.attributeSets ?? null, null);
      assert.equal(r.errors![0].extensions.status, token ? 403 : 401);
    }
  });
});
