/**
 * Every list in a fixed number of statements: each declared collection operation (the registry's `kind:
 * 'collection'`, walked, so a new list cannot be left out) and the MCP category tree are read with one item,
 * then with five; the statements of the request (counted in its own async context, see `countStatements`)
 * must not grow with the items (no query per item) and must stay within the list's budget.
 *
 * Each list has a fixture that makes one more item of it through the API. A list whose items the API cannot
 * add (store views, countries) is read once against its budget.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { allOperations } from '../src/modules/index.js';
import { countStatements } from '../src/platform/db.js';
import { kindOf } from '../src/platform/operations.js';
import { createTestProduct } from './fixtures/catalog.js';
import { placeInvoicedOrder, placeTestOrder, TEST_ADDRESS } from './fixtures/checkout.js';
import { staffPasskeys } from './fixtures/webauthn.js';
import { API, buildTestApp, type Res, type TestApp } from './helpers.js';

let t: TestApp;
let admin: string;
let customer: string;
let seq = 0;
const uniq = (prefix: string) => `${prefix}-${process.pid}-${++seq}`;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
});
after(() => t.close());

interface Read {
  method?: string;
  url: string;
  token?: string;
  body?: unknown;
  query?: Record<string, string>;
}

interface ListCase {
  /** the request that answers the list */
  read: () => Read;
  /** adds one item to the list; absent where the API adds none (the list is read once) */
  add?: () => Promise<void>;
  /** statements the request may send, besides its transaction's BEGIN and COMMIT on PostgreSQL */
  budget: number;
  /** the request writes in a transaction (a replace, by an admin: its activity log row is one statement more) */
  tx?: boolean;
  /** what `add` makes is read by the list, not listed by it (the products a category's filters count) */
  notListed?: boolean;
}

function ok(r: Res, status = 201): Res {
  assert.equal(r.status, status, `${r.status} ${r.text.slice(0, 300)}`);
  return r;
}

const post = async (url: string, body: unknown, token = admin, status = 201) =>
  ok(await t.req('POST', `${API}${url}`, { token, body }), status).body;

async function product(extra: Record<string, unknown> = {}) {
  return createTestProduct(t, { price: 10, stockData: { qty: 1000, isInStock: true }, ...extra });
}

async function newCustomerToken(): Promise<string> {
  const email = `${uniq('list')}@example.com`;
  ok(await t.req('POST', `${API}/customers`, { body: { email, firstname: 'List', lastname: 'Reader', password: 'Password123!' } }));
  return t.tokens.customer(email, 'Password123!');
}

/** A product list fixture of another product's links (`kind` the link path), or its grouped children. */
function productLinks(path: string, body: (childId: number) => unknown, replace?: 'PUT', replaceBudget = 8): () => Promise<ListCase> {
  return async () => {
    const parent = await product(path === 'grouped' ? { type: 'grouped' } : {});
    const children: number[] = [];
    const add = async () => {
      const child = await product();
      children.push(child.id);
      if (!replace) await post(`/products/${parent.id}/${path}`, body(child.id), admin, 201);
    };
    return {
      add,
      budget: replace ? replaceBudget : 3,
      tx: !!replace,
      read: () =>
        replace
          ? {
              method: replace,
              url: `${API}/products/${parent.id}/${path}`,
              token: admin,
              body: path === 'grouped' ? children.map((id) => ({ childProductId: id })) : children.map((id) => ({ linkedProductId: id })),
            }
          : { url: `${API}/products/${parent.id}/${path}` },
    };
  };
}

