/**
 * Benchmark scenarios, run in this order by bench/run.ts. Add a scenario for each new hot path; add a ratio
 * when the scenario has a natural ceiling to compare with (a bare route, a primary-key SELECT).
 */

import { reportScenarios } from './report-scenarios.js';

export interface Scenario {
  /** short name, shown in the table and used by ratios */
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** send the demo customer's or the demo API user's bearer token */
  auth?: 'customer' | 'admin';
  /** JSON body (sent with Content-Type: application/json), or a string sent as XML (a SOAP envelope); a function makes a new JSON body for every request */
  body?: unknown | (() => unknown);
  headers?: Record<string, string>;
  /** concurrent connections for this scenario instead of BENCH_CONNECTIONS (the reports measure one request's latency) */
  connections?: number;
}

/**
 * Placeholders in a path, filled by bench/run.ts: `{productId}` the demo tee; `{guestCart}` one of
 * GUEST_CARTS guest carts made before the timed loop, a different one for each request; `{totalsCart}` a
 * guest cart with TOTALS_CART_ITEMS lines, a shipping address and a shipping method; `{orderCart}` one of
 * ORDER_CARTS_PER_SECOND guest carts per second of the run (warm-up included) holding one of ORDER_SKUS and an
 * address, made before the timed loop, each placed once;
 * `{page}` a page of the order grid and `{n}` the number of a seeded order, new for each request
 * (bench/report-scenarios.ts).
 */
export const GUEST_CARTS = 1000;
/** order carts made per second the place-order scenario runs (warm-up included): its rate may not exceed this */
export const ORDER_CARTS_PER_SECOND = 1000;
/** what the place-order scenario buys, one product per cart in turn (their stock is raised first) */
export const ORDER_SKUS = Array.from({ length: 20 }, (_, i) => `GEN-${String(501 + i).padStart(6, '0')}`);
export const TOTALS_CART_ITEMS = 10;

export interface Ratio {
  /** scenario measured */
  name: string;
  /** scenario it is compared with */
  against: string;
  /** the least acceptable requests/s of `name` as a share of `against` */
  target: number;
}

const API = '/api/rest/v2';
const GRAPHQL = '/api/graphql';
/** what a storefront's product listing selects */
const LISTING_FIELDS = 'id _id sku name urlKey price finalPrice stockStatus categoryIds thumbnailUrl';

export const DEMO_CUSTOMER = { email: 'customer@example.com', password: 'Password123!' };
export const DEMO_API_USER = { grant_type: 'api_user', username: 'demo-admin', api_key: 'demo-admin-key' };

/** Products generated before the server starts (BENCH_PRODUCTS overrides). */
export const GENERATED_PRODUCTS = 10_000;

/** `{productId}` in a path: the demo catalog's configurable tee, the richest product page (variants, images, links). */
export const DETAIL_SKU = 'TEE';

/** The first few generated products: what shoppers add to carts (stock 10 to 999 each). */
const CART_SKUS = 20;
const cartSku = () => `GEN-${String(1 + Math.floor(Math.random() * CART_SKUS)).padStart(6, '0')}`;

const generatedSku = () => `GEN-${String(1 + Math.floor(Math.random() * GENERATED_PRODUCTS)).padStart(6, '0')}`;

