/**
 * Maho's own GraphQL tests, sent to our server: the documents of tests/Api/V2/Read/GraphQL*Test.php,
 * tests/Api/V2/Read/SalesCollectionGraphQLTest.php and tests/Api/V2/Write/GraphQL*Test.php (MahoCommerce/maho),
 * copied as Maho sends them, with only the data (ids, SKUs, identifiers) swapped for ours, and the assertions those
 * tests make. One describe() per Maho test file, one test() per Maho `it()`, named after it. Where Maho's test
 * skips (markTestSkipped) on a missing answer, the data here is made to exist, so a missing answer fails.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SignJWT } from 'jose';
import { API, buildTestApp, type TestApp } from './helpers.js';
import { createTestProduct } from './fixtures/catalog.js';
import { placeTestOrder } from './fixtures/checkout.js';

let t: TestApp;
let admin: string;
let customer: string;
/** Maho's fixtures('customer_id'): the demo customer */
let customerId: number;
/** Maho's fixtures('category_id'): a category holding products */
let categoryId: number;
/** Maho's fixtures('product_id') / fixtures('product_sku'): a simple product in stock, in that category */
let productId: number;
let productSku: string;
/** Maho's fixtures('write_test_sku') */
let writeTestSku: string;
/** Maho's fixtures('invalid_product_id') */
const invalidProductId = 999999;

/** Maho's gqlQuery(): POST /api/graphql, answering HTTP status and the parsed body (no HTTP 200 assertion). */
async function gqlQuery(query: string, variables: Record<string, unknown> = {}, token?: string): Promise<{ status: number; json: any }> {
  const body: Record<string, unknown> = { query };
  if (Object.keys(variables).length) body.variables = variables;
  const r = await t.req('POST', '/api/graphql', { token, body });
  return { status: r.status, json: r.body };
}

const secret = () => new TextEncoder().encode(t.services.config.jwtSecret);
const ISSUER = 'http://shop.test/';

/** Maho's expiredToken(): right key and claims, expired a day ago. */
async function expiredToken(): Promise<string> {
  const past = Math.floor(Date.now() / 1000) - 2 * 86400;
  return new SignJWT({ customer_id: 1, type: 'customer', roles: ['ROLE_CUSTOMER'] })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience('maho-api')
    .setJti('e'.repeat(32))
    .setSubject('customer_1')
    .setIssuedAt(past)
    .setNotBefore(past)
    .setExpirationTime(past + 86400)
    .sign(secret());
}

/** Maho's invalidToken(): a customer token signed with a wrong key. */
async function invalidToken(): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ customer_id: 1, type: 'customer', roles: ['ROLE_CUSTOMER'] })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience('maho-api')
    .setJti('i'.repeat(32))
    .setSubject('customer_1')
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(now + 3600)
    .sign(new TextEncoder().encode('wrong-secret-key-that-does-not-match'));
}

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  const me = await t.req('GET', `${API}/customers/me`, { token: customer });
  assert.equal(me.status, 200, me.text);
  customerId = me.body.id;

  // the test database holds no catalog: a category under the default root (2) and products in it
  const cat = await t.req('POST', `${API}/categories`, {
    token: admin,
    body: { parentId: 2, name: 'Maho Dresses', urlKey: 'maho-dresses' },
  });
  assert.equal(cat.status, 201, cat.text);
  categoryId = cat.body.id;
  const product = await createTestProduct(t, {
    name: 'Maho Summer Dress',
    price: 75,
    categoryIds: [categoryId],
    stockData: { qty: 100, isInStock: true },
  });
  productId = product.id;
  productSku = product.sku;
  await createTestProduct(t, {
    name: 'Maho Evening Dress',
    price: 250,
    categoryIds: [categoryId],
    stockData: { qty: 100, isInStock: true },
  });
  writeTestSku = (await createTestProduct(t, { name: 'Maho Write Test', price: 10, stockData: { qty: 1000, isInStock: true } }))
    .sku as string;

  // an address and an order of the demo customer, so that myAddresses and customerOrders have something to show
  const addr = await t.req('POST', `${API}/customers/me/addresses`, {
    token: customer,
    body: {
      firstname: 'Jane',
      lastname: 'Doe',
      street: ['1 Main St'],
      city: 'Austin',
      postcode: '73301',
      countryId: 'US',
      region: 'TX',
      telephone: '555-0100',
      isDefaultBilling: true,
      isDefaultShipping: true,
    },
  });
  assert.equal(addr.status, 201, addr.text);
  await placeTestOrder(t, { customerToken: customer, items: [{ sku: writeTestSku, qty: 1 }] });
});
after(() => t.close());

const fieldNames = (type: { fields: { name: string }[] }) => type.fields.map((f) => f.name);

