/**
 * The legacy SOAP interface over raw HTTP and through the Node `soap` client: WSDL addresses and switch, wire
 * encodings (Apache maps, href multi-references, WS-I literal), sessions, ACL, defaults, and hostile input.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import soap from 'soap';
import { API, buildSecondApp, type TestApp } from '../../../test/helpers.js';
import { setApiUserActive } from '../auth/service.js';
import { customerAddresses, customers } from '../customers/tables.js';
import { deleteConfig, setConfig } from '../stores/service.js';
import { soapSessions } from './tables.js';
import { ageSession, envelope, login, newApiUser, newCustomer, post, startSoapApp, type SoapReply } from '../../../test/fixtures/soap.js';

let t: TestApp;
let base: string;
let admin: string;
before(async () => {
  ({ t, base } = await startSoapApp());
  admin = await t.tokens.admin();
});
after(() => t.close());

const XML_TYPE = 'text/xml; charset=UTF-8';

function assertFault(r: SoapReply, code: string, text?: string | RegExp) {
  assert.equal(r.status, 500, r.text);
  assert.equal(r.contentType, XML_TYPE);
  assert.ok(r.fault, r.text);
  assert.equal(r.fault[0], code, r.text);
  if (typeof text === 'string') assert.equal(r.fault[1], text);
  else if (text) assert.match(r.fault[1], text);
}

async function addressTotal(): Promise<number> {
  const [r] = await t.database.db.select({ n: count() }).from(customerAddresses);
  return r.n;
}

async function config(path: string, value: string, fn: () => Promise<void>) {
  await setConfig(t.database.db, t.services.settings, path, value);
  try {
    await fn();
  } finally {
    await deleteConfig(t.database.db, t.services.settings, path);
  }
}

const ADDRESS_MAP =
  `<item xsi:type="ns2:Map">` +
  `<item><key xsi:type="xsd:string">firstname</key><value xsi:type="xsd:string">Ann</value></item>` +
  `<item><key xsi:type="xsd:string">lastname</key><value xsi:type="xsd:string">Lee</value></item>` +
  `<item><key xsi:type="xsd:string">street</key><value SOAP-ENC:arrayType="xsd:string[2]" xsi:type="SOAP-ENC:Array"><item xsi:type="xsd:string">Main St 1</item><item xsi:type="xsd:string">Apt 2</item></value></item>` +
  `<item><key xsi:type="xsd:string">city</key><value xsi:type="xsd:string">Berlin</value></item>` +
  `<item><key xsi:type="xsd:string">postcode</key><value xsi:type="xsd:string">10115</value></item>` +
  `<item><key xsi:type="xsd:string">country_id</key><value xsi:type="xsd:string">DE</value></item>` +
  `<item><key xsi:type="xsd:string">region_id</key><value xsi:type="xsd:int">82</value></item>` +
  `<item><key xsi:type="xsd:string">telephone</key><value xsi:type="xsd:string">030 1</value></item>` +
  `<item><key xsi:type="xsd:string">fax</key><value xsi:nil="true"/></item>` +
  `</item>`;

function v1Call(session: string, path: string, args: string): string {
  return envelope(
    `<ns1:call><sessionId xsi:type="xsd:string">${session}</sessionId><resourcePath xsi:type="xsd:string">${path}</resourcePath>${args}</ns1:call>`,
  );
}

async function v1Create(session: string, customer: number): Promise<number> {
  const r = await post(
    base,
    '/api/soap/',
    v1Call(
      session,
      'customer_address.create',
      `<args SOAP-ENC:arrayType="xsd:ur-type[2]" xsi:type="SOAP-ENC:Array"><item xsi:type="xsd:int">${customer}</item>${ADDRESS_MAP}</args>`,
    ),
  );
  assert.equal(r.status, 200, r.text);
  const m = /<callReturn xsi:type="xsd:string">(\d+)<\/callReturn>/.exec(r.text);
  assert.ok(m, r.text);
  return Number(m[1]);
}

async function customerDefaults(id: number) {
  const [c] = await t.database.db
    .select({ billing: customers.defaultBillingId, shipping: customers.defaultShippingId })
    .from(customers)
    .where(eq(customers.id, id));
  return c;
}

describe('WSDL documents', () => {
  const get = (url: string, host?: string) => t.app.inject({ method: 'GET', url, headers: host ? { host } : {} });

  test('V1 at /api/soap/ and /api/: rpc/encoded call and multiCall with the classic names', async () => {
    for (const url of ['/api/soap/?wsdl', '/api/?wsdl', '/api/soap/index/?wsdl=1', '/index.php/api/soap/index/?wsdl']) {
      const r = await get(url);
      assert.equal(r.statusCode, 200, url);
      assert.equal(r.headers['content-type'], XML_TYPE);
      assert.match(r.body, /name="Magento" targetNamespace="urn:Magento"/);
      assert.match(r.body, /<portType name="Mage_Api_Model_Server_HandlerPortType">/);
      assert.match(r.body, /<soap:binding style="rpc"/);
      assert.match(r.body, /<operation name="multiCall">/);
      assert.match(r.body, /<service name="MagentoService">/);
    }
  });

  test('the service address is PUBLIC_URL with the path the client used, minus wsdl (never the Host header)', async () => {
    const r = await get('/index.php/api/v2_soap/index/?a=1&wsdl&b=%3C2', 'shop.example:8443');
    assert.ok(r.body.includes(`<soap:address location="${base}/index.php/api/v2_soap/index/?a=1&amp;b=%3C2"/>`), r.body);
    const evil = await get('/api/soap/?wsdl', 'x"><y');
    assert.ok(evil.body.includes(`location="${base}/api/soap/"`), evil.body);
  });

  test('V2 is rpc/encoded by default; compliance_wsi switches to the WS-I document; /rpc and /wsi stay fixed', async () => {
    const v2 = await get('/api/v2_soap/?wsdl');
    assert.match(v2.body, /Mage_Api_Model_Server_V2_HandlerPortType/);
    assert.match(v2.body, /<soap:binding style="rpc"/);
    assert.match(v2.body, /<part name="info" type="typens:customerAddressEntityItem"\/>/);
    assert.match(v2.body, /<complexType name="customerAddressEntityArray">/);
    assert.doesNotMatch(v2.body, /name="customerAddressEntity"/);
    await config('api/config/compliance_wsi', '1', async () => {
      const wsi = await get('/api/v2_soap/?wsdl');
      assert.match(wsi.body, /Mage_Api_Model_Server_Wsi_HandlerPortType/);
      assert.match(wsi.body, /<soap:binding style="document"/);
      assert.match(wsi.body, /<xsd:element name="customerAddressListRequestParam">/);
      assert.equal((await get('/api/v2_soap/rpc/?wsdl')).body, v2.body.replace('/api/v2_soap/', '/api/v2_soap/rpc/'));
    });
    const wsi = await get('/api/v2_soap/wsi/?wsdl');
    assert.match(wsi.body, /<soap:binding style="document"/);
    assert.ok(wsi.body.includes(`location="${base}/api/v2_soap/wsi/"`), wsi.body);
  });
});

describe('V1 wire encodings', () => {
  test('Apache maps, SOAP-ENC arrays, xsi:nil and a bare scalar argument; results typed as classic V1', async () => {
    const session = await login(base);
    const customer = await newCustomer(t);
    const id = await v1Create(session, customer);
    const r = await post(base, '/api/soap/', v1Call(session, 'customer_address.info', `<args xsi:type="xsd:int">${id}</args>`));
    assert.equal(r.status, 200, r.text);
    assert.match(r.text, /<callReturn xsi:type="ns2:Map">/);
    assert.match(r.text, /<item><key xsi:type="xsd:string">customer_address_id<\/key><value xsi:type="xsd:string">\d+<\/value><\/item>/);
    assert.match(r.text, /<key xsi:type="xsd:string">street<\/key><value xsi:type="xsd:string">Main St 1\nApt 2<\/value>/);
    assert.match(r.text, /<key xsi:type="xsd:string">fax<\/key><value xsi:nil="true"\/>/);
    assert.match(r.text, /<key xsi:type="xsd:string">vat_request_success<\/key><value xsi:nil="true"\/>/);
    assert.match(r.text, /<key xsi:type="xsd:string">is_default_billing<\/key><value xsi:type="xsd:boolean">false<\/value>/);
    const list = await post(base, '/api/soap/', v1Call(session, 'customer_address.list', `<args>${customer}</args>`));
    assert.match(list.text, /<callReturn SOAP-ENC:arrayType="ns2:Map\[1\]" xsi:type="SOAP-ENC:Array"><item xsi:type="ns2:Map">/);
    const empty = await post(
      base,
      '/api/soap/',
      v1Call(session, 'customer_address.list', `<args xsi:type="xsd:int">${await newCustomer(t)}</args>`),
    );
    assert.match(empty.text, /<callReturn SOAP-ENC:arrayType="xsd:ur-type\[0\]" xsi:type="SOAP-ENC:Array"\/>/);
  });

  test('href multi-references (Axis, .NET) are resolved, in call and multiCall', async () => {
    const session = await login(base);
    const customer = await newCustomer(t);
    const body =
      `<ns1:call><sessionId href="#s"/><resourcePath xsi:type="xsd:string">customer_address.create</resourcePath>` +
      `<args href="#a"/></ns1:call>` +
      `<multiRef id="s" xsi:type="xsd:string">${session}</multiRef>` +
      `<multiRef id="a" SOAP-ENC:arrayType="xsd:anyType[2]" xsi:type="SOAP-ENC:Array"><item href="#c"/><item href="#m"/></multiRef>` +
      `<multiRef id="c" xsi:type="xsd:int">${customer}</multiRef>` +
      ADDRESS_MAP.replace('<item xsi:type="ns2:Map">', '<multiRef id="m" xsi:type="ns2:Map">').replace(/<\/item>$/, '</multiRef>');
    const r = await post(base, '/api/soap/', envelope(body));
    assert.equal(r.status, 200, r.text);
    const id = Number(/<callReturn xsi:type="xsd:string">(\d+)</.exec(r.text)![1]);
    const multi = await post(
      base,
      '/api/soap/',
      envelope(
        `<ns1:multiCall><sessionId xsi:type="xsd:string">${session}</sessionId><calls href="#calls"/><options xsi:nil="true"/></ns1:multiCall>` +
          `<multiRef id="calls" SOAP-ENC:arrayType="xsd:anyType[1]" xsi:type="SOAP-ENC:Array"><item href="#one"/></multiRef>` +
          `<multiRef id="one" SOAP-ENC:arrayType="xsd:anyType[2]" xsi:type="SOAP-ENC:Array"><item xsi:type="xsd:string">customer_address.info</item><item xsi:type="xsd:int">${id}</item></multiRef>`,
      ),
    );
    assert.equal(multi.status, 200, multi.text);
    assert.match(multi.text, /<multiCallReturn SOAP-ENC:arrayType="ns2:Map\[1\]" xsi:type="SOAP-ENC:Array">/);
    assert.match(multi.text, new RegExp(`<key xsi:type="xsd:string">customer_address_id</key><value xsi:type="xsd:string">${id}</value>`));
    // a reference cycle is refused, not followed forever
    const cyc = await post(base, '/api/soap/', envelope(`<ns1:call><sessionId href="#x"/></ns1:call><multiRef id="x" href="#x"/>`));
    assertFault(cyc, 'SOAP-ENV:Client');
  });

  test('character references are decoded; characters XML forbids leave as literal &#N; text', async () => {
    const session = await login(base);
    const customer = await newCustomer(t);
    const id = await v1Create(session, customer);
    const up = await post(
      base,
      '/api/soap/',
      v1Call(
        session,
        'customer_address.update',
        `<args xsi:type="SOAP-ENC:Array"><item xsi:type="xsd:int">${id}</item><item xsi:type="ns2:Map"><item><key>company</key><value>A&#38;B &#x3C;&#252;&gt;</value></item></item></args>`,
      ),
    );
    assert.equal(up.status, 200, up.text);
    const rest = await t.req('GET', `${API}/customers/${customer}/addresses`, { token: admin });
    assert.equal(rest.body.member[0].company, 'A&B <ü>');
    await t.database.db.update(customerAddresses).set({ company: 'X\u0001Y' }).where(eq(customerAddresses.id, id));
    const info = await post(base, '/api/soap/', v1Call(session, 'customer_address.info', `<args>${id}</args>`));
    assert.match(info.text, /<value xsi:type="xsd:string">X&amp;#1;Y<\/value>/);
  });
});

describe('V2 and WS-I wire', () => {
  test('V2 replies use the WSDL types and the info part name; WS-I replies use result and complexObjectArray', async () => {
    const session = await login(base);
    const customer = await newCustomer(t);
    const id = await v1Create(session, customer);
    const info = await post(
      base,
      '/api/v2_soap/',
      envelope(
        `<ns1:customerAddressInfo><sessionId xsi:type="xsd:string">${session}</sessionId><addressId xsi:type="xsd:int">${id}</addressId></ns1:customerAddressInfo>`,
      ),
    );
    assert.equal(info.status, 200, info.text);
    assert.match(
      info.text,
      new RegExp(
        `<ns1:customerAddressInfoResponse><info xsi:type="ns1:customerAddressEntityItem"><customer_address_id xsi:type="xsd:int">${id}</customer_address_id>`,
      ),
    );
    assert.doesNotMatch(info.text, /xsi:nil|vat_|<fax/);
    const list = await post(
      base,
      '/api/v2_soap/',
      envelope(`<ns1:customerAddressList><sessionId>${session}</sessionId><customerId>${customer}</customerId></ns1:customerAddressList>`),
    );
    assert.match(
      list.text,
      /<result SOAP-ENC:arrayType="ns1:customerAddressEntityItem\[1\]" xsi:type="ns1:customerAddressEntityArray"><item xsi:type="ns1:customerAddressEntityItem">/,
    );
    // the same endpoint answers WS-I requests, children in any order
    const wsi = await post(
      base,
      '/api/v2_soap/',
      envelope(
        `<ns1:customerAddressListRequestParam><customerId>${customer}</customerId><sessionId>${session}</sessionId></ns1:customerAddressListRequestParam>`,
      ),
    );
    assert.equal(wsi.status, 200, wsi.text);
    assert.match(
      wsi.text,
      new RegExp(`<ns1:customerAddressListResponseParam><result><complexObjectArray><customer_address_id>${id}</customer_address_id>`),
    );
    assert.doesNotMatch(wsi.text, /xsi:type|encodingStyle/);
  });

  test('an empty WS-I addressData changes nothing; a one-line street may come as one .NET-style member', async () => {
    const session = await login(base);
    const customer = await newCustomer(t);
    const id = await v1Create(session, customer);
    const empty = await post(
      base,
      '/api/v2_soap/',
      envelope(
        `<ns1:customerAddressUpdateRequestParam><sessionId>${session}</sessionId><addressId>${id}</addressId><addressData/></ns1:customerAddressUpdateRequestParam>`,
      ),
    );
    assert.match(empty.text, /<ns1:customerAddressUpdateResponseParam><result>true<\/result><\/ns1:customerAddressUpdateResponseParam>/);
    const one = await post(
      base,
      '/api/v2_soap/',
      envelope(
        `<ns1:customerAddressUpdate><sessionId>${session}</sessionId><addressId xsi:type="xsd:anyType">${id}</addressId><addressData><street xsi:type="ns1:ArrayOfString"><string>Only Line</string></street></addressData></ns1:customerAddressUpdate>`,
      ),
    );
    assert.equal(one.status, 200, one.text);
    const [row] = await t.database.db.select().from(customerAddresses).where(eq(customerAddresses.id, id));
    assert.deepEqual([row.street, row.city], [['Only Line'], 'Berlin']);
  });

  test('a WS-I request missing a required child is fault 6, checked before the session', async () => {
    const r = await post(
      base,
      '/api/v2_soap/',
      envelope(`<ns1:customerAddressInfoRequestParam><sessionId>nope</sessionId></ns1:customerAddressInfoRequestParam>`),
    );
    assertFault(r, '6', 'Required parameter is missing, for more details see "exception.log".');
    const login6 = await post(base, '/api/v2_soap/', envelope(`<ns1:loginParam><username>demo-admin</username></ns1:loginParam>`));
    assertFault(login6, '6');
    const expired = await post(
      base,
      '/api/v2_soap/',
      envelope(
        `<ns1:customerAddressInfoRequestParam><sessionId>nope</sessionId><addressId>1</addressId></ns1:customerAddressInfoRequestParam>`,
      ),
    );
    assertFault(expired, '5', 'Session expired. Try to relogin.');
  });

  test('unknown operations are server faults naming the procedure', async () => {
    for (const [path, op] of [
      ['/api/soap/', 'customerAddressList'],
      ['/api/v2_soap/', 'call'],
      ['/api/v2_soap/', 'fooRequestParam'],
      ['/api/soap/', 'constructorX'],
    ]) {
      assertFault(await post(base, path, envelope(`<ns1:${op}/>`)), 'SOAP-ENV:Server', `Procedure '${op}' not present`);
    }
  });

  test('a value of the wrong type for a typed part is a client fault and changes nothing', async () => {
    const session = await login(base);
    const customer = await newCustomer(t);
    const before = await addressTotal();
    const bad = [
      `<ns1:customerAddressList><sessionId>${session}</sessionId><customerId xsi:type="xsd:int">abc</customerId></ns1:customerAddressList>`,
      `<ns1:customerAddressCreate><sessionId>${session}</sessionId><customerId>${customer}</customerId><addressData><is_default_billing xsi:type="xsd:boolean">maybe</is_default_billing></addressData></ns1:customerAddressCreate>`,
    ];
    for (const b of bad) assertFault(await post(base, '/api/v2_soap/', envelope(b)), 'SOAP-ENV:Client', /Encoding/);
    const notStruct = await post(
      base,
      '/api/v2_soap/',
      envelope(
        `<ns1:customerAddressCreate><sessionId>${session}</sessionId><customerId>${customer}</customerId><addressData xsi:type="SOAP-ENC:Array"><item>x</item></addressData></ns1:customerAddressCreate>`,
      ),
    );
    assertFault(notStruct, '100', 'Address data must be a struct.');
    const tooLong = await post(
      base,
      '/api/v2_soap/',
      envelope(
        `<ns1:customerAddressCreate><sessionId>${session}</sessionId><customerId>${customer}</customerId><addressData><firstname>${'x'.repeat(300)}</firstname></addressData></ns1:customerAddressCreate>`,
      ),
    );
    assertFault(tooLong, '100', /^firstname must not have more than 255 characters/);
    assert.equal(await addressTotal(), before);
  });
});

describe('sessions', () => {
  const list = (session: string, customer: number) =>
    post(
      base,
      '/api/v2_soap/',
      envelope(`<ns1:customerAddressList><sessionId>${session}</sessionId><customerId>${customer}</customerId></ns1:customerAddressList>`),
    );

  test('one session serves V1, V2 and WS-I, and another app instance on the same database', async () => {
    const session = await login(base);
    const customer = await newCustomer(t);
    assert.equal((await list(session, customer)).status, 200);
    assert.equal(
      (
        await post(
          base,
          '/api/v2_soap/',
          envelope(
            `<ns1:customerAddressListRequestParam><sessionId>${session}</sessionId><customerId>${customer}</customerId></ns1:customerAddressListRequestParam>`,
          ),
        )
      ).status,
      200,
    );
    const other = await buildSecondApp(t);
    try {
      const r = await other.app.inject({
        method: 'POST',
        url: '/api/soap/',
        payload: v1Call(session, 'customer_address.list', `<args>${customer}</args>`),
        headers: { 'content-type': 'text/xml' },
      });
      assert.equal(r.statusCode, 200, r.body);
    } finally {
      await other.app.close();
    }
  });

  test('the idle lifetime is configurable and sliding; login purges the user’s expired sessions', async () => {
    const customer = await newCustomer(t);
    await config('api/config/session_timeout', '60', async () => {
      const session = await login(base);
      await ageSession(t, session, 45);
      assert.equal((await list(session, customer)).status, 200, 'used within the lifetime');
      await ageSession(t, session, 45);
      assert.equal((await list(session, customer)).status, 200, 'each use restarts the clock');
      await ageSession(t, session, 61);
      assertFault(await list(session, customer), '5', 'Session expired. Try to relogin.');
      const hash = crypto.createHash('sha256').update(session).digest('hex');
      assert.equal((await t.database.db.select().from(soapSessions).where(eq(soapSessions.idHash, hash))).length, 1);
      await login(base);
      assert.equal((await t.database.db.select().from(soapSessions).where(eq(soapSessions.idHash, hash))).length, 0, 'purged at login');
    });
  });

  test('session ids are stored only as hashes', async () => {
    const session = await login(base);
    const rows = await t.database.db.select({ h: soapSessions.idHash }).from(soapSessions);
    assert.ok(rows.every((r) => r.h !== session));
    assert.ok(rows.some((r) => r.h === crypto.createHash('sha256').update(session).digest('hex')));
  });

  test('a deactivated API user can neither log in nor use an open session', async () => {
    const user = await newApiUser(t, ['addresses/all']);
    const session = await login(base, user.username, user.apiKey);
    const customer = await newCustomer(t);
    assert.equal((await list(session, customer)).status, 200);
    await setApiUserActive(t.database.db, user.username, false);
    assertFault(await list(session, customer), '2', 'Access denied.');
    const r = await post(
      base,
      '/api/soap/',
      envelope(`<ns1:login><username>${user.username}</username><apiKey>${user.apiKey}</apiKey></ns1:login>`),
    );
    assertFault(r, '2', 'Access denied.');
  });

  test('failed logins count against the same limit as the REST api_user grant', async () => {
    const user = await newApiUser(t, ['addresses/all']);
    const limited = await buildSecondApp(t, { RATE_LIMITS: '1' });
    try {
      const ip = `127.${crypto.randomInt(3, 250)}.${crypto.randomInt(1, 250)}.${crypto.randomInt(1, 250)}`;
      const soapLogin = (key: string) =>
        limited.app.inject({
          method: 'POST',
          url: '/api/soap/',
          remoteAddress: ip,
          headers: { 'content-type': 'text/xml' },
          payload: envelope(`<ns1:login><username>${user.username}</username><apiKey>${key}</apiKey></ns1:login>`),
        });
      for (let i = 0; i < 5; i++) {
        const r = await soapLogin('wrong');
        assert.match(r.body, /<faultcode>2<\/faultcode><faultstring>Access denied.<\/faultstring>/);
      }
      const right = await soapLogin(user.apiKey);
      assert.match(right.body, /<faultcode>2<\/faultcode><faultstring>Too many requests. Please try again later.<\/faultstring>/);
      const rest = await limited.app.inject({
        method: 'POST',
        url: `${API}/auth/token`,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ grant_type: 'api_user', username: user.username, api_key: user.apiKey }),
      });
      assert.equal(rest.statusCode, 429);
    } finally {
      await limited.app.close();
    }
  });

  test('a role without any address permission is denied every operation (fault 2)', async () => {
    const user = await newApiUser(t, ['customers/all']);
    const session = await login(base, user.username, user.apiKey);
    assertFault(await list(session, await newCustomer(t)), '2', 'Access denied.');
  });
});

describe('default billing and shipping flags', () => {
  test('a new address becomes default only when asked; false never clears; another true moves the default', async () => {
    const session = await login(base);
    const customer = await newCustomer(t);
    const first = await v1Create(session, customer);
    assert.deepEqual(await customerDefaults(customer), { billing: null, shipping: null }, 'absent flags take no default');
    const flags = (id: number, billing: string, shipping: string) =>
      post(
        base,
        '/api/v2_soap/',
        envelope(
          `<ns1:customerAddressUpdate><sessionId>${session}</sessionId><addressId>${id}</addressId><addressData><is_default_billing>${billing}</is_default_billing><is_default_shipping>${shipping}</is_default_shipping></addressData></ns1:customerAddressUpdate>`,
        ),
      );
    assert.equal((await flags(first, 'true', '1')).status, 200);
    assert.deepEqual(await customerDefaults(customer), { billing: first, shipping: first });
    assert.equal((await flags(first, 'false', '0')).status, 200);
    assert.deepEqual(await customerDefaults(customer), { billing: first, shipping: first }, 'false leaves the default');
    const second = await v1Create(session, customer);
    assert.equal((await flags(second, 'true', 'false')).status, 200);
    assert.deepEqual(await customerDefaults(customer), { billing: second, shipping: first });
    const info = await post(base, '/api/soap/', v1Call(session, 'customer_address.info', `<args>${first}</args>`));
    assert.match(info.text, /<key xsi:type="xsd:string">is_default_billing<\/key><value xsi:type="xsd:boolean">false<\/value>/);
    assert.match(info.text, /<key xsi:type="xsd:string">is_default_shipping<\/key><value xsi:type="xsd:boolean">true<\/value>/);
  });
});

describe('malformed and hostile requests', () => {
  const payloads: [string, string][] = [
    ['not XML', 'hello'],
    ['unclosed tags', '<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"><SOAP-ENV:Body><ns1:login>'],
    [
      'undeclared prefix',
      '<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"><SOAP-ENV:Body><x:login/></SOAP-ENV:Body></SOAP-ENV:Envelope>',
    ],
    ['unknown entity', envelope('<ns1:login><username>&nbsp;</username><apiKey>k</apiKey></ns1:login>')],
    ['not an envelope', '<login><username>demo-admin</username></login>'],
    ['empty body', ' '],
    ['empty Body', envelope('')],
    ['two roots', `${envelope('<ns1:endSession/>')}<x/>`],
    ['a control character', envelope('<ns1:login><username>a\u0001</username></ns1:login>')],
    ['nesting too deep', envelope(`${'<a>'.repeat(200)}${'</a>'.repeat(200)}`)],
  ];
  for (const [name, body] of payloads) {
    test(`${name}: SOAP-ENV:Client fault`, async () => {
      assertFault(await post(base, '/api/v2_soap/', body), 'SOAP-ENV:Client');
    });
  }

  test('an XXE payload is refused before parsing and nothing is read', async () => {
    const before = await addressTotal();
    const xxe =
      `<?xml version="1.0"?><!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>` +
      envelope('<ns1:login><username>&xxe;</username><apiKey>x</apiKey></ns1:login>').replace(/^<\?xml[^>]*>\n/, '');
    const r = await post(base, '/api/soap/', xxe);
    assertFault(r, 'SOAP-ENV:Client', 'DTD are not supported by SOAP');
    assert.doesNotMatch(r.text, /root:/);
    assert.equal(await addressTotal(), before);
  });

  test('a billion-laughs payload is refused at once', async () => {
    let dtd = '<!ENTITY lol "lol">';
    for (let i = 1; i <= 9; i++) dtd += `<!ENTITY lol${i} "${`&lol${i === 1 ? '' : i - 1};`.repeat(10)}">`;
    const body = `<?xml version="1.0"?><!DOCTYPE lolz [${dtd}]><SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"><SOAP-ENV:Body><login><username>&lol9;</username></login></SOAP-ENV:Body></SOAP-ENV:Envelope>`;
    const started = Date.now();
    assertFault(await post(base, '/api/soap/', body), 'SOAP-ENV:Client', 'DTD are not supported by SOAP');
    assert.ok(Date.now() - started < 2000);
  });

  test('a SOAP 1.2 envelope is a version mismatch', async () => {
    const r = await post(
      base,
      '/api/soap/',
      '<e:Envelope xmlns:e="http://www.w3.org/2003/05/soap-envelope"><e:Body><login/></e:Body></e:Envelope>',
      'application/soap+xml',
    );
    assertFault(r, 'SOAP-ENV:VersionMismatch', 'Wrong Version');
  });

  test('an oversized body is a SOAP fault, not a JSON 413', async () => {
    const big = envelope(`<ns1:login><username>${'x'.repeat(1_100_000)}</username></ns1:login>`);
    assertFault(await post(base, '/api/soap/', big), 'SOAP-ENV:Client', 'Request body is too large');
  });

  test('a GET without ?wsdl and a bad store code are faults too', async () => {
    const r = await fetch(`${base}/api/soap/`);
    assert.equal(r.status, 500);
    assert.match(await r.text(), /<faultcode>SOAP-ENV:Client<\/faultcode>/);
    assertFault(await post(base, '/api/soap/?store=nope', envelope('<ns1:endSession/>')), 'SOAP-ENV:Client');
  });

  test('the JSON API keeps refusing XML bodies', async () => {
    const r = await t.req('POST', `${API}/auth/token`, { raw: '<x/>', headers: { 'content-type': 'text/xml' } });
    assert.equal(r.status, 415);
  });
});

describe('Node soap client', () => {
  /** node-soap keeps rpc/encoded values with their attributes; this reads the plain values. */
  const plain = (v: any): any => {
    if (v === null || typeof v !== 'object') return v;
    if ('$value' in v) return v.$value;
    if (Array.isArray(v)) return v.map(plain);
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => k !== 'attributes')
        .map(([k, x]) => [k, plain(x)]),
    );
  };
  const faultOf = async (p: Promise<unknown>) => {
    try {
      await p;
    } catch (err: any) {
      const f = err.root?.Envelope?.Body?.Fault;
      return [String(f?.faultcode), String(f?.faultstring)];
    }
    assert.fail('expected a fault');
  };

  test('WS-I: create, list, info, update, delete and a fault; REST reads the address', async () => {
    const c = await soap.createClientAsync(`${base}/api/v2_soap/wsi/?wsdl`);
    const customer = await newCustomer(t);
    const [{ result: session }] = await c.loginAsync({ username: 'demo-admin', apiKey: 'demo-admin-key' });
    const [{ result: id }] = await c.customerAddressCreateAsync({
      sessionId: session,
      customerId: customer,
      addressData: {
        firstname: 'No',
        lastname: 'De',
        street: { complexObjectArray: ['L1', 'L2'] },
        city: 'Köln',
        postcode: '50667',
        country_id: 'DE',
        region_id: 88,
        telephone: '0221',
        is_default_billing: true,
      },
    });
    const [listed] = await c.customerAddressListAsync({ sessionId: session, customerId: customer });
    assert.deepEqual(
      listed.result.complexObjectArray.map((a: any) => [a.customer_address_id, a.street, a.is_default_billing]),
      [[id, 'L1\nL2', true]],
    );
    const [{ result: updated }] = await c.customerAddressUpdateAsync({
      sessionId: session,
      addressId: id,
      addressData: { city: 'Bonn', postcode: '53111' },
    });
    assert.equal(updated, true);
    const [{ result: info }] = await c.customerAddressInfoAsync({ sessionId: session, addressId: id });
    assert.equal(info.city, 'Bonn');
    const rest = await t.req('GET', `${API}/customers/${customer}/addresses`, { token: admin });
    assert.deepEqual(
      rest.body.member.map((a: any) => [a.id, a.city, a.street, a.isDefaultBilling]),
      [[id, 'Bonn', ['L1', 'L2'], true]],
    );
    const [{ result: deleted }] = await c.customerAddressDeleteAsync({ sessionId: session, addressId: id });
    assert.equal(deleted, true);
    assert.deepEqual(await faultOf(c.customerAddressInfoAsync({ sessionId: session, addressId: id })), ['102', 'Address not exists.']);
  });

  test('V2: create, list, info, update, delete and a fault', async () => {
    const c = await soap.createClientAsync(`${base}/api/v2_soap/?wsdl`);
    const customer = await newCustomer(t);
    const session = plain((await c.loginAsync({ username: 'demo-admin', apiKey: 'demo-admin-key' }))[0].loginReturn);
    const id = plain(
      (
        await c.customerAddressCreateAsync({
          sessionId: session,
          customerId: customer,
          addressData: {
            firstname: 'Vi',
            lastname: 'Two',
            street: { item: ['S1', 'S2'] },
            city: 'Kiel',
            postcode: '24103',
            country_id: 'DE',
            region_id: 93,
            telephone: '0431',
          },
        })
      )[0].result,
    );
    assert.equal(typeof id, 'number');
    const listed = plain((await c.customerAddressListAsync({ sessionId: session, customerId: customer }))[0].result);
    assert.deepEqual(
      [listed.item].flat().map((a: any) => [a.customer_address_id, a.street, a.region]),
      [[id, 'S1\nS2', 'Schleswig-Holstein']],
    );
    assert.equal(
      plain((await c.customerAddressUpdateAsync({ sessionId: session, addressId: id, addressData: { telephone: '0431 2' } }))[0].info),
      true,
    );
    const info = plain((await c.customerAddressInfoAsync({ sessionId: session, addressId: id }))[0].info);
    assert.equal(info.telephone, '0431 2');
    assert.equal(plain((await c.customerAddressDeleteAsync({ sessionId: session, addressId: id }))[0].info), true);
    assert.deepEqual(await faultOf(c.customerAddressDeleteAsync({ sessionId: session, addressId: id })), ['102', 'Address not exists.']);
    assert.deepEqual(await faultOf(c.customerAddressListAsync({ sessionId: 'x', customerId: customer })), [
      '5',
      'Session expired. Try to relogin.',
    ]);
  });

  test('V1: call list, info, delete and a fault', async () => {
    const c = await soap.createClientAsync(`${base}/api/soap/?wsdl`);
    const session = plain((await c.loginAsync({ username: 'demo-admin', apiKey: 'demo-admin-key' }))[0].loginReturn);
    const customer = await newCustomer(t);
    const id = await v1Create(session, customer);
    const listed = plain((await c.callAsync({ sessionId: session, resourcePath: 'customer_address.list', args: customer }))[0].callReturn);
    const record = Object.fromEntries([listed.item.item].flat().map((e: any) => [e.key, e.value]));
    assert.equal(record.customer_address_id, String(id));
    assert.equal(record.street, 'Main St 1\nApt 2');
    assert.equal(
      plain((await c.callAsync({ sessionId: session, resourcePath: 'customer_address.delete', args: id }))[0].callReturn),
      'true',
    );
    assert.deepEqual(await faultOf(c.callAsync({ sessionId: session, resourcePath: 'customer_address.info', args: id })), [
      '102',
      'Address not exists.',
    ]);
    assert.deepEqual(await faultOf(c.callAsync({ sessionId: session, resourcePath: 'catalog_product.no_such_method', args: 1 })), [
      '3',
      'Invalid api path.',
    ]);
  });
});
