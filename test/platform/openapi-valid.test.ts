/**
 * The served OpenAPI document is valid for the tools clients feed it to: swagger-parser (the OpenAPI schema and
 * its own semantic checks) and the Redocly recommended rules. Every problem is listed when it fails, so a new route
 * that breaks the document says which route and why.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import SwaggerParser from '@apidevtools/swagger-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { API, buildTestApp, type TestApp } from '../helpers.js';

interface Operation {
  operationId?: string;
  summary?: string;
  security?: Record<string, string[]>[];
}
interface OpenApiDoc {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components?: { securitySchemes?: Record<string, unknown> };
}

/**
 * Warnings of the recommended rules the document keeps, each for a reason:
 * - `GET /{storeCode}/config` (the store-config route clients of the reference API call) sits beside every
 *   `/{collection}/{id}`; the router takes a static segment first, so each path reaches one route.
 * - the API belongs to the product and is published under no license the document could name.
 */
const ACCEPTED = [
  (p: Problem) => p.ruleId === 'no-ambiguous-paths' && p.message.includes(`${API}/{storeCode}/config`),
  (p: Problem) => p.ruleId === 'info-license',
];
interface Problem {
  ruleId: string;
  severity: string;
  message: string;
  pointer: string;
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

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'].includes(method))
      .map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })),
  );

describe('OpenAPI document validity', () => {
  test('swagger-parser validates it', async () => {
    try {
      // validate() dereferences the object it is given
      await SwaggerParser.validate(structuredClone(doc) as never);
    } catch (err) {
      const e = err as Error & { details?: { instancePath?: string; message?: string }[] };
      const problems = e.details?.map((d) => `${d.instancePath ?? ''} ${d.message ?? ''}`) ?? [e.message];
      assert.fail(`swagger-parser: ${problems.length} problem(s)\n${problems.join('\n')}`);
    }
  });

  test('the Redocly recommended rules find no error and no warning beyond the accepted ones', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const found = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
    const problems: Problem[] = found.map((p) => ({
      ruleId: p.ruleId,
      severity: p.severity,
      message: p.message,
      pointer: p.location[0]?.pointer ?? '',
    }));
    const left = problems.filter((p) => !ACCEPTED.some((accept) => accept(p)));
    assert.deepEqual(
      left.map((p) => `${p.severity} ${p.ruleId} ${p.pointer}: ${p.message}`),
      [],
    );
  });

  test('it is OpenAPI 3.1', () => {
    assert.match(doc.openapi, /^3\.1\.\d+$/);
  });

  test('every operation has an operationId and a summary', () => {
    const missing = operations()
      .filter(({ op }) => !op.operationId || !op.summary?.trim())
      .map(({ name, op }) => `${name}: ${!op.operationId ? 'operationId ' : ''}${!op.summary?.trim() ? 'summary' : ''}`);
    assert.deepEqual(missing, []);
  });

  test('every operation states its security: none, or a bearer token', () => {
    const schemes = Object.keys(doc.components?.securitySchemes ?? {});
    const problems: string[] = [];
    for (const { name, op } of operations()) {
      if (!Array.isArray(op.security)) problems.push(`${name}: no security entry`);
      else if (op.security.some((req) => Object.keys(req).some((s) => !schemes.includes(s)))) problems.push(`${name}: unknown scheme`);
      else if (op.security.length && JSON.stringify(op.security) !== JSON.stringify([{ bearerAuth: [] }]))
        problems.push(`${name}: ${JSON.stringify(op.security)}`);
    }
    assert.deepEqual(problems, []);
  });

  test('the security entries follow the access rules: public and order-token routes need no token, the rest a bearer token', () => {
    const at = (method: string, path: string) => doc.paths[`${API}${path}`]?.[method]?.security;
    assert.deepEqual(at('get', '/products'), []);
    assert.deepEqual(at('post', '/guest-carts'), []);
    // the order token is a header parameter of the one operation, not a scheme
    assert.deepEqual(at('get', '/orders/{incrementId}/details'), []);
    const params =
      (doc.paths[`${API}/orders/{incrementId}/details`].get as { parameters?: { in: string; name: string }[] }).parameters ?? [];
    assert.ok(params.some((p) => p.in === 'header' && p.name.toLowerCase() === 'x-order-token'));
    assert.deepEqual(at('get', '/customers/me/orders'), [{ bearerAuth: [] }]);
    assert.deepEqual(at('get', '/orders/{id}'), [{ bearerAuth: [] }]);
    assert.deepEqual(at('delete', '/media/{path}'), [{ bearerAuth: [] }]);
  });

  test('the document holds the REST API only: no page or GraphQL endpoint', () => {
    const outside = Object.keys(doc.paths).filter((p) => !p.startsWith(`${API}/`));
    assert.deepEqual(outside, []);
  });

  test('every operation documents its error answer', () => {
    const missing = operations()
      .filter(({ op }) => !Object.keys((op as { responses?: Record<string, unknown> }).responses ?? {}).some((c) => /^4(\d\d|XX)$/.test(c)))
      .map(({ name }) => name);
    assert.deepEqual(missing, []);
  });
});
