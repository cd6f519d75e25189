import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eq, sql } from 'drizzle-orm';
import { API, buildTestApp, type Res, type TestApp } from '../../../test/helpers.js';
import { withTx, type Ctx } from '../../platform/context.js';
import { dec } from '../../platform/money.js';
import { mailOutbox } from '../../platform/tables.js';
import { createWebsite, deleteConfig, setConfig } from '../stores/service.js';
import { creditGiftcard, debitGiftcard, giftcardsByCodes, usableGiftcard } from './spend.js';
import { giftcardHistory, giftcards } from './tables.js';

let t: TestApp;
let admin: string;
let customer: string;
const tok = { none: '', read: '', write: '' };
let site2: number;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  tok.none = await t.tokens.apiUser(['orders/read']);
  tok.read = await t.tokens.apiUser(['giftcards/read']);
  tok.write = await t.tokens.apiUser(['giftcards/write']);
  site2 = (
    await createWebsite(t.database.db, t.services.settings, {
      code: 'gc_outlet',
      name: 'Outlet',
      storeCode: 'gc_outlet',
      storeName: 'Outlet',
    })
  ).websiteId;
});
after(() => t.close());

const GEN_CODE = /^GC-[0-9A-HJ-NP-Z]{4}-[0-9A-HJ-NP-Z]{4}-[0-9A-HJ-NP-Z]{4}-[0-9A-HJ-NP-Z]{4}$/;
let seq = 0;
const uniqCode = (p = 'T') => `${p}-${process.pid}-${++seq}`;

function assertError(r: Res, status: number, error: string) {
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.error, error, r.text);
  assert.equal(typeof r.body.message, 'string');
  if (status !== 401) assert.equal(r.body.code, status);
}

async function create(body: Record<string, unknown>, token = admin) {
  const r = await t.req('POST', `${API}/giftcards`, { token, body });
  assert.equal(r.status, 201, r.text);
  return r.body;
}

async function cardCount(): Promise<number> {
  const [r] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(giftcards);
  return r.n;
}

async function gql(query: string, variables: Record<string, unknown> = {}, token?: string) {
  const r = await t.req('POST', '/api/graphql', { token, body: { query, variables } });
  assert.equal(r.status, 200, r.text);
  return r.body as { data: Record<string, any> | null; errors?: { message: string; extensions: { code: string; status: number } }[] };
}

const ctx = (): Ctx => t.systemCtx();

