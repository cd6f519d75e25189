/**
 * MCP tools keep no memory per call: a list tool that takes a GraphQL-only filter checks it against a schema
 * built once with the tool. The validator compiles each schema object once and keeps it for the life of the
 * process, so a schema built per call would be a leak of one compiled validator per call.
 */
import assert from 'node:assert/strict';
import { after, before, describe, mock, test } from 'node:test';
import { Ajv } from 'ajv';
import { allOperations } from '../../src/modules/index.js';
import { callTool, deriveTools } from '../../src/platform/mcp-tools.js';
import { API, buildTestApp, type TestApp } from '../helpers.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp();
});
after(() => t.close());

describe('MCP tools with GraphQL-only filters', () => {
  test('10,000 calls compile no schema after the first call', async () => {
    const tools = deriveTools(allOperations(), API);
    const filtered = [...tools.values()].filter((x) => x.filters.length && x.op.access.level === 'public');
    assert.ok(filtered.length, 'some public list tool takes a GraphQL-only filter');
    const tool = filtered.find((x) => x.name === 'products_list') ?? filtered[0];
    const filter = tool.filters[0];
    assert.equal(tool.filterSchema?.properties[filter] !== undefined, true);
    const ctx = t.systemCtx();
    const opts = { apiPrefix: API, bodyLimit: 1_048_576, sessionScope: 'mcp-session:memory-test' };
    // a value of the filter's type: what the call does with it does not matter here, only what it builds
    const type = (tool.filterSchema!.properties[filter] as { type?: string }).type;
    const value = type === 'string' ? 'x' : type === 'boolean' ? true : 1;

    const first = await callTool(tool, ctx, { [filter]: value }, opts);
    assert.ok(first.content.length, JSON.stringify(first));

    const compiled = new Set<object>();
    const original = Ajv.prototype.compile as (this: Ajv, schema: object, meta?: boolean) => unknown;
    const counting = function (this: Ajv, schema: object, meta?: boolean) {
      compiled.add(schema);
      return original.call(this, schema, meta);
    };
    const spy = mock.method(Ajv.prototype, 'compile', counting as typeof Ajv.prototype.compile);
    try {
      for (let i = 0; i < 10_000; i++) {
        const r = await callTool(tool, ctx, { [filter]: value, itemsPerPage: 1 }, opts);
        if (i === 0) assert.equal(r.isError, undefined, JSON.stringify(r));
      }
    } finally {
      spy.mock.restore();
    }
    // the same few schemas (the query's, the filter's) are looked up again and again; none is new
    assert.ok(compiled.size <= 3, `${compiled.size} distinct schemas compiled over 10,000 calls`);
  });
});
