import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eq } from 'drizzle-orm';
import { API, buildTestApp, type Res, type TestApp } from '../../../test/helpers.js';
import { mailOutbox } from '../../platform/tables.js';
import { createWebsite } from '../stores/service.js';
import { giftcardHistory, giftcards } from './tables.js';

let t: TestApp;
let admin: string;
let customer: string;
const tok = { none: '', read: '', write: '', create: '' };
let site2: number;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  tok.none = await t.tokens.apiUser(['orders/read']);
  tok.read = await t.tokens.apiUser(['giftcards/read']);
  tok.write = await t.tokens.apiUser(['giftcards/write']);
  tok.create = await t.tokens.apiUser(['giftcards/create']);
  site2 = (
    await createWebsite(t.database.db, t.services.settings, {
      code: 'gcu_outlet',
      name: 'Outlet',
      storeCode: 'gcu_outlet',
      storeName: 'Outlet',
    })
  ).websiteId;
});
after(() => t.close());

function assertError(r: Res, status: number, error: string) {
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.error, error, r.text);
  assert.equal(typeof r.body.message, 'string');
}

async function create(body: Record<string, unknown> = {}) {
  const r = await t.req('POST', `${API}/giftcards`, { token: admin, body: { initialBalance: 50, ...body } });
  assert.equal(r.status, 201, r.text);
  return r.body;
}

const put = (id: number, body: unknown, token = admin) => t.req('PUT', `${API}/giftcards/${id}`, { token, body });

async function row(id: number) {
  const [r] = await t.database.db.select().from(giftcards).where(eq(giftcards.id, id));
  const history = await t.database.db.select().from(giftcardHistory).where(eq(giftcardHistory.giftcardId, id));
  return { ...r, history: history.length };
}

