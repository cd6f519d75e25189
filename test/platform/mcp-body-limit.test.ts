/**
 * The body limit of /api/mcp follows the caller: anonymous callers, customers and back-office principals that
 * may call no tool taking a file get the server's BODY_LIMIT; the larger limit of a tool that takes a file as
 * base64 is only for back-office principals allowed to call it. A declared oversized body is refused as soon as
 * its headers arrive, a streamed one once the limit is passed.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createTestProduct } from '../fixtures/catalog.js';
import { buildTestApp, type TestApp } from '../helpers.js';

const MCP = '/api/mcp';
const LIMIT = 64 * 1024;
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

let t: TestApp;
let port: number;
let admin: string;
let customer: string;
let cmsOnly: string;

before(async () => {
  t = await buildTestApp({ env: { BODY_LIMIT: String(LIMIT) } });
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = Number(new URL(address).port);
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  cmsOnly = await t.tokens.apiUser(['cms-pages/all']);
});
after(() => t.close());

/** An initialize request padded to about `bytes`. */
function bigInitialize(bytes: number): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'padding', version: 'x'.repeat(bytes) } },
  });
}

function assertTooLarge(r: { status: number; body: any }): void {
  assert.equal(r.status, 413, JSON.stringify(r.body));
  assert.equal(r.body.error, 'payload_too_large');
  assert.equal(r.body.code, 413);
  assert.equal(typeof r.body.message, 'string');
}

/** Sends the request head and the first bytes of a body, and reads what the server answers before the rest. */
function partialPost(head: string, first: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(head + first));
    let answer = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(answer);
    }, 3000);
    socket.on('data', (chunk) => {
      answer += chunk.toString();
      if (/\r\n\r\n[\s\S]*\}/.test(answer)) {
        clearTimeout(timer);
        socket.destroy();
        resolve(answer);
      }
    });
    socket.on('error', (err) => {
      clearTimeout(timer);
      if (answer) resolve(answer);
      else reject(err);
    });
  });
}

describe('MCP body limit', () => {
  test('an anonymous body larger than BODY_LIMIT is a 413 in the error shape', async () => {
    assertTooLarge(await t.req('POST', MCP, { raw: bigInitialize(LIMIT * 2), headers: HEADERS }));
  });

  test('a customer, and a back-office principal that may call no tool taking a file, get BODY_LIMIT too', async () => {
    assertTooLarge(await t.req('POST', MCP, { token: customer, raw: bigInitialize(LIMIT * 2), headers: HEADERS }));
    assertTooLarge(await t.req('POST', MCP, { token: cmsOnly, raw: bigInitialize(LIMIT * 2), headers: HEADERS }));
  });

  test('a body within BODY_LIMIT is served to anonymous callers', async () => {
    const r = await t.req('POST', MCP, { raw: bigInitialize(LIMIT / 2), headers: HEADERS });
    assert.equal(r.status, 200, r.text);
    assert.ok(r.headers['mcp-session-id']);
  });

  test('a declared oversized anonymous body is refused before it is sent', async () => {
    const length = 32 * 1024 * 1024;
    const head = `POST ${MCP} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${length}\r\n\r\n`;
    const answer = await partialPost(head, '{"jsonrpc":"2.0","id":1,');
    assert.match(answer, /^HTTP\/1\.1 413 /);
    assert.match(answer, /"error":"payload_too_large"/);
  });

  test('a chunked anonymous body is cut off once it passes BODY_LIMIT', async () => {
    const head = `POST ${MCP} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const piece = 'x'.repeat(LIMIT + 1024);
    const answer = await partialPost(head, `${piece.length.toString(16)}\r\n${piece}\r\n`);
    assert.match(answer, /^HTTP\/1\.1 413 /);
    assert.match(answer, /"error":"payload_too_large"/);
  });

  test('an admin allowed to write products still sends a file larger than BODY_LIMIT through its tool', async () => {
    const init = await t.req('POST', MCP, { token: admin, raw: bigInitialize(10), headers: HEADERS });
    assert.equal(init.status, 200, init.text);
    const session = String(init.headers['mcp-session-id']);
    const p = await createTestProduct(t, { type: 'downloadable' });
    const file = Buffer.alloc(LIMIT * 2, 7).toString('base64');
    const call = {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: {
        name: 'product_downloadable_links_create',
        arguments: { productId: p.id, title: 'Big file', fileBase64: file, fileName: 'big.bin' },
      },
    };
    const r = await t.req('POST', MCP, {
      token: admin,
      raw: JSON.stringify(call),
      headers: { ...HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' },
    });
    assert.equal(r.status, 200, r.text.slice(0, 500));
    const result = r.body.result;
    assert.ok(!result.isError, JSON.stringify(result.content).slice(0, 500));
    assert.equal(JSON.parse(result.content[0].text).title, 'Big file');
  });
});