describe('POST /giftcards', () => {
  test('creates a card with a generated code and the defaults', async () => {
    const before = Date.now();
    const r = await t.req('POST', `${API}/giftcards`, { token: admin, body: { initialBalance: 25.5 } });
    assert.equal(r.status, 201, r.text);
    const c = r.body;
    assert.match(c.code, GEN_CODE);
    assert.equal(c.balance, 25.5);
    assert.equal(c.initialBalance, 25.5);
    assert.equal(c.status, 'active');
    assert.equal(c.currencyCode, 'USD');
    assert.deepEqual(c.websiteIds, [1]);
    assert.ok(Number.isInteger(c.id));
    assert.match(c.createdAt, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    assert.match(c.updatedAt, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // expires in 365 days
    const exp = Date.parse(`${c.expiresAt.replace(' ', 'T')}Z`);
    const days = (exp - before) / 86_400_000;
    assert.ok(days > 364.99 && days < 365.01, `expires in ${days} days`);
    for (const k of ['recipientEmail', 'recipientName', 'message', 'emailScheduledAt', 'emailSentAt', 'purchaseOrderId'])
      assert.equal(k in c, false, k);
    assert.equal(c.history.length, 1);
    assert.equal(c.history[0].action, 'created');
    assert.equal(c.history[0].amount, 25.5);
    assert.equal(c.history[0].balanceBefore, 0);
    assert.equal(c.history[0].balanceAfter, 25.5);
    assert.equal('orderId' in c.history[0], false);
  });

  test('balance is mirrored to initialBalance; both may be sent when equal', async () => {
    const a = await create({ balance: 10 });
    assert.equal(a.balance, 10);
    assert.equal(a.initialBalance, 10);
    const b = await create({ balance: 12.3456, initialBalance: 12.3456 });
    assert.equal(b.initialBalance, 12.3456);
    const max = await create({ initialBalance: 10000 });
    assert.equal(max.balance, 10000);
  });

  test('a given code is stored upper-case; fields are kept; a mail goes to the recipient', async () => {
    const code = uniqCode('gift');
    const c = await create(
      {
        code: `  ${code.toLowerCase()} `,
        initialBalance: 40,
        currencyCode: 'eur',
        websiteIds: [1, site2, 1],
        status: 'disabled',
        expiresAt: '2099-12-31',
        recipientName: 'Rita Recipient',
        recipientEmail: 'rita@example.com',
        senderName: 'Sam Sender',
        senderEmail: 'sam@example.com',
        message: 'Happy birthday!',
        id: 999999,
        history: [],
        unknownKey: 1,
      },
      tok.write,
    );
    assert.equal(c.code, code.toUpperCase());
    assert.equal(c.currencyCode, 'EUR');
    assert.deepEqual(c.websiteIds, [1, site2]);
    assert.equal(c.status, 'disabled');
    assert.equal(c.expiresAt, '2099-12-31 23:59:59');
    assert.equal(c.recipientName, 'Rita Recipient');
    assert.equal(c.recipientEmail, 'rita@example.com');
    assert.equal(c.senderName, 'Sam Sender');
    assert.equal(c.senderEmail, 'sam@example.com');
    assert.equal(c.message, 'Happy birthday!');
    assert.ok(c.emailScheduledAt);
    assert.notEqual(c.id, 999999);
    const mails = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'rita@example.com'));
    assert.equal(mails.length, 1);
    assert.equal(mails[0].template, 'giftcard/email');
    assert.match(mails[0].textBody, new RegExp(code.toUpperCase()));
    assert.match(mails[0].textBody, /40\.00 EUR/);
    assert.match(mails[0].textBody, /Happy birthday!/);
    assert.match(mails[0].textBody, /Sam Sender/);
  });

  test('expiresAt with a time; null, "" and lifetime_days 0 mean never', async () => {
    const a = await create({ initialBalance: 1, expiresAt: '2090-06-01 12:30:00' });
    assert.equal(a.expiresAt, '2090-06-01 12:30:00');
    const b = await create({ initialBalance: 1, expiresAt: null });
    assert.equal('expiresAt' in b, false);
    const c = await create({ initialBalance: 1, expiresAt: '' });
    assert.equal('expiresAt' in c, false);
    await setConfig(t.database.db, t.services.settings, 'giftcard/general/lifetime_days', '0');
    try {
      const d = await create({ initialBalance: 1 });
      assert.equal('expiresAt' in d, false);
      await setConfig(t.database.db, t.services.settings, 'giftcard/general/lifetime_days', '10');
      const e = await create({ initialBalance: 1 });
      const days = (Date.parse(`${e.expiresAt.replace(' ', 'T')}Z`) - Date.now()) / 86_400_000;
      assert.ok(days > 9.99 && days <= 10, String(days));
    } finally {
      await deleteConfig(t.database.db, t.services.settings, 'giftcard/general/lifetime_days');
    }
  });

  test('the websiteId alias names one website', async () => {
    const c = await create({ initialBalance: 5, websiteId: site2 });
    assert.deepEqual(c.websiteIds, [site2]);
  });

  test('a duplicate code is a 409, case-insensitively, and changes nothing', async () => {
    const code = uniqCode('dup');
    await create({ code, initialBalance: 5 });
    const n = await cardCount();
    const r = await t.req('POST', `${API}/giftcards`, { token: admin, body: { code: code.toLowerCase(), initialBalance: 7 } });
    assertError(r, 409, 'conflict');
    assert.equal(await cardCount(), n);
    assertError(
      await t.req('POST', `${API}/giftcards`, { token: admin, body: { code: 'gc-demo-0000-0000-0001', balance: 1 } }),
      409,
      'conflict',
    );
  });

  test('bad input is a 400 and creates nothing', async () => {
    const n = await cardCount();
    const bad: [string, unknown][] = [
      ['missing balance', {}],
      ['zero', { initialBalance: 0 }],
      ['negative', { balance: -5 }],
      ['too much', { initialBalance: 10000.01 }],
      ['five decimals', { initialBalance: 1.00001 }],
      ['string balance', { initialBalance: '10' }],
      ['null balance', { initialBalance: null }],
      ['differing mirrors', { initialBalance: 10, balance: 11 }],
      ['short code', { initialBalance: 1, code: 'ABC' }],
      ['long code', { initialBalance: 1, code: 'A'.repeat(65) }],
      ['code chars', { initialBalance: 1, code: 'GC_1234' }],
      ['code spaces', { initialBalance: 1, code: 'GC 12345' }],
      ['code type', { initialBalance: 1, code: 1234 }],
      ['unknown currency', { initialBalance: 1, currencyCode: 'GBP' }],
      ['bad currency', { initialBalance: 1, currencyCode: 'EURO' }],
      ['empty websites', { initialBalance: 1, websiteIds: [] }],
      ['website 0', { initialBalance: 1, websiteIds: [0] }],
      ['unknown website', { initialBalance: 1, websiteIds: [1, 999] }],
      ['website type', { initialBalance: 1, websiteIds: ['1'] }],
      ['status used', { initialBalance: 1, status: 'used' }],
      ['status expired', { initialBalance: 1, status: 'expired' }],
      ['status other', { initialBalance: 1, status: 'foo' }],
      ['past expiry', { initialBalance: 1, expiresAt: '2020-01-01' }],
      ['past expiry time', { initialBalance: 1, expiresAt: '2020-01-01 10:00:00' }],
      ['bad date', { initialBalance: 1, expiresAt: '2099-02-30' }],
      ['bad time', { initialBalance: 1, expiresAt: '2099-01-01 25:00:00' }],
      ['date format', { initialBalance: 1, expiresAt: '01/01/2099' }],
      ['expiry type', { initialBalance: 1, expiresAt: 20990101 }],
      ['recipient email', { initialBalance: 1, recipientEmail: 'not-an-email' }],
      ['sender email', { initialBalance: 1, senderEmail: 'a@b' }],
      ['long name', { initialBalance: 1, recipientName: 'x'.repeat(256) }],
      ['long sender', { initialBalance: 1, senderName: 'x'.repeat(256) }],
      ['long message', { initialBalance: 1, message: 'x'.repeat(1001) }],
      ['array body', [1]],
    ];
    for (const [what, body] of bad) {
      const r = await t.req('POST', `${API}/giftcards`, { token: admin, body });
      assert.equal(r.status, 400, `${what}: ${r.text}`);
      assert.equal(r.body.error, 'bad_request', what);
    }
    const malformed = await t.req('POST', `${API}/giftcards`, {
      token: admin,
      raw: '{"initialBalance": 5',
      headers: { 'content-type': 'application/json' },
    });
    assertError(malformed, 400, 'bad_request');
    const empty = await t.req('POST', `${API}/giftcards`, { token: admin, raw: '', headers: { 'content-type': 'application/json' } });
    assertError(empty, 400, 'bad_request');
    assert.equal(await cardCount(), n);
  });

  test('access: anonymous 401, customer 403, API user needs giftcards write', async () => {
    const body = { initialBalance: 1 };
    assertError(await t.req('POST', `${API}/giftcards`, { body }), 401, 'unauthorized');
    assertError(await t.req('POST', `${API}/giftcards`, { token: customer, body }), 403, 'forbidden');
    assertError(await t.req('POST', `${API}/giftcards`, { token: tok.none, body }), 403, 'forbidden');
    assertError(await t.req('POST', `${API}/giftcards`, { token: tok.read, body }), 403, 'forbidden');
    assert.equal((await t.req('POST', `${API}/giftcards`, { token: tok.write, body })).status, 201);
    assert.equal((await t.req('POST', `${API}/giftcards`, { token: await t.tokens.client(), body })).status, 201);
  });

  test('a store-restricted token may not create cards for other websites', async () => {
    const scoped = await t.tokens.apiUser(['giftcards/all'], { allowedStoreIds: [1] });
    assertError(
      await t.req('POST', `${API}/giftcards`, { token: scoped, body: { initialBalance: 1, websiteIds: [site2] } }),
      403,
      'forbidden',
    );
    const own = await create({ initialBalance: 1, websiteIds: [1] }, scoped);
    assert.equal((await t.req('GET', `${API}/giftcards/${own.id}`, { token: scoped })).status, 200);
    const other = await create({ initialBalance: 1, websiteIds: [site2] });
    assertError(await t.req('GET', `${API}/giftcards/${other.id}`, { token: scoped }), 404, 'not_found');
  });
});

