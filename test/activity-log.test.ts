/**
 * The activity log of back-office writes, over HTTP: a write by an admin principal through REST, GraphQL, MCP, a
 * plain route (upload, delete) and SOAP is recorded once with who, what, where and the fields sent (secrets
 * redacted); reads, failed writes and customers' own writes are not; a transactional write and its row commit
 * together; the list's filters, paging, authorization and store scope; retention.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ACTIVITY_RETENTION_PATH, purgeActivityLog, redactFields } from '../src/platform/activity-log.js';
import { countStatements, rows } from '../src/platform/db.js';
import { setConfig } from '../src/modules/stores/service.js';
import { createTestProduct } from './fixtures/catalog.js';
import { envelope } from './fixtures/soap.js';
import { API, buildTestApp, type Res, type TestApp } from './helpers.js';

let t: TestApp;
let admin: string;
let customer: string;
let reader: string;
let productsOnly: string;
let demoAdminId: number;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  reader = await t.tokens.apiUser(['activity-log/read']);
  productsOnly = await t.tokens.apiUser(['products/all', 'cms-blocks/all']);
  demoAdminId = (await rows<{ id: number }>(t.database.db, sql`SELECT id FROM api_users WHERE username = 'demo-admin'`))[0].id;
});
after(() => t?.close());

/** The log's rows, newest first, as the admin reads them. */
async function log(query: Record<string, string> = {}): Promise<any[]> {
  const r = await t.req('GET', `${API}/activity-log`, {
    token: admin,
    query: { itemsPerPage: '100', ...query },
    headers: { accept: 'application/json' },
  });
  assert.equal(r.status, 200, r.text);
  return r.body;
}

const total = async () => Number((await rows<{ n: number }>(t.database.db, sql`SELECT count(*)::int AS n FROM activity_log`))[0].n);

/** Rows written while `fn` ran (by id, oldest first). */
async function written(fn: () => Promise<unknown>): Promise<any[]> {
  const [{ max }] = await rows<{ max: number | null }>(t.database.db, sql`SELECT max(id)::int AS max FROM activity_log`);
  await fn();
  const found = await log();
  return found.filter((e) => e.id > (max ?? 0)).reverse();
}

function ok(r: Res, status = 200): Res {
  assert.equal(r.status, status, r.text);
  return r;
}

