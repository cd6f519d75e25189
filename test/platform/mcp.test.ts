/**
 * The MCP endpoint, driven by the SDK's own client over HTTP: handshake and sessions, the tools each caller sees
 * and their schemas, reads, lists, writes with idempotency keys, refusals, a guest checkout through tools alone,
 * the resources; and that no declared operation lacks its tool. The assertions of Maho's MCP tests
 * (tests/Api/V2/Mcp/McpTest.php) hold under our tool names: `catalog_products_list` is `products_list`,
 * `catalog_products_get` is `product_get`, `sales_orders_list` is `orders_list`, `content_cms_blocks_create` is
 * `cms_block_create`, `sales_customers_me_orders_list` is `orders_list_mine`, and so on.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { allOperations } from '../../src/modules/index.js';
import { newSessionId, sessionNonce } from '../../src/platform/mcp.js';
import { deriveTools, toolName } from '../../src/platform/mcp-tools.js';
import { API, buildSecondApp, buildTestApp, type TestApp } from '../helpers.js';
import { invoiceOrder, placeTestOrder, TEST_ADDRESS } from '../fixtures/checkout.js';
import { registerCustomer } from '../../src/modules/customers/service.js';

/** Operations without a tool, and why; a new opt-out must be named here. */
const OPTED_OUT: Record<string, string> = {
  'auth.token': 'issues tokens: an agent is given its token by its client configuration',
  'auth.refresh': 'issues tokens',
  'auth.logout': 'revokes the token the agent is connected with',
  'contact.config': 'the contact form is for people',
  'contact.submit': 'the contact form is for people (captcha, honeypot)',
  'auth.passkeyOptions': 'a passkey sign-in needs a person at an authenticator',
  'adminUsers.passkeyRegistrationOptions': 'a passkey is registered by a person at an authenticator',
  'adminUsers.passkeyRegister': 'a passkey is registered by a person at an authenticator',
  'adminUsers.passkeysMine': "a staff user's own passkeys: an agent's token is no staff user",
  'adminUsers.passkeyDeleteMine': "a staff user's own passkeys: an agent's token is no staff user",
  'adminUsers.passkeys': "staff users' second factors are no business of an agent",
  'adminUsers.passkeyDelete': "staff users' second factors are no business of an agent",
  'adminUsers.create': 'staff accounts carry passwords: people manage them, not agents',
  'adminUsers.update': 'staff accounts carry passwords: people manage them, not agents',
  'adminUsers.delete': 'staff accounts: people manage them, not agents',
  'adminUsers.updateMe': "a staff user's own account: an agent's token is no staff user",
  'adminUsers.signOutEverywhere': "a staff user's own sessions: an agent's token is no staff user",
  'adminUsers.twofaSetup': 'a second factor is set up by a person at an authenticator',
  'adminUsers.twofaEnable': 'a second factor is set up by a person at an authenticator',
  'adminUsers.twofaDisable': "a staff user's second factor is no business of an agent",
  'adminUsers.recoveryCodes': "a staff user's recovery codes are no business of an agent",
  'adminUsers.passwordReset': 'a password reset is asked for by a person',
  'adminUsers.passwordResetConfirm': 'a password reset is completed by a person from the mail',
  'adminUsers.sendPasswordReset': 'staff passwords: people manage them, not agents',
  'apiUsers.create': "answers a new API key: a credential is handed to a person, not to an agent's transcript",
  'apiUsers.resetKey': "answers a new API key: a credential is handed to a person, not to an agent's transcript",
  'auth.socialAuth': 'signs a person in with their identity provider',
};

let t: TestApp;
let base: string;
let admin: string;
let customer: string;
let cmsOnly: string;
const clients: Client[] = [];

before(async () => {
  t = await buildTestApp();
  base = `${await t.app.listen({ port: 0, host: '127.0.0.1' })}/api/mcp`;
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  cmsOnly = await t.tokens.apiUser(['cms-pages/all', 'cms-blocks/all']);
});
after(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await t.close();
});