describe('GET /giftcards/{id}', () => {
  test('returns the card with its history, newest first', async () => {
    const c = await create({ initialBalance: 100 });
    await debitGiftcard(ctx(), c.code, dec('30.25'), 42);
    await creditGiftcard(ctx(), c.code, dec('5'), 42, 'partial refund');
    const r = await t.req('GET', `${API}/giftcards/${c.id}`, { token: tok.read });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.balance, 74.75);
    assert.equal(r.body.initialBalance, 100);
    assert.deepEqual(
      r.body.history.map((h: Record<string, unknown>) => [h.action, h.amount, h.balanceBefore, h.balanceAfter, h.orderId, h.comment]),
      [
        ['refunded', 5, 69.75, 74.75, 42, 'partial refund'],
        ['used', -30.25, 100, 69.75, 42, undefined],
        ['created', 100, 0, 100, undefined, undefined],
      ],
    );
    assert.equal(r.headers['cache-control'], 'no-store');
  });

  test('status reads expired once expiresAt has passed and used at 0', async () => {
    const c = await create({ initialBalance: 10 });
    await t.database.db
      .update(giftcards)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(giftcards.id, c.id));
    assert.equal((await t.req('GET', `${API}/giftcards/${c.id}`, { token: admin })).body.status, 'expired');
    const u = await create({ initialBalance: 10 });
    await debitGiftcard(ctx(), u.code, dec(10), null);
    const read = await t.req('GET', `${API}/giftcards/${u.id}`, { token: admin });
    assert.equal(read.body.status, 'used');
    assert.equal(read.body.balance, 0);
  });

  test('unknown is a 404; a malformed id a 400', async () => {
    assertError(await t.req('GET', `${API}/giftcards/99999999`, { token: admin }), 404, 'not_found');
    for (const id of ['abc', '0', '-1', '1.5', '99999999999']) {
      assertError(await t.req('GET', `${API}/giftcards/${id}`, { token: admin }), 400, 'bad_request');
    }
  });

  test('access: anonymous 401, customer 403, API user needs giftcards/read', async () => {
    const url = `${API}/giftcards/1`;
    assertError(await t.req('GET', url), 401, 'unauthorized');
    assertError(await t.req('GET', url, { token: customer }), 403, 'forbidden');
    assertError(await t.req('GET', url, { token: tok.none }), 403, 'forbidden');
    assertError(await t.req('GET', url, { token: tok.write }), 403, 'forbidden');
    assert.equal((await t.req('GET', url, { token: tok.read })).status, 200);
  });

  test('PUT updates a card (update.test.ts); an unknown one is a 404', async () => {
    assert.equal((await t.req('PUT', `${API}/giftcards/999999`, { token: admin, body: { balance: 5 } })).status, 404);
  });
});

