/** Paging parameters and the two collection envelopes (JSON-LD by default, a bare array for application/json). */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_PAGE, pageOf } from '../../src/platform/pagination.js';
import { API, buildTestApp, type TestApp } from '../helpers.js';

describe('pageOf', () => {
  test('defaults to page 1 of 20', () => {
    assert.deepEqual(pageOf({}), { page: 1, size: 20, offset: 0 });
  });

  test('pages below 1 read as 1; sizes are clamped to 1 and the maximum', () => {
    assert.deepEqual(pageOf({ page: 0 }), { page: 1, size: 20, offset: 0 });
    assert.deepEqual(pageOf({ page: -7 }), { page: 1, size: 20, offset: 0 });
    assert.equal(pageOf({ itemsPerPage: 0 }).size, 1);
    assert.equal(pageOf({ itemsPerPage: -5 }).size, 1);
    assert.equal(pageOf({ itemsPerPage: 1000 }).size, 100);
    assert.equal(pageOf({ itemsPerPage: 1000 }, { maxSize: 500 }).size, 500);
  });

  test('pageSize is an alias of itemsPerPage; itemsPerPage wins when both are sent', () => {
    assert.deepEqual(pageOf({ page: 3, pageSize: 10 }), { page: 3, size: 10, offset: 20 });
    assert.equal(pageOf({ itemsPerPage: 5, pageSize: 10 }).size, 5);
  });

  test('list defaults apply when no size is sent', () => {
    assert.equal(pageOf({}, { defaultSize: 15 }).size, 15);
  });

  test('an absurd page number is capped so the offset stays a safe integer', () => {
    const p = pageOf({ page: 1e20, itemsPerPage: 100 });
    assert.equal(p.page, MAX_PAGE);
    assert.ok(Number.isSafeInteger(p.offset));
  });
});

describe('collection envelopes (GET /stores)', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  test('by default a JSON-LD Collection with totalItems and member', async () => {
    const r = await t.req('GET', `${API}/stores`);
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /^application\/ld\+json/);
    assert.equal(r.body['@context'], '/api/contexts/Store');
    assert.equal(r.body['@id'], `${API}/stores`);
    assert.equal(r.body['@type'], 'Collection');
    assert.equal(r.body.totalItems, r.body.member.length);
    assert.ok(r.body.member.length >= 1);
    assert.equal(r.body.view, undefined, 'an unpaginated list has no view');
  });

  test('Accept: application/json gets the bare array of members', async () => {
    const ld = await t.req('GET', `${API}/stores`);
    const r = await t.req('GET', `${API}/stores`, { headers: { accept: 'application/json' } });
    assert.match(String(r.headers['content-type']), /^application\/json/);
    assert.deepEqual(r.body, ld.body.member);
  });

  test('Accept naming both media types gets JSON-LD', async () => {
    const r = await t.req('GET', `${API}/stores`, { headers: { accept: 'application/ld+json, application/json' } });
    assert.equal(r.body['@type'], 'Collection');
  });
});
