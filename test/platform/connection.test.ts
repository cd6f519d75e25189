/**
 * The one cursor format and window of every GraphQL connection (src/platform/connection.ts): the window the
 * Relay arguments ask for over a paged read and a whole list, and over HTTP: a cursor this API did not give is a
 * 400 BAD_CURSOR in the project's error shape, on a paginated, an unpaginated and a back-office connection alike.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { answeredBefore, cursorOf, listConnection, offsetOf, pagedConnection, type ConnectionArgs } from '../../src/platform/connection.js';
import { AppError } from '../../src/platform/errors.js';
import { buildTestApp, type TestApp } from '../helpers.js';

const LIST = Array.from({ length: 10 }, (_, i) => i);
const nodes = (c: { edges: { node: number }[] }) => c.edges.map((e) => e.node);

/** A paged read over LIST that records the slices it was asked for. */
function pagedRead() {
  const asked: { size: number; offset: number }[] = [];
  const fetch = async (s: { size: number; offset: number }) => {
    asked.push(s);
    return { items: LIST.slice(s.offset, s.offset + s.size), total: LIST.length };
  };
  return { asked, read: (args: ConnectionArgs) => pagedConnection(args, fetch, { page: { size: 3, offset: 0 }, maxSize: 4 }) };
}

describe('cursors', () => {
  test('a cursor is base64 of the offset, and only such a cursor is read back', () => {
    assert.equal(cursorOf(12), Buffer.from('12').toString('base64'));
    assert.equal(offsetOf(cursorOf(0)), 0);
    assert.equal(offsetOf(cursorOf(999_999_999)), 999_999_999);
    for (const bad of [
      'zzz',
      '',
      'MQ',
      Buffer.from('01').toString('base64'),
      Buffer.from('-1').toString('base64'),
      Buffer.from('1e3').toString('base64'),
      cursorOf(1) + ' ',
      7,
      null,
    ]) {
      assert.throws(
        () => offsetOf(bad),
        (e: unknown) => e instanceof AppError && e.status === 400 && e.reason === 'BAD_CURSOR',
        String(bad),
      );
    }
  });
});

describe('windows', () => {
  test('without cursor arguments: the page the other arguments ask for', async () => {
    const { read } = pagedRead();
    const c = await read({});
    assert.deepEqual(nodes(c), [0, 1, 2]);
    assert.equal(c.totalCount, 10);
    assert.deepEqual(c.pageInfo, { startCursor: cursorOf(0), endCursor: cursorOf(2), hasNextPage: true, hasPreviousPage: false });
  });

  test('first and after; first is held to the largest page', async () => {
    const { read } = pagedRead();
    assert.deepEqual(nodes(await read({ first: 2, after: cursorOf(4) })), [5, 6]);
    assert.deepEqual(nodes(await read({ first: 50 })), [0, 1, 2, 3]);
    assert.deepEqual(nodes(await read({ after: cursorOf(8) })), [9]);
  });

  test('last counts from the end of the list or from before; first then last as Relay says', async () => {
    const { read, asked } = pagedRead();
    const tail = await read({ last: 2 });
    assert.deepEqual(nodes(tail), [8, 9]);
    assert.equal(tail.pageInfo.hasNextPage, false);
    assert.equal(tail.pageInfo.hasPreviousPage, true);
    assert.deepEqual(asked[0], { size: 1, offset: 0 }, 'the length first');
    assert.deepEqual(nodes(await read({ last: 2, before: cursorOf(5) })), [3, 4]);
    assert.deepEqual(nodes(await read({ first: 3, last: 1 })), [2]);
    assert.deepEqual(nodes(await read({ after: cursorOf(1), before: cursorOf(4) })), [2, 3]);
  });

  test('an empty window still answers the total; first: 0 reads no item', async () => {
    const { read } = pagedRead();
    const none = await read({ first: 0 });
    assert.deepEqual(nodes(none), []);
    assert.equal(none.totalCount, 10);
    assert.equal(none.pageInfo.startCursor, null);
    assert.deepEqual(nodes(await read({ after: cursorOf(20) })), []);
  });

  test('first and last must be whole numbers of zero or more', async () => {
    const { read } = pagedRead();
    for (const args of [{ first: -1 }, { last: -2 }, { first: 1.5 }]) {
      await assert.rejects(read(args), (e: unknown) => e instanceof AppError && e.status === 400 && e.reason === 'VALIDATION_FAILED');
    }
  });

  test('a whole list is windowed the same way, and answered whole without arguments', async () => {
    assert.deepEqual(nodes(await listConnection(LIST, {})), LIST);
    assert.deepEqual(nodes(await listConnection(LIST, { first: 2, after: cursorOf(6) })), [7, 8]);
    assert.deepEqual(nodes(await listConnection(LIST, { last: 3 })), [7, 8, 9]);
    assert.deepEqual(nodes(await listConnection([], { first: 2 })), []);
  });
});