describe('demo data', () => {
  test('GC-DEMO-0000-0000-0001 holds 50.00 USD in website 1', async () => {
    const r = await gql('query { checkGiftcardBalance(code: "gc-demo-0000-0000-0001") { code balance currencyCode status expiresAt } }');
    assert.deepEqual(r.data!.checkGiftcardBalance, {
      code: 'GC-DEMO-0000-0000-0001',
      balance: 50,
      currencyCode: 'USD',
      status: 'active',
      expiresAt: null,
    });
  });
});

describe('GraphQL checkGiftcardBalance', () => {
  const Q = 'query($c: String!) { checkGiftcardBalance(code: $c) { code balance currencyCode status expiresAt } }';

  test('is public and case-insensitive', async () => {
    const c = await create({ initialBalance: 33.3, expiresAt: '2099-01-01 00:00:00' });
    const r = await gql(Q, { c: ` ${c.code.toLowerCase()} ` });
    assert.equal(r.errors, undefined);
    assert.deepEqual(r.data!.checkGiftcardBalance, {
      code: c.code,
      balance: 33.3,
      currencyCode: 'USD',
      status: 'active',
      expiresAt: '2099-01-01 00:00:00',
    });
    assert.equal((await gql(Q, { c: c.code }, customer)).data!.checkGiftcardBalance.balance, 33.3);
  });

  test('unknown, disabled and other-website cards are the same not_found', async () => {
    const disabled = await create({ initialBalance: 5, status: 'disabled' });
    const other = await create({ initialBalance: 5, websiteIds: [site2] });
    for (const code of ['NOPE-NOPE', disabled.code, other.code, '', 'x'.repeat(200)]) {
      const r = await gql(Q, { c: code });
      assert.equal(r.data!.checkGiftcardBalance, null);
      assert.equal(r.errors?.[0].extensions.code, 'NOT_FOUND', code);
      assert.equal(r.errors?.[0].extensions.status, 404);
      assert.equal(r.errors?.[0].message, 'Gift card not found');
    }
  });

  test('shows used and expired cards with their status', async () => {
    const u = await create({ initialBalance: 5 });
    await debitGiftcard(ctx(), u.code, dec(5), null);
    assert.equal((await gql(Q, { c: u.code })).data!.checkGiftcardBalance.status, 'used');
    const e = await create({ initialBalance: 5 });
    await t.database.db
      .update(giftcards)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(giftcards.id, e.id));
    assert.equal((await gql(Q, { c: e.code })).data!.checkGiftcardBalance.status, 'expired');
  });
});