const LISTS: Record<string, () => Promise<ListCase>> = {
  'stores.list': async () => ({ budget: 1, read: () => ({ url: `${API}/stores` }) }),
  'stores.configs': async () => ({ budget: 1, read: () => ({ url: `${API}/store-configs` }) }),
  'stores.currencies': async () => ({ budget: 1, read: () => ({ url: `${API}/stores/currencies` }) }),
  'configuration.sections': async () => ({ budget: 1, read: () => ({ url: `${API}/configuration/sections`, token: admin }) }),
  'webhooks.events': async () => ({ budget: 1, read: () => ({ url: `${API}/webhooks/events`, token: admin }) }),
  'configuration.history': async () => ({
    budget: 3,
    add: async () =>
      void ok(
        await t.req('PUT', `${API}/configuration`, {
          token: admin,
          body: { scope: 'default', values: { 'general/store_information/name': uniq('Shop') } },
        }),
        200,
      ),
    read: () => ({ url: `${API}/configuration/history`, token: admin, query: { itemsPerPage: '100' } }),
  }),
  'directory.countries': async () => ({ budget: 1, read: () => ({ url: `${API}/countries` }) }),
  'taxClasses.list': async () => ({
    budget: 3,
    add: async () => void (await post('/tax-classes', { className: uniq('class') })),
    read: () => ({ url: `${API}/tax-classes`, token: admin, query: { itemsPerPage: '100' } }),
  }),
  'taxRates.list': async () => ({
    budget: 3,
    add: async () => void (await post('/tax-rates', { code: uniq('rate'), taxCountryId: 'US', rate: 1 })),
    read: () => ({ url: `${API}/tax-rates`, token: admin, query: { itemsPerPage: '100' } }),
  }),
  'taxRules.list': async () => {
    const rate = await post('/tax-rates', { code: uniq('rule-rate'), taxCountryId: 'US', rate: 1 });
    const customerClass = await post('/tax-classes', { className: uniq('customer-class'), classType: 'CUSTOMER' });
    const productClass = await post('/tax-classes', { className: uniq('product-class'), classType: 'PRODUCT' });
    return {
      budget: 4,
      add: async () =>
        void (await post('/tax-rules', {
          code: uniq('rule'),
          customerTaxClassIds: [customerClass.id],
          productTaxClassIds: [productClass.id],
          taxRateIds: [rate.id],
        })),
      read: () => ({ url: `${API}/tax-rules`, token: admin, query: { itemsPerPage: '100' } }),
    };
  },
  'customers.list': async () => {
    const lastname = uniq('Listed');
    return {
      budget: 3,
      add: async () =>
        void (await post('/customers', { email: `${uniq('c')}@example.com`, firstname: 'A', lastname, password: 'Password123!' }, admin)),
      read: () => ({ url: `${API}/customers`, token: admin, query: { itemsPerPage: '100', lastname } }),
    };
  },
  'customers.addresses.list': async () => {
    const token = await newCustomerToken();
    return {
      budget: 3,
      add: async () => void (await post('/customers/me/addresses', { ...addressBody() }, token)),
      read: () => ({ url: `${API}/customers/me/addresses`, token }),
    };
  },
  'addresses.list': async () => {
    const token = await newCustomerToken();
    return {
      budget: 3,
      add: async () => void (await post('/addresses', { ...addressBody() }, token)),
      read: () => ({ url: `${API}/addresses`, token }),
    };
  },
  'customers.addresses.listFor': async () => {
    const c = await post(
      '/customers',
      { email: `${uniq('c')}@example.com`, firstname: 'A', lastname: 'B', password: 'Password123!' },
      admin,
    );
    return {
      budget: 3,
      add: async () => void (await post(`/customers/${c.id}/addresses`, addressBody())),
      read: () => ({ url: `${API}/customers/${c.id}/addresses`, token: admin }),
    };
  },
  'customerGroups.list': async () => ({
    budget: 4,
    add: async () => void (await post('/customer-groups', { code: uniq('g').slice(0, 32) })),
    read: () => ({ url: `${API}/customer-groups`, token: admin, query: { itemsPerPage: '100' } }),
  }),
  'urlResolver.resolve': async () => {
    const p = await product();
    return { budget: 3, read: () => ({ url: `${API}/url-resolver`, query: { url: String(p.urlKey ?? p.sku) } }) };
  },
  // attributes and attribute sets are install data: the API reads them, it does not add them
  'productAttributes.list': async () => ({
    budget: 3,
    read: () => ({ url: `${API}/product-attributes`, token: admin, query: { itemsPerPage: '100' } }),
  }),
  'attributeSets.list': async () => ({
    budget: 3,
    read: () => ({ url: `${API}/attribute-sets`, token: admin, query: { itemsPerPage: '100' } }),
  }),
  'products.list': async () => {
    const search = uniq('listed');
    return {
      budget: 2,
      add: async () => void (await product({ name: `Item ${search}` })),
      read: () => ({ url: `${API}/products`, query: { search } }),
    };
  },
  'products.media.list': async () => {
    const p = await product();
    return {
      budget: 3,
      add: async () => void (await post(`/products/${p.id}/media`, { base64: PNG_BASE64, label: 'x' })),
      read: () => ({ url: `${API}/products/${p.id}/media` }),
    };
  },
  'products.customOptions.list': async () => {
    const p = await product();
    return {
      budget: 3,
      add: async () => void (await post(`/products/${p.id}/custom-options`, { title: uniq('opt'), type: 'field' })),
      read: () => ({ url: `${API}/products/${p.id}/custom-options` }),
    };
  },
  'products.tierPrices.list': async () => tierPrices('GET'),
  'products.tierPrices.replace': async () => tierPrices('POST'),
  'products.tierPrices.put': async () => tierPrices('PUT'),
  'products.groupPrices.list': async () => groupPrices('GET'),
  'products.groupPrices.replace': async () => groupPrices('PUT'),
  'products.bundleOptions.list': async () => {
    const p = await product({ type: 'bundle' });
    return {
      budget: 3,
      add: async () => void (await post(`/products/${p.id}/bundle-options`, { title: uniq('bundle'), type: 'select', required: true })),
      read: () => ({ url: `${API}/products/${p.id}/bundle-options` }),
    };
  },
  'products.configurable.get': async () => {
    const p = await product({ type: 'configurable' });
    return { budget: 3, read: () => ({ url: `${API}/products/${p.id}/configurable` }) };
  },
  'products.grouped.list': productLinks('grouped', (id) => ({ childProductId: id })),
  'products.grouped.replace': productLinks('grouped', () => undefined, 'PUT', 11),
  'products.links.related.list': productLinks('links/related', (id) => ({ linkedProductId: id })),
  'products.links.related.replace': productLinks('links/related', () => undefined, 'PUT'),
  'products.links.crossSell.list': productLinks('links/cross-sell', (id) => ({ linkedProductId: id })),
  'products.links.crossSell.replace': productLinks('links/cross-sell', () => undefined, 'PUT'),
  'products.links.upSell.list': productLinks('links/up-sell', (id) => ({ linkedProductId: id })),
  'products.links.upSell.replace': productLinks('links/up-sell', () => undefined, 'PUT'),
  'products.downloadableLinks.list': async () => {
    const p = await product({ type: 'downloadable' });
    return {
      budget: 3,
      add: async () =>
        void (await post(`/products/${p.id}/downloadable-links`, {
          title: uniq('link'),
          linkUrl: 'https://example.com/file.pdf',
          price: 0,
        })),
      read: () => ({ url: `${API}/products/${p.id}/downloadable-links` }),
    };
  },
  'categories.list': async () => {
    const parent = await post('/categories', { name: uniq('Parent'), parentId: 2 });
    return {
      budget: 2,
      add: async () => void (await post('/categories', { name: uniq('Child'), parentId: parent.id })),
      read: () => ({ url: `${API}/categories`, query: { parentId: String(parent.id) } }),
    };
  },
  // the MCP category-tree resource reads this one list, then nests it
  'categories.tree': async () => {
    const parent = await post('/categories', { name: uniq('Branch'), parentId: 2 });
    let under = parent.id as number;
    return {
      budget: 2,
      add: async () => {
        const c = await post('/categories', { name: uniq('Twig'), parentId: under });
        under = c.id;
      },
      read: () => ({ url: `${API}/categories/tree` }),
    };
  },
  'products.categoryProducts': async () => {
    const category = await post('/categories', { name: uniq('Shelf'), parentId: 2 });
    return {
      budget: 2,
      add: async () => void (await product({ categoryIds: [category.id] })),
      read: () => ({ url: `${API}/categories/${category.id}/products`, query: { pageSize: '100' } }),
    };
  },
  'inventory.list': async () => ({
    budget: 3,
    add: async () => void (await product()),
    read: () => ({ url: `${API}/inventory`, token: admin, query: { itemsPerPage: '100' } }),
  }),
  'giftcards.list': async () => ({
    budget: 4,
    add: async () => {
      const card = await post('/giftcards', { initialBalance: 20, websiteIds: [1] });
      // some history on each card: a card's history is read with the list
      ok(
        await t.req('POST', `${API}/giftcards/adjust-balance`, {
          token: admin,
          body: { id: card.id, newBalance: 15, comment: 'adjusted' },
        }),
        200,
      );
    },
    read: () => ({ url: `${API}/giftcards`, token: admin, query: { itemsPerPage: '100' } }),
  }),
  'shipments.list': async () => ({
    budget: 6,
    add: async () => {
      const order = await placeTestOrder(t);
      await post(`/orders/${order.id}/shipments`, {});
    },
    read: () => ({ url: `${API}/shipments`, token: admin, query: { itemsPerPage: '100' } }),
  }),
  'creditMemos.listAll': async () => ({
    budget: 5,
    add: async () => {
      const order = await placeInvoicedOrder(t);
      await post(`/orders/${order.id}/credit-memos`, {});
    },
    read: () => ({ url: `${API}/credit-memos`, token: admin, query: { itemsPerPage: '100' } }),
  }),
  'layeredFilters.list': async () => {
    const category = await post('/categories', { name: uniq('Layered'), parentId: 2, isAnchor: true });
    return {
      budget: 4,
      notListed: true,
      add: async () => void (await product({ categoryIds: [category.id] })),
      read: () => ({ url: `${API}/layered-filters`, query: { categoryId: String(category.id) } }),
    };
  },
  'reviews.listByProduct': async () => {
    const p = await product();
    return { budget: 3, add: async () => void (await review(p.id, customer)), read: () => ({ url: `${API}/products/${p.id}/reviews` }) };
  },
  'reviews.listMine': async () => {
    const token = await newCustomerToken();
    return {
      budget: 3,
      add: async () => void (await review((await product()).id, token)),
      read: () => ({ url: `${API}/customers/me/reviews`, token }),
    };
  },
  'reviews.list': async () => {
    const p = await product();
    return {
      budget: 3,
      add: async () => void (await review(p.id, customer)),
      read: () => ({ url: `${API}/reviews`, token: admin, query: { productId: String(p.id), itemsPerPage: '100' } }),
    };
  },
  'tags.listByProduct': async () => {
    const p = await product();
    return {
      budget: 3,
      add: async () => void (await post('/tags', { name: uniq('tag'), storeId: 1, productIds: [p.id] })),
      read: () => ({ url: `${API}/products/${p.id}/tags` }),
    };
  },
  'tags.list': async () => {
    const prefix = uniq('cloud');
    const p = await product();
    return {
      budget: 3,
      add: async () => void (await post('/tags', { name: uniq(prefix), storeId: 1, productIds: [p.id] })),
      read: () => ({ url: `${API}/tags`, token: admin, query: { search: prefix, itemsPerPage: '100' } }),
    };
  },
  'tags.products': async () => {
    const tag = await post('/tags', { name: uniq('tagged') });
    return {
      budget: 3,
      add: async () =>
        void ok(
          await t.req('PUT', `${API}/tags/${tag.id}/products`, { token: admin, body: { storeId: 1, assign: [(await product()).id] } }),
          200,
        ),
      read: () => ({ url: `${API}/tags/${tag.id}/products` }),
    };
  },
  'tags.listMine': async () => {
    const token = await newCustomerToken();
    const p = await product();
    return {
      budget: 3,
      add: async () => void (await post(`/products/${p.id}/tags`, { tags: uniq('mine') }, token)),
      read: () => ({ url: `${API}/customers/me/tags`, token }),
    };
  },
  'coupons.list': async () => ({
    budget: 3,
    add: async () => void (await post('/coupons', { code: uniq('LIST').replace(/-/g, '_'), discountType: 'percent', discountAmount: 5 })),
    read: () => ({ url: `${API}/coupons`, token: admin, query: { itemsPerPage: '100' } }),
  }),
  'carts.list': async () => {
    const token = await newCustomerToken();
    return {
      budget: 3,
      add: async () => {
        const cart = await post('/carts', {}, token);
        ok(await t.req('POST', `${API}/carts/${cart.id}/items`, { token, body: { sku: (await product()).sku, qty: 1 } }), 200);
      },
      read: () => ({ url: `${API}/carts`, token }),
    };
  },
  'reports.lowStock': async () => ({
    budget: 2,
    add: async () => void (await product({ stockData: { qty: 0, isInStock: false, notifyStockQty: 5 } })),
    read: () => ({ url: `${API}/reports/low-stock`, token: admin, query: { itemsPerPage: '100' } }),
  }),
  'orders.list': async () => {
    const token = await newCustomerToken();
    const me = ok(await t.req('GET', `${API}/customers/me`, { token }), 200).body;
    return {
      budget: 2,
      add: async () => void (await placeTestOrder(t, { customerToken: token })),
      read: () => ({ url: `${API}/orders`, token: admin, query: { customerId: String(me.id) } }),
    };
  },
  'orders.listMine': async () => {
    const token = await newCustomerToken();
    return {
      budget: 2,
      add: async () => void (await placeTestOrder(t, { customerToken: token })),
      read: () => ({ url: `${API}/customers/me/orders`, token }),
    };
  },
  'invoices.list': async () => {
    const order = await placeTestOrder(t);
    return { budget: 6, read: () => ({ url: `${API}/orders/${order.id}/invoices`, token: admin }) };
  },
  'invoices.listAll': async () => {
    const mark = uniq('invoiced');
    return {
      budget: 5,
      add: async () => {
        const order = await placeTestOrder(t, { guestEmail: `${mark}@example.com` });
        await post(`/orders/${order.id}/invoices`, {});
      },
      read: () => ({ url: `${API}/invoices`, token: admin, query: { itemsPerPage: '100', search: mark, sortBy: 'grandTotal' } }),
    };
  },
  'invoices.listOwn': async () => {
    const token = await newCustomerToken();
    const order = await placeTestOrder(t, { customerToken: token });
    return { budget: 6, read: () => ({ url: `${API}/customers/me/orders/${order.id}/invoices`, token }) };
  },
  'shipments.listOfOrder': async () => {
    const items = await Promise.all(Array.from({ length: 5 }, () => product()));
    const order = await placeTestOrder(t, { items: items.map((p) => ({ sku: p.sku, qty: 1 })) });
    let shipped = 0;
    return {
      budget: 7,
      add: async () => void (await post(`/orders/${order.id}/shipments`, { items: [{ orderItemId: order.items[shipped++].id, qty: 1 }] })),
      read: () => ({ url: `${API}/orders/${order.id}/shipments`, token: admin }),
    };
  },
  'creditMemos.list': async () => {
    const items = await Promise.all(Array.from({ length: 5 }, () => product()));
    const order = await placeInvoicedOrder(t, { items: items.map((p) => ({ sku: p.sku, qty: 1 })) });
    let refunded = 0;
    return {
      budget: 6,
      add: async () =>
        void (await post(`/orders/${order.id}/credit-memos`, { items: [{ orderItemId: order.items[refunded++].id, qty: 1 }] })),
      read: () => ({ url: `${API}/orders/${order.id}/credit-memos`, token: admin }),
    };
  },
  'cmsPages.list': async () => {
    const search = uniq('listed');
    const block = await post('/cms-blocks', {
      identifier: uniq('inc'),
      title: 'Included',
      content: 'Included {{store url="x"}}',
      stores: [0],
    });
    return {
      budget: 4,
      add: async () =>
        void (await post('/cms-pages', {
          identifier: uniq('page'),
          title: `Page ${search}`,
          content: `A {{block id="${block.identifier}"}}`,
          stores: [0],
        })),
      read: () => ({ url: `${API}/cms-pages`, query: { search } }),
    };
  },
  'cmsBlocks.list': async () => {
    const search = uniq('listed');
    const inner = await post('/cms-blocks', { identifier: uniq('inner'), title: 'Inner', content: 'Inner', stores: [0] });
    return {
      budget: 4,
      add: async () =>
        void (await post('/cms-blocks', {
          identifier: uniq('block'),
          title: `Block ${search}`,
          content: `B {{block id="${inner.identifier}"}}`,
          stores: [0],
        })),
      read: () => ({ url: `${API}/cms-blocks`, query: { search } }),
    };
  },
  'newsletter.subscribers.list': async () => ({
    budget: 3,
    add: async () => void (await post('/newsletter/subscribe', { email: `${uniq('reader')}@example.com` }, '')),
    read: () => ({ url: `${API}/newsletter/subscribers`, token: admin, query: { itemsPerPage: '100' } }),
  }),
  'blogPosts.list': async () => {
    const search = uniq('listed');
    return {
      budget: 5,
      add: async () => void (await post('/blog-posts', { title: `Post ${search} ${uniq('n')}`, content: 'Text' })),
      read: () => ({ url: `${API}/blog-posts`, token: admin, query: { search } }),
    };
  },
  'blogCategories.list': async () => ({
    budget: 3,
    add: async () => void (await post('/blog-categories', { name: uniq('Blog category') })),
    read: () => ({ url: `${API}/blog-categories`, query: { itemsPerPage: '100' } }),
  }),
  'wishlist.list': async () => {
    const token = await newCustomerToken();
    return {
      budget: 6,
      add: async () => void (await post('/customers/me/wishlist', { productId: (await product()).id }, token)),
      read: () => ({ url: `${API}/customers/me/wishlist`, token }),
    };
  },
  'wishlist.listFor': async () => {
    const token = await newCustomerToken();
    const me = ok(await t.req('GET', `${API}/customers/me`, { token }), 200).body;
    return {
      budget: 7,
      add: async () => void (await post('/customers/me/wishlist', { productId: (await product()).id }, token)),
      read: () => ({ url: `${API}/customers/${me.id}/wishlist`, token: admin }),
    };
  },
  'media.list': async () => ({
    budget: 2,
    add: async () => {
      const boundary = 'list-budget-boundary';
      const file = Buffer.from(PNG_BASE64, 'base64');
      const raw = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${uniq('pic')}.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        file,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      ok(
        await t.req('POST', `${API}/media`, {
          token: admin,
          raw,
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        }),
      );
    },
    read: () => ({ url: `${API}/media`, token: admin }),
  }),
  'media.folders': async () => ({
    budget: 2,
    add: async () => {
      const boundary = 'list-budget-folder';
      const raw = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="folder"\r\n\r\n${uniq('folder')}\r\n`),
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f.png"\r\nContent-Type: image/png\r\n\r\n`),
        Buffer.from(PNG_BASE64, 'base64'),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      ok(
        await t.req('POST', `${API}/media`, {
          token: admin,
          raw,
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        }),
      );
    },
    read: () => ({ url: `${API}/media-folders`, token: admin }),
  }),
  'revocation.listMine': async () => {
    const token = await newCustomerToken();
    return {
      budget: 3,
      add: async () =>
        void (await post('/customers/me/revocation-requests', { orderId: (await placeTestOrder(t, { customerToken: token })).id }, token)),
      read: () => ({ url: `${API}/customers/me/revocation-requests`, token }),
    };
  },
  'revocation.list': async () => {
    const token = await newCustomerToken();
    return {
      budget: 3,
      add: async () =>
        void (await post('/customers/me/revocation-requests', { orderId: (await placeTestOrder(t, { customerToken: token })).id }, token)),
      read: () => ({ url: `${API}/revocation-requests`, token: admin, query: { itemsPerPage: '100' } }),
    };
  },
  'webhooks.list': async () => ({
    budget: 3,
    add: async () => void (await post('/webhooks', { url: `https://example.com/${uniq('hook')}`, events: ['product.*'] })),
    read: () => ({ url: `${API}/webhooks`, token: admin, query: { itemsPerPage: '100' } }),
  }),
  'activityLog.list': async () => ({
    budget: 2,
    add: async () => void (await post('/cms-blocks', { identifier: uniq('logged'), title: 'Logged' })),
    read: () => ({ url: `${API}/activity-log`, token: admin, query: { operation: 'cmsBlocks.create', itemsPerPage: '100' } }),
  }),
  'adminRoles.list': async () => ({
    budget: 3,
    add: async () => void (await post('/admin-roles', { name: uniq('role'), permissions: ['orders/read'] })),
    read: () => ({ url: `${API}/admin-roles`, token: admin, query: { itemsPerPage: '100' } }),
  }),
  'adminUsers.list': async () => {
    const role = await post('/admin-roles', { name: uniq('staff-role'), permissions: ['orders/read'] });
    const add = async () => {
      const username = uniq('staff');
      await post('/admin-users', { username, email: `${username}@example.com`, password: 'Secret123', roleId: role.id });
    };
    return {
      budget: 3,
      add,
      read: () => ({ url: `${API}/admin-users`, token: admin, query: { roleId: String(role.id), itemsPerPage: '100' } }),
    };
  },
  'apiRoles.list': async () => ({
    budget: 3,
    add: async () => void (await post('/api-roles', { name: uniq('api-role'), permissions: ['orders/read'] })),
    read: () => ({ url: `${API}/api-roles`, token: admin, query: { itemsPerPage: '100' } }),
  }),
  'apiUsers.list': async () => {
    const role = await post('/api-roles', { name: uniq('api-user-role'), permissions: ['orders/read'] });
    return {
      budget: 3,
      add: async () => void (await post('/api-users', { username: uniq('api-user'), roleId: role.id })),
      read: () => ({ url: `${API}/api-users`, token: admin, query: { roleId: String(role.id), itemsPerPage: '100' } }),
    };
  },
  'webhooks.deliveries': async () => {
    const hook = await post('/webhooks', { url: `https://example.com/${uniq('hook')}`, events: ['product.*'] });
    return {
      budget: 4,
      add: async () => void (await product()),
      read: () => ({ url: `${API}/webhooks/${hook.id}/deliveries`, token: admin }),
    };
  },
  'adminUsers.passkeysMine': async () => {
    const staff = await staffPasskeys(t);
    return { budget: 2, add: staff.add, read: () => ({ url: `${API}/admin-users/me/passkeys`, token: staff.token }) };
  },
  'adminUsers.passkeys': async () => {
    const staff = await staffPasskeys(t);
    return { budget: 3, add: staff.add, read: () => ({ url: `${API}/admin-users/${staff.userId}/passkeys`, token: admin }) };
  },
};