describe('connections over items answered again', () => {
  const window = { page: { size: 3, offset: 0 }, maxSize: 4 };

  test('the same items at the same offset make the same connection, answered before from the second time on', async () => {
    const page = { items: [1, 2, 3], total: 10 };
    const read = (args: ConnectionArgs) => pagedConnection(args, async () => page, window);
    const first = await read({});
    assert.equal(answeredBefore(first), false);
    const again = await read({ first: 3 });
    assert.equal(again, first);
    assert.equal(answeredBefore(first), true);
    // the same items at another offset are another connection
    const later = await read({ first: 3, after: cursorOf(2) });
    assert.notEqual(later, first);
    assert.equal(later.pageInfo.startCursor, cursorOf(3));
    assert.equal(answeredBefore(later), false);
  });

  test('items read afresh, or another total, make a new connection each time', async () => {
    const fresh = () => pagedConnection({}, async () => ({ items: [1, 2, 3], total: 10 }), window);
    assert.notEqual(await fresh(), await fresh());
    assert.equal(answeredBefore(await fresh()), false);
    const items = [1, 2, 3];
    const a = await pagedConnection({}, async () => ({ items, total: 10 }), window);
    const b = await pagedConnection({}, async () => ({ items, total: 11 }), window);
    assert.notEqual(a, b);
    assert.equal(b.totalCount, 11);
  });

  test('a whole list kept by its reader makes the same connection; a window of it is a slice, new each time', async () => {
    const whole = await listConnection(LIST, {});
    assert.equal(await listConnection(LIST, {}), whole);
    assert.equal(answeredBefore(whole), true);
    const part = await listConnection(LIST, { first: 2 });
    assert.notEqual(await listConnection(LIST, { first: 2 }), part);
    assert.equal(answeredBefore(part), false);
    assert.equal(answeredBefore(null), false);
    assert.equal(answeredBefore(LIST), false);
  });
});

describe('a malformed cursor over GraphQL', () => {
  let t: TestApp;
  let admin: string;
  before(async () => {
    t = await buildTestApp();
    admin = await t.tokens.admin();
  });
  after(() => t.close());

  test('is a 400 BAD_CURSOR field error on every kind of connection', async () => {
    const fields = ['products', 'storeConfigs', 'giftCards', 'stocks', 'shipments', 'creditMemos', 'categoryProducts(categoryId: 2,'];
    for (const f of fields) {
      const field = f.endsWith(',') ? f : `${f}(`;
      const name = field.replace(/\(.*$/, '');
      for (const cursor of ['zzz', Buffer.from('-1').toString('base64')]) {
        const r = await t.gql(`{ ${field} after: "${cursor}") { totalCount } }`, admin);
        assert.equal(r.data?.[name] ?? null, null, f);
        assert.equal(r.errors?.length, 1, `${f}: ${JSON.stringify(r.errors)}`);
        assert.equal(r.errors[0].message, 'The cursor is not one this API gave');
        assert.deepEqual(r.errors[0].extensions, { code: 'BAD_CURSOR', status: 400 }, f);
      }
    }
  });

  test('a cursor a connection gave reads the next window', async () => {
    const first = await t.gql('{ storeConfigs(first: 1) { edges { cursor } pageInfo { endCursor } } }');
    assert.equal(first.errors, undefined, JSON.stringify(first.errors));
    assert.equal(first.data.storeConfigs.pageInfo.endCursor, cursorOf(0));
    const next = await t.gql(`{ storeConfigs(after: "${cursorOf(0)}") { edges { cursor } pageInfo { hasPreviousPage } } }`);
    assert.equal(next.errors, undefined, JSON.stringify(next.errors));
    assert.equal(next.data.storeConfigs.pageInfo.hasPreviousPage, true);
  });
});