describe('GraphQL giftCard and createGiftCard', () => {
  test('mirror REST', async () => {
    const r = await gql(
      'mutation($i: createGiftCardInput!) { createGiftCard(input: $i) { giftCard { id _id code balance initialBalance status currencyCode websiteIds expiresAt history } } }',
      { i: { balance: 12.5, code: uniqCode('gql'), expiresAt: null, recipientName: null } },
      tok.write,
    );
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    const c = r.data!.createGiftCard.giftCard;
    assert.equal(c.id, `/api/rest/v2/giftcards/${c._id}`);
    assert.equal(c.initialBalance, 12.5);
    assert.equal(c.expiresAt, null);
    assert.deepEqual(
      c.history.map((h: { action: string; amount: number }) => ({ action: h.action, amount: h.amount })),
      [{ action: 'created', amount: 12.5 }],
    );
    const read = await gql('query($id: ID!) { giftCard(id: $id) { id code balance history } }', { id: c.id }, tok.read);
    assert.equal(read.data!.giftCard.code, c.code);
    const bad = await gql('mutation { createGiftCard(input: { balance: 0 }) { giftCard { id } } }', {}, admin);
    assert.equal(bad.errors?.[0].extensions.status, 400);
    const dup = await gql(
      'mutation($c: String) { createGiftCard(input: { balance: 1, code: $c }) { giftCard { id } } }',
      { c: c.code },
      admin,
    );
    assert.equal(dup.errors?.[0].extensions.status, 409);
    assert.equal(dup.errors?.[0].extensions.code, 'GIFTCARD_CODE_TAKEN');
    assert.equal(
      (await gql('mutation { createGiftCard(input: { balance: 1 }) { giftCard { id } } }', {}, tok.read)).errors?.[0].extensions.code,
      'PERMISSION_DENIED',
    );
    assert.equal((await gql('query { giftCard(id: 1) { id } }', {}, customer)).errors?.[0].extensions.code, 'ADMIN_REQUIRED');
    assert.equal((await gql('query { giftCard(id: 1) { id } }')).errors?.[0].extensions.code, 'UNAUTHENTICATED');
    assert.equal((await gql('query { giftCard(id: 99999999) { id } }', {}, admin)).errors?.[0].extensions.status, 404);
  });
});