async function connect(token?: string, headers: Record<string, string> = {}, url = base): Promise<Client> {
  const client = new Client({ name: 'commerce-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const sessionOf = (c: Client) => (c.transport as StreamableHTTPClientTransport).sessionId!;

async function toolsOf(c: Client): Promise<Map<string, Tool>> {
  return new Map((await c.listTools()).tools.map((x) => [x.name, x]));
}

/** Calls a tool and answers the parsed JSON it returned (asserting it did not fail). */
async function call(c: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const r = (await c.callTool({ name, arguments: args })) as CallToolResult;
  assert.ok(!r.isError, `${name} failed: ${JSON.stringify(r.content)}`);
  const first = r.content[0];
  return first && first.type === 'text' ? JSON.parse(first.text) : undefined;
}

/** Calls a tool that must fail and answers its error (the REST error body and reason). */
async function refused(c: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const r = (await c.callTool({ name, arguments: args })) as CallToolResult;
  assert.equal(r.isError, true, `${name} did not fail: ${JSON.stringify(r.content)}`);
  const first = r.content[0];
  assert.equal(first.type, 'text');
  return JSON.parse((first as { text: string }).text);
}

const unique = () => crypto.randomBytes(4).toString('hex');

/** A raw JSON-RPC POST, for what the SDK client never sends. */
function post(body: unknown, headers: Record<string, string> = {}) {
  return fetch(base, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
}

describe('handshake and session', () => {
  test('initialize answers server info, capabilities and instructions', async () => {
    const c = await connect();
    assert.equal(c.getServerVersion()?.name, 'commerce-api');
    assert.ok(c.getServerVersion()?.version);
    assert.ok(c.getServerCapabilities()?.tools);
    assert.ok(c.getServerCapabilities()?.resources);
    const text = c.getInstructions() ?? '';
    assert.match(text, /Demo Store/, 'names the store');
    assert.match(text, /USD/, 'names the base currency');
    assert.match(text, /numeric ids/);
    assert.match(text, /page \(from 1\) and itemsPerPage/);
    assert.match(text, /idempotencyKey/);
  });

  test('the session id initialize issues is reused by later messages, and works on another process', async () => {
    const c = await connect();
    const session = sessionOf(c);
    assert.match(session, /^[A-Za-z0-9_.-]+$/);
    await c.listTools();
    assert.equal(sessionOf(c), session, 'the same session throughout');
    // a second server on the same database (another worker, another host) takes the session as it is
    const second = await buildSecondApp(t);
    try {
      const other = await second.app.listen({ port: 0, host: '127.0.0.1' });
      const r = await fetch(`${other}/api/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': session },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }),
      });
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('mcp-session-id'), session);
      const body = await r.json();
      assert.ok(body.result.tools.some((x: Tool) => x.name === 'products_list'));
    } finally {
      await second.app.close();
    }
  });

  test('a message without a session is 400; an unknown one, or one issued to another caller, 404', async () => {
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    assert.equal((await post(list)).status, 400);
    const forged = await post(list, { 'mcp-session-id': 'AAAAAAAAAAAAAAAAAAAAAA.zzzzzz.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
    assert.equal(forged.status, 404);
    assert.equal((await forged.json()).error.code, -32001);
    const anonymousSession = sessionOf(await connect());
    assert.equal((await post(list, { 'mcp-session-id': anonymousSession })).status, 200);
    assert.equal((await post(list, { 'mcp-session-id': anonymousSession, authorization: `Bearer ${admin}` })).status, 404);
  });

  test('a session id is signed, bound to its caller and expires after a day', () => {
    const secret = 'x'.repeat(32);
    const now = Date.now();
    const id = newSessionId(secret, 'customer:5', now);
    assert.ok(sessionNonce(secret, 'customer:5', id, now + 3600_000));
    assert.equal(sessionNonce(secret, 'customer:6', id, now), undefined, 'another caller');
    assert.equal(sessionNonce('y'.repeat(32), 'customer:5', id, now), undefined, 'another server secret');
    assert.equal(sessionNonce(secret, 'customer:5', `${id.slice(0, -1)}${id.endsWith('A') ? 'B' : 'A'}`, now), undefined, 'tampered');
    assert.equal(sessionNonce(secret, 'customer:5', id, now + 25 * 3600_000), undefined, 'expired');
  });

  test('bearer tokens as on REST: a bad one is 401 before anything else; a foreign Origin 403; GET and DELETE 405', async () => {
    const r = await post(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      },
      { authorization: 'Bearer nope' },
    );
    assert.equal(r.status, 401);
    assert.equal(r.headers.get('www-authenticate'), 'Bearer');
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    assert.equal((await post(init, { origin: 'http://elsewhere.test' })).status, 403, 'a browser page of another origin');
    assert.equal((await fetch(base, { headers: { accept: 'text/event-stream' } })).status, 405);
    assert.equal((await fetch(base, { method: 'DELETE' })).status, 405);
  });
});

describe('the tools each caller sees', () => {
  test('anonymous callers see the public tools only', async () => {
    const names = [...(await toolsOf(await connect())).keys()];
    for (const n of [
      'products_list',
      'product_get',
      'categories_list',
      'cms_pages_list',
      'guest_cart_create',
      'guest_cart_place_order',
      'order_guest_details',
      'category_products_list',
      'store_configs_list',
      'url_resolver_result',
      'giftcard_check_balance',
    ]) {
      assert.ok(names.includes(n), `${n} is public`);
    }
    for (const n of [
      'product_delete',
      'orders_list',
      'customer_me',
      'customers_list',
      'cart_create',
      'giftcards_list',
      'giftcard_adjust_balance',
      'stock_list',
    ]) {
      assert.ok(!names.includes(n), `${n} is not public`);
    }
  });

  test('a customer adds their own tools, not the back office', async () => {
    const names = [...(await toolsOf(await connect(customer))).keys()];
    for (const n of ['customer_me', 'orders_list_mine', 'cart_mine', 'cart_place_order', 'wishlist_list', 'order_get', 'products_list'])
      assert.ok(names.includes(n), n);
    for (const n of ['orders_list', 'product_delete', 'customers_list']) assert.ok(!names.includes(n), n);
  });

  test('an admin sees what the role grants; a role limited to CMS content sees no catalog or sales writes', async () => {
    const all = [...(await toolsOf(await connect(admin))).keys()];
    for (const n of [
      'products_list',
      'product_get',
      'categories_list',
      'orders_list',
      'customers_list',
      'product_delete',
      'order_hold',
      'invoices_list_all',
      'invoice_get',
      'product_tier_prices_list',
      'product_links_related_list',
      'product_media_list',
      'store_config',
    ]) {
      assert.ok(all.includes(n), n);
    }
    // the operations Maho serves over GraphQL only are tools as well
    for (const n of [
      'giftcards_list',
      'giftcard_adjust_balance',
      'stock_list',
      'stock_get',
      'shipments_list',
      'credit_memos_list_all',
      'customer_quick_create',
      'product_media_create',
      'product_media_delete',
    ]) {
      assert.ok(all.includes(n), n);
    }
    assert.ok(!all.includes('customer_me'), 'customer-only tools need a customer');
    const limited = [...(await toolsOf(await connect(cmsOnly))).keys()];
    for (const n of ['cms_page_create', 'cms_block_delete', 'products_list']) assert.ok(limited.includes(n), n);
    for (const n of ['product_create', 'orders_list', 'order_hold']) assert.ok(!limited.includes(n), n);
  });

  test('opted-out operations have no tool', async () => {
    const names = [...(await toolsOf(await connect(admin))).keys()];
    for (const n of names) {
      assert.ok(!n.startsWith('auth_'), n);
      assert.ok(!n.includes('contact'), n);
    }
  });
});

describe('schemas and annotations', () => {
  let tools: Map<string, Tool>;
  before(async () => {
    tools = new Map([...(await toolsOf(await connect(customer))), ...(await toolsOf(await connect(admin)))]);
  });
  const props = (name: string) => Object.keys(tools.get(name)?.inputSchema.properties ?? {});

  test('an item read takes only its identifier', () => {
    const s = tools.get('product_get')!.inputSchema;
    assert.equal(s.type, 'object');
    assert.deepEqual(Object.keys(s.properties ?? {}), ['id']);
    assert.deepEqual(s.required, ['id']);
  });

  test('a list takes paging and the filters its operation declares, one name each', () => {
    for (const p of ['page', 'itemsPerPage', 'search', 'sku', 'categoryId']) assert.ok(props('products_list').includes(p), p);
    for (const name of ['orders_list', 'products_list', 'cms_pages_list', 'blog_posts_list']) {
      for (const p of ['createdFrom', 'createdTo', 'updatedSince']) assert.ok(props(name).includes(p), `${name}.${p}`);
    }
    for (const p of ['state', 'storeId', 'customerId', 'status', 'incrementId', 'email', 'emailLike'])
      assert.ok(props('orders_list').includes(p), p);
    for (const p of ['search', 'sortBy', 'sortDir']) assert.ok(props('orders_list').includes(p), p);
    for (const p of ['search', 'sortBy', 'sortDir', 'state', 'orderId', 'orderIncrementId', 'incrementId', 'storeId', 'createdFrom'])
      assert.ok(props('invoices_list_all').includes(p), `invoices_list_all.${p}`);
    assert.ok(!props('orders_list').includes('since'), 'an alias is not advertised');
    assert.ok(!props('orders_list').includes('pageSize'), 'an alias is not advertised');
    assert.deepEqual(props('orders_list_mine').sort(), ['itemsPerPage', 'page', 'status']);
    assert.ok(props('revocation_list').includes('processedStatus'));
  });

  test('a scoped collection takes its path parameter', () => {
    const s = tools.get('product_links_related_list')!.inputSchema;
    assert.ok(s.properties?.productId);
    assert.ok(s.required?.includes('productId'));
    assert.ok(props('reviews_list_by_product').includes('page'));
    assert.ok(tools.get('reviews_list_by_product')!.inputSchema.required?.includes('productId'));
  });

  test('a write takes its path parameter, the body fields and an idempotency key', () => {
    const s = tools.get('cart_add_item')!.inputSchema;
    for (const p of ['id', 'sku', 'qty', 'idempotencyKey']) assert.ok(s.properties?.[p], p);
    assert.ok(s.required?.includes('id'));
    assert.ok(!tools.get('product_delete')!.inputSchema.properties?.idempotencyKey, 'a delete is idempotent as it is');
    // a body that is a list is passed as `items`
    assert.equal((tools.get('product_links_related_replace')!.inputSchema.properties?.items as { type?: string }).type, 'array');
  });

  test('every input schema is a JSON object with no empty properties or required, and no keyword of ours', () => {
    for (const [name, tool] of tools) {
      const s = tool.inputSchema;
      assert.equal(s.type, 'object', name);
      const encoded = JSON.stringify(s);
      assert.ok(!encoded.includes('"properties":[]'), name);
      if ('properties' in s) assert.ok(Object.keys(s.properties ?? {}).length > 0, `${name} declares empty properties`);
      if ('required' in s) assert.ok((s.required ?? []).length > 0, `${name} declares empty required`);
      assert.ok(!/"x-(wire|graphql-type|free-form)"/.test(encoded), `${name} advertises an x- keyword`);
      assert.ok(tool.description && /REST: [A-Z]+ \/api\/rest\/v2\//.test(tool.description), name);
    }
  });

  test('reads are read-only, deletes destructive, other writes not', () => {
    assert.equal(tools.get('products_list')!.annotations?.readOnlyHint, true);
    assert.equal(tools.get('product_get')!.annotations?.readOnlyHint, true);
    assert.equal(tools.get('product_delete')!.annotations?.destructiveHint, true);
    assert.equal(tools.get('product_delete')!.annotations?.readOnlyHint, false);
    assert.equal(tools.get('order_hold')!.annotations?.destructiveHint, false);
    assert.equal(tools.get('order_hold')!.annotations?.readOnlyHint, false);
  });
});

describe('calls', () => {
  let adminClient: Client;
  let anon: Client;
  const skus: string[] = [];
  const tag = unique();
  before(async () => {
    adminClient = await connect(admin);
    anon = await connect();
    for (let i = 0; i < 3; i++) {
      const p = await call(adminClient, 'product_create', {
        sku: `mcp-${tag}-${i}`,
        name: `MCP product ${tag} ${i}`,
        price: 10 + i,
        stockData: { qty: 100, isInStock: true },
      });
      skus.push(p.sku);
    }
  });

  test('a read answers the JSON REST answers', async () => {
    const listed = await call(anon, 'products_list', { sku: skus[0] });
    assert.equal(listed.totalItems, 1);
    const id = listed.member[0].id;
    const item = await call(anon, 'product_get', { id });
    const rest = await t.req('GET', `${API}/products/${id}`);
    assert.deepEqual(item, rest.body);
  });

  test('a list answers the Collection REST answers, with the same links', async () => {
    const all = await call(anon, 'products_list');
    assert.equal(all['@type'], 'Collection');
    assert.ok(Number.isInteger(all.totalItems));
    assert.ok(Array.isArray(all.member));
    const paged = await call(anon, 'products_list', { search: `MCP product ${tag}`, itemsPerPage: 2 });
    assert.equal(paged.totalItems, 3);
    assert.equal(paged.member.length, 2);
    assert.equal(paged['@id'], `${API}/products`);
    const rest = await t.req('GET', `${API}/products?page=1&search=${encodeURIComponent(`MCP product ${tag}`)}&itemsPerPage=2`);
    assert.deepEqual(paged, rest.body, 'the same document, view links included');
    const second = await call(anon, 'products_list', { search: `MCP product ${tag}`, itemsPerPage: 2, page: 2 });
    assert.equal(second.member.length, 1);
    assert.ok(paged.view.next.startsWith(`${API}/products?page=2`));
  });

  test('declared filters narrow a list; a bare date upper bound covers the whole day', async () => {
    const one = await call(anon, 'products_list', { sku: skus[1] });
    assert.equal(one.totalItems, 1);
    assert.equal(one.member[0].sku, skus[1]);
    const pages = await call(adminClient, 'cms_pages_list', { itemsPerPage: 1 });
    assert.equal(pages['@id'], `${API}/cms-pages`);
    assert.ok(pages.view.next.startsWith(`${API}/cms-pages?page=`));
    const day = String(pages.member[0].createdAt).slice(0, 10);
    assert.ok((await call(adminClient, 'cms_pages_list', { createdFrom: day, createdTo: day })).totalItems > 0);
    const identifier = pages.member[0].identifier as string;
    const found = await call(adminClient, 'cms_pages_list', { search: identifier });
    assert.ok(found.totalItems > 0 && found.totalItems <= pages.totalItems);
    // a filter only the declaration's GraphQL arguments name (blog posts have no REST date filter)
    await call(adminClient, 'blog_post_create', { title: `MCP post ${tag}`, content: 'text', isActive: true, stores: [0] });
    const today = new Date().toISOString().slice(0, 10);
    assert.ok((await call(adminClient, 'blog_posts_list', { createdFrom: today })).totalItems > 0);
    assert.equal((await call(adminClient, 'blog_posts_list', { createdFrom: '2999-01-01' })).totalItems, 0);
  });

  test('every invoice: the list finds one by its order number and sorts, the read answers it as REST does', async () => {
    const order = await placeTestOrder(t);
    await invoiceOrder(t, order.id);
    const found = await call(adminClient, 'invoices_list_all', {
      orderIncrementId: order.incrementId,
      sortBy: 'grandTotal',
      sortDir: 'asc',
    });
    assert.equal(found['@type'], 'Collection');
    assert.equal(found.totalItems, 1);
    assert.equal(found.member[0].orderId, order.id);
    const one = await call(adminClient, 'invoice_get', { id: found.member[0].id });
    assert.deepEqual(one, (await t.req('GET', `${API}/invoices/${found.member[0].id}`, { token: admin })).body);
    const bad = await refused(adminClient, 'invoices_list_all', { state: 'unpaid' });
    assert.equal(bad.error, 'bad_request');
  });

  test('a path parameter reaches the operation', async () => {
    const id = (await call(anon, 'products_list', { sku: skus[0] })).member[0].id;
    const links = await call(adminClient, 'product_links_related_list', { productId: id });
    assert.equal(links['@type'], 'Collection');
    assert.equal(links['@id'], `${API}/products/${id}/links/related`);
  });

  test('a read tool of a resource with writes answers its collection', async () => {
    for (const name of ['cms_pages_list', 'orders_list']) assert.equal((await call(adminClient, name))['@type'], 'Collection', name);
  });
});

describe('writes and idempotency keys', () => {
  let c: Client;
  before(async () => {
    c = await connect(cmsOnly);
  });
  const block = (title: string, args: Record<string, unknown> = {}) =>
    call(c, 'cms_block_create', { title, identifier: `mcp_${unique()}`, content: 'body', isActive: true, stores: [0], ...args });

  test('a write runs once for a key: the retry answers the first success, marked as replayed', async () => {
    const key = `k-${unique()}`;
    const args = {
      title: 'MCP once',
      identifier: `mcp_once_${unique()}`,
      content: 'body',
      isActive: true,
      stores: [0],
      idempotencyKey: key,
    };
    const first = (await c.callTool({ name: 'cms_block_create', arguments: args })) as CallToolResult;
    const again = (await c.callTool({ name: 'cms_block_create', arguments: args })) as CallToolResult;
    assert.ok(!first.isError && !again.isError);
    assert.deepEqual(again.content, first.content);
    assert.equal(again._meta?.idempotencyReplayed, true);
    const found = await t.req('GET', `${API}/cms-blocks?identifier=${args.identifier}`, { token: admin });
    assert.equal(found.body.totalItems, 1, 'one block, not two');
    const deleted = (await c.callTool({
      name: 'cms_block_delete',
      arguments: { id: JSON.parse((first.content[0] as { text: string }).text).id },
    })) as CallToolResult;
    assert.ok(!deleted.isError);
  });

  test('a key is scoped to the tool and to the record', async () => {
    const key = `k-${unique()}`;
    const a = await block('first');
    const b = await block('second');
    await call(c, 'cms_block_update', { id: a.id, title: 'First updated', idempotencyKey: key });
    const second = await call(c, 'cms_block_update', { id: b.id, title: 'Second updated', idempotencyKey: key });
    assert.equal(second.id, b.id);
    assert.equal(second.title, 'Second updated');
    const page = await call(c, 'cms_page_create', {
      title: 'Same key, other tool',
      identifier: `mcp-${unique()}`,
      content: 'x',
      idempotencyKey: key,
    });
    assert.equal(page.title, 'Same key, other tool');
  });

  test('a refused call is not replayed for the retry that fixes it', async () => {
    const key = `k-${unique()}`;
    const a = await block('retry');
    const missing = await refused(c, 'cms_block_update', { id: 999999999, title: 'Nope', idempotencyKey: key });
    assert.equal(missing.code, 404);
    const fixed = await call(c, 'cms_block_update', { id: a.id, title: 'Retry fixed', idempotencyKey: key });
    assert.equal(fixed.title, 'Retry fixed');
  });

  test('the X-Idempotency-Key header of the HTTP request serves too; a malformed key is a 400', async () => {
    const key = `h-${unique()}`;
    const withHeader = await connect(cmsOnly, { 'x-idempotency-key': key });
    const args = { title: 'By header', identifier: `mcp_h_${unique()}`, content: 'b', isActive: true, stores: [0] };
    const first = await call(withHeader, 'cms_block_create', args);
    const again = await call(withHeader, 'cms_block_create', args);
    assert.equal(again.id, first.id);
    const bad = await refused(c, 'cms_block_create', { ...args, identifier: `mcp_${unique()}`, idempotencyKey: 'not a key!' });
    assert.equal(bad.reason, 'INVALID_IDEMPOTENCY_KEY');
    assert.equal(bad.code, 400);
  });

  test("an anonymous caller's keys are its session's", async () => {
    const guest = await connect();
    const key = `g-${unique()}`;
    const first = await call(guest, 'guest_cart_create', { idempotencyKey: key });
    const again = await call(guest, 'guest_cart_create', { idempotencyKey: key });
    assert.equal(again.maskedId, first.maskedId);
    const otherSession = await call(await connect(), 'guest_cart_create', { idempotencyKey: key });
    assert.notEqual(otherSession.maskedId, first.maskedId);
  });
});

describe('refusals', () => {
  test('an anonymous call to a tool that needs a token: 401, Authentication required', async () => {
    const e = await refused(await connect(), 'product_delete', { id: 1 });
    assert.equal(e.error, 'unauthorized');
    assert.equal(e.code, 401);
    assert.match(e.message, /Authentication required/);
  });

  test('a write the role does not grant, and the sales tools of a catalog role: 403', async () => {
    const limited = await connect(cmsOnly);
    const e = await refused(limited, 'product_create', { sku: 'mcp-denied', name: 'Denied' });
    assert.equal(e.error, 'forbidden');
    assert.equal(e.code, 403);
    assert.equal(e.reason, 'PERMISSION_DENIED');
    const catalog = await connect(await t.tokens.apiUser(['products/all']));
    assert.equal((await refused(catalog, 'orders_list')).reason, 'PERMISSION_DENIED');
    assert.equal((await refused(await connect(customer), 'orders_list')).code, 403);
  });

  test("another customer's order reads exactly like a missing one", async () => {
    const email = `mcp-other-${unique()}@example.com`;
    await registerCustomer(t.systemCtx(), { email, password: 'Password123!', firstname: 'O', lastname: 'Ther' });
    const order = await placeTestOrder(t, { customerToken: await t.tokens.customer(email, 'Password123!') });
    const c = await connect(customer);
    const foreign = await refused(c, 'order_get', { id: order.id });
    const missing = await refused(c, 'order_get', { id: 99999999 });
    assert.equal(foreign.code, 404);
    assert.deepEqual(foreign, missing);
  });

  test('bad arguments are tool errors with the REST code, never a crash', async () => {
    const c = await connect(admin);
    const missing = await refused(c, 'product_get', {});
    assert.equal(missing.code, 400);
    assert.equal(missing.details.field, 'id');
    assert.equal((await refused(c, 'product_get', { id: 'abc' })).reason, 'VALIDATION_FAILED');
    const unknownArg = await refused(c, 'cms_pages_list', { bogus: 1 });
    assert.equal(unknownArg.code, 400);
    assert.equal(unknownArg.details.field, 'bogus');
    assert.equal((await refused(c, 'cart_add_item', { id: 1, qty: 'many' })).code, 400);
    assert.equal((await refused(c, 'product_links_related_replace', { productId: 1, items: 'x' })).code, 400);
    await assert.rejects(c.callTool({ name: 'no_such_tool', arguments: {} }), /Unknown tool/);
  });
});

describe('robustness', () => {
  test('no tool answers a 5xx or breaks the connection, whatever the shape of its arguments', async () => {
    for (const token of [undefined, admin]) {
      const c = await connect(token);
      for (const tool of (await c.listTools()).tools) {
        const names = Object.keys(tool.inputSchema.properties ?? {});
        for (const args of [
          {},
          Object.fromEntries(names.map((n) => [n, { bogus: [1] }])),
          Object.fromEntries(names.map((n) => [n, null])),
        ]) {
          const r = (await c.callTool({ name: tool.name, arguments: args })) as CallToolResult;
          if (!r.isError) continue;
          const e = JSON.parse((r.content[0] as { text: string }).text);
          assert.ok(e.code >= 400 && e.code < 500, `${tool.name} ${JSON.stringify(args)}: ${e.code} ${e.message}`);
        }
      }
    }
  });
});

describe('a guest checkout through tools alone', () => {
  test('find the product, fill a cart, pick methods, place the order, read it back', async () => {
    const sku = `mcp-guest-${unique()}`;
    await call(await connect(admin), 'product_create', {
      sku,
      name: `Guest buy ${sku}`,
      price: 12.5,
      stockData: { qty: 50, isInStock: true },
    });
    const shopper = await connect();
    const found = await call(shopper, 'products_list', { sku });
    assert.equal(found.totalItems, 1);
    const cart = await call(shopper, 'guest_cart_create');
    const id = cart.maskedId as string;
    assert.ok(id);
    const withItem = await call(shopper, 'guest_cart_add_item', { id, sku, qty: 2 });
    assert.equal(withItem.items.length, 1);
    await call(shopper, 'guest_cart_set_shipping_address', { id, ...TEST_ADDRESS, email: 'mcp-guest@example.com' });
    const methods = await call(shopper, 'guest_cart_shipping_methods', { id });
    assert.ok(JSON.stringify(methods).includes('flatrate'));
    await call(shopper, 'guest_cart_set_shipping_method', { id, carrierCode: 'flatrate', methodCode: 'flatrate' });
    const payments = await call(shopper, 'guest_cart_payment_methods', { id });
    assert.ok(JSON.stringify(payments).includes('checkmo'));
    await call(shopper, 'guest_cart_set_payment_method', { id, methodCode: 'checkmo' });
    const totals = await call(shopper, 'guest_cart_totals', { id });
    assert.ok(totals);
    const order = await call(shopper, 'guest_cart_place_order', {
      id,
      billingAddress: { sameAsShipping: true },
      guestEmail: 'mcp-guest@example.com',
      idempotencyKey: `place-${unique()}`,
    });
    assert.match(order.incrementId, /^\d+$/);
    assert.equal(order.customerIsGuest, true);
    assert.equal(order.prices.subtotal, 25);
    const details = await call(shopper, 'order_guest_details', { incrementId: order.incrementId, orderToken: order.accessToken });
    assert.equal(details.incrementId, order.incrementId);
    const gone = await refused(shopper, 'guest_cart_get', { id });
    assert.equal(gone.code, 404, 'the ordered cart is closed');
  });
});

describe('resources', () => {
  test('the store config and the category tree', async () => {
    const c = await connect(admin);
    const parent = await call(c, 'category_create', { name: `MCP parent ${unique()}`, isActive: true });
    const child = await call(c, 'category_create', { name: `MCP child ${unique()}`, parentId: parent.id, isActive: true });
    const anon = await connect();
    const uris = (await anon.listResources()).resources.map((r) => r.uri);
    assert.deepEqual(uris.sort(), ['commerce://category-tree', 'commerce://store-config']);
    const config = await anon.readResource({ uri: 'commerce://store-config' });
    const rest = await t.req('GET', `${API}/store-config`);
    assert.deepEqual(JSON.parse((config.contents[0] as { text: string }).text), rest.body);
    const tree = JSON.parse(((await anon.readResource({ uri: 'commerce://category-tree' })).contents[0] as { text: string }).text);
    const node = tree.categories.find((n: { id: number }) => n.id === parent.id);
    assert.ok(node, 'the new category is under the store root');
    assert.deepEqual(
      node.children.map((n: { id: number }) => n.id),
      [child.id],
    );
  });
});

describe('no drift from the registry', () => {
  test('every declared operation has its tool, served to a caller that may call it, unless it opted out (named above)', async () => {
    const ops = allOperations();
    const tools = deriveTools(ops, API);
    const served = new Set<string>();
    for (const token of [undefined, customer, admin]) for (const n of (await toolsOf(await connect(token))).keys()) served.add(n);
    const missing: string[] = [];
    const optedOut: string[] = [];
    for (const o of ops) {
      if (o.mcp === false) {
        optedOut.push(o.id);
        continue;
      }
      const name = toolName(o);
      if (tools.get(name)?.op !== o || !served.has(name)) missing.push(`${o.id} (${name})`);
    }
    assert.deepEqual(missing, [], 'operations without a tool: give them one, or `mcp: false` and a line in OPTED_OUT');
    assert.deepEqual(optedOut.sort(), Object.keys(OPTED_OUT).sort(), 'an opted-out operation is named in OPTED_OUT with its reason');
  });
});
