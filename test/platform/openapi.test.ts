/**
 * The OpenAPI document describes every REST route the app registers, whatever modules exist: operationId,
 * path parameters, a response schema, and a request body schema where the route takes a body.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API, buildTestApp, type TestApp } from '../helpers.js';
import { WILDCARD_PARAM } from '../../src/platform/openapi.js';

interface Operation {
  operationId?: string;
  parameters?: { in: string; name: string }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  security?: unknown[];
}
interface OpenApiDoc {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components?: { securitySchemes?: Record<string, unknown> };
}

let t: TestApp;
let doc: OpenApiDoc;

before(async () => {
  t = await buildTestApp();
  const r = await t.req('GET', `${API}/openapi.json`);
  assert.equal(r.status, 200);
  doc = r.body as OpenApiDoc;
});
after(() => t.close());

/** `/api/rest/v2/orders/:orderId(^\\d+)/items` → `/api/rest/v2/orders/{orderId}/items`; a trailing wildcard → `{path}` (see openapi.ts) */
const openapiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)(\([^)]*\))?/g, '{$1}').replace(/\/\*$/, `/{${WILDCARD_PARAM}}`);

const documented = () => t.apiRoutes.filter((r) => r.method !== 'HEAD' && !(r.schema as { hide?: boolean } | undefined)?.hide);

describe('OpenAPI document', () => {
  test('is OpenAPI 3 with the bearer scheme, served at both addresses', async () => {
    assert.match(doc.openapi, /^3\.\d+\.\d+$/);
    assert.equal(typeof doc.info.title, 'string');
    assert.ok(doc.components?.securitySchemes?.bearerAuth);
    const alias = await t.req('GET', '/api/docs.json');
    assert.equal(alias.status, 200);
    assert.deepEqual(alias.body, doc);
  });

  test('the registered route list is not empty and holds the routes every build has', () => {
    const ids = documented().map((r) => r.schema?.operationId);
    for (const id of ['stores.config', 'stores.list', 'auth.token', 'auth.logout']) assert.ok(ids.includes(id), id);
  });

  test('every REST route appears under its path and method with its operationId', () => {
    const missing: string[] = [];
    for (const r of documented()) {
      const op = doc.paths[openapiPath(r.url)]?.[r.method.toLowerCase()];
      if (!op) missing.push(`${r.method} ${r.url}`);
      else assert.equal(op.operationId, r.schema?.operationId, `${r.method} ${r.url}`);
    }
    assert.deepEqual(missing, []);
  });

  test('operationIds are unique', () => {
    const seen = new Map<string, string>();
    const dupes: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (!op.operationId) continue;
        const where = `${method.toUpperCase()} ${path}`;
        if (seen.has(op.operationId)) dupes.push(`${op.operationId}: ${seen.get(op.operationId)} and ${where}`);
        seen.set(op.operationId, where);
      }
    }
    assert.deepEqual(dupes, []);
  });

  test('every REST route declares its success response with a schema (204 has none)', () => {
    const problems: string[] = [];
    for (const r of documented()) {
      const op = doc.paths[openapiPath(r.url)]?.[r.method.toLowerCase()];
      const name = `${r.method} ${r.url}`;
      const success = Object.entries(op?.responses ?? {}).filter(([code]) => /^2(\d\d|XX)$/.test(code));
      if (!success.length) {
        problems.push(`${name}: no 2xx response declared`);
        continue;
      }
      for (const [code, res] of success) {
        if (code === '204') continue;
        const media = Object.values(res.content ?? {});
        if (!media.length || media.some((m) => !m.schema)) problems.push(`${name}: ${code} has no schema`);
      }
    }
    assert.deepEqual(problems, []);
  });

  test('every REST route that takes a body documents its request body schema (JSON unless it declares other types)', () => {
    const problems: string[] = [];
    for (const r of documented()) {
      if (!r.schema?.body) continue;
      const op = doc.paths[openapiPath(r.url)]?.[r.method.toLowerCase()];
      const types = (r.schema as { consumes?: string[] }).consumes ?? ['application/json'];
      for (const type of types) if (!op?.requestBody?.content?.[type]?.schema) problems.push(`${r.method} ${r.url} (${type})`);
    }
    assert.deepEqual(problems, []);
  });

  test('the media upload documents its multipart/form-data body: a binary file, optional folder and filename', () => {
    const content = doc.paths[`${API}/media`].post.requestBody?.content ?? {};
    assert.deepEqual(Object.keys(content), ['multipart/form-data']);
    const schema = content['multipart/form-data'].schema as {
      properties: Record<string, { type?: string; format?: string }>;
      required?: string[];
    };
    assert.deepEqual(schema.properties.file, { ...schema.properties.file, type: 'string', format: 'binary' });
    assert.deepEqual(schema.required, ['file']);
    assert.equal(schema.properties.folder?.type, 'string');
    assert.equal(schema.properties.filename?.type, 'string');
  });

  test('every path parameter is declared', () => {
    const problems: string[] = [];
    for (const r of documented()) {
      const path = openapiPath(r.url);
      const op = doc.paths[path]?.[r.method.toLowerCase()];
      for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
        if (!op?.parameters?.some((p) => p.in === 'path' && p.name === name)) problems.push(`${r.method} ${r.url}: {${name}}`);
      }
    }
    assert.deepEqual(problems, []);
  });

  test('routes that need a token say so; public ones say they need none', () => {
    assert.deepEqual(doc.paths[`${API}/auth/logout`].post.security, [{ bearerAuth: [] }]);
    assert.deepEqual(doc.paths[`${API}/store-config`].get.security, []);
    assert.deepEqual(doc.paths[`${API}/auth/token`].post.security, []);
  });
});

describe('interactive documentation', () => {
  test('GET /api/docs serves the HTML page', async () => {
    const r = await t.req('GET', '/api/docs');
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /^text\/html/);
    assert.match(r.text, /<html/i);
    assert.match(r.text, /swagger/i);
  });

  test('the page can load its script and the document', async () => {
    const init = await t.req('GET', '/api/docs/static/swagger-initializer.js');
    assert.equal(init.status, 200);
    const bundle = await t.req('GET', '/api/docs/static/swagger-ui-bundle.js');
    assert.equal(bundle.status, 200);
    const json = await t.req('GET', '/api/docs/json');
    assert.equal(json.status, 200);
    assert.deepEqual(Object.keys(json.body.paths).sort(), Object.keys(doc.paths).sort());
  });
});