describe('GraphQL adjustGiftcardBalance', () => {
  const M = `mutation($id: ID, $code: String, $amount: Float!, $comment: String) {
    adjustGiftcardBalance(id: $id, code: $code, amount: $amount, comment: $comment) {
      giftCard { id code balance status history }
    }
  }`;

  test('adds a signed amount with an adjusted history row', async () => {
    const c = await create({ initialBalance: 20 });
    const up = await gql(M, { id: c.id, amount: 10.1, comment: 'goodwill' }, admin);
    assert.equal(up.errors, undefined, JSON.stringify(up.errors));
    assert.equal(up.data!.adjustGiftcardBalance.giftCard.balance, 30.1);
    const { createdAt: _at, orderId: _o, ...entry } = up.data!.adjustGiftcardBalance.giftCard.history[0];
    assert.deepEqual(entry, { action: 'adjusted', amount: 10.1, balanceBefore: 20, balanceAfter: 30.1, comment: 'goodwill' });
    const down = await gql(M, { code: c.code.toLowerCase(), amount: -0.1 }, tok.write);
    assert.equal(down.data!.adjustGiftcardBalance.giftCard.balance, 30);
    assert.equal(down.data!.adjustGiftcardBalance.giftCard.history.length, 3);
    assert.equal(down.data!.adjustGiftcardBalance.giftCard.history[0].comment, undefined);
  });

  test('0 makes the card used; raising a used card makes it active', async () => {
    const c = await create({ initialBalance: 15 });
    const zero = await gql(M, { id: c.id, amount: -15 }, admin);
    assert.equal(zero.data!.adjustGiftcardBalance.giftCard.status, 'used');
    const [row] = await t.database.db.select().from(giftcards).where(eq(giftcards.id, c.id));
    assert.equal(row.status, 'used');
    const again = await gql(M, { id: c.id, amount: 5 }, admin);
    assert.equal(again.data!.adjustGiftcardBalance.giftCard.status, 'active');
    assert.equal(again.data!.adjustGiftcardBalance.giftCard.balance, 5);
    // a disabled card stays disabled
    const d = await create({ initialBalance: 15, status: 'disabled' });
    assert.equal((await gql(M, { id: d.id, amount: -15 }, admin)).data!.adjustGiftcardBalance.giftCard.status, 'disabled');
  });

  test('out of bounds and bad input are a 400 and change nothing', async () => {
    const c = await create({ initialBalance: 50 });
    const history = async () => (await t.database.db.select().from(giftcardHistory).where(eq(giftcardHistory.giftcardId, c.id))).length;
    for (const [vars, code] of [
      [{ id: c.id, amount: -50.01 }, 'BAD_REQUEST'],
      [{ id: c.id, amount: 9950.01 }, 'BAD_REQUEST'],
      [{ id: c.id, amount: 0.00001 }, 'VALIDATION_FAILED'],
      [{ id: c.id, amount: 0 }, 'VALIDATION_FAILED'],
      [{ amount: 1 }, 'MISSING_FIELDS'],
      [{ id: c.id, amount: 1, comment: 'x'.repeat(1001) }, 'VALIDATION_FAILED'],
      [{ id: c.id, code: 'OTHER-CODE', amount: 1 }, 'VALIDATION_FAILED'],
    ] as const) {
      const r = await gql(M, vars, admin);
      assert.equal(r.errors?.[0].extensions.status, 400, JSON.stringify(vars));
      assert.equal(r.errors?.[0].extensions.code, code, JSON.stringify(vars));
    }
    const wrongType = await gql(M, { id: c.id, amount: 'ten' }, admin);
    assert.equal(wrongType.errors?.[0].extensions.status, 400);
    assert.equal((await gql(M, { id: 99999999, amount: 1 }, admin)).errors?.[0].extensions.status, 404);
    assert.equal((await gql(M, { code: 'NO-SUCH-CARD', amount: 1 }, admin)).errors?.[0].extensions.status, 404);
    const [row] = await t.database.db.select().from(giftcards).where(eq(giftcards.id, c.id));
    assert.equal(dec(row.balance).toNumber(), 50);
    assert.equal(await history(), 1);
    // exactly to the bounds is fine
    assert.equal((await gql(M, { id: c.id, amount: 9950 }, admin)).data!.adjustGiftcardBalance.giftCard.balance, 10000);
    assert.equal((await gql(M, { id: c.id, amount: -10000 }, admin)).data!.adjustGiftcardBalance.giftCard.balance, 0);
  });

  test('is for admins with giftcards/write only', async () => {
    const c = await create({ initialBalance: 5 });
    assert.equal((await gql(M, { id: c.id, amount: 1 })).errors?.[0].extensions.code, 'UNAUTHENTICATED');
    assert.equal((await gql(M, { id: c.id, amount: 1 }, customer)).errors?.[0].extensions.code, 'ADMIN_REQUIRED');
    assert.equal((await gql(M, { id: c.id, amount: 1 }, tok.read)).errors?.[0].extensions.code, 'PERMISSION_DENIED');
    assert.equal((await gql(M, { id: c.id, amount: 1 }, tok.none)).errors?.[0].extensions.code, 'PERMISSION_DENIED');
    const [row] = await t.database.db.select().from(giftcards).where(eq(giftcards.id, c.id));
    assert.equal(dec(row.balance).toNumber(), 5);
  });
});