/** A 1×1 PNG. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

function addressBody() {
  return {
    firstname: 'Ada',
    lastname: 'Lovelace',
    street: TEST_ADDRESS.street,
    city: TEST_ADDRESS.city,
    postcode: TEST_ADDRESS.postcode,
    countryId: 'US',
    region: 'TX',
    telephone: '5550100',
  };
}

/** A review, approved so that the storefront lists it. */
async function review(productId: number, token: string) {
  const r = await post(`/products/${productId}/reviews`, { title: 'Fine', detail: 'Works.', nickname: 'N' }, token);
  ok(await t.req('PUT', `${API}/reviews/${r.id}`, { token: admin, body: { status: 'approved' } }), 200);
  return r;
}

async function tierPrices(method: 'GET' | 'POST' | 'PUT'): Promise<ListCase> {
  const p = await product();
  const tiers: { customerGroupId: number; qty: number; price: number }[] = [];
  const add = async () => {
    tiers.push({ customerGroupId: 0, qty: tiers.length + 2, price: 9 - tiers.length * 0.5 });
    if (method === 'GET') ok(await t.req('PUT', `${API}/products/${p.id}/tier-prices`, { token: admin, body: { tierPrices: tiers } }), 200);
  };
  const url = `${API}/products/${p.id}/tier-prices`;
  return {
    add,
    budget: method === 'GET' ? 3 : 10,
    tx: method !== 'GET',
    read: () => (method === 'GET' ? { url, token: admin } : { method, url, token: admin, body: { tierPrices: tiers } }),
  };
}

