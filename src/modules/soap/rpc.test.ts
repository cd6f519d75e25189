/**
 * The Magento 1 API's untyped interface over XML-RPC (driven by Python's xmlrpc.client, the client integrations
 * use), JSON-RPC (plain HTTP, as a script would post it) and SOAP V1: sessions, the method table's resources,
 * multiCall, resources and faults, the ACL of the API user's role, and malformed requests.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API, type TestApp } from '../../../test/helpers.js';
import { LegacyClient, runScenario, skipWithout, type Step } from '../../../test/fixtures/legacy-api.js';
import { envelope, newApiUser, newCustomer, startSoapApp } from '../../../test/fixtures/soap.js';
import { LEGACY_RESOURCES } from './resources/index.js';

let t: TestApp;
let base: string;
let denied: { username: string; apiKey: string };

before(async () => {
  ({ t, base } = await startSoapApp());
  denied = await newApiUser(t, ['addresses/read']);
});
after(() => t?.close());

describe('XML-RPC with Python xmlrpc.client', { skip: skipWithout('python') }, () => {
  let r: Record<string, Step>;
  let customer: number;

  before(async () => {
    customer = await newCustomer(t);
    r = await runScenario('python', 'xmlrpc_scenario.py', base, {
      RPC_CUSTOMER_ID: String(customer),
      RPC_DENIED_USER: denied.username,
      RPC_DENIED_KEY: denied.apiKey,
    });
  });

  test('login answers a session id; core, directory and group resources answer as Magento', () => {
    assert.match(r.login.ok, /^[0-9a-f]{32}$/);
    assert.deepEqual(r.info.ok, { magento_edition: 'Community', magento_version: '1.9.4.5' });
    const de = r.countries.ok.find((c: any) => c.country_id === 'DE');
    assert.deepEqual(de, { country_id: 'DE', iso2_code: 'DE', iso3_code: 'DEU', name: 'Germany' });
    assert.ok(r.countries.ok.length > 200, 'every country, not only the allowed ones');
    assert.deepEqual(
      r.regions.ok.find((x: any) => x.code === 'CA'),
      { region_id: '12', code: 'CA', name: 'California' },
      'ids as strings, as Magento sent the values it read',
    );
    assert.deepEqual(r.regionsUnknown.fault, [101, 'Country not exists.']);
    const storeView = r.stores.ok.find((s: any) => s.code === 'default');
    assert.deepEqual(Object.keys(storeView), ['store_id', 'code', 'website_id', 'group_id', 'name', 'sort_order', 'is_active']);
    assert.equal(storeView.is_active, '1');
    assert.deepEqual(r.storeByCode.ok, storeView);
    assert.deepEqual(r.storeMissing.fault, [100, 'Requested store view not found.']);
    assert.ok(r.groups.ok.some((g: any) => g.customer_group_id === '1' && g.customer_group_code === 'General'));
  });

  test('customer addresses are created, listed, updated (arguments by name), read and deleted', async () => {
    const id = Number(r.create.ok);
    assert.ok(id > 0, JSON.stringify(r.create));
    assert.equal(r.list.ok.length, 1);
    assert.equal(r.list.ok[0].customer_address_id, String(id));
    assert.equal(r.list.ok[0].street, '1 Main St\nFloor 2');
    assert.equal(r.list.ok[0].is_default_billing, true);
    assert.equal(r.update.ok, true);
    assert.equal(r.read.ok.city, 'Hamburg');
    assert.equal(r.read.ok.region_id, '82');
    assert.equal(r.invalid.fault?.[0], 100);
    assert.equal(r.delete.ok, true);
    assert.deepEqual(r.deletedInfo.fault, [102, 'Address not exists.']);
    const rest = await t.req('GET', `${API}/customers/${customer}/addresses`, { token: await t.tokens.admin() });
    assert.deepEqual(rest.body.member, [], 'the REST API sees the same data');
  });

  test('multiCall answers each call, a failed one as a fault record; break stops at the first fault', () => {
    const [first, second, third] = r.multiCall.ok;
    assert.equal(first.city, 'Hamburg');
    assert.deepEqual(second, { isFault: true, faultCode: '102', faultMessage: 'Address not exists.' });
    assert.ok(third.some((x: any) => x.code === 'ON'));
    assert.equal(r.multiCallBreak.ok.length, 1);
    assert.equal(r.multiCallBreak.ok[0].isFault, true);
  });

  test('resources, resourceFaults and globalFaults list the method table', () => {
    const names = r.resources.ok.map((x: any) => x.name);
    assert.deepEqual(
      names,
      LEGACY_RESOURCES.map((x) => x.name),
    );
    assert.ok(names.includes('customer_address'));
    const region = r.resources.ok.find((x: any) => x.name === 'directory_region');
    assert.deepEqual(region.aliases, ['region']);
    assert.deepEqual(region.methods[0], {
      title: 'List of regions in specified country',
      description: null,
      path: 'directory_region.list',
      name: 'list',
      aliases: ['region.list'],
    });
    assert.deepEqual(
      r.resourceFaults.ok.map((f: any) => f.code),
      ['100', '101', '102', '103'],
    );
    assert.deepEqual(r.resourceFaultsOfAlias.ok, [{ code: '101', message: 'Country not exists.' }]);
    assert.equal(r.resourceFaultsUnknown.fault?.[0], 3);
    assert.deepEqual(
      r.globalFaults.ok.map((f: any) => f.code),
      ['0', '1', '2', '3', '4', '5', '6'],
    );
  });

  test('faults: unknown path 3, unknown method 620, system.multicall per entry, ACL 2, login 2, session 5', () => {
    assert.deepEqual(r.badPath.fault, [3, 'Invalid api path.']);
    assert.deepEqual(r.noDot.fault, [3, 'Invalid api path.']);
    assert.equal(r.unknownMethod.fault?.[0], 620);
    // the library unwraps each result from the one-item list system.multicall answers it in
    assert.deepEqual(r.systemMulticall.ok[0], { ok: { magento_edition: 'Community', magento_version: '1.9.4.5' } });
    assert.deepEqual(r.systemMulticall.ok[1], { fault: [3, 'Invalid api path.'] });
    assert.deepEqual(r.deniedCreate.fault, [2, 'Access denied.']);
    assert.deepEqual(r.deniedGroups.fault, [2, 'Access denied.']);
    // the role reads addresses: that resource, and the public directory ones
    assert.deepEqual(
      r.deniedResources.ok.map((x: any) => [x.name, x.methods.map((m: any) => m.name)]),
      [
        ['core_magento', ['info']],
        ['directory_country', ['list']],
        ['directory_region', ['list']],
        ['customer_address', ['list', 'info']],
      ],
    );
    assert.deepEqual(r.wrongKey.fault, [2, 'Access denied.']);
    assert.equal(r.endSession.ok, true);
    assert.deepEqual(r.afterEnd.fault, [5, 'Session expired. Try to relogin.']);
    assert.deepEqual(r.garbageSession.fault, [5, 'Session expired. Try to relogin.']);
  });
});

describe('XML-RPC on the wire', () => {
  const post = async (body: string, contentType = 'text/xml') => {
    const res = await fetch(`${base}/api/xmlrpc/`, { method: 'POST', headers: { 'content-type': contentType }, body });
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  };
  const faultCode = (text: string) => /<name>faultCode<\/name><value><int>(-?\d+)<\/int>/.exec(text)?.[1];

  test('malformed, empty, DTD-carrying and wrongly typed requests are faults with HTTP 200, and change nothing', async () => {
    for (const body of [
      '<methodCall><methodName>login',
      '',
      '{"method":"login"}',
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><methodCall><methodName>login</methodName></methodCall>',
      '<methodCall><params/></methodCall>',
      '<methodCall><methodName>call</methodName><params><param><value><int>abc</int></value></param></params></methodCall>',
      '<methodCall><methodName>call</methodName><params><param><value><unknownType>1</unknownType></value></param></params></methodCall>',
    ]) {
      const r = await post(body);
      assert.equal(r.status, 200, body);
      assert.match(r.type ?? '', /^text\/xml/);
      assert.match(r.text, /<methodResponse><fault>/, body);
      assert.ok(faultCode(r.text), r.text);
    }
  });

  test('values in every XML-RPC type decode; a bare value is a string; the long route form answers too', async () => {
    const login = await post(
      '<?xml version="1.0"?><methodCall><methodName>login</methodName><params>' +
        '<param><value>demo-admin</value></param><param><value><string>demo-admin-key</string></value></param>' +
        '</params></methodCall>',
    );
    const session = /<string>([0-9a-f]{32})<\/string>/.exec(login.text)?.[1];
    assert.ok(session, login.text);
    const res = await fetch(`${base}/index.php/api/xmlrpc/index`, {
      method: 'POST',
      body:
        `<methodCall><methodName>call</methodName><params><param><value>${session}</value></param>` +
        '<param><value><string>core_store.info</string></value></param>' +
        '<param><value><array><data><value><i4>1</i4></value></data></array></value></param></params></methodCall>',
    });
    const text = await res.text();
    assert.match(text, /<member><name>store_id<\/name><value><string>1<\/string><\/value><\/member>/);
  });

  test('a body over BODY_LIMIT is a fault, not an error page', async () => {
    const r = await post(
      `<methodCall><methodName>login</methodName><params><param><value>${'x'.repeat(1_100_000)}</value></param></params></methodCall>`,
    );
    assert.equal(r.status, 200);
    assert.match(r.text, /<fault>/);
  });
});

describe('JSON-RPC', () => {
  const rpc = async (body: unknown) => {
    const res = await fetch(`${base}/api/jsonrpc/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, text, body: text ? JSON.parse(text) : undefined };
  };
  let session: string;
  before(async () => {
    session = (await rpc({ jsonrpc: '2.0', method: 'login', params: ['demo-admin', 'demo-admin-key'], id: 1 })).body.result;
  });

  test('login, then call by position, by name and with the resource path as the method', async () => {
    assert.match(session, /^[0-9a-f]{32}$/);
    const byPosition = await rpc({ jsonrpc: '2.0', method: 'call', params: [session, 'directory_region.list', ['DE']], id: 2 });
    assert.equal(byPosition.status, 200);
    assert.equal(byPosition.body.jsonrpc, '2.0');
    assert.equal(byPosition.body.id, 2);
    assert.ok(byPosition.body.result.some((x: any) => x.region_id === '82' && x.name === 'Berlin'));
    const byName = await rpc({
      jsonrpc: '2.0',
      method: 'call',
      params: { sessionId: session, apiPath: 'core_store.info', args: ['default'] },
      id: 'n',
    });
    assert.equal(byName.body.result.code, 'default');
    assert.equal(byName.body.id, 'n');
    const asMethod = await rpc({ jsonrpc: '2.0', method: 'region.list', params: [session, 'US'], id: 3 });
    assert.ok(asMethod.body.result.some((x: any) => x.code === 'TX'));
    const v1 = await rpc({ method: 'call', params: [session, 'core_magento.info'], id: 4 });
    assert.deepEqual(v1.body, { result: { magento_edition: 'Community', magento_version: '1.9.4.5' }, id: 4 });
  });

  test('multiCall, resources and faults; a notification gets an empty answer', async () => {
    const multi = await rpc({
      jsonrpc: '2.0',
      method: 'multiCall',
      params: [session, [['core_store.info', 999], ['magento.info']]],
      id: 5,
    });
    assert.deepEqual(multi.body.result[0], { isFault: true, faultCode: '100', faultMessage: 'Requested store view not found.' });
    assert.equal(multi.body.result[1].magento_edition, 'Community');
    const resources = await rpc({ jsonrpc: '2.0', method: 'resources', params: [session], id: 6 });
    assert.equal(resources.body.result.length, LEGACY_RESOURCES.length);
    const unknownPath = await rpc({ jsonrpc: '2.0', method: 'call', params: [session, 'no_such_resource.list'], id: 7 });
    assert.deepEqual(unknownPath.body, { error: { code: 3, message: 'Invalid api path.' }, id: 7, jsonrpc: '2.0' });
    const expired = await rpc({ jsonrpc: '2.0', method: 'call', params: ['0'.repeat(32), 'magento.info'], id: 8 });
    assert.equal(expired.body.error.code, 5);
    const refused = await rpc({ jsonrpc: '2.0', method: 'login', params: ['demo-admin', 'nope'], id: 9 });
    assert.deepEqual(refused.body.error, { code: 2, message: 'Access denied.' });
    const missing = await rpc({ jsonrpc: '2.0', method: 'login', params: [], id: 10 });
    assert.equal(missing.body.error.code, 6);
    const note = await rpc({ jsonrpc: '2.0', method: 'magento.info', params: [session] });
    assert.equal(note.status, 200);
    assert.equal(note.text, '');
  });

  test('malformed requests are JSON-RPC errors with HTTP 200', async () => {
    assert.equal((await rpc('{"method":')).body.error.code, -32700);
    assert.equal((await rpc('[]')).body.error.code, -32600);
    assert.equal((await rpc({ jsonrpc: '2.0', id: 1 })).body.error.code, -32600);
    assert.equal((await rpc({ jsonrpc: '2.0', method: 'call', params: 'x', id: 1 })).body.error.code, -32602);
    const deep = JSON.stringify({
      jsonrpc: '2.0',
      method: 'call',
      params: [session, 'magento.info', JSON.parse('['.repeat(40) + ']'.repeat(40))],
      id: 1,
    });
    assert.equal((await rpc(deep)).body.error.code, -32602);
    const proto = await rpc({
      jsonrpc: '2.0',
      method: 'call',
      params: { __proto__: 'x', sessionId: session, apiPath: 'magento.info' },
      id: 1,
    });
    assert.equal(proto.body.result.magento_edition, 'Community');
  });
});

describe('the customer resource', () => {
  const { rpc, sessionOf } = new LegacyClient(() => base);
  let session: string;
  const tag = `c${Date.now().toString(36)}`;
  const ids: number[] = [];
  before(async () => {
    session = await sessionOf();
    for (const [first, group] of [
      ['Ada', 1],
      ['Bob', 2],
      ['Cy', 2],
    ] as const) {
      const r = await rpc('call', [
        session,
        'customer.create',
        [
          {
            email: `${first.toLowerCase()}.${tag}@example.com`,
            firstname: first,
            lastname: tag,
            group_id: group,
            website_id: 1,
            password: 'Secret123!',
          },
        ],
      ]);
      assert.equal(typeof r.result, 'string', JSON.stringify(r));
      ids.push(Number(r.result));
    }
  });

  test('create answers the id; the account is the one REST reads, and signs in with its password', async () => {
    const rest = await t.req('GET', `${API}/customers/${ids[1]}`, { token: await t.tokens.admin() });
    assert.equal(rest.body.email, `bob.${tag}@example.com`);
    assert.equal(rest.body.groupId, 2);
    const token = await t.req('POST', `${API}/auth/token`, {
      body: { grant_type: 'customer', username: `bob.${tag}@example.com`, password: 'Secret123!' },
    });
    assert.equal(token.status, 200, token.text);
    const missing = await rpc('call', [session, 'customer.create', [{ email: `x.${tag}@example.com` }]]);
    assert.equal(missing.error?.code, 100);
    const dup = await rpc('call', [session, 'customer.create', [{ email: `ada.${tag}@example.com`, firstname: 'A', lastname: 'B' }]]);
    assert.equal(dup.error?.code, 100);
    const noPassword = await rpc('call', [
      session,
      'customer.create',
      [{ email: `np.${tag}@example.com`, firstname: 'No', lastname: tag }],
    ]);
    assert.ok(Number(noPassword.result) > 0, JSON.stringify(noPassword));
    ids.push(Number(noPassword.result));
  });

  test('list filters in the V1 form (eq, in, like, from/to, OR of conditions) and the V2 form', async () => {
    const names = async (filters: unknown) => {
      const r = await rpc('call', [session, 'customer.list', [filters]]);
      assert.ok(r.result, JSON.stringify(r));
      return r.result.map((c: any) => c.firstname);
    };
    assert.deepEqual(await names({ lastname: tag, group_id: '2' }), ['Bob', 'Cy']);
    assert.deepEqual(await names({ lastname: tag, group_id: { in: [1, 3] } }), ['Ada', 'No']);
    assert.deepEqual(await names({ lastname: tag, firstname: { like: 'b%' } }), ['Bob']);
    assert.deepEqual(await names({ lastname: tag, firstname: [{ eq: 'Ada' }, { eq: 'Cy' }] }), ['Ada', 'Cy']);
    assert.deepEqual(await names({ lastname: tag, customer_id: { from: ids[1], to: ids[2] } }), ['Bob', 'Cy']);
    assert.deepEqual(await names({ lastname: tag, created_at: { from: '2000-01-01 00:00:00' }, email: { nlike: 'np.%' } }), [
      'Ada',
      'Bob',
      'Cy',
    ]);
    assert.deepEqual(await names({ lastname: tag, created_at: { lt: '2000-01-01' } }), []);
    assert.deepEqual(
      await names({
        filter: [{ key: 'lastname', value: tag }],
        complex_filter: [
          { key: 'customer_id', value: { key: 'gteq', value: String(ids[1]) } },
          { key: 'group_id', value: { key: 'in', value: '1,2' } },
        ],
      }),
      ['Bob', 'Cy', 'No'],
    );
    const c = (await rpc('call', [session, 'customer.list', [{ email: `ada.${tag}@example.com` }]])).result[0];
    assert.equal(c.customer_id, String(ids[0]));
    assert.match(c.created_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    assert.ok(!('password_hash' in c), 'the password hash is never sent');
    for (const bad of [
      { nope: 1 },
      { email: { regexp: '.*' } },
      { customer_id: { gt: 'abc' } },
      { created_at: { from: 'yesterday' } },
      'x',
    ]) {
      const r = await rpc('call', [session, 'customer.list', [bad]]);
      assert.equal(r.error?.code, 101, `${JSON.stringify(bad)}: ${JSON.stringify(r)}`);
    }
  });

  test('info (with chosen attributes), update and delete; a missing customer is fault 102', async () => {
    const all = (await rpc('call', [session, 'customer.info', [ids[0]]])).result;
    assert.equal(all.email, `ada.${tag}@example.com`);
    const some = (await rpc('call', [session, 'customer.info', [ids[0], ['email', 'group_id']]])).result;
    assert.deepEqual(Object.keys(some), ['customer_id', 'email', 'group_id']);
    assert.equal(
      (await rpc('call', [session, 'customer.update', [ids[0], { lastname: `${tag}x`, group_id: 3, unknown: 1 }]])).result,
      true,
    );
    const after = (await rpc('call', [session, 'customer.info', [ids[0]]])).result;
    assert.equal(after.lastname, `${tag}x`);
    assert.equal(after.group_id, '3');
    assert.equal((await rpc('call', [session, 'customer.update', [ids[0], { email: 'not-an-email' }]])).error?.code, 100);
    assert.equal((await rpc('call', [session, 'customer.delete', [ids[3]]])).result, true);
    assert.equal((await rpc('call', [session, 'customer.info', [ids[3]]])).error?.code, 102);
    assert.equal((await rpc('call', [session, 'customer.delete', [ids[3]]])).error?.code, 102);
    assert.equal((await rpc('call', [session, 'customer.update', ['abc', {}]])).error?.code, 102);
  });

  test("a role's permissions and a store-limited API user's websites hold", async () => {
    const reader = await newApiUser(t, ['customers/read']);
    const s = await sessionOf(reader);
    assert.equal((await rpc('call', [s, 'customer.info', [ids[0]]])).result.customer_id, String(ids[0]));
    assert.equal((await rpc('call', [s, 'customer.update', [ids[0], { firstname: 'X' }]])).error?.code, 2);
    assert.equal(
      (await rpc('call', [s, 'customer.create', [{ email: `r.${tag}@example.com`, firstname: 'R', lastname: 'R' }]])).error?.code,
      2,
    );
    assert.equal((await rpc('call', [s, 'customer.delete', [ids[0]]])).error?.code, 2);
  });
});

describe('SOAP V1 over the same method table', () => {
  const soap = async (body: string) => {
    const res = await fetch(`${base}/api/soap/`, { method: 'POST', headers: { 'content-type': 'text/xml' }, body: envelope(body) });
    return { status: res.status, text: await res.text() };
  };

  test('call reaches every resource; resources, resourceFaults (session first, as clients send it) and globalFaults answer', async () => {
    const login = await soap('<ns1:login><username>demo-admin</username><apiKey>demo-admin-key</apiKey></ns1:login>');
    const session = /<loginReturn[^>]*>([0-9a-f]{32})</.exec(login.text)?.[1];
    assert.ok(session, login.text);
    const regions = await soap(
      `<ns1:call><sessionId>${session}</sessionId><resourcePath>directory_region.list</resourcePath><args xsi:type="xsd:string">DE</args></ns1:call>`,
    );
    assert.equal(regions.status, 200);
    assert.match(regions.text, /<key xsi:type="xsd:string">name<\/key><value xsi:type="xsd:string">Berlin<\/value>/);
    const resources = await soap(`<ns1:resources><sessionId>${session}</sessionId></ns1:resources>`);
    assert.match(resources.text, /customer_address\.create/);
    const faults = await soap(
      `<ns1:resourceFaults><resourceName>${session}</resourceName><sessionId>directory_region</sessionId></ns1:resourceFaults>`,
    );
    assert.match(faults.text, /Country not exists\./);
    const global = await soap('<ns1:globalFaults><sessionId></sessionId></ns1:globalFaults>');
    assert.match(global.text, /Session expired\. Try to relogin\./);
    const started = await soap('<ns1:startSession/>');
    const anonymous = /<startSessionReturn[^>]*>([0-9a-f]{32})</.exec(started.text)?.[1];
    assert.ok(anonymous, started.text);
    const refused = await soap(`<ns1:call><sessionId>${anonymous}</sessionId><resourcePath>magento.info</resourcePath></ns1:call>`);
    assert.equal(refused.status, 500);
    assert.match(refused.text, /<faultcode>5<\/faultcode>/);
  });

  test('the V1 document declares the interface operations', async () => {
    const res = await fetch(`${base}/api/soap/?wsdl`);
    const text = await res.text();
    for (const op of ['login', 'call', 'multiCall', 'endSession', 'resources', 'globalFaults', 'resourceFaults', 'startSession']) {
      assert.match(text, new RegExp(`<operation name="${op}">`), op);
    }
  });
});