describe('service: usableGiftcard and giftcardsByCodes', () => {
  async function reason(code: string): Promise<string> {
    try {
      await usableGiftcard(ctx(), code);
    } catch (err) {
      assert.equal((err as { status: number }).status, 400);
      return (err as Error).message;
    }
    return 'usable';
  }

  test('names why a card cannot be used', async () => {
    const ok = await create({ initialBalance: 20, currencyCode: 'EUR' });
    const u = await usableGiftcard(ctx(), ok.code.toLowerCase());
    assert.equal(u.id, ok.id);
    assert.equal(u.code, ok.code);
    assert.equal(u.currencyCode, 'EUR');
    assert.ok(u.balance.eq(20));
    assert.equal(await reason('NO-SUCH-CODE'), 'Gift card not found');
    assert.equal(await reason(''), 'Gift card not found');
    const disabled = await create({ initialBalance: 5, status: 'disabled' });
    assert.match(await reason(disabled.code), /disabled/);
    const expired = await create({ initialBalance: 5 });
    await t.database.db
      .update(giftcards)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(giftcards.id, expired.id));
    assert.match(await reason(expired.code), /expired/);
    const used = await create({ initialBalance: 5 });
    await debitGiftcard(ctx(), used.code, dec(5), null);
    assert.match(await reason(used.code), /used up/);
    const other = await create({ initialBalance: 5, websiteIds: [site2] });
    assert.match(await reason(other.code), /not valid for this website/);
  });

  test('giftcardsByCodes keeps the given order and drops unusable codes', async () => {
    const a = await create({ initialBalance: 1 });
    const b = await create({ initialBalance: 2 });
    const disabled = await create({ initialBalance: 5, status: 'disabled' });
    const got = await giftcardsByCodes(ctx(), [b.code.toLowerCase(), 'NOPE', disabled.code, a.code, b.code]);
    assert.deepEqual(
      got.map((g) => [g.code, g.balance.toNumber()]),
      [
        [b.code, 2],
        [a.code, 1],
      ],
    );
    assert.deepEqual(await giftcardsByCodes(ctx(), []), []);
  });
});