/** Group prices: one per customer group (0 to 3, then all groups), so at most five. */
async function groupPrices(method: 'GET' | 'PUT'): Promise<ListCase> {
  const p = await product();
  const rows: { customerGroupId: number | 'all'; price: number }[] = [];
  const url = `${API}/products/${p.id}/group-prices`;
  const add = async () => {
    rows.push({ customerGroupId: rows.length < 4 ? rows.length : 'all', price: 9 - rows.length * 0.5 });
    if (method === 'GET') ok(await t.req('PUT', url, { token: admin, body: rows }), 200);
  };
  return {
    add,
    budget: method === 'GET' ? 3 : 10,
    tx: method !== 'GET',
    read: () => (method === 'GET' ? { url, token: admin } : { method, url, token: admin, body: rows }),
  };
}

const itemsOf = (r: Res): unknown[] => (Array.isArray(r.body) ? r.body : Array.isArray(r.body?.member) ? r.body.member : []);

/**
 * The statements of one read of the list and its items; made twice, so that per-process caches are warm. The mail
 * of what the fixture made is sent first: sending it marks the order (`emailSent`), which would otherwise change
 * the orders' read version between the two reads and make the counted one a cache miss.
 */
async function measure(c: ListCase): Promise<{ n: number; items: number }> {
  await t.mail.runOnce();
  const run = () => {
    const r = c.read();
    return t.req(r.method ?? 'GET', r.url, { token: r.token, body: r.body, query: r.query });
  };
  const warm = await run();
  assert.ok(warm.status >= 200 && warm.status < 300, `${warm.status} ${warm.text.slice(0, 300)}`);
  const { n, result } = await countStatements(run);
  assert.ok(result.status >= 200 && result.status < 300, `${result.status} ${result.text.slice(0, 300)}`);
  return { n, items: itemsOf(result).length };
}

