/**
 * The GraphQL schema cannot drift from REST: every REST route is served from an operation declaration (which the
 * derivation test holds to its GraphQL field), except the few that only make sense over HTTP, each named here with
 * its reason; and the committed schema file (`npm run graphql:schema`) is the schema the server serves.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { printedSchema, SCHEMA_FILE } from '../../src/graphql-schema.js';
import { allOperations } from '../../src/modules/index.js';
import { buildTestApp, type TestApp } from '../helpers.js';

/** REST routes with no GraphQL twin, by operationId, and why. */
const HTTP_ONLY: Record<string, string> = {
  'openapi.document': 'the OpenAPI document itself',
  'stores.switch': 'answers which store code to send; a GraphQL client sends X-Store-Code itself, and Maho has no twin',
  'media.upload': 'a multipart file upload',
  'media.delete': 'names a file by its path',
  'customOptionFiles.download': 'answers the bytes of an uploaded file',
  'invoices.pdf': 'answers a PDF',
  'invoices.pdfOwn': 'answers a PDF',
  'auth.adminLogin': 'the back office sign-in: sets the refresh cookie, which only a browser holds',
  'auth.adminRefresh': 'reads the refresh cookie and its CSRF header, which only a browser sends',
  'auth.adminLogout': 'clears the refresh cookie',
};

let t: TestApp;
before(async () => {
  t = await buildTestApp();
});
after(() => t.close());

describe('no drift between REST and GraphQL', () => {
  test('every REST route is a declared operation, or one of the HTTP-only routes named here', () => {
    const declared = new Set(allOperations().map((o) => o.id));
    const seen = new Set<string>();
    const strays: string[] = [];
    for (const r of t.apiRoutes) {
      if (r.method === 'HEAD') continue;
      const id = (r.schema as { operationId?: string } | undefined)?.operationId ?? '';
      if (declared.has(id)) continue;
      if (Object.hasOwn(HTTP_ONLY, id)) seen.add(id);
      else strays.push(`${r.method} ${r.url} (${id})`);
    }
    assert.deepEqual(strays, [], 'routes registered by hand, with no GraphQL twin: declare them with op() in the module');
    assert.deepEqual([...seen].sort(), Object.keys(HTTP_ONLY).sort(), 'an HTTP-only route named here no longer exists');
  });

  test('the committed docs/schema.graphql is the schema served (npm run graphql:schema writes it)', async () => {
    const committed = readFileSync(SCHEMA_FILE, 'utf8');
    assert.ok(committed === (await printedSchema()), 'docs/schema.graphql is not current: run npm run graphql:schema');
  });

  test('the file is what the endpoint introspects: every query and mutation field is in it', async () => {
    const r = await t.req('POST', '/api/graphql', {
      body: { query: '{ __schema { queryType { fields { name } } mutationType { fields { name } } } }' },
    });
    assert.equal(r.status, 200, r.text);
    const committed = readFileSync(SCHEMA_FILE, 'utf8');
    const fields = [...r.body.data.__schema.queryType.fields, ...r.body.data.__schema.mutationType.fields].map(
      (f: { name: string }) => f.name,
    );
    assert.ok(fields.length > 200, `only ${fields.length} fields`);
    for (const f of fields) assert.match(committed, new RegExp(`^  ${f}[(:]`, 'm'), `${f} is missing from docs/schema.graphql`);
  });
});