describe('what is recorded', () => {
  test('a product update by an API user over REST: once, with who, what, where and the fields sent', async () => {
    const p = await createTestProduct(t, { price: 10 });
    const rowsOf = await written(async () => {
      ok(await t.req('PUT', `${API}/products/${p.id}`, { token: admin, body: { name: 'Renamed', price: 12.5 } }));
      // reads are not recorded
      ok(await t.req('GET', `${API}/products/${p.id}`, { token: admin }));
    });
    assert.equal(rowsOf.length, 1, JSON.stringify(rowsOf));
    const e = rowsOf[0];
    assert.equal(e.principal, 'api_user');
    assert.equal(e.principalId, demoAdminId);
    assert.equal(e.username, 'demo-admin');
    assert.equal(e.operation, 'products.update');
    assert.equal(e.protocol, 'rest');
    assert.equal(e.method, 'PUT');
    assert.equal(e.path, `/products/${p.id}`);
    assert.equal(e.resource, 'products');
    assert.equal(e.resourceId, String(p.id));
    assert.equal(e.storeId, 1);
    assert.equal(typeof e.ip, 'string');
    assert.match(e.createdAt, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    assert.deepEqual(e.fields, { name: 'Renamed', price: 12.5 });
    // the entry reads alone too
    const one = ok(await t.req('GET', `${API}/activity-log/${e.id}`, { token: admin })).body;
    assert.deepEqual(one, e);
  });

  test('a create records the id of what it made; secrets sent are redacted', async () => {
    const rowsOf = await written(async () => {
      const c = ok(await t.req('POST', `${API}/categories`, { token: admin, body: { name: 'Logged', parentId: 2 } }), 201).body;
      const cust = ok(await t.req('POST', `${API}/customers/quick-create`, { token: admin, body: quickCustomer() }), 201).body;
      ok(
        await t.req('PUT', `${API}/customers/${cust.id}`, { token: admin, body: { firstname: 'Renamed', currentPassword: 'N3w-Secret!' } }),
      );
      ok(await t.req('POST', `${API}/giftcards`, { token: admin, body: { initialBalance: 25, code: 'SECRET-CARD-1' } }), 201);
      return c;
    });
    assert.deepEqual(
      rowsOf.map((e) => e.operation),
      ['categories.create', 'customers.quickCreate', 'customers.update', 'giftcards.create'],
    );
    const [category, created, updated, card] = rowsOf;
    assert.equal(category.resource, 'categories');
    assert.match(category.resourceId, /^\d+$/);
    assert.match(created.resourceId, /^\d+$/);
    assert.equal(created.resourceId, updated.resourceId);
    assert.equal(updated.fields.currentPassword, '[redacted]');
    assert.equal(updated.fields.firstname, 'Renamed');
    assert.deepEqual(card.fields, { initialBalance: 25, code: '[redacted]' });
    assert.match(card.resourceId, /^\d+$/);
    assert.ok(!JSON.stringify(rowsOf).includes('N3w-Secret!'));
    assert.ok(!JSON.stringify(rowsOf).includes('SECRET-CARD-1'));
  });

  test('a GraphQL mutation: once, as graphql, with the input fields', async () => {
    const rowsOf = await written(async () => {
      const r = await t.gql(
        'mutation { createCmsBlock(input: {identifier: "gql-logged", title: "Logged", content: "x"}) { cmsBlock { _id } } }',
        admin,
      );
      assert.equal(r.errors, undefined, JSON.stringify(r.errors));
      return r;
    });
    assert.equal(rowsOf.length, 1, JSON.stringify(rowsOf));
    const e = rowsOf[0];
    assert.equal(e.operation, 'cmsBlocks.create');
    assert.equal(e.protocol, 'graphql');
    assert.equal(e.method, 'POST');
    assert.equal(e.path, '/cms-blocks');
    assert.equal(e.resource, 'cms-blocks');
    assert.match(e.resourceId, /^\d+$/);
    assert.deepEqual(e.fields, { identifier: 'gql-logged', title: 'Logged', content: 'x' });
  });

  test('an MCP tool call: once, as mcp', async () => {
    const base = `${await t.app.listen({ port: 0, host: '127.0.0.1' })}/api/mcp`;
    const client = new Client({ name: 'activity-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(base), { requestInit: { headers: { authorization: `Bearer ${admin}` } } }),
    );
    try {
      const p = await createTestProduct(t, { price: 3 });
      const rowsOf = await written(async () => {
        const r = (await client.callTool({ name: 'product_update', arguments: { id: p.id, name: 'Via MCP' } })) as CallToolResult;
        assert.ok(!r.isError, JSON.stringify(r.content));
        // a refused call records nothing
        const bad = (await client.callTool({ name: 'product_update', arguments: { id: p.id, price: 'free' } })) as CallToolResult;
        assert.equal(bad.isError, true);
      });
      assert.equal(rowsOf.length, 1, JSON.stringify(rowsOf));
      assert.equal(rowsOf[0].operation, 'products.update');
      assert.equal(rowsOf[0].protocol, 'mcp');
      assert.equal(rowsOf[0].resourceId, String(p.id));
      assert.deepEqual(rowsOf[0].fields, { name: 'Via MCP' });
    } finally {
      await client.close();
    }
  });

  test('a plain route: a media upload and delete, once each', async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#f00' } })
      .png()
      .toBuffer();
    const boundary = '----activity-boundary';
    const raw = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="logged.png"\r\nContent-Type: image/png\r\n\r\n`),
      png,
      Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="folder"\r\n\r\nactivity\r\n--${boundary}--\r\n`),
    ]);
    let item: any;
    const rowsOf = await written(async () => {
      item = ok(
        await t.req('POST', `${API}/media`, {
          token: admin,
          raw,
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        }),
        201,
      ).body;
      ok(await t.req('DELETE', `${API}/media/${item.path.replace(/^wysiwyg\//, '')}`, { token: admin }), 204);
      // a refused delete records nothing
      assert.equal((await t.req('DELETE', `${API}/media/activity/none.png`, { token: admin })).status, 404);
    });
    assert.equal(rowsOf.length, 2, JSON.stringify(rowsOf));
    const [up, del] = rowsOf;
    assert.equal(up.operation, 'media.upload');
    assert.equal(up.protocol, 'rest');
    assert.equal(up.method, 'POST');
    assert.equal(up.resource, 'media');
    assert.equal(up.resourceId, item.path);
    assert.match(up.fields.body, /^multipart\/form-data; boundary=.*, \d+ bytes$/);
    assert.equal(del.operation, 'media.delete');
    assert.equal(del.method, 'DELETE');
    assert.equal(del.resource, 'media');
    assert.equal(del.path, `/media/${item.path.replace(/^wysiwyg\//, '')}`);
  });

  test('a SOAP address write: once, as soap, with the data sent', async () => {
    const c = ok(await t.req('POST', `${API}/customers/quick-create`, { token: admin, body: quickCustomer() }), 201).body;
    const soap = (body: string) => t.req('POST', '/api/soap/', { raw: envelope(body), headers: { 'content-type': 'text/xml' } });
    const login = await soap('<ns1:login><username>demo-admin</username><apiKey>demo-admin-key</apiKey></ns1:login>');
    const session = /<loginReturn[^>]*>([0-9a-f]{32})</.exec(login.text)![1];
    const data =
      '<item xsi:type="ns2:Map">' +
      [
        ['firstname', 'Ann'],
        ['lastname', 'Lee'],
        ['street', 'Main St 1'],
        ['city', 'Berlin'],
        ['postcode', '10115'],
        ['country_id', 'DE'],
        ['region_id', '82'],
        ['telephone', '030 1'],
      ]
        .map(([k, v]) => `<item><key xsi:type="xsd:string">${k}</key><value xsi:type="xsd:string">${v}</value></item>`)
        .join('') +
      '</item>';
    let id = 0;
    const rowsOf = await written(async () => {
      const r = await soap(
        `<ns1:call><sessionId>${session}</sessionId><resourcePath>customer_address.create</resourcePath>` +
          `<args SOAP-ENC:arrayType="xsd:ur-type[2]" xsi:type="SOAP-ENC:Array"><item xsi:type="xsd:int">${c.id}</item>${data}</args></ns1:call>`,
      );
      id = Number(/<callReturn[^>]*>(\d+)</.exec(r.text)?.[1]);
      assert.ok(id > 0, r.text);
      // reads are not recorded
      await soap(
        `<ns1:call><sessionId>${session}</sessionId><resourcePath>customer_address.info</resourcePath><args>${id}</args></ns1:call>`,
      );
    });
    assert.equal(rowsOf.length, 1, JSON.stringify(rowsOf));
    const e = rowsOf[0];
    assert.equal(e.operation, 'customer_address.create');
    assert.equal(e.protocol, 'soap');
    assert.equal(e.resource, 'addresses');
    assert.equal(e.resourceId, String(id));
    assert.equal(e.username, 'demo-admin');
    assert.equal(e.path, undefined);
    assert.equal(e.fields.firstname, 'Ann');
  });

  test('failed writes, customers’ own writes and public writes are not recorded', async () => {
    const p = await createTestProduct(t, { price: 4, stockData: { qty: 10, isInStock: true } });
    const before = await total();
    // 400, 404, 403 and a refused create
    assert.equal((await t.req('PUT', `${API}/products/${p.id}`, { token: admin, body: { price: 'free' } })).status, 400);
    assert.equal((await t.req('PUT', `${API}/products/99999999`, { token: admin, body: { name: 'x' } })).status, 404);
    assert.equal((await t.req('PUT', `${API}/products/${p.id}`, { token: reader, body: { name: 'x' } })).status, 403);
    assert.ok((await t.req('POST', `${API}/categories`, { token: admin, body: { name: 'Orphan', parentId: 99999999 } })).status >= 400);
    const gqlBad = await t.gql('mutation { updateProduct(input: {id: "99999999", name: "x"}) { product { _id } } }', admin);
    assert.ok(gqlBad.errors?.length, JSON.stringify(gqlBad));
    // a customer's cart and address
    const cart = ok(await t.req('POST', `${API}/carts`, { token: customer, body: {} }), 201).body;
    ok(await t.req('POST', `${API}/carts/${cart.id}/items`, { token: customer, body: { sku: p.sku, qty: 1 } }));
    ok(
      await t.req('POST', `${API}/customers/me/addresses`, {
        token: customer,
        body: {
          firstname: 'A',
          lastname: 'B',
          street: ['S 1'],
          city: 'Austin',
          postcode: '73301',
          countryId: 'US',
          region: 'TX',
          telephone: '1',
        },
      }),
      201,
    );
    // a guest cart, even with an admin token; an admin token's refresh and logout (session housekeeping)
    ok(await t.req('POST', `${API}/guest-carts`, { token: admin, body: {} }), 201);
    const spare = await t.tokens.admin();
    const refreshed = ok(await t.req('POST', `${API}/auth/refresh`, { token: spare, body: {} })).body.token;
    assert.ok([200, 201].includes((await t.req('POST', `${API}/auth/logout`, { token: refreshed, body: {} })).status));
    assert.equal(await total(), before);
  });

  test('a write and its row commit together: a row that cannot be written rolls the write back', async () => {
    const db = t.database.db;
    await db.execute(
      sql`ALTER TABLE activity_log ADD CONSTRAINT activity_test_refuse CHECK (operation NOT IN ('categories.create', 'inventory.update')) NOT VALID`,
    );
    try {
      const count = async () =>
        Number((await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM categories WHERE name = 'Refused'`))[0].n);
      const r = await t.req('POST', `${API}/categories`, { token: admin, body: { name: 'Refused', parentId: 2 } });
      assert.ok(r.status >= 400, r.text);
      assert.equal(await count(), 0, 'the category was rolled back with its row');
      // a single-statement write has committed before its row is written: it stands, and the failure is logged
      const p = await createTestProduct(t, { price: 4, stockData: { qty: 10, isInStock: true } });
      const stock = await t.req('PUT', `${API}/inventory`, { token: admin, body: { sku: p.sku, qty: 3 } });
      assert.equal(stock.status, 200, stock.text);
    } finally {
      await db.execute(sql`ALTER TABLE activity_log DROP CONSTRAINT activity_test_refuse`);
    }
  });

  test('a write costs one INSERT more, a read nothing', async () => {
    const p = await createTestProduct(t, { price: 4, stockData: { qty: 10, isInStock: true } });
    const url = `${API}/products/${p.id}`;
    ok(await t.req('GET', url, { token: admin }));
    const read = await countStatements(() => t.req('GET', url, { token: admin }));
    const before = await total();
    ok(await t.req('GET', url, { token: admin }));
    assert.equal(await total(), before);
    // a stock update by SKU is the token check and one statement (statement-budget.test.ts); recorded, one more
    ok(await t.req('PUT', `${API}/inventory`, { token: admin, body: { sku: p.sku, qty: 5 } }));
    const write = await countStatements(() => t.req('PUT', `${API}/inventory`, { token: admin, body: { sku: p.sku, qty: 6 } }));
    assert.equal(write.result.status, 200);
    assert.equal(write.n, 3, `PUT /inventory: ${write.n} statements`);
    assert.ok(read.n <= 2);
  });
});

function quickCustomer() {
  return { email: `logged-${Math.random().toString(36).slice(2)}@example.com`, firstname: 'Log', lastname: 'Ged' };
}

describe('reading the log', () => {
  test('newest first, paged, with its filters', async () => {
    const p = await createTestProduct(t, { price: 1 });
    for (const name of ['One', 'Two', 'Three']) ok(await t.req('PUT', `${API}/products/${p.id}`, { token: admin, body: { name } }));
    const mine = await log({ resource: 'products', resourceId: String(p.id), operation: 'products.update' });
    assert.deepEqual(
      mine.map((e) => e.fields.name),
      ['Three', 'Two', 'One'],
    );
    const page2 = await t.req('GET', `${API}/activity-log`, {
      token: admin,
      query: { resource: 'products', resourceId: String(p.id), operation: 'products.update', itemsPerPage: '2', page: '2' },
    });
    assert.equal(page2.status, 200, page2.text);
    assert.equal(page2.body.totalItems, 3);
    assert.deepEqual(
      page2.body.member.map((e: any) => e.fields.name),
      ['One'],
    );
    assert.match(page2.body.view.previous, /page=1/);
    const beyond = await t.req('GET', `${API}/activity-log`, {
      token: admin,
      query: { resourceId: String(p.id), resource: 'products', operation: 'products.update', page: '9' },
    });
    assert.equal(beyond.body.totalItems, 3);
    assert.deepEqual(beyond.body.member, []);

    const byOp = await log({
      operation: 'products.update',
      principal: 'api_user',
      principalId: String(demoAdminId),
      username: 'demo-admin',
    });
    assert.ok(byOp.length >= 3 && byOp.every((e) => e.operation === 'products.update' && e.username === 'demo-admin'));
    assert.deepEqual(await log({ principal: 'admin_user' }), []);
    assert.deepEqual(await log({ username: 'nobody' }), []);
    assert.ok((await log({ protocol: 'rest', storeId: '1' })).length >= 3);
    assert.deepEqual(await log({ storeId: '2' }), []);
    const today = new Date().toISOString().slice(0, 10);
    assert.equal((await log({ from: today, to: today, resourceId: String(p.id), operation: 'products.update' })).length, 3);
    assert.deepEqual(await log({ to: '2000-01-01' }), []);
    assert.deepEqual(await log({ from: '2999-01-01 00:00:00' }), []);
  });

  test('GraphQL reads the same list', async () => {
    const r = await t.gql(
      '{ activityLog(first: 2, operation: "products.update") { edges { node { _id operation username resourceId fields } } } }',
      admin,
    );
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    assert.equal(r.data.activityLog.edges.length, 2);
    const node = r.data.activityLog.edges[0].node;
    assert.equal(node.operation, 'products.update');
    assert.equal(typeof node.fields, 'object');
    const one = await t.gql(`{ activityLogEntry(id: ${node._id}) { _id operation resourceId } }`, admin);
    assert.equal(one.errors, undefined, JSON.stringify(one.errors));
    assert.equal(one.data.activityLogEntry.resourceId, node.resourceId);
  });

  test('bad filters and ids are a 400, a missing entry a 404', async () => {
    const bad: Record<string, string>[] = [
      { from: 'yesterday' },
      { to: '2024-02-30' },
      { storeId: 'abc' },
      { principal: 'root' },
      { principalId: '0' },
    ];
    for (const query of bad) {
      const r = await t.req('GET', `${API}/activity-log`, { token: admin, query });
      assert.equal(r.status, 400, `${JSON.stringify(query)}: ${r.text}`);
      assert.equal(r.body.error, 'bad_request');
    }
    assert.equal((await t.req('GET', `${API}/activity-log/abc`, { token: admin })).status, 400);
    const missing = await t.req('GET', `${API}/activity-log/99999999`, { token: admin });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error, 'not_found');
  });

  test('authorization: anonymous 401, customer 403, an API user without activity-log/read 403, with it 200', async () => {
    const [e] = await log();
    for (const url of [`${API}/activity-log`, `${API}/activity-log/${e.id}`]) {
      assert.equal((await t.req('GET', url)).status, 401);
      assert.equal((await t.req('GET', url, { token: customer })).status, 403);
      assert.equal((await t.req('GET', url, { token: productsOnly })).status, 403);
      assert.equal((await t.req('GET', url, { token: reader })).status, 200);
    }
  });

  test('a token limited to some store views reads only the writes made in those', async () => {
    const german = t.services.settings.storeByCode('german')!.id;
    const limited = await t.tokens.apiUser(['all'], { allowedStoreIds: [german] });
    const p = await createTestProduct(t, { price: 2 });
    ok(await t.req('PUT', `${API}/products/${p.id}`, { token: admin, body: { name: 'In the default store' } }));
    ok(await t.req('PUT', `${API}/products/${p.id}`, { token: admin, body: { name: 'Im deutschen Laden' }, query: { store: 'german' } }));
    const [inGerman, inDefault] = await log({ resourceId: String(p.id), operation: 'products.update' });
    assert.equal(inGerman.storeId, german);
    assert.equal(inDefault.storeId, 1);
    const r = await t.req('GET', `${API}/activity-log`, {
      token: limited,
      query: { store: 'german' },
      headers: { accept: 'application/json' },
    });
    assert.equal(r.status, 200, r.text);
    assert.ok(r.body.length >= 1 && r.body.every((x: any) => x.storeId === german));
    assert.equal((await t.req('GET', `${API}/activity-log/${inGerman.id}`, { token: limited, query: { store: 'german' } })).status, 200);
    assert.equal((await t.req('GET', `${API}/activity-log/${inDefault.id}`, { token: limited, query: { store: 'german' } })).status, 404);
  });
});

describe('retention', () => {
  test('rows older than the retention are pruned; 0 keeps them', async () => {
    const db = t.database.db;
    await db.execute(
      sql`INSERT INTO activity_log (created_at, principal_type, principal_id, username, operation, protocol, method)
          VALUES (now() - interval '100 days', 'api_user', 1, 'old', 'old.write', 'rest', 'POST'),
                 (now() - interval '10 days', 'api_user', 1, 'recent', 'recent.write', 'rest', 'POST')`,
    );
    const names = async () =>
      (await rows<{ username: string }>(db, sql`SELECT username FROM activity_log WHERE username IN ('old', 'recent')`))
        .map((r) => r.username)
        .sort();
    await setConfig(db, t.services.settings, ACTIVITY_RETENTION_PATH, '0');
    assert.equal(await purgeActivityLog(db, t.services.settings), 0);
    assert.deepEqual(await names(), ['old', 'recent']);
    await setConfig(db, t.services.settings, ACTIVITY_RETENTION_PATH, null);
    assert.equal(t.services.settings.getInt(ACTIVITY_RETENTION_PATH), 90);
    assert.equal(await purgeActivityLog(db, t.services.settings), 1);
    assert.deepEqual(await names(), ['recent']);
    await setConfig(db, t.services.settings, ACTIVITY_RETENTION_PATH, '5');
    await purgeActivityLog(db, t.services.settings);
    assert.deepEqual(await names(), []);
    assert.ok((await total()) > 0, 'recent writes stay');
    await setConfig(db, t.services.settings, ACTIVITY_RETENTION_PATH, null);
  });
});

describe('redaction', () => {
  test('secrets at any depth, long texts and lists, binary values', () => {
    const out = redactFields({
      password: 'x',
      apiKey: 'k',
      client_secret: 's',
      nested: { accessToken: 't', code: 'GIFT', items: [{ newPassword: 'p', name: 'kept' }] },
      postcode: '10115',
      couponCode: 'SAVE',
      content: 'y'.repeat(5000),
      many: Array.from({ length: 150 }, (_, i) => i),
      file: Buffer.from('abc'),
      map: new Map<string, unknown>([
        ['api_key', 'z'],
        ['city', 'Berlin'],
      ]),
    }) as any;
    assert.equal(out.password, '[redacted]');
    assert.equal(out.apiKey, '[redacted]');
    assert.equal(out.client_secret, '[redacted]');
    assert.equal(out.nested.accessToken, '[redacted]');
    assert.equal(out.nested.code, '[redacted]');
    assert.equal(out.nested.items[0].newPassword, '[redacted]');
    assert.equal(out.nested.items[0].name, 'kept');
    assert.equal(out.postcode, '10115');
    assert.equal(out.couponCode, 'SAVE');
    assert.ok(out.content.length < 1100 && out.content.endsWith('[5000 characters]'));
    assert.equal(out.many.length, 101);
    assert.equal(out.file, '[3 bytes]');
    assert.deepEqual(out.map, { api_key: '[redacted]', city: 'Berlin' });
    const huge = redactFields(Object.fromEntries(Array.from({ length: 90 }, (_, i) => [`f${i}`, 'z'.repeat(900)]))) as any;
    assert.ok(JSON.stringify(huge).length <= 16_384);
    assert.equal(redactFields(undefined), null);
  });
});
