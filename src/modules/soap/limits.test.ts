/**
 * SOAP limits: a V1 multiCall carries at most 100 calls (a longer one is a fault and runs nothing), and every
 * resource call, each entry of a multiCall included, counts against the API user's api/rate_limit/soap_calls:
 * a request whose calls do not all fit is a fault, runs nothing and counts nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import type { TestApp } from '../../../test/helpers.js';
import { rows } from '../../platform/db.js';
import { setConfig } from '../stores/service.js';
import { envelope, login, newApiUser, newCustomer, post, startSoapApp, type SoapReply } from '../../../test/fixtures/soap.js';

let t: TestApp;
let base: string;
before(async () => {
  ({ t, base } = await startSoapApp({ RATE_LIMITS: '1' }));
});
after(() => t.close());

function assertFault(r: SoapReply, code: string, text: RegExp) {
  assert.equal(r.status, 500, r.text);
  assert.ok(r.fault, r.text);
  assert.equal(r.fault[0], code, r.text);
  assert.match(r.fault[1], text);
}

const CREATE_ARGS = (customer: number) =>
  `<item SOAP-ENC:arrayType="xsd:anyType[2]" xsi:type="SOAP-ENC:Array"><item xsi:type="xsd:string">customer_address.create</item>` +
  `<item SOAP-ENC:arrayType="xsd:anyType[2]" xsi:type="SOAP-ENC:Array"><item xsi:type="xsd:int">${customer}</item><item xsi:type="ns2:Map">` +
  `<item><key xsi:type="xsd:string">firstname</key><value xsi:type="xsd:string">Ann</value></item>` +
  `<item><key xsi:type="xsd:string">lastname</key><value xsi:type="xsd:string">Lee</value></item>` +
  `<item><key xsi:type="xsd:string">street</key><value xsi:type="xsd:string">1 Main St</value></item>` +
  `<item><key xsi:type="xsd:string">city</key><value xsi:type="xsd:string">Berlin</value></item>` +
  `<item><key xsi:type="xsd:string">postcode</key><value xsi:type="xsd:string">10115</value></item>` +
  `<item><key xsi:type="xsd:string">country_id</key><value xsi:type="xsd:string">DE</value></item>` +
  `<item><key xsi:type="xsd:string">region_id</key><value xsi:type="xsd:int">82</value></item>` +
  `<item><key xsi:type="xsd:string">telephone</key><value xsi:type="xsd:string">030 1</value></item>` +
  `</item></item></item>`;

const LIST_ARGS = (customer: number) =>
  `<item SOAP-ENC:arrayType="xsd:anyType[2]" xsi:type="SOAP-ENC:Array"><item xsi:type="xsd:string">customer_address.list</item><item xsi:type="xsd:int">${customer}</item></item>`;

function multiCall(session: string, entries: string[]): string {
  return envelope(
    `<ns1:multiCall><sessionId xsi:type="xsd:string">${session}</sessionId>` +
      `<calls SOAP-ENC:arrayType="xsd:anyType[${entries.length}]" xsi:type="SOAP-ENC:Array">${entries.join('')}</calls><options xsi:nil="true"/></ns1:multiCall>`,
  );
}

function call(session: string, customer: number): string {
  return envelope(
    `<ns1:call><sessionId xsi:type="xsd:string">${session}</sessionId><resourcePath xsi:type="xsd:string">customer_address.list</resourcePath>` +
      `<args xsi:type="xsd:int">${customer}</args></ns1:call>`,
  );
}

async function addressesOf(customer: number): Promise<number> {
  const [r] = await rows<{ n: string }>(
    t.database.db,
    sql`SELECT count(*)::text AS n FROM customer_addresses WHERE customer_id = ${customer}`,
  );
  return Number(r.n);
}

describe('multiCall size', () => {
  test('the SOAP rate limit is 600 calls a minute unless set', () => {
    assert.equal(t.services.settings.getInt('api/rate_limit/soap_calls'), 600);
  });

  test('100 calls run; 101 are a client fault and none of them runs', async () => {
    const user = await newApiUser(t, ['all']);
    const session = await login(base, user.username, user.apiKey);
    const customer = await newCustomer(t);
    const hundred = await post(
      base,
      '/api/soap/',
      multiCall(
        session,
        Array.from({ length: 100 }, () => LIST_ARGS(customer)),
      ),
    );
    assert.equal(hundred.status, 200, hundred.text.slice(0, 500));
    assert.match(hundred.text, /<multiCallReturn SOAP-ENC:arrayType="[^"]*\[100\]"/);

    const one = await post(base, '/api/soap/', multiCall(session, [CREATE_ARGS(customer)]));
    assert.doesNotMatch(one.text, /isFault/, 'the create entry itself works');
    assert.equal(await addressesOf(customer), 1);
    const tooMany = await post(
      base,
      '/api/soap/',
      multiCall(
        session,
        Array.from({ length: 101 }, () => CREATE_ARGS(customer)),
      ),
    );
    assertFault(tooMany, 'SOAP-ENV:Client', /at most 100 calls; this one has 101/);
    assert.equal(await addressesOf(customer), 1, 'no call of the refused multiCall ran');
    const twoThousand = await post(
      base,
      '/api/soap/',
      multiCall(
        session,
        Array.from({ length: 2000 }, () => LIST_ARGS(customer)),
      ),
    );
    assertFault(twoThousand, 'SOAP-ENV:Client', /at most 100 calls/);
  });
});

describe('rate limit per API user (api/rate_limit/soap_calls)', () => {
  before(() => setConfig(t.database.db, t.services.settings, 'api/rate_limit/soap_calls', '5'));
  after(() => setConfig(t.database.db, t.services.settings, 'api/rate_limit/soap_calls', null));

  test('each entry of a multiCall counts; a multiCall past the limit is a fault, runs nothing and counts nothing; other users are not affected', async () => {
    const user = await newApiUser(t, ['all']);
    const session = await login(base, user.username, user.apiKey);
    const customer = await newCustomer(t);
    const creates = (n: number) =>
      multiCall(
        session,
        Array.from({ length: n }, () => CREATE_ARGS(customer)),
      );
    const three = await post(base, '/api/soap/', creates(3));
    assert.equal(three.status, 200, three.text);
    assert.equal(await addressesOf(customer), 3);
    // 3 + 3 is past 5: refused whole, and the refused three are not counted
    assertFault(await post(base, '/api/soap/', creates(3)), 'SOAP-ENV:Client', /^Too many requests\. Please try again later\.$/);
    assert.equal(await addressesOf(customer), 3);
    // so two more still fit (3 + 2 = 5) ...
    const two = await post(base, '/api/soap/', creates(2));
    assert.equal(two.status, 200, two.text);
    assert.equal(await addressesOf(customer), 5);
    // ... and then nothing does: a single call, from this session or another session of the same user
    assertFault(await post(base, '/api/soap/', call(session, customer)), 'SOAP-ENV:Client', /Too many requests/);
    const second = await login(base, user.username, user.apiKey);
    assertFault(await post(base, '/api/soap/', call(second, customer)), 'SOAP-ENV:Client', /Too many requests/);
    assert.equal(await addressesOf(customer), 5);
    // another API user has a budget of its own, but no multiCall longer than the whole budget ever fits
    const other = await newApiUser(t, ['all']);
    const otherSession = await login(base, other.username, other.apiKey);
    const ok = await post(base, '/api/soap/', call(otherSession, customer));
    assert.equal(ok.status, 200, ok.text);
    const six = await post(
      base,
      '/api/soap/',
      multiCall(
        otherSession,
        Array.from({ length: 6 }, () => LIST_ARGS(customer)),
      ),
    );
    assertFault(six, 'SOAP-ENV:Client', /^Too many requests: 6 calls in one request, at most 5 a minute are allowed$/);
    const four = await post(
      base,
      '/api/soap/',
      multiCall(
        otherSession,
        Array.from({ length: 4 }, () => LIST_ARGS(customer)),
      ),
    );
    assert.equal(four.status, 200, four.text);
  });

  test('an unknown session is fault 5 and counts against nobody', async () => {
    const user = await newApiUser(t, ['all']);
    const session = await login(base, user.username, user.apiKey);
    const customer = await newCustomer(t);
    for (let i = 0; i < 10; i++) assertFault(await post(base, '/api/soap/', call('0'.repeat(32), customer)), '5', /Session expired/);
    const five = await post(
      base,
      '/api/soap/',
      multiCall(
        session,
        Array.from({ length: 5 }, () => LIST_ARGS(customer)),
      ),
    );
    assert.equal(five.status, 200, five.text);
  });

  test('V2 calls count too', async () => {
    const user = await newApiUser(t, ['all']);
    const session = await login(base, user.username, user.apiKey);
    const customer = await newCustomer(t);
    const v2 = () =>
      post(
        base,
        '/api/v2_soap/',
        envelope(
          `<ns1:customerAddressList><sessionId xsi:type="xsd:string">${session}</sessionId><customerId xsi:type="xsd:int">${customer}</customerId></ns1:customerAddressList>`,
        ),
      );
    for (let i = 0; i < 5; i++) assert.equal((await v2()).status, 200);
    assertFault(await v2(), 'SOAP-ENV:Client', /Too many requests/);
  });
});
