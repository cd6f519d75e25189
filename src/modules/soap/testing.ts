/** Test support for the SOAP suites: an app on a real socket, raw envelopes, customers and aged sessions. */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import net from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createApiUser, createRole } from '../auth/service.js';
import { soapSessions } from './tables.js';

export interface SoapTestApp {
  t: TestApp;
  /** `http://127.0.0.1:<port>` */
  base: string;
}

/** A port free at the moment. */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export async function startSoapApp(env: Record<string, string> = {}): Promise<SoapTestApp> {
  // the WSDL's service address is PUBLIC_URL: the app's own address, so that SOAP clients post back to it
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await buildTestApp({ env: { PUBLIC_URL: base, ...env } });
  await t.app.listen({ port, host: '127.0.0.1' });
  return { t, base };
}

let seq = 0;
export async function newCustomer(t: TestApp): Promise<number> {
  const email = `soap${++seq}-${crypto.randomBytes(3).toString('hex')}@example.com`;
  const r = await t.req('POST', `${API}/customers`, { body: { email, password: 'Secret123', firstname: 'Sam', lastname: 'Soap' } });
  assert.equal(r.status, 201, r.text);
  return r.body.id;
}

/** An API user whose role holds exactly these permissions. */
export async function newApiUser(t: TestApp, permissions: string[]): Promise<{ username: string; apiKey: string }> {
  const username = `soap-user-${++seq}-${crypto.randomBytes(3).toString('hex')}`;
  await createRole(t.database.db, username, permissions);
  await createApiUser(t.database.db, { username, apiKey: `${username}-key`, role: username });
  return { username, apiKey: `${username}-key` };
}

export const ENV_NS = 'http://schemas.xmlsoap.org/soap/envelope/';

export function envelope(body: string, extraNs = ''): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<SOAP-ENV:Envelope xmlns:SOAP-ENV="${ENV_NS}" xmlns:ns1="urn:Magento" ` +
    `xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ` +
    `xmlns:SOAP-ENC="http://schemas.xmlsoap.org/soap/encoding/" xmlns:ns2="http://xml.apache.org/xml-soap"${extraNs}>` +
    `<SOAP-ENV:Body>${body}</SOAP-ENV:Body></SOAP-ENV:Envelope>`
  );
}

export interface SoapReply {
  status: number;
  contentType: string;
  text: string;
  /** [faultcode, faultstring] when the reply is a fault */
  fault?: [string, string];
}

const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');

export async function post(base: string, path: string, body: string, contentType = 'text/xml; charset=utf-8'): Promise<SoapReply> {
  const r = await fetch(base + path, { method: 'POST', body, headers: { 'content-type': contentType } });
  const text = await r.text();
  const m = /<faultcode>([^<]*)<\/faultcode><faultstring>([^<]*)<\/faultstring>/.exec(text);
  return { status: r.status, contentType: r.headers.get('content-type') ?? '', text, fault: m ? [unescape(m[1]), unescape(m[2])] : undefined };
}

/** A session id from the V1 login. */
export async function login(base: string, username = 'demo-admin', apiKey = 'demo-admin-key'): Promise<string> {
  const r = await post(base, '/api/soap/', envelope(`<ns1:login><username xsi:type="xsd:string">${username}</username><apiKey xsi:type="xsd:string">${apiKey}</apiKey></ns1:login>`));
  const m = /<loginReturn[^>]*>([0-9a-f]{32})<\/loginReturn>/.exec(r.text);
  assert.ok(m, r.text);
  return m[1];
}

/** Makes a session look idle for `seconds`. */
export async function ageSession(t: TestApp, sessionId: string, seconds: number): Promise<void> {
  const hash = crypto.createHash('sha256').update(sessionId).digest('hex');
  await t.database.db
    .update(soapSessions)
    .set({ lastUsedAt: sql`now() - make_interval(secs => ${seconds})` })
    .where(eq(soapSessions.idHash, hash));
}
