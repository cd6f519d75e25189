/**
 * GET /webhooks/events: the events a subscription may name (what the back office offers to choose from), each one
 * accepted by a subscription; who may read the list; the GraphQL field.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let admin: string;
before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
});
after(() => t.close());

describe('webhook event types', () => {
  test('every declared event, by name, with its description; each is accepted by a subscription', async () => {
    const r = await t.req('GET', `${API}/webhooks/events`, { token: admin });
    assert.equal(r.status, 200, r.text);
    const types: { type: string; description: string }[] = r.body.member;
    assert.equal(r.body.totalItems, types.length);
    const names = types.map((e) => e.type);
    assert.deepEqual(
      names,
      [...names].sort((a, b) => a.localeCompare(b)),
    );
    assert.deepEqual(
      names,
      [...t.services.events.declared.keys()].sort((a, b) => a.localeCompare(b)),
    );
    for (const e of ['order.placed', 'product.created']) assert.ok(names.includes(e), e);
    assert.ok(types.every((e) => e.description.length > 0));
    const hook = await t.req('POST', `${API}/webhooks`, { token: admin, body: { url: 'https://example.com/all', events: names } });
    assert.equal(hook.status, 201, hook.text);
  });

  test('access: anonymous 401, customer 403, without webhooks 403, webhooks/read 200', async () => {
    const url = `${API}/webhooks/events`;
    assert.equal((await t.req('GET', url)).status, 401);
    assert.equal((await t.req('GET', url, { token: await t.tokens.customer() })).status, 403);
    assert.equal((await t.req('GET', url, { token: await t.tokens.apiUser(['orders/all']) })).status, 403);
    assert.equal((await t.req('GET', url, { token: await t.tokens.apiUser(['webhooks/read']) })).status, 200);
  });

  test('GraphQL webhookEventTypes', async () => {
    const r = await t.gql('{ webhookEventTypes { totalCount edges { node { type description } } } }', admin);
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    assert.ok(r.data.webhookEventTypes.edges.some((e: { node: { type: string } }) => e.node.type === 'order.placed'));
  });
});
