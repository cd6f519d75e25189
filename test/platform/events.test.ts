/**
 * The event bus: declared events reach the subscribers that want them, typed, inside the transaction of their
 * change; nothing reaches them from a change that rolls back; an event nobody wants renders nothing; the type
 * name and the payload are checked at compile time. Against the real database of a test app.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { afterCommit, withTx, type Ctx } from '../../src/platform/context.js';
import { rows } from '../../src/platform/db.js';
import { createEventBus, defineEvents, subscriberOf, type EmittedEvent, type EventSubscriber } from '../../src/platform/events.js';
import { API, buildTestApp, type TestApp } from '../helpers.js';

const Parcel = Type.Object({ id: Type.Integer(), weight: Type.Number() });
const Note = Type.Object({ text: Type.String() });

const parcelEvents = defineEvents({
  'parcel.sent': { description: 'A parcel was sent', payload: Parcel },
  'parcel.noted': { description: 'A note was added to a parcel', payload: Note },
});

/** what a subscriber saw, once its transaction committed */
interface Seen {
  type: string;
  resourceId: string;
  storeId: number | null;
  payload: unknown;
}

let t: TestApp;
let seen: Seen[];
let renders: number;
let wantsSent: boolean;

/** a typed subscriber that records what it receives once the change has committed */
const recorder = subscriberOf(
  'recorder',
  parcelEvents,
  (ctx, event) => {
    const got: Seen = { type: event.type, resourceId: event.resourceId, storeId: event.storeId, payload: undefined };
    // the union narrows by type: the payload of a parcel.sent has a weight, a note's a text
    if (event.type === 'parcel.sent') void event.data().then((d) => (got.payload = d?.weight));
    else void event.data().then((d) => (got.payload = d?.text));
    afterCommit(ctx, () => seen.push(got));
  },
  { wants: (_app, type) => type !== 'parcel.sent' || wantsSent },
);

/** a second subscriber of parcel.sent alone: both share one rendering */
const second: EventSubscriber = {
  name: 'second',
  wants: (_app, type) => type === 'parcel.sent' && wantsSent,
  receive: (_ctx, event: EmittedEvent) => void event.data(),
};

/** a context whose bus knows the parcel events and the two subscribers */
function ctxWithBus(): Ctx {
  const ctx = t.systemCtx();
  const app = { ...ctx.app };
  app.events = createEventBus([{ name: 'parcels', events: parcelEvents.declarations, subscribers: [recorder, second] }], () => app);
  return { ...ctx, app };
}

before(async () => {
  t = await buildTestApp();
});
after(() => t.close());

describe('event bus', () => {
  test('a subscriber receives the declared events it wants, typed, once the change commits', async () => {
    seen = [];
    renders = 0;
    wantsSent = true;
    const ctx = ctxWithBus();
    await withTx(ctx, async (tx) => {
      await tx.db.execute(sql`SELECT 1`);
      parcelEvents.emit(tx, 'parcel.sent', { resource: 'parcel', id: 7, storeId: null }, () => {
        renders++;
        return { id: 7, weight: 1.5 };
      });
      parcelEvents.emit(tx, 'parcel.noted', { resource: 'parcel', id: 7 }, { text: 'fragile' });
      assert.equal(seen.length, 0, 'nothing is seen before the commit');
    });
    assert.deepEqual(seen, [
      { type: 'parcel.sent', resourceId: '7', storeId: null, payload: 1.5 },
      { type: 'parcel.noted', resourceId: '7', storeId: ctx.store.storeId, payload: 'fragile' },
    ]);
    assert.equal(renders, 1, 'two subscribers of parcel.sent share one rendering');
  });

  test('a change that rolls back hands its events to nobody', async () => {
    seen = [];
    wantsSent = true;
    await assert.rejects(
      withTx(ctxWithBus(), async (tx) => {
        parcelEvents.emit(tx, 'parcel.sent', { resource: 'parcel', id: 8 }, { id: 8, weight: 2 });
        throw new Error('refused');
      }),
      /refused/,
    );
    assert.deepEqual(seen, []);
  });

  test('an event no subscriber wants renders nothing; emitting outside a transaction is refused', async () => {
    seen = [];
    renders = 0;
    wantsSent = false;
    const ctx = ctxWithBus();
    assert.equal(ctx.app.events.wants('parcel.sent', null), false);
    await withTx(ctx, async (tx) => {
      parcelEvents.emit(tx, 'parcel.sent', { resource: 'parcel', id: 9 }, () => {
        renders++;
        return { id: 9, weight: 3 };
      });
    });
    assert.equal(renders, 0);
    assert.deepEqual(seen, []);
    assert.throws(() => parcelEvents.emit(ctx, 'parcel.noted', { resource: 'parcel', id: 9 }, { text: 'late' }), /inside the transaction/);
  });

  test('the type name and the payload are checked at compile time; an undeclared type is refused at run time', async () => {
    const ctx = ctxWithBus();
    await withTx(ctx, async (tx) => {
      // @ts-expect-error: no such event in the set
      assert.throws(() => parcelEvents.emit(tx, 'parcel.lost', { resource: 'parcel', id: 1 }, null), /declared by no module/);
      // @ts-expect-error: the payload of parcel.sent is a parcel, not a note
      parcelEvents.emit(tx, 'parcel.sent', { resource: 'parcel', id: 1 }, { text: 'x' });
    });
    assert.throws(
      () =>
        createEventBus(
          [
            { name: 'a', events: parcelEvents.declarations },
            { name: 'b', events: parcelEvents.declarations },
          ],
          () => ctx.app,
        ),
      /declared by both a and b/,
    );
  });

  test("the app's bus holds every module's declarations, which the webhook subscriptions accept and the OpenAPI document shows", async () => {
    const declared = [...t.services.events.declared.keys()];
    for (const type of [
      'order.placed',
      'invoice.created',
      'product.deleted',
      'stock.changed',
      'customer.created',
      'newsletter.unsubscribed',
    ]) {
      assert.ok(declared.includes(type), type);
    }
    const doc = (await t.req('GET', `${API}/openapi.json`)).body;
    assert.deepEqual(Object.keys(doc.webhooks).sort(), [...declared, 'webhook.ping'].sort());
    const token = await t.tokens.admin();
    const made = await t.req('POST', `${API}/webhooks`, { token, body: { url: 'http://127.0.0.1:9/hook', events: ['parcel.sent'] } });
    assert.equal(made.status, 400, 'an event no module declares is refused');
    assert.match(made.body.message, /parcel\.sent names no event/);
    const [{ n }] = await rows<{ n: number }>(t.database.db, sql`SELECT count(*)::int AS n FROM webhook_subscriptions`);
    assert.equal(n, 0);
  });
});