describe('PUT /giftcards/{id}', () => {
  test('a balance change is an adjustment with its history entry; the status follows unless given', async () => {
    const card = await create();
    let r = await put(card.id, { balance: 12.5, comment: 'goodwill' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.balance, 12.5);
    assert.equal(r.body.initialBalance, 50);
    assert.equal(r.body.status, 'active');
    assert.equal(r.body.history.length, 2);
    assert.deepEqual(
      { ...r.body.history[0], createdAt: undefined },
      { action: 'adjusted', amount: -37.5, balanceBefore: 50, balanceAfter: 12.5, comment: 'goodwill', createdAt: undefined },
    );
    r = await put(card.id, { balance: 0 });
    assert.equal(r.body.status, 'used');
    assert.equal(r.body.history[0].comment, 'API balance adjustment');
    // an explicit status wins over the one the balance implies
    r = await put(card.id, { balance: 5, status: 'disabled' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.balance, 5);
    assert.equal(r.body.status, 'disabled');
    // the same balance adds no history
    r = await put(card.id, { balance: 5 });
    assert.equal(r.body.history.length, 4);
    r = await put(card.id, { status: 'active' });
    assert.equal(r.body.status, 'active');
  });

  test('expiry and recipient fields change; "" or null clears; no mail is sent', async () => {
    const card = await create({ recipientName: 'Ann', message: 'Hi' });
    const mailsBefore = (await t.database.db.select().from(mailOutbox)).length;
    let r = await put(card.id, {
      expiresAt: '2099-12-31',
      recipientName: 'Bob',
      recipientEmail: 'bob@example.com',
      senderName: 'Carol',
      senderEmail: 'carol@example.com',
      message: '',
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.expiresAt, '2099-12-31 23:59:59');
    assert.equal(r.body.recipientName, 'Bob');
    assert.equal(r.body.recipientEmail, 'bob@example.com');
    assert.equal(r.body.senderName, 'Carol');
    assert.equal(r.body.message, undefined);
    assert.equal(r.body.history.length, 1, 'no balance change, no history');
    assert.equal((await t.database.db.select().from(mailOutbox)).length, mailsBefore);
    r = await put(card.id, { expiresAt: null, recipientName: null });
    assert.equal(r.body.expiresAt, undefined);
    assert.equal(r.body.recipientName, undefined);
    assert.equal(r.body.recipientEmail, 'bob@example.com');
  });

  test('a client may send back what it read: read-only keys are dropped, the same code, websites and expiry pass', async () => {
    const card = await create({ expiresAt: '2098-01-01 10:00:00' });
    // make the stored expiry lie in the past: sending it back unchanged still passes
    await t.database.db
      .update(giftcards)
      .set({ expiresAt: new Date('2020-01-01T00:00:00Z') })
      .where(eq(giftcards.id, card.id));
    const read = await t.req('GET', `${API}/giftcards/${card.id}`, { token: admin });
    const r = await put(card.id, { ...read.body, code: read.body.code.toLowerCase(), senderName: 'Dan' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.senderName, 'Dan');
    assert.equal(r.body.expiresAt, '2020-01-01 00:00:00');
    assert.equal(r.body.status, 'expired');
  });

  test('bad input is a 400 and changes nothing', async () => {
    const card = await create({ recipientName: 'Ann' });
    const before = await row(card.id);
    for (const body of [
      { status: 'lost' },
      { status: 5 },
      { balance: -1 },
      { balance: 10000.01 },
      { balance: 1.23456 },
      { balance: '5' },
      { expiresAt: '2001-01-01' },
      { expiresAt: 'soon' },
      { recipientEmail: 'not-an-email' },
      { recipientName: 'x'.repeat(256) },
      { message: 'x'.repeat(1001) },
      { comment: 'x'.repeat(1001), balance: 3 },
      { code: 'OTHER-CODE' },
      { websiteIds: [1, site2] },
      { balance: 3, status: 'nope' },
      'text',
    ]) {
      const r = await put(card.id, body);
      assertError(r, 400, 'bad_request');
    }
    const raw = await t.req('PUT', `${API}/giftcards/${card.id}`, {
      token: admin,
      raw: '{"balance": 1',
      headers: { 'content-type': 'application/json' },
    });
    assertError(raw, 400, 'bad_request');
    assert.deepEqual(await row(card.id), before);
    assertError(await put(999999, { status: 'disabled' }), 404, 'not_found');
    assertError(await t.req('PUT', `${API}/giftcards/abc`, { token: admin, body: {} }), 400, 'bad_request');
  });

  test('authorization: giftcards/write; store-restricted tokens only for cards wholly in their websites', async () => {
    const card = await create();
    const body = { status: 'disabled' };
    assertError(await put(card.id, body, ''), 401, 'unauthorized');
    assertError(await put(card.id, body, customer), 403, 'forbidden');
    assertError(await put(card.id, body, tok.none), 403, 'forbidden');
    assertError(await put(card.id, body, tok.read), 403, 'forbidden');
    assertError(await put(card.id, body, tok.create), 403, 'forbidden');
    assert.equal((await row(card.id)).status, 'active');
    const r = await put(card.id, body, tok.write);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.status, 'disabled');

    const other = await create({ websiteIds: [site2] });
    const both = await create({ websiteIds: [1, site2] });
    const scoped = await t.tokens.apiUser(['giftcards/write'], { allowedStoreIds: [1] });
    assertError(await put(other.id, { status: 'disabled' }, scoped), 404, 'not_found');
    assertError(await put(both.id, { status: 'disabled' }, scoped), 403, 'forbidden');
    assert.equal((await row(both.id)).status, 'active');
    const mine = await create({ websiteIds: [1] });
    assert.equal((await put(mine.id, { status: 'disabled' }, scoped)).status, 200);
  });

  test('GraphQL: updateGiftCard', async () => {
    const card = await create();
    const r = await t.gql(
      `mutation { updateGiftCard(input: {id: ${card.id}, balance: 7, comment: "via graphql"}) { giftCard { balance status } } }`,
      admin,
    );
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    assert.deepEqual(r.data.updateGiftCard.giftCard, { balance: 7, status: 'active' });
  });
});