// ─── tests/Api/V2/Read/GraphQLBasicTest.php ──────────────────────────────────────────────────────────────────────
describe('GraphQLBasicTest', () => {
  test('allows unauthenticated access to public queries', async () => {
    const response = await gqlQuery('{ __typename }');
    assert.ok(response.status >= 200 && response.status < 300, `HTTP ${response.status}`);
  });

  test('denies unauthenticated access to protected operations', async () => {
    const response = await gqlQuery('{ myWishlistItems(first: 1) { edges { node { _id } } } }');
    assert.equal(response.status, 200);
    assert.ok('errors' in response.json, JSON.stringify(response.json));
    assert.ok([401, 403].includes(response.json.errors[0]?.extensions?.status), JSON.stringify(response.json.errors));
  });

  test('rejects GraphQL requests with invalid token', async () => {
    const response = await gqlQuery('{ __typename }', {}, await invalidToken());
    assert.equal(response.status, 401);
  });

  test('rejects GraphQL requests with expired token', async () => {
    const response = await gqlQuery('{ __typename }', {}, await expiredToken());
    assert.equal(response.status, 401);
  });

  test('accepts GraphQL requests with valid customer token', async () => {
    const response = await gqlQuery('{ __typename }', {}, customer);
    assert.ok(response.status >= 200 && response.status < 300, `HTTP ${response.status}`);
  });

  test('accepts GraphQL requests with valid admin token', async () => {
    const response = await gqlQuery('{ __typename }', {}, admin);
    assert.ok(response.status >= 200 && response.status < 300, `HTTP ${response.status}`);
  });

  test('supports introspection queries', async () => {
    const query = `
    {
        __schema {
            queryType { name }
            mutationType { name }
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    assert.ok('data' in response.json);
    assert.ok('__schema' in response.json.data, JSON.stringify(response.json));
    assert.ok('queryType' in response.json.data.__schema);
    assert.ok('mutationType' in response.json.data.__schema);
  });

  test('returns product type in schema', async () => {
    const query = `
    {
        __type(name: "Product") {
            name
            fields { name }
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    assert.notEqual(response.json.data.__type, null);
    assert.equal(response.json.data.__type.name, 'Product');
    const names = fieldNames(response.json.data.__type);
    for (const f of ['sku', 'name', 'price']) assert.ok(names.includes(f), f);
  });

  test('returns cart type with prices field in schema', async () => {
    const query = `
    {
        __type(name: "Cart") {
            name
            fields { name }
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    assert.notEqual(response.json.data.__type, null);
    const names = fieldNames(response.json.data.__type);
    for (const f of ['prices', 'items', 'maskedId']) assert.ok(names.includes(f), f);
  });

  test('returns errors for invalid query syntax', async () => {
    const response = await gqlQuery('{ invalid query syntax !!!', {}, customer);
    assert.equal(response.status, 200);
    assert.ok('errors' in response.json);
  });

  test('returns errors for non-existent field', async () => {
    const response = await gqlQuery('{ nonExistentField }', {}, customer);
    assert.equal(response.status, 200);
    assert.ok('errors' in response.json);
  });

  test('returns null instead of HTTP 500 when an ID arg is a bare integer', async () => {
    const response = await gqlQuery('{ order(id: 1) { _id } }');
    assert.equal(response.status, 200, JSON.stringify(response.json));
    assert.ok('data' in response.json, JSON.stringify(response.json));
    assert.ok(response.json.data && 'order' in response.json.data, JSON.stringify(response.json));
    assert.equal(response.json.data.order, null);
  });
});

// ─── tests/Api/V2/Read/GraphQLCategoryTest.php ───────────────────────────────────────────────────────────────────
describe('GraphQLCategoryTest', () => {
  test('returns a list of categories', async () => {
    const query = `
    {
        categories {
            edges {
                node {
                    id
                    _id
                    name
                    parentId
                    level
                    isActive
                    includeInMenu
                }
            }
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    assert.ok('data' in response.json);
    assert.ok('categories' in response.json.data, JSON.stringify(response.json));
    const edges = response.json.data.categories?.edges ?? [];
    assert.ok(edges.length > 0, JSON.stringify(response.json));
    const category = edges[0].node;
    for (const k of ['name', 'parentId', 'level']) assert.ok(k in category, k);
  });

  test('supports parentId filter', async () => {
    const query = `
    {
        categories(parentId: 2) {
            edges {
                node {
                    id
                    _id
                    name
                    parentId
                }
            }
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    assert.equal(response.json.errors, undefined, JSON.stringify(response.json.errors));
    const edges = response.json.data?.categories?.edges ?? [];
    for (const edge of edges) assert.equal(edge.node.parentId, 2);
  });

  test('returns a single category by IRI', async () => {
    const iri = `/api/rest/v2/categories/${categoryId}`;
    const query = `
    {
        category(id: "${iri}") {
            id
            _id
            name
            parentId
            urlKey
            urlPath
            level
            isActive
            productCount
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    assert.notEqual(response.json.data?.category ?? null, null, JSON.stringify(response.json));
    const category = response.json.data.category;
    assert.equal(category._id, categoryId);
    assert.equal(typeof category.name, 'string');
  });

  test('returns null for non-existent category', async () => {
    const query = `
    {
        category(id: "/api/rest/v2/categories/999999") {
            id
            name
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    const data = response.json.data?.category ?? null;
    const errors = response.json.errors ?? [];
    assert.ok(data === null || errors.length > 0);
  });

  test('returns category by URL key', async () => {
    const query = `
    {
        categories {
            edges {
                node {
                    _id
                    name
                    urlKey
                }
            }
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    const edges = response.json.data?.categories?.edges ?? [];
    const urlKey: string | undefined = edges.map((e: any) => e.node.urlKey).find((k: unknown) => !!k);
    assert.ok(urlKey, 'No categories with urlKey found');

    const lookupQuery = `
    {
        categories(urlKey: "${urlKey}") {
            edges { node {
                id
                _id
                name
                urlKey
            } }
        }
    }`;
    const lookupResponse = await gqlQuery(lookupQuery, {}, customer);
    assert.equal(lookupResponse.status, 200);
    assert.ok('data' in lookupResponse.json);
    const result = lookupResponse.json.data?.categories?.edges?.[0]?.node ?? null;
    assert.notEqual(result, null, 'categories(urlKey:) returned no match');
    assert.equal(result.urlKey, urlKey);
  });
});

// ─── tests/Api/V2/Read/GraphQLCmsTest.php ────────────────────────────────────────────────────────────────────────
describe('GraphQLCmsTest', () => {
  test('returns CMS pages collection', async () => {
    const query = `
    {
        cmsPages {
            edges {
                node {
                    id
                    _id
                    identifier
                    title
                    status
                }
            }
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    assert.ok('data' in response.json);
    assert.ok('cmsPages' in response.json.data, JSON.stringify(response.json));
    const edges = response.json.data.cmsPages?.edges ?? [];
    assert.ok(edges.length > 0);
    assert.ok('identifier' in edges[0].node);
    assert.ok('title' in edges[0].node);
  });

  test('supports identifier filter on custom query (regression)', async () => {
    const query = `
    {
        cmsPages(identifier: "home") {
            edges {
                node {
                    id
                    _id
                    identifier
                    title
                    content
                }
            }
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    assert.ok('data' in response.json);
    const edges = response.json.data?.cmsPages?.edges ?? [];
    // our demo data has a "home" page: the filter must find it (Maho only checks it when there is one)
    assert.ok(edges.length > 0, JSON.stringify(response.json));
    assert.equal(edges[0].node.identifier, 'home');
  });

  test('returns single CMS page by IRI', async () => {
    const listQuery = `
    {
        cmsPages {
            edges {
                node {
                    id
                    _id
                    identifier
                    title
                }
            }
        }
    }`;
    const listResponse = await gqlQuery(listQuery, {}, customer);
    assert.equal(listResponse.status, 200);
    const edges = listResponse.json.data?.cmsPages?.edges ?? [];
    assert.ok(edges.length, 'No CMS pages available');
    const pageIri = edges[0].node.id;
    const query = `
    {
        cmsPage(id: "${pageIri}") {
            id
            _id
            identifier
            title
            content
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    assert.notEqual(response.json.data?.cmsPage ?? null, null, JSON.stringify(response.json));
  });

  test('returns blog posts collection', async () => {
    const query = `
    {
        blogPosts {
            edges {
                node {
                    id
                    _id
                    title
                    urlKey
                    publishDate
                }
            }
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    assert.ok('data' in response.json);
    assert.ok('blogPosts' in response.json.data, JSON.stringify(response.json));
  });

  test('supports urlKey filter on custom query (regression)', async () => {
    const listQuery = `
    {
        blogPosts {
            edges {
                node {
                    id
                    _id
                    title
                    urlKey
                }
            }
        }
    }`;
    const listResponse = await gqlQuery(listQuery, {}, customer);
    assert.equal(listResponse.status, 200);
    const edges = listResponse.json.data?.blogPosts?.edges ?? [];
    assert.ok(edges.length, 'No blog posts available');
    const urlKey = edges[0].node.urlKey;
    const query = `
    {
        blogPosts(urlKey: "${urlKey}") {
            edges {
                node {
                    id
                    _id
                    title
                    urlKey
                }
            }
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    const filteredEdges = response.json.data?.blogPosts?.edges ?? [];
    assert.ok(filteredEdges.length > 0, JSON.stringify(response.json));
    assert.equal(filteredEdges[0].node.urlKey, urlKey);
  });

  test('returns single blog post by IRI', async () => {
    const listQuery = `
    {
        blogPosts {
            edges {
                node {
                    id
                    _id
                    title
                }
            }
        }
    }`;
    const listResponse = await gqlQuery(listQuery, {}, customer);
    assert.equal(listResponse.status, 200);
    const edges = listResponse.json.data?.blogPosts?.edges ?? [];
    assert.ok(edges.length, 'No blog posts available');
    const postIri = edges[0].node.id;
    const query = `
    {
        blogPost(id: "${postIri}") {
            id
            _id
            title
            urlKey
            content
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    assert.notEqual(response.json.data?.blogPost ?? null, null, JSON.stringify(response.json));
  });
});

// ─── tests/Api/V2/Read/GraphQLCustomerTest.php ───────────────────────────────────────────────────────────────────
describe('GraphQLCustomerTest', () => {
  test('returns current customer profile when authenticated', async () => {
    const query = `
    {
        currentCustomer {
            id
            _id
            email
            firstname
            lastname
            fullName
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    assert.ok('data' in response.json);
    const c = response.json.data?.currentCustomer;
    // Maho tolerates null here; ours must answer the customer
    assert.ok(c, JSON.stringify(response.json));
    assert.equal(typeof c.email, 'string');
    assert.equal(typeof c.firstname, 'string');
    assert.equal(typeof c.lastname, 'string');
    assert.equal(c._id, customerId);
  });

  test('returns null for me query with admin token', async () => {
    const query = `
    {
        currentCustomer {
            id
            email
        }
    }`;
    const response = await gqlQuery(query, {}, admin);
    assert.equal(response.status, 200);
    const data = response.json.data?.currentCustomer ?? null;
    const errors = response.json.errors ?? [];
    assert.ok(data === null || errors.length > 0);
  });

  test('returns customer by IRI for admin', async () => {
    const iri = `/api/rest/v2/customers/${customerId}`;
    const query = `
    {
        customer(id: "${iri}") {
            _id
            email
            firstname
            lastname
        }
    }`;
    const response = await gqlQuery(query, {}, admin);
    assert.equal(response.status, 200);
    assert.notEqual(response.json.data?.customer ?? null, null, JSON.stringify(response.json));
    const c = response.json.data.customer;
    assert.equal(c._id, customerId);
    assert.equal(typeof c.email, 'string');
    assert.equal(typeof c.firstname, 'string');
  });

  test('denies customer by ID for regular customer', async () => {
    const iri = `/api/rest/v2/customers/${customerId}`;
    const query = `
    {
        customer(id: "${iri}") {
            _id
            email
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    assert.ok('errors' in response.json, JSON.stringify(response.json));
    assert.equal(response.json.errors[0]?.extensions?.status ?? null, 403, JSON.stringify(response.json.errors));
  });

  test('returns customer orders when authenticated', async () => {
    const query = `
    {
        customerOrders(pageSize: 5) {
            edges {
                node {
                    id
                    _id
                    incrementId
                    status
                    prices
                    createdAt
                }
            }
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    assert.ok('data' in response.json);
    assert.ok(response.json.data && 'customerOrders' in response.json.data, JSON.stringify(response.json));
    // the customer placed an order in before(): it is listed
    assert.equal(response.json.errors, undefined, JSON.stringify(response.json.errors));
    assert.ok(response.json.data.customerOrders.edges.length > 0);
  });

  test('returns customer addresses when authenticated', async () => {
    const query = `
    {
        myAddresses {
            edges {
                node {
                    id
                    _id
                    firstname
                    lastname
                    city
                    postcode
                    countryId
                    isDefaultBilling
                    isDefaultShipping
                }
            }
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    assert.ok('data' in response.json);
    assert.ok(response.json.data && 'myAddresses' in response.json.data, JSON.stringify(response.json));
  });

  test('returns addresses with expected field types', async () => {
    const query = `
    {
        myAddresses {
            edges {
                node {
                    _id
                    firstname
                    lastname
                    city
                    postcode
                    countryId
                    isDefaultBilling
                    isDefaultShipping
                }
            }
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    const edges = response.json.data?.myAddresses?.edges ?? [];
    // the customer has an address (made in before()), so the types are checked
    assert.ok(edges.length > 0, JSON.stringify(response.json));
    const address = edges[0].node;
    assert.equal(typeof address.firstname, 'string');
    assert.equal(typeof address.lastname, 'string');
    assert.equal(typeof address.countryId, 'string');
    assert.equal(typeof address.isDefaultBilling, 'boolean');
    assert.equal(typeof address.isDefaultShipping, 'boolean');
  });
});

// ─── tests/Api/V2/Read/GraphQLProductTest.php ────────────────────────────────────────────────────────────────────
describe('GraphQLProductTest', () => {
  test('returns a list of products', async () => {
    const query = `
    {
        products(pageSize: 5) {
            edges {
                node {
                    id
                    _id
                    sku
                    name
                    price
                    finalPrice
                    stockStatus
                }
            }
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    assert.ok('data' in response.json);
    assert.ok('products' in response.json.data, JSON.stringify(response.json));
    const edges = response.json.data.products?.edges ?? [];
    assert.ok(edges.length > 0);
    for (const k of ['sku', 'name', 'price', 'finalPrice', 'stockStatus']) assert.ok(k in edges[0].node, k);
  });

  test('returns product IDs as IRI strings', async () => {
    const query = `
    {
        products(pageSize: 1) {
            edges {
                node {
                    id
                    _id
                    sku
                }
            }
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    const edges = response.json.data?.products?.edges ?? [];
    assert.ok(edges.length > 0, JSON.stringify(response.json));
    const product = edges[0].node;
    assert.ok(String(product.id).includes('/api/rest/v2/products/'), product.id);
    assert.ok(Number.isInteger(product._id), String(product._id));
  });

  test('supports search filter', async () => {
    const query = `
    {
        products(search: "dress", pageSize: 5) {
            edges {
                node {
                    sku
                    name
                }
            }
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    assert.ok(response.json.data && 'products' in response.json.data, JSON.stringify(response.json));
  });

  test('supports category filter', async () => {
    const query = `
    {
        products(categoryId: ${categoryId}, pageSize: 5) {
            edges {
                node {
                    sku
                    name
                    categoryIds
                }
            }
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    const edges = response.json.data?.products?.edges ?? [];
    assert.ok(edges.length > 0, JSON.stringify(response.json));
  });

  test('supports price range filter', async () => {
    const query = `
    {
        products(priceMin: 50, priceMax: 200, pageSize: 5) {
            edges {
                node {
                    sku
                    name
                    price
                }
            }
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    assert.equal(response.json.errors, undefined, JSON.stringify(response.json.errors));
    const edges = response.json.data?.products?.edges ?? [];
    for (const edge of edges) {
      const price = Number(edge.node.price);
      assert.ok(price >= 50 && price <= 200, String(price));
    }
  });

  test('returns a single product by IRI', async () => {
    const iri = `/api/rest/v2/products/${productId}`;
    const query = `
    {
        product(id: "${iri}") {
            id
            _id
            sku
            name
            price
            finalPrice
            stockStatus
            categoryIds
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    assert.ok('data' in response.json);
    assert.notEqual(response.json.data?.product ?? null, null, JSON.stringify(response.json));
    const product = response.json.data.product;
    assert.equal(product._id, productId);
    assert.equal(typeof product.sku, 'string');
    assert.equal(typeof product.name, 'string');
  });

  test('returns null for non-existent product', async () => {
    const iri = `/api/rest/v2/products/${invalidProductId}`;
    const query = `
    {
        product(id: "${iri}") {
            id
            sku
            name
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    const data = response.json.data?.product ?? null;
    const errors = response.json.errors ?? [];
    assert.ok(data === null || errors.length > 0);
  });

  test('returns product by SKU', async () => {
    const query = `
    {
        products(sku: "${productSku}") {
            edges { node {
                id
                _id
                sku
                name
                price
            } }
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    assert.ok('data' in response.json);
    const product = response.json.data?.products?.edges?.[0]?.node ?? null;
    assert.notEqual(product, null, 'products(sku:) returned no match for the fixture SKU');
    assert.equal(product.sku, productSku);
    assert.equal(typeof product.name, 'string');
    assert.ok(product.price !== null && product.price !== '' && !Number.isNaN(Number(product.price)), String(product.price));
  });

  test('returns products for a category', async () => {
    const query = `
    {
        categoryProducts(categoryId: ${categoryId}, pageSize: 5) {
            edges {
                node {
                    sku
                    name
                    price
                }
            }
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    assert.ok(response.json.data && 'categoryProducts' in response.json.data, JSON.stringify(response.json));
    const edges = response.json.data.categoryProducts?.edges ?? [];
    assert.ok(edges.length > 0, JSON.stringify(response.json));
  });
});

// ─── tests/Api/V2/Read/SalesCollectionGraphQLTest.php ────────────────────────────────────────────────────────────
describe('SalesCollectionGraphQLTest', () => {
  for (const field of ['shipments', 'creditMemos']) {
    const label = field === 'shipments' ? 'shipments' : 'credit memos';
    test(`lets an admin list all ${label} without an order id`, async () => {
      const query = `
      query {
          ${field} {
              edges { node { id } }
          }
      }`;
      const response = await gqlQuery(query, {}, admin);
      assert.ok(!('errors' in response.json), JSON.stringify(response.json.errors));
      assert.notEqual(response.json.data?.[field] ?? null, null);
      assert.ok('edges' in response.json.data[field]);
      assert.ok(Array.isArray(response.json.data[field].edges));
    });

    test(`denies the ${label} list-all to a customer`, async () => {
      const query = `
      query {
          ${field} {
              edges { node { id } }
          }
      }`;
      const response = await gqlQuery(query, {}, customer);
      assert.ok('errors' in response.json, JSON.stringify(response.json));
    });
  }
});

// ─── tests/Api/V2/Write/GraphQLCartTest.php ──────────────────────────────────────────────────────────────────────
/** Maho's createGqlCart() */
function createGqlCart(token?: string) {
  const query = `
  mutation {
      createCart(input: {}) {
          cart {
              id
              _id
              maskedId
              itemsCount
              itemsQty
              isActive
          }
      }
  }`;
  return gqlQuery(query, {}, token ?? customer);
}

/** A guest cart with one item, made over REST as Maho's test does. */
async function restGuestCartWithItem(): Promise<{ maskedId: string; itemId: number }> {
  const createResponse = await t.req('POST', `${API}/guest-carts`, { body: {} });
  assert.equal(createResponse.status, 201, createResponse.text);
  const maskedId = createResponse.body.maskedId;
  const addResponse = await t.req('POST', `${API}/guest-carts/${maskedId}/items`, { body: { sku: writeTestSku, qty: 1 } });
  assert.equal(addResponse.status, 200, addResponse.text);
  const itemId = addResponse.body.items?.[0]?.id;
  assert.ok(maskedId && itemId, 'Could not get maskedId or itemId from REST response');
  return { maskedId, itemId };
}

describe('GraphQLCartTest', () => {
  test('creates a cart with maskedId', async () => {
    const response = await createGqlCart();
    assert.equal(response.status, 200);
    assert.ok('data' in response.json);
    assert.notEqual(response.json.data?.createCart ?? null, null, JSON.stringify(response.json));
    const cart = response.json.data.createCart.cart;
    assert.ok('maskedId' in cart);
    assert.equal(typeof cart.maskedId, 'string');
    assert.notEqual(cart.maskedId, '');
    assert.equal(cart.itemsCount, 0);
    assert.equal(cart.isActive, true);
  });

  test('returns cart by maskedId with prices field', async () => {
    const createResponse = await createGqlCart();
    assert.equal(createResponse.status, 200);
    const maskedId = createResponse.json.data.createCart.cart.maskedId;
    const query = `
    {
        guestCart(maskedId: "${maskedId}") {
            id
            _id
            maskedId
            itemsCount
            items
            prices
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    const cart = response.json.data?.guestCart ?? null;
    assert.notEqual(cart, null, `guestCart answered null: ${JSON.stringify(response.json)}`);
    assert.equal(cart.maskedId, maskedId);
    assert.ok('prices' in cart);
  });

  test('adds item to cart and returns updated cart with prices', async () => {
    const createResponse = await createGqlCart();
    assert.equal(createResponse.status, 200);
    const maskedId = createResponse.json.data.createCart.cart.maskedId;
    const addQuery = `
    mutation {
        addToCart(input: {maskedId: "${maskedId}", sku: "${writeTestSku}", qty: 1}) {
            cart {
                _id
                maskedId
                itemsCount
                itemsQty
                items
                prices
            }
        }
    }`;
    const response = await gqlQuery(addQuery, {}, customer);
    assert.equal(response.status, 200);
    assert.notEqual(response.json.data?.addToCart ?? null, null, JSON.stringify(response.json));
    const cart = response.json.data.addToCart.cart;
    assert.ok(cart.itemsCount > 0);
    assert.ok('prices' in cart);
    const prices = cart.prices;
    if (prices && typeof prices === 'object' && Object.keys(prices).length) {
      assert.ok('subtotal' in prices);
      assert.ok('grandTotal' in prices);
    }
  });

  test('returns error for invalid SKU', async () => {
    const createResponse = await createGqlCart();
    assert.equal(createResponse.status, 200);
    const maskedId = createResponse.json.data.createCart.cart.maskedId;
    const addQuery = `
    mutation {
        addToCart(input: {maskedId: "${maskedId}", sku: "NONEXISTENT-SKU-999", qty: 1}) {
            cart {
                _id
            }
        }
    }`;
    const response = await gqlQuery(addQuery, {}, customer);
    assert.equal(response.status, 200);
    assert.ok('errors' in response.json);
  });

  test('updates item quantity in cart', async () => {
    const { maskedId, itemId } = await restGuestCartWithItem();
    const updateQuery = `
    mutation {
        updateItemQtyInCart(input: {maskedId: "${maskedId}", itemId: ${itemId}, qty: 3}) {
            cart {
                items
                prices
            }
        }
    }`;
    const updateResponse = await gqlQuery(updateQuery, {}, customer);
    assert.equal(updateResponse.status, 200);
    assert.ok('data' in updateResponse.json, JSON.stringify(updateResponse.json));
  });

  test('removes item from cart', async () => {
    const { maskedId, itemId } = await restGuestCartWithItem();
    const removeQuery = `
    mutation {
        removeItemFromCart(input: {maskedId: "${maskedId}", itemId: ${itemId}}) {
            cart {
                itemsCount
                items
            }
        }
    }`;
    const removeResponse = await gqlQuery(removeQuery, {}, customer);
    assert.equal(removeResponse.status, 200);
    assert.ok('data' in removeResponse.json, JSON.stringify(removeResponse.json));
  });

  test('returns error for invalid coupon', async () => {
    const createResponse = await createGqlCart();
    const maskedId = createResponse.json.data.createCart.cart.maskedId;
    const couponQuery = `
    mutation {
        applyCouponToCart(input: {maskedId: "${maskedId}", couponCode: "INVALID-COUPON-CODE-12345"}) {
            cart {
                appliedCoupon
            }
        }
    }`;
    const response = await gqlQuery(couponQuery, {}, customer);
    assert.equal(response.status, 200);
    assert.ok('errors' in response.json);
  });
});

// ─── tests/Api/V2/Write/GraphQLPermissionTest.php ────────────────────────────────────────────────────────────────
describe('GraphQLPermissionTest', () => {
  const PRODUCTS = `
  {
      products {
          edges {
              node {
                  _id
                  sku
              }
          }
      }
  }`;

  test('allows public product query without auth', async () => {
    const query = `
    {
        products {
            edges {
                node {
                    _id
                    sku
                    name
                }
            }
        }
    }`;
    const response = await gqlQuery(query);
    assert.equal(response.status, 200);
    assert.ok('data' in response.json);
    assert.ok('products' in response.json.data, JSON.stringify(response.json));
  });

  test('allows public category query without auth', async () => {
    const query = `
    {
        categories {
            edges {
                node {
                    _id
                    name
                }
            }
        }
    }`;
    const response = await gqlQuery(query);
    assert.equal(response.status, 200);
    assert.ok('data' in response.json);
    assert.ok('categories' in response.json.data, JSON.stringify(response.json));
  });

  test('allows public CMS page query without auth', async () => {
    const query = `
    {
        cmsPages {
            edges {
                node {
                    _id
                    title
                }
            }
        }
    }`;
    const response = await gqlQuery(query);
    assert.equal(response.status, 200);
    assert.ok('data' in response.json);
    assert.ok('cmsPages' in response.json.data, JSON.stringify(response.json));
  });

  test('allows public blog post query without auth', async () => {
    const query = `
    {
        blogPosts {
            edges {
                node {
                    _id
                    title
                }
            }
        }
    }`;
    const response = await gqlQuery(query);
    assert.equal(response.status, 200);
    assert.ok('data' in response.json);
    assert.ok('blogPosts' in response.json.data, JSON.stringify(response.json));
  });

  test('denies cart creation without valid masked ID', async () => {
    const query = `
    mutation {
        createCart(input: { maskedId: "invalid" }) {
            _id
        }
    }`;
    const response = await gqlQuery(query);
    assert.equal(response.status, 200);
    assert.ok((response.json.errors ?? []).length > 0);
  });

  test('denies review submission without auth', async () => {
    const query = `
    mutation {
        submitReview(input: {
            productId: ${productId}
            title: "Test Review"
            detail: "Test detail"
            nickname: "Tester"
            ratings: []
        }) {
            _id
        }
    }`;
    const response = await gqlQuery(query);
    assert.equal(response.status, 200);
    assert.ok((response.json.errors ?? []).length > 0);
  });

  test('allows query with service token', async () => {
    const token = await t.tokens.apiUser(['all']);
    const response = await gqlQuery(PRODUCTS, {}, token);
    assert.equal(response.status, 200);
    assert.ok('data' in response.json);
    assert.deepEqual(response.json.errors ?? [], []);
  });

  test('allows query with customer token', async () => {
    const response = await gqlQuery(PRODUCTS, {}, customer);
    assert.equal(response.status, 200);
    assert.ok('data' in response.json);
  });

  test('denies query with expired token', async () => {
    const response = await gqlQuery(PRODUCTS, {}, await expiredToken());
    if (response.status === 200) assert.ok((response.json.errors ?? []).length > 0);
    else assert.equal(response.status, 401);
  });

  test('denies query with invalid token', async () => {
    const response = await gqlQuery(PRODUCTS, {}, await invalidToken());
    if (response.status === 200) assert.ok((response.json.errors ?? []).length > 0);
    else assert.equal(response.status, 401);
  });
});

// ─── tests/Api/V2/Write/GraphQLReviewTest.php ────────────────────────────────────────────────────────────────────
describe('GraphQLReviewTest', () => {
  test('returns reviews for a product', async () => {
    const query = `
    {
        productReviews(productId: ${productId}, pageSize: 5) {
            edges {
                node {
                    id
                    _id
                    title
                    detail
                    nickname
                    rating
                    status
                }
            }
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    assert.ok('data' in response.json);
    assert.ok(response.json.data && 'productReviews' in response.json.data, JSON.stringify(response.json));
  });

  test('submits a review successfully (regression: args vs args.input)', async () => {
    const timestamp = Math.floor(Date.now() / 1000);
    const query = `
    mutation {
        submitReview(input: {
            productId: ${productId},
            title: "Test Review ${timestamp}",
            detail: "This is an automated test review created at ${timestamp}.",
            nickname: "TestUser",
            rating: 4
        }) {
            review {
                id
                _id
                productId
                title
                detail
                nickname
                rating
                status
            }
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    assert.ok(!('errors' in response.json), JSON.stringify(response.json.errors));
    assert.notEqual(response.json.data.submitReview, null);
    const review = response.json.data.submitReview.review;
    assert.equal(review.productId, productId);
    assert.ok(review.title.includes('Test Review'));
    assert.equal(review.nickname, 'TestUser');
    assert.equal(review.rating, 4);
    assert.equal(typeof review.status, 'string');
  });

  test('returns error when required fields are missing', async () => {
    const query = `
    mutation {
        submitReview(input: {
            productId: ${productId},
            title: "",
            detail: "",
            nickname: "",
            rating: 0
        }) {
            review {
                _id
            }
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    assert.ok('errors' in response.json, JSON.stringify(response.json));
  });

  test('returns customer reviews when authenticated', async () => {
    const query = `
    {
        myReviews {
            edges {
                node {
                    id
                    _id
                    productId
                    productName
                    title
                    rating
                    status
                }
            }
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    assert.ok('data' in response.json);
    assert.ok(response.json.data && 'myReviews' in response.json.data, JSON.stringify(response.json));
  });
});

// ─── tests/Api/V2/Write/GraphQLWishlistTest.php ──────────────────────────────────────────────────────────────────
describe('GraphQLWishlistTest', () => {
  test('returns wishlist collection for authenticated customer', async () => {
    const query = `
    {
        myWishlistItems {
            edges {
                node {
                    id
                    _id
                    productId
                    productName
                    productSku
                    qty
                }
            }
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    assert.ok('data' in response.json);
    assert.ok(!('errors' in response.json), JSON.stringify(response.json.errors));
    assert.ok('myWishlistItems' in response.json.data);
  });

  test('rejects query without authentication', async () => {
    const query = `
    {
        myWishlistItems {
            edges { node { id } }
        }
    }`;
    const response = await gqlQuery(query);
    assert.equal(response.status, 200);
    assert.ok('errors' in response.json);
  });

  test('adds product to wishlist (regression: args vs args.input)', async () => {
    const query = `
    mutation {
        addWishlistItem(input: {productId: ${productId}, qty: 1}) {
            wishlistItem {
                id
                _id
                productId
                productName
                productSku
                productPrice
                productFinalPrice
                productType
                qty
                inStock
            }
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    assert.ok(!('errors' in response.json), JSON.stringify(response.json.errors));
    assert.notEqual(response.json.data.addWishlistItem, null);
    const item = response.json.data.addWishlistItem.wishlistItem;
    assert.equal(item.productId, productId);
    assert.ok(typeof item.productName === 'string' && item.productName !== '');
    assert.ok(typeof item.productSku === 'string' && item.productSku !== '');
    assert.equal(typeof item.productPrice, 'number');
    assert.equal(typeof item.productFinalPrice, 'number');
    assert.ok(item.qty >= 1);
  });

  test('item added via mutation appears in myWishlist query', async () => {
    const addQuery = `
    mutation {
        addWishlistItem(input: {productId: ${productId}, qty: 1}) {
            wishlistItem {
                _id
                productId
            }
        }
    }`;
    const addResponse = await gqlQuery(addQuery, {}, customer);
    assert.equal(addResponse.status, 200);
    assert.ok(!('errors' in addResponse.json), JSON.stringify(addResponse.json.errors));
    const addedId = addResponse.json.data.addWishlistItem.wishlistItem._id;

    const listQuery = `
    {
        myWishlistItems {
            edges {
                node {
                    _id
                    productId
                    productName
                }
            }
        }
    }`;
    const listResponse = await gqlQuery(listQuery, {}, customer);
    assert.equal(listResponse.status, 200);
    assert.ok(!('errors' in listResponse.json), JSON.stringify(listResponse.json.errors));
    const edges = listResponse.json.data?.myWishlistItems?.edges ?? [];
    assert.ok(edges.length > 0);
    const foundIds = edges.map((edge: any) => edge.node._id);
    assert.ok(foundIds.includes(Number(addedId)), `${addedId} not in ${JSON.stringify(foundIds)}`);
  });

  test('removes item from wishlist', async () => {
    const addQuery = `
    mutation {
        addWishlistItem(input: {productId: ${productId}, qty: 1}) {
            wishlistItem { _id }
        }
    }`;
    const addResponse = await gqlQuery(addQuery, {}, customer);
    assert.equal(addResponse.status, 200);
    assert.ok(!('errors' in addResponse.json), JSON.stringify(addResponse.json.errors));
    const itemId = addResponse.json.data.addWishlistItem.wishlistItem._id;

    const removeQuery = `
    mutation {
        removeWishlistItem(input: {itemId: ${itemId}}) {
            wishlistItem { _id }
        }
    }`;
    const removeResponse = await gqlQuery(removeQuery, {}, customer);
    assert.equal(removeResponse.status, 200);
    assert.ok(!('errors' in removeResponse.json), JSON.stringify(removeResponse.json.errors));
  });

  test('removed item no longer appears in listing', async () => {
    const addQuery = `
    mutation {
        addWishlistItem(input: {productId: ${productId}, qty: 1}) {
            wishlistItem { _id }
        }
    }`;
    const addResponse = await gqlQuery(addQuery, {}, customer);
    assert.equal(addResponse.status, 200);
    const itemId = addResponse.json.data.addWishlistItem.wishlistItem._id;

    const removeQuery = `
    mutation {
        removeWishlistItem(input: {itemId: ${itemId}}) {
            wishlistItem { _id }
        }
    }`;
    await gqlQuery(removeQuery, {}, customer);

    const listQuery = `
    {
        myWishlistItems {
            edges { node { _id } }
        }
    }`;
    const listResponse = await gqlQuery(listQuery, {}, customer);
    assert.equal(listResponse.status, 200);
    const foundIds = (listResponse.json.data?.myWishlistItems?.edges ?? []).map((edge: any) => edge.node._id);
    assert.ok(!foundIds.includes(Number(itemId)));
  });

  test('does not crash on empty product list (regression: null getItemCollection)', async () => {
    const query = `
    mutation {
        syncWishlistItem(input: {productIds: []}) {
            wishlistItem { _id }
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    assert.ok(!('errors' in response.json), JSON.stringify(response.json.errors));
  });

  test('syncs product IDs into wishlist', async () => {
    const query = `
    mutation {
        syncWishlistItem(input: {productIds: [${productId}]}) {
            wishlistItem {
                _id
                productId
            }
        }
    }`;
    const response = await gqlQuery(query, {}, customer);
    assert.equal(response.status, 200);
    assert.ok(!('errors' in response.json), JSON.stringify(response.json.errors));
  });
});