describe('service: debitGiftcard and creditGiftcard', () => {
  test('10 parallel debits of 30 against 100: exactly 3 succeed, balance 10', async () => {
    const c = await create({ initialBalance: 100 });
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => withTx(t.systemCtx(), (tx) => debitGiftcard(tx, c.code, dec(30), 1000 + i))),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    assert.equal(ok.length, 3);
    for (const f of failed) assert.equal((f.reason as Error).message, 'Gift card balance is not enough');
    const [row] = await t.database.db.select().from(giftcards).where(eq(giftcards.id, c.id));
    assert.equal(dec(row.balance).toNumber(), 10);
    const hist = await t.database.db.select().from(giftcardHistory).where(eq(giftcardHistory.giftcardId, c.id));
    assert.equal(hist.filter((h) => h.action === 'used').length, 3);
    assert.deepEqual(
      (ok as PromiseFulfilledResult<{ balance: { toNumber(): number } }>[]).map((r) => r.value.balance.toNumber()).sort((x, y) => x - y),
      [10, 40, 70],
    );
  });

  test('a debit to 0 marks the card used; an unusable card names its reason', async () => {
    const c = await create({ initialBalance: 12.5 });
    const after = await debitGiftcard(ctx(), c.code, dec('12.5'), 7);
    assert.ok(after.balance.isZero());
    const [row] = await t.database.db.select().from(giftcards).where(eq(giftcards.id, c.id));
    assert.equal(row.status, 'used');
    await assert.rejects(debitGiftcard(ctx(), c.code, dec(1), 7), /used up/);
    await assert.rejects(debitGiftcard(ctx(), 'NO-SUCH', dec(1), 7), /Gift card not found/);
    const d = await create({ initialBalance: 5 });
    await assert.rejects(debitGiftcard(ctx(), d.code, dec(0), 7), { status: 400 });
    await assert.rejects(debitGiftcard(ctx(), d.code, dec(-1), 7), { status: 400 });
    await assert.rejects(debitGiftcard(ctx(), d.code, dec('5.01'), 7), { message: 'Gift card balance is not enough', status: 400 });
  });

  test('a debit rolls back with the transaction that made it', async () => {
    const c = await create({ initialBalance: 10 });
    await assert.rejects(
      withTx(ctx(), async (tx) => {
        await debitGiftcard(tx, c.code, dec(4), 1);
        throw new Error('order failed');
      }),
      /order failed/,
    );
    const [row] = await t.database.db.select().from(giftcards).where(eq(giftcards.id, c.id));
    assert.equal(dec(row.balance).toNumber(), 10);
  });

  test('credit adds without a cap and reactivates a used card', async () => {
    const c = await create({ initialBalance: 10000 });
    await debitGiftcard(ctx(), c.code, dec(10000), 5);
    await creditGiftcard(ctx(), c.code.toLowerCase(), dec(10000), 5, 'order canceled');
    await creditGiftcard(ctx(), c.code, dec('0.5'), 6);
    const read = await t.req('GET', `${API}/giftcards/${c.id}`, { token: admin });
    assert.equal(read.body.balance, 10000.5);
    assert.equal(read.body.status, 'active');
    assert.deepEqual(read.body.history[0], {
      action: 'refunded',
      amount: 0.5,
      balanceBefore: 10000,
      balanceAfter: 10000.5,
      orderId: 6,
      createdAt: read.body.history[0].createdAt,
    });
    assert.equal(read.body.history[1].comment, 'order canceled');
    await assert.rejects(creditGiftcard(ctx(), 'NO-SUCH', dec(1), null), /Gift card not found/);
    await assert.rejects(creditGiftcard(ctx(), c.code, dec(0), null), { status: 400 });
  });
});