export const scenarios: Scenario[] = [
  { name: 'bare', method: 'GET', path: '/bench/bare' },
  { name: 'pk', method: 'GET', path: '/bench/pk' },
  { name: 'store-config', method: 'GET', path: `${API}/store-config` },
  { name: 'country', method: 'GET', path: `${API}/countries/US` },
  { name: 'customers-me', method: 'GET', path: `${API}/customers/me`, auth: 'customer' },
  { name: 'auth-token', method: 'POST', path: `${API}/auth/token`, body: DEMO_CUSTOMER },
  { name: 'product-list', method: 'GET', path: `${API}/products?page=1` },
  { name: 'product', method: 'GET', path: `${API}/products/{productId}` },
  { name: 'categories', method: 'GET', path: `${API}/categories` },
  { name: 'inventory', method: 'PUT', path: `${API}/inventory`, auth: 'admin', body: () => ({ sku: generatedSku(), qty: 500 }) },
  { name: 'add-to-cart', method: 'POST', path: `${API}/guest-carts/{guestCart}/items`, body: () => ({ sku: cartSku(), qty: 1 }) },
  { name: 'cart-totals', method: 'GET', path: `${API}/guest-carts/{totalsCart}/totals` },
  { name: 'coupon-validate', method: 'POST', path: `${API}/coupons/validate`, body: { code: 'WELCOME10' } },
  {
    name: 'place-order',
    method: 'POST',
    path: `${API}/guest-carts/{orderCart}/place-order`,
    body: {
      billingAddress: { sameAsShipping: true },
      shippingMethod: 'flatrate_flatrate',
      paymentMethod: 'checkmo',
      guestEmail: 'bench@example.com',
    },
  },
  { name: 'orders-list', method: 'GET', path: `${API}/orders?page=1`, auth: 'admin' },
  { name: 'my-orders', method: 'GET', path: `${API}/customers/me/orders?page=1`, auth: 'customer' },
  // the GraphQL twins of product-list, product and add-to-cart, selecting what a storefront's listing shows
  {
    name: 'gql-product-list',
    method: 'POST',
    path: GRAPHQL,
    body: { query: `{ products(first: 20) { totalCount edges { node { ${LISTING_FIELDS} } } } }` },
  },
  {
    name: 'gql-product',
    method: 'POST',
    path: GRAPHQL,
    body: {
      query: `{ product(id: "${API}/products/{productId}") { ${LISTING_FIELDS} description mediaGallery configurableOptions variants } }`,
    },
  },
  {
    name: 'gql-add-to-cart',
    method: 'POST',
    path: GRAPHQL,
    // one document with variables, as clients send it (a document per sku would be parsed and validated each time)
    body: () => ({
      query:
        'mutation($m: String, $sku: String!) { addToCart(input: { maskedId: $m, sku: $sku, qty: 1 }) { cart { id itemsQty prices } } }',
      variables: { m: '{guestCart}', sku: cartSku() },
    }),
  },
  // a PIM's or a marketplace connector's pull of the whole catalog (the generated products and the demo's) over
  // the Magento 1 API, one request at a time: JSON-RPC, then SOAP V2 as a proxy generated from the WSDL sends it
  {
    name: 'legacy-product-list',
    method: 'POST',
    path: '/api/jsonrpc/',
    body: { jsonrpc: '2.0', method: 'call', params: ['{legacySession}', 'catalog_product.list', []], id: 1 },
    connections: 1,
  },
  {
    name: 'legacy-product-list-soap',
    method: 'POST',
    path: '/api/v2_soap/',
    body:
      '<?xml version="1.0" encoding="UTF-8"?><SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/" ' +
      'xmlns:ns1="urn:Magento"><SOAP-ENV:Body><ns1:catalogProductList><sessionId>{legacySession}</sessionId>' +
      '</ns1:catalogProductList></SOAP-ENV:Body></SOAP-ENV:Envelope>',
    connections: 1,
  },
  ...reportScenarios,
];

export const ratios: Ratio[] = [
  { name: 'store-config', against: 'bare', target: 0.4 },
  { name: 'customers-me', against: 'pk', target: 0.5 },
  { name: 'product', against: 'pk', target: 0.5 },
  { name: 'product-list', against: 'pk', target: 0.25 },
  { name: 'add-to-cart', against: 'pk', target: 0.15 },
  { name: 'cart-totals', against: 'pk', target: 0.2 },
  { name: 'categories', against: 'pk', target: 0.3 },
  { name: 'orders-list', against: 'pk', target: 0.25 },
  { name: 'my-orders', against: 'pk', target: 0.25 },
  { name: 'place-order', against: 'pk', target: 0.05 },
  { name: 'gql-product-list', against: 'product-list', target: 0.8 },
  { name: 'gql-product', against: 'product', target: 0.6 },
  { name: 'gql-add-to-cart', against: 'add-to-cart', target: 0.8 },
];