const collections = allOperations().filter((o) => kindOf(o) === 'collection');

/** Lists of everything of their kind, with no filter to the items a fixture makes: each read on a database of its own. */
const EVERYTHING = new Set(['inventory.list', 'giftcards.list', 'shipments.list', 'creditMemos.listAll']);

/** Reads the list with one item, then with five: no more statements, and within the budget. */
async function measureList(id: string, c: ListCase): Promise<void> {
  // a replace is a back-office write: besides BEGIN and COMMIT on PostgreSQL, it writes its activity log row
  const tx = c.tx ? 1 + (t.database.kind === 'postgres' ? 2 : 0) : 0;
  if (!c.add) {
    const { n } = await measure(c);
    assert.ok(n <= c.budget + tx, `${id}: ${n} statements, budget ${c.budget + tx}`);
    return;
  }
  await c.add();
  const one = await measure(c);
  for (let i = 0; i < 4; i++) await c.add();
  const five = await measure(c);
  if (!c.notListed)
    assert.ok(five.items >= one.items + 4 || five.items >= 5, `${id}: the list shows the items made (${one.items}, then ${five.items})`);
  assert.ok(five.n <= one.n, `${id}: ${one.n} statements with ${one.items} items, ${five.n} with ${five.items}: a statement per item`);
  assert.ok(five.n <= c.budget + tx, `${id}: ${five.n} statements, budget ${c.budget + tx}`);
}

describe('every list reads in a fixed number of statements', () => {
  test('every collection operation has a list fixture', () => {
    const missing = collections.map((o) => o.id).filter((id) => !LISTS[id]);
    assert.deepEqual(missing, [], 'lists without a fixture: add one to LISTS');
  });

  for (const o of collections) {
    const fixture = LISTS[o.id];
    if (!fixture) continue;
    test(`${o.id}: ${o.method} ${o.path}`, async () => {
      if (!EVERYTHING.has(o.id)) return measureList(o.id, await fixture());
      const shared = { t, admin, customer };
      t = await buildTestApp();
      try {
        admin = await t.tokens.admin();
        customer = await t.tokens.customer();
        await measureList(o.id, await fixture());
      } finally {
        await t.close();
        ({ t, admin, customer } = shared);
      }
    });
  }
});
