/**
 * The service address in the served WSDL (soap:address location) is the server's PUBLIC_URL with the path the
 * client asked for: a forged Host header (or X-Forwarded-Host) cannot send a client's next calls, with their
 * session ids and API keys, to another server.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp();
});
after(() => t.close());

const locationOf = (wsdl: string) => /<soap:address location="([^"]*)"\/>/.exec(wsdl)?.[1];

describe('WSDL service address', () => {
  test('V1, V2 and WS-I documents name PUBLIC_URL whatever Host the request carries', async () => {
    const cases: [string, string][] = [
      ['/api/soap/?wsdl', 'http://shop.test/api/soap/'],
      ['/index.php/api/v2_soap/index/?a=1&wsdl&b=%3C2', 'http://shop.test/index.php/api/v2_soap/index/?a=1&amp;b=%3C2'],
      ['/api/v2_soap/wsi/?wsdl', 'http://shop.test/api/v2_soap/wsi/'],
    ];
    for (const [url, expected] of cases) {
      for (const headers of [
        { host: 'evil.example:8443' },
        { host: 'x"><y' },
        { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
      ]) {
        const r = await t.app.inject({ method: 'GET', url, headers });
        assert.equal(r.statusCode, 200, url);
        assert.equal(locationOf(r.body), expected, `${url} with ${JSON.stringify(headers)}`);
        assert.doesNotMatch(r.body, /evil\.example/);
      }
    }
  });
});
