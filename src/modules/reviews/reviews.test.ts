import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { count, eq } from 'drizzle-orm';
import { API, buildTestApp, type Res, type TestApp } from '../../../test/helpers.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { deleteConfig, setConfig } from '../stores/service.js';
import { reviewSummaries } from './service.js';
import { reviewVotes, reviews } from './tables.js';

let t: TestApp;
let admin: string;
/** customer@example.com and a second customer */
let alice: string;
let bob: string;
/** API-user tokens by what their role holds */
const tok: Record<'none' | 'read' | 'write' | 'create' | 'german', string> = { none: '', read: '', write: '', create: '', german: '' };
let product: Record<string, any>;

const JSON_ONLY = { accept: 'application/json' };
const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

const config = (path: string, value: string) => setConfig(t.database.db, t.services.settings, path, value);
const unsetConfig = (path: string) => deleteConfig(t.database.db, t.services.settings, path);

before(async () => {
  t = await buildTestApp({ env: { RATE_LIMITS: '1' } });
  // the limit has its own test; the others post freely
  await config('api/rate_limit/review_submit', '0');
  admin = await t.tokens.admin();
  alice = await t.tokens.customer();
  const reg = await t.req('POST', `${API}/customers`, {
    body: { email: 'bob.reviews@example.com', password: 'Password123!', firstname: 'Bob', lastname: 'Reviewer' },
  });
  assert.equal(reg.status, 201, reg.text);
  bob = await t.tokens.customer('bob.reviews@example.com', 'Password123!');
  tok.none = await t.tokens.apiUser(['products/read', 'customers/all']);
  tok.read = await t.tokens.apiUser(['reviews/read']);
  tok.write = await t.tokens.apiUser(['reviews/read', 'reviews/write']);
  tok.create = await t.tokens.apiUser(['reviews/create']);
  tok.german = await t.tokens.apiUser(['reviews/all'], { allowedStoreIds: [2] });
  product = await createTestProduct(t, { name: 'Reviewed Lamp' });
});
after(() => t.close());

function assertError(r: Res, status: number, error: string) {
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.error, error, r.text);
  assert.equal(typeof r.body.message, 'string');
  if (status !== 401) assert.equal(r.body.code, status);
}

const body = (extra: Record<string, unknown> = {}) => ({ title: 'Bright', detail: 'Lights the room well.', nickname: 'Al', ...extra });

function post(productId: number, payload: unknown, token?: string, query = '') {
  return t.req('POST', `${API}/products/${productId}/reviews${query}`, { token, body: payload });
}

async function created(productId: number, payload: unknown, token = alice): Promise<Record<string, any>> {
  const r = await post(productId, payload, token);
  assert.equal(r.status, 201, r.text);
  return r.body;
}

function moderate(id: number, payload: unknown, token = admin) {
  return t.req('PUT', `${API}/reviews/${id}`, { token, body: payload });
}

async function approve(id: number): Promise<void> {
  const r = await moderate(id, { status: 'approved' });
  assert.equal(r.status, 200, r.text);
}

async function reviewCount(): Promise<number> {
  const [a] = await t.database.db.select({ n: count() }).from(reviews);
  const [b] = await t.database.db.select({ n: count() }).from(reviewVotes);
  return Number(a.n) * 1000 + Number(b.n);
}

/** The default store view's summary, as count and a two-decimal average (null without votes). */
async function summary(productId: number) {
  const s = (await storeSummary(productId, 'default'))!;
  return { count: s.reviewCount, average: s.averageRating === undefined ? null : s.averageRating.toFixed(2) };
}

/** The summary the review service computes for a store view (by code), as reviewCount and averageRating. */
async function storeSummary(productId: number, storeCode: string) {
  const ctx = { ...t.systemCtx(), store: t.services.settings.resolveStore(storeCode, undefined) };
  return (await reviewSummaries(ctx, [productId])).get(productId);
}

/** reviewCount and averageRating of GET /products/{id} in a store view. */
async function productPageSummary(productId: number, query = '') {
  const r = await t.req('GET', `${API}/products/${productId}${query}`);
  assert.equal(r.status, 200, r.text);
  return { reviewCount: r.body.reviewCount, averageRating: r.body.averageRating };
}

async function reviewRow(id: number) {
  const [r] = await t.database.db.select().from(reviews).where(eq(reviews.id, id));
  return r;
}

const publicIds = async (productId: number, query = '') => {
  const r = await t.req('GET', `${API}/products/${productId}/reviews${query}`);
  assert.equal(r.status, 200, r.text);
  return r.body.member.map((m: { id: number }) => m.id) as number[];
};

describe('POST /products/{productId}/reviews', () => {
  test('a customer posts a pending review in the current store; one rating votes on every code', async () => {
    const r = await post(product.id, body({ rating: 4 }), alice);
    assert.equal(r.status, 201, r.text);
    const { id, createdAt, ...rest } = r.body;
    assert.ok(Number.isInteger(id));
    assert.match(createdAt, DATE_TIME);
    assert.deepEqual(rest, {
      productId: product.id,
      productName: 'Reviewed Lamp',
      title: 'Bright',
      detail: 'Lights the room well.',
      nickname: 'Al',
      rating: 4,
      status: 'pending',
      ratings: [
        { code: 'Quality', value: 4, percent: 80 },
        { code: 'Value', value: 4, percent: 80 },
        { code: 'Price', value: 4, percent: 80 },
      ],
      stores: [1],
    });
    const row = await reviewRow(id);
    assert.equal(row.status, 'pending');
    assert.ok(row.customerId, 'the author is kept');
    assert.deepEqual(await summary(product.id), { count: 0, average: null }, 'pending reviews do not count');
  });

  test('votes per code (case-insensitive) override the single rating; the review rating is their rounded mean', async () => {
    const a = await created(product.id, body({ ratings: { quality: 5, PRICE: 3 } }));
    assert.deepEqual(a.ratings, [
      { code: 'Quality', value: 5, percent: 100 },
      { code: 'Price', value: 3, percent: 60 },
    ]);
    assert.equal(a.rating, 4);
    const b = await created(product.id, body({ rating: 2, ratings: { Value: 5 } }));
    assert.deepEqual(
      b.ratings.map((v: { value: number }) => v.value),
      [2, 5, 2],
    );
    assert.equal(b.rating, 3);
    const c = await created(product.id, body({ ratings: { Quality: 5, Value: 4, Price: 5 } }));
    assert.equal(c.rating, 5, '4.67 rounds to 5');
  });

  test('without votes the review has an empty ratings list and no rating', async () => {
    const r = await created(product.id, body());
    assert.deepEqual(r.ratings, []);
    assert.equal('rating' in r, false);
  });

  test('text is trimmed; the review is posted in the store of the request', async () => {
    const r = await created(product.id, body({ title: '  Spaced  ', nickname: ' N ' }), alice);
    assert.equal(r.title, 'Spaced');
    assert.equal(r.nickname, 'N');
    const g = await post(product.id, body(), alice, '?store=german');
    assert.equal(g.status, 201, g.text);
    assert.deepEqual(g.body.stores, [2]);
  });

  test('an API user with reviews/create or an admin posts on nobody’s behalf; others are refused', async () => {
    for (const token of [admin, tok.create]) {
      const r = await post(product.id, body({ nickname: 'Shop' }), token);
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.status, 'pending');
      assert.equal((await reviewRow(r.body.id)).customerId, null);
    }
    const before = await reviewCount();
    assertError(await post(product.id, body()), 401, 'unauthorized');
    assertError(await post(product.id, body(), tok.none), 403, 'forbidden');
    assertError(await post(product.id, body(), tok.read), 403, 'forbidden');
    assert.equal(await reviewCount(), before);
  });

  test('missing, blank or too long fields, bad votes and malformed bodies are 400 and create nothing', async () => {
    const before = await reviewCount();
    const long = 'x'.repeat(256);
    const bad: [unknown, string][] = [
      [{ detail: 'd', nickname: 'n' }, 'title'],
      [{ title: 't', nickname: 'n' }, 'detail'],
      [{ title: 't', detail: 'd' }, 'nickname'],
      [body({ title: '   ' }), 'title'],
      [body({ detail: '' }), 'detail'],
      [body({ nickname: '\t' }), 'nickname'],
      [body({ title: long }), 'title'],
      [body({ nickname: long }), 'nickname'],
      [body({ title: 5 }), 'title'],
      [body({ title: null }), 'title'],
      [body({ rating: 0 }), 'rating'],
      [body({ rating: 6 }), 'rating'],
      [body({ rating: 'x' }), 'rating'],
      [body({ rating: '3' }), 'rating'],
      [body({ rating: 2.5 }), 'rating'],
      [body({ ratings: { Quality: 0 } }), 'ratings.Quality'],
      [body({ ratings: { Quality: 6 } }), 'ratings.Quality'],
      [body({ ratings: { Quality: 'x' } }), 'ratings.Quality'],
      [body({ ratings: { Looks: 3 } }), 'ratings.Looks'],
      [body({ ratings: [{ code: 'Quality', value: 3 }] }), 'ratings'],
    ];
    for (const [payload, field] of bad) {
      const r = await post(product.id, payload, alice);
      assertError(r, 400, 'bad_request');
      assert.equal(r.body.details?.field, field, `${JSON.stringify(payload)}: ${r.text}`);
    }
    assert.equal(
      (
        await t.req('POST', `${API}/products/${product.id}/reviews`, {
          token: alice,
          raw: '{"title": ',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
      400,
    );
    assertError(await post(product.id, [body()], alice), 400, 'bad_request');
    assertError(await post(product.id, 'text', alice), 400, 'bad_request');
    assert.equal(await reviewCount(), before);
  });

  test('unknown products are 404; a disabled product is 404 for customers', async () => {
    const before = await reviewCount();
    assertError(await post(99999999, body(), alice), 404, 'not_found');
    assertError(await post(99999999, body(), admin), 404, 'not_found');
    assertError(await post(0, body(), alice), 400, 'bad_request');
    const disabled = await createTestProduct(t, { isActive: false });
    assertError(await post(disabled.id, body(), alice), 404, 'not_found');
    assert.equal(await reviewCount(), before);
    const r = await post(disabled.id, body(), admin);
    assert.equal(r.status, 201, 'admin/API callers see disabled products');
  });

  test('a product shoppers cannot see (not_visible) is 404 to post to, like a missing one, and nothing is created', async () => {
    const hidden = await createTestProduct(t, { visibility: 'not_visible' });
    const before = await reviewCount();
    const missing = await post(99999999, body(), alice);
    const refused = await post(hidden.id, body({ rating: 4 }), alice);
    assertError(refused, 404, 'not_found');
    assert.deepEqual(refused.body, missing.body, 'the same reply as for a product that does not exist');
    assertError(await post(hidden.id, body(), bob, '?store=german'), 404, 'not_found');
    assert.equal(await reviewCount(), before);
    for (const token of [admin, tok.create])
      assert.equal((await post(hidden.id, body(), token)).status, 201, 'admin/API callers see every product');
    // nor are its reviews shown to shoppers
    const a = await created(hidden.id, body(), admin);
    await approve(a.id);
    assertError(await t.req('GET', `${API}/products/${hidden.id}/reviews`), 404, 'not_found');
    assertError(await t.req('GET', `${API}/reviews/${a.id}`, { token: alice }), 404, 'not_found');
    assert.equal((await t.req('GET', `${API}/reviews/${a.id}`, { token: admin })).status, 200);
  });

  test('with catalog/review/auto_approve = 1 new reviews are approved at once and counted', async () => {
    const p = await createTestProduct(t);
    await config('catalog/review/auto_approve', '1');
    try {
      const r = await created(p.id, body({ rating: 3 }));
      assert.equal(r.status, 'approved');
      assert.deepEqual(await publicIds(p.id), [r.id]);
      assert.deepEqual(await summary(p.id), { count: 1, average: '3.00' });
    } finally {
      await unsetConfig('catalog/review/auto_approve');
    }
    assert.equal((await created(p.id, body())).status, 'pending');
  });

  test('posting is limited per IP and per customer (api/rate_limit/review_submit per hour); admins are not limited', async () => {
    const p = await createTestProduct(t);
    await config('api/rate_limit/review_submit', '2');
    const send = (token: string, ip: string) =>
      t.app.inject({
        method: 'POST',
        url: `${API}/products/${p.id}/reviews`,
        remoteAddress: ip,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload: JSON.stringify(body()),
      });
    try {
      assert.equal((await send(alice, '10.9.0.1')).statusCode, 201);
      assert.equal((await send(alice, '10.9.0.2')).statusCode, 201);
      const before = await reviewCount();
      const limited = await send(alice, '10.9.0.3');
      assert.equal(limited.statusCode, 429, 'the customer is limited from any address');
      assert.deepEqual(JSON.parse(limited.body), {
        error: 'too_many_requests',
        message: 'Too many requests. Please try again later.',
        code: 429,
      });
      assert.equal((await send(bob, '10.9.0.1')).statusCode, 201);
      assert.equal((await send(bob, '10.9.0.1')).statusCode, 429, 'the address is limited whoever posts from it');
      assert.equal((await send(bob, '10.9.0.4')).statusCode, 201, 'the refused attempt did not count for the customer');
      assert.equal(await reviewCount(), before + 2000);
      for (let i = 0; i < 3; i++) assert.equal((await send(admin, '10.9.0.1')).statusCode, 201);
    } finally {
      await config('api/rate_limit/review_submit', '0');
    }
  });
});

describe('the review_submit limit counts only accepted posts', () => {
  test('10 refused posts (unknown or hidden product, bad text, unknown rating code) do not use up the limit of 10', async () => {
    const p = await createTestProduct(t);
    const hidden = await createTestProduct(t, { visibility: 'not_visible' });
    const reg = await t.req('POST', `${API}/customers`, {
      body: { email: 'carol.reviews@example.com', password: 'Password123!', firstname: 'Carol', lastname: 'Limit' },
    });
    assert.equal(reg.status, 201, reg.text);
    const carol = await t.tokens.customer('carol.reviews@example.com', 'Password123!');
    const send = (productId: number, payload: unknown, ip = '10.9.1.1') =>
      t.app.inject({
        method: 'POST',
        url: `${API}/products/${productId}/reviews`,
        remoteAddress: ip,
        headers: { authorization: `Bearer ${carol}`, 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
    await config('api/rate_limit/review_submit', '10');
    try {
      const before = await reviewCount();
      const refused: [number, unknown, number][] = [
        [99999999, body(), 404],
        [hidden.id, body(), 404],
        [p.id, body({ title: '  ' }), 400],
        [p.id, body({ detail: '' }), 400],
        [p.id, body({ ratings: { Looks: 3 } }), 400],
        [p.id, body({ ratings: { Quality: 4, Shine: 5 } }), 400],
        [99999999, body({ rating: 5 }), 404],
        [hidden.id, body({ rating: 1 }), 404],
        [p.id, body({ nickname: 'x'.repeat(256) }), 400],
        [p.id, body({ ratings: { Sparkle: 1 } }), 400],
      ];
      for (const [productId, payload, status] of refused) {
        const r = await send(productId, payload);
        assert.equal(r.statusCode, status, r.body);
      }
      assert.equal(await reviewCount(), before);
      const ok = await send(p.id, body({ rating: 5 }));
      assert.equal(ok.statusCode, 201, ok.body);
      // accepted posts still count: nine more fit, the eleventh is refused
      for (let i = 0; i < 9; i++) assert.equal((await send(p.id, body())).statusCode, 201);
      const limited = await send(p.id, body());
      assert.equal(limited.statusCode, 429, limited.body);
      assert.equal(await reviewCount(), before + 10 * 1000 + 3);
    } finally {
      await config('api/rate_limit/review_submit', '0');
    }
  });
});

describe('moderation and the product summary', () => {
  test('pending is hidden; approving shows and counts it; not_approved hides it again and the summary follows', async () => {
    const p = await createTestProduct(t, { name: 'Moderated Chair' });
    const a = await created(p.id, body({ rating: 4 }), alice);
    const b = await created(p.id, body({ ratings: { Quality: 5, Value: 4, Price: 4 } }), bob);

    assert.deepEqual(await publicIds(p.id), []);
    assertError(await t.req('GET', `${API}/reviews/${a.id}`), 404, 'not_found');
    assertError(await t.req('GET', `${API}/reviews/${a.id}`, { token: alice }), 404, 'not_found');
    assertError(await t.req('GET', `${API}/reviews/${a.id}`, { token: tok.none }), 404, 'not_found');
    assert.equal((await t.req('GET', `${API}/reviews/${a.id}`, { token: tok.read })).status, 200);
    assert.deepEqual(await summary(p.id), { count: 0, average: null });

    const r = await moderate(a.id, { status: 'approved' }, tok.write);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.status, 'approved');
    assert.equal(r.body.productName, 'Moderated Chair');
    assert.deepEqual(await publicIds(p.id), [a.id]);
    const pub = await t.req('GET', `${API}/reviews/${a.id}`);
    assert.equal(pub.status, 200);
    assert.equal(pub.body.status, 'approved');
    assert.deepEqual(await summary(p.id), { count: 1, average: '4.00' });

    await approve(b.id);
    assert.deepEqual(await publicIds(p.id), [b.id, a.id], 'newest first');
    assert.deepEqual(await summary(p.id), { count: 2, average: '4.17' }, 'the mean of 4 and 4.33');
    const shown = await t.req('GET', `${API}/products/${p.id}`);
    assert.equal(shown.status, 200, shown.text);
    assert.deepEqual([shown.body.reviewCount, shown.body.averageRating], [2, 4.17]);

    const n = await moderate(a.id, { status: 'not_approved' });
    assert.equal(n.status, 200);
    assert.equal(n.body.status, 'not_approved');
    assert.deepEqual(await publicIds(p.id), [b.id]);
    assertError(await t.req('GET', `${API}/reviews/${a.id}`), 404, 'not_found');
    assert.deepEqual(await summary(p.id), { count: 1, average: '4.33' });

    assert.equal((await moderate(b.id, { status: 'pending' })).body.status, 'pending');
    assert.deepEqual(await summary(p.id), { count: 0, average: null });
  });

  test("parallel approvals of one product's reviews leave an exact summary", async () => {
    const p = await createTestProduct(t);
    const ids: number[] = [];
    for (const v of [1, 2, 3, 4, 5, 5]) ids.push((await created(p.id, body({ rating: v }))).id);
    const replies = await Promise.all(ids.map((id) => moderate(id, { status: 'approved' })));
    assert.deepEqual(
      replies.map((r) => r.status),
      ids.map(() => 200),
    );
    assert.deepEqual(await summary(p.id), { count: 6, average: '3.33' });
    await Promise.all(ids.slice(0, 3).map((id) => moderate(id, { status: 'not_approved' })));
    assert.deepEqual(await summary(p.id), { count: 3, average: '4.67' });
  });

  test('approved reviews without votes count but do not move the average', async () => {
    const p = await createTestProduct(t);
    const a = await created(p.id, body({ rating: 2 }));
    const b = await created(p.id, body());
    await approve(a.id);
    await approve(b.id);
    assert.deepEqual(await summary(p.id), { count: 2, average: '2.00' });
  });

  test('stores (ids or codes) choose the store views an approved review shows in', async () => {
    const p = await createTestProduct(t);
    const a = await created(p.id, body({ rating: 5 }));
    await approve(a.id);
    assert.deepEqual(await publicIds(p.id, '?store=german'), []);

    const r = await moderate(a.id, { stores: ['german'] });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.stores, [2]);
    assert.equal(r.body.status, 'approved', 'the status is kept');
    assert.deepEqual(await publicIds(p.id), []);
    assert.deepEqual(await publicIds(p.id, '?store=german'), [a.id]);
    assertError(await t.req('GET', `${API}/reviews/${a.id}`), 404, 'not_found');
    assert.equal((await t.req('GET', `${API}/reviews/${a.id}?store=german`)).status, 200);
    assert.deepEqual(await summary(p.id), { count: 0, average: null }, 'the default store view no longer shows it');
    assert.deepEqual(await storeSummary(p.id, 'german'), { reviewCount: 1, averageRating: 5 });
    assert.deepEqual(await storeSummary(p.id, 'default'), { reviewCount: 0 });

    const both = await moderate(a.id, { stores: [2, 'DEFAULT', 1, '2'], status: 'approved' });
    assert.equal(both.status, 200, both.text);
    assert.deepEqual(both.body.stores, [1, 2]);
    assert.deepEqual(await publicIds(p.id), [a.id]);
    assert.deepEqual(await summary(p.id), { count: 1, average: '5.00' });
  });

  test('the summary is per store view: count, average and the review list agree in each', async () => {
    const p = await createTestProduct(t);
    const here = await created(p.id, body({ rating: 2 }));
    const there = await post(p.id, body({ rating: 5 }), bob, '?store=german');
    assert.equal(there.status, 201, there.text);
    await approve(here.id);
    await approve(there.body.id);

    // the default store view: its list, the product page and the stored summary
    assert.deepEqual(await publicIds(p.id), [here.id]);
    assert.deepEqual(await productPageSummary(p.id), { reviewCount: 1, averageRating: 2 });
    assert.deepEqual(await summary(p.id), { count: 1, average: '2.00' });
    assert.deepEqual(await storeSummary(p.id, 'default'), { reviewCount: 1, averageRating: 2 });
    // the German store view counts and averages what it lists
    assert.deepEqual(await publicIds(p.id, '?store=german'), [there.body.id]);
    assert.deepEqual(await storeSummary(p.id, 'german'), { reviewCount: 1, averageRating: 5 });

    // moving a review between store views moves it in the summaries
    assert.equal((await moderate(there.body.id, { stores: ['default', 'german'] })).status, 200);
    assert.deepEqual(await productPageSummary(p.id), { reviewCount: 2, averageRating: 3.5 });
    assert.deepEqual(await storeSummary(p.id, 'german'), { reviewCount: 1, averageRating: 5 });
    assert.equal((await moderate(here.id, { stores: ['german'] })).status, 200);
    assert.deepEqual(await publicIds(p.id), [there.body.id]);
    assert.deepEqual(await productPageSummary(p.id), { reviewCount: 1, averageRating: 5 });
    assert.deepEqual(await storeSummary(p.id, 'german'), { reviewCount: 2, averageRating: 3.5 });
  });

  test("the product page of a second store view shows that store view's summary", async () => {
    const p = await createTestProduct(t);
    const g = await post(p.id, body({ rating: 4 }), bob, '?store=german');
    await approve(g.body.id);
    assert.deepEqual(await publicIds(p.id, '?store=german'), [g.body.id]);
    assert.deepEqual(await productPageSummary(p.id, '?store=german'), { reviewCount: 1, averageRating: 4 });
  });

  test('a bad moderation request is 400 or 404 and changes nothing', async () => {
    const p = await createTestProduct(t);
    const a = await created(p.id, body());
    const row = await reviewRow(a.id);
    const bad: unknown[] = [
      {},
      { title: 'x' },
      { status: 'bogus' },
      { status: null },
      { status: 1 },
      { stores: [] },
      { stores: ['nope'] },
      { stores: [999] },
      { stores: [0] },
      { stores: '1' },
      { stores: [1.5] },
      [],
    ];
    for (const payload of bad) assertError(await moderate(a.id, payload), 400, 'bad_request');
    assertError(
      await t.req('PUT', `${API}/reviews/${a.id}`, { token: admin, raw: '{', headers: { 'content-type': 'application/json' } }),
      400,
      'bad_request',
    );
    assertError(await moderate(99999999, { status: 'approved' }), 404, 'not_found');
    assertError(await t.req('PUT', `${API}/reviews/abc`, { token: admin, body: { status: 'approved' } }), 400, 'bad_request');
    assert.deepEqual(await reviewRow(a.id), row);
  });

  test('moderation needs reviews/write: anonymous 401, customers and other grants 403', async () => {
    const p = await createTestProduct(t);
    const a = await created(p.id, body());
    assertError(await moderate(a.id, { status: 'approved' }, ''), 401, 'unauthorized');
    assertError(await moderate(a.id, { status: 'approved' }, alice), 403, 'forbidden');
    assertError(await moderate(a.id, { status: 'approved' }, tok.read), 403, 'forbidden');
    assertError(await moderate(a.id, { status: 'approved' }, tok.none), 403, 'forbidden');
    assertError(await moderate(a.id, { status: 'approved' }, tok.create), 403, 'forbidden');
    assert.equal((await reviewRow(a.id)).status, 'pending');
    assert.equal((await moderate(a.id, { status: 'approved' }, tok.write)).status, 200);
  });
});

describe('reading reviews', () => {
  test('GET /reviews/{id}: the public reads approved reviews; unknown ids are 404; never the author id', async () => {
    const p = await createTestProduct(t, { name: 'Read Lamp' });
    const a = await created(p.id, body({ rating: 3 }));
    await approve(a.id);
    for (const token of [undefined, alice, bob, tok.none, admin]) {
      const r = await t.req('GET', `${API}/reviews/${a.id}`, { token });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body, { ...a, status: 'approved' });
      assert.equal('customerId' in r.body, false);
    }
    assertError(await t.req('GET', `${API}/reviews/99999999`), 404, 'not_found');
    assertError(await t.req('GET', `${API}/reviews/99999999`, { token: admin }), 404, 'not_found');
    assertError(await t.req('GET', `${API}/reviews/x`), 400, 'bad_request');
  });

  test('GET /products/{productId}/reviews: unknown products are 404, disabled ones 404 except for admin callers', async () => {
    assertError(await t.req('GET', `${API}/products/99999999/reviews`), 404, 'not_found');
    const off = await createTestProduct(t, { isActive: false });
    assertError(await t.req('GET', `${API}/products/${off.id}/reviews`), 404, 'not_found');
    assertError(await t.req('GET', `${API}/products/${off.id}/reviews`, { token: alice }), 404, 'not_found');
    const r = await t.req('GET', `${API}/products/${off.id}/reviews`, { token: admin });
    assert.equal(r.status, 200);
    assert.equal(r.body.totalItems, 0);
  });

  test('a review of a product disabled later is no longer public', async () => {
    const p = await createTestProduct(t);
    const a = await created(p.id, body());
    await approve(a.id);
    const off = await t.req('PUT', `${API}/products/${p.id}`, { token: admin, body: { isActive: false } });
    assert.equal(off.status, 200, off.text);
    assertError(await t.req('GET', `${API}/reviews/${a.id}`), 404, 'not_found');
    assert.equal((await t.req('GET', `${API}/reviews/${a.id}`, { token: admin })).status, 200);
  });

  test('the product list pages by 10, newest first, with links; Accept: application/json gets the bare array', async () => {
    const p = await createTestProduct(t);
    await config('catalog/review/auto_approve', '1');
    const ids: number[] = [];
    try {
      for (let i = 0; i < 12; i++) ids.push((await created(p.id, body({ title: `R${i}` }), admin)).id);
    } finally {
      await unsetConfig('catalog/review/auto_approve');
    }
    await created(p.id, body({ title: 'pending one' }));
    const newest = [...ids].reverse();

    const first = await t.req('GET', `${API}/products/${p.id}/reviews`);
    assert.equal(first.status, 200);
    assert.equal(first.body['@type'], 'Collection');
    assert.equal(first.body['@context'], '/api/contexts/Review');
    assert.equal(first.body.totalItems, 12);
    assert.deepEqual(
      first.body.member.map((m: { id: number }) => m.id),
      newest.slice(0, 10),
    );
    assert.equal(first.body.view.next, `${API}/products/${p.id}/reviews?page=2`);
    assert.equal(first.body.view.last, `${API}/products/${p.id}/reviews?page=2`);

    assert.deepEqual(await publicIds(p.id, '?page=2'), newest.slice(10));
    assert.deepEqual(await publicIds(p.id, '?itemsPerPage=5&page=3'), newest.slice(10));
    assert.deepEqual(await publicIds(p.id, '?pageSize=3'), newest.slice(0, 3));
    const past = await t.req('GET', `${API}/products/${p.id}/reviews?page=9`);
    assert.deepEqual([past.body.member, past.body.totalItems], [[], 12]);
    const bare = await t.req('GET', `${API}/products/${p.id}/reviews`, { headers: JSON_ONLY });
    assert.ok(Array.isArray(bare.body));
    assert.equal(bare.body.length, 10);
    assertError(await t.req('GET', `${API}/products/${p.id}/reviews?page=x`), 400, 'bad_request');
    assert.equal(await summary(p.id).then((s) => s.count), 12);
  });

  test('GET /customers/me/reviews: own reviews in every status, not anyone else’s; customers only', async () => {
    const p = await createTestProduct(t, { name: 'Mine' });
    const own = [await created(p.id, body(), bob), await created(p.id, body(), bob), await created(p.id, body(), bob)];
    await approve(own[0].id);
    assert.equal((await moderate(own[1].id, { status: 'not_approved' })).status, 200);
    const theirs = await created(p.id, body(), alice);

    const r = await t.req('GET', `${API}/customers/me/reviews`, { token: bob, query: { itemsPerPage: '100' } });
    assert.equal(r.status, 200, r.text);
    const mine = r.body.member.filter((m: { productId: number }) => m.productId === p.id);
    assert.deepEqual(
      mine.map((m: { id: number; status: string }) => [m.id, m.status]),
      [
        [own[2].id, 'pending'],
        [own[1].id, 'not_approved'],
        [own[0].id, 'approved'],
      ],
    );
    assert.equal(mine[0].productName, 'Mine');
    assert.equal(
      r.body.member.some((m: { id: number }) => m.id === theirs.id),
      false,
    );
    assert.equal(r.body.totalItems, r.body.member.length);
    for (const m of r.body.member) assert.equal('customerId' in m, false);

    const a = await t.req('GET', `${API}/customers/me/reviews`, { token: alice, query: { itemsPerPage: '100' } });
    assert.ok(a.body.member.some((m: { id: number }) => m.id === theirs.id));
    assert.equal(
      a.body.member.some((m: { id: number }) => own.some((o) => o.id === m.id)),
      false,
    );

    const paged = await t.req('GET', `${API}/customers/me/reviews`, { token: bob });
    assert.equal(paged.body.member.length, Math.min(10, paged.body.totalItems), 'page size 10');

    assertError(await t.req('GET', `${API}/customers/me/reviews`), 401, 'unauthorized');
    assertError(await t.req('GET', `${API}/customers/me/reviews`, { token: admin }), 403, 'forbidden');
    assertError(await t.req('GET', `${API}/customers/me/reviews`, { token: tok.read }), 403, 'forbidden');
  });

  test('GET /reviews: the moderation queue for reviews/read, filtered by status and product', async () => {
    const p = await createTestProduct(t);
    const a = await created(p.id, body());
    const b = await created(p.id, body());
    const c = await created(p.id, body());
    await approve(b.id);
    assert.equal((await moderate(c.id, { status: 'not_approved' })).status, 200);

    const all = await t.req('GET', `${API}/reviews`, { token: tok.read, query: { productId: String(p.id) } });
    assert.equal(all.status, 200, all.text);
    assert.deepEqual(
      all.body.member.map((m: { id: number }) => m.id),
      [c.id, b.id, a.id],
    );
    assert.equal(all.body.totalItems, 3);
    for (const [status, id] of [
      ['pending', a.id],
      ['approved', b.id],
      ['not_approved', c.id],
    ] as const) {
      const r = await t.req('GET', `${API}/reviews?status=${status}&productId=${p.id}`, { token: admin });
      assert.deepEqual(
        r.body.member.map((m: { id: number }) => m.id),
        [id],
        status,
      );
    }
    const queue = await t.req('GET', `${API}/reviews?status=pending`, { token: admin });
    assert.ok(queue.body.member.every((m: { status: string }) => m.status === 'pending'));
    assert.ok(queue.body.totalItems > 10);
    assert.equal(queue.body.member.length, 10, 'page size 10');

    assertError(await t.req('GET', `${API}/reviews?status=bogus`, { token: admin }), 400, 'bad_request');
    assertError(await t.req('GET', `${API}/reviews?productId=x`, { token: admin }), 400, 'bad_request');
    assertError(await t.req('GET', `${API}/reviews`), 401, 'unauthorized');
    assertError(await t.req('GET', `${API}/reviews`, { token: alice }), 403, 'forbidden');
    assertError(await t.req('GET', `${API}/reviews`, { token: tok.none }), 403, 'forbidden');
    assertError(await t.req('GET', `${API}/reviews`, { token: tok.create }), 403, 'forbidden');
  });

  test('a store-restricted principal moderates only reviews of its store views', async () => {
    const p = await createTestProduct(t);
    const here = await created(p.id, body());
    const g = await post(p.id, body(), alice, '?store=german');
    assert.equal(g.status, 201);
    const q = '?store=german';
    const list = await t.req('GET', `${API}/reviews${q}&productId=${p.id}`, { token: tok.german });
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(
      list.body.member.map((m: { id: number }) => m.id),
      [g.body.id],
    );
    assertError(await t.req('GET', `${API}/reviews/${here.id}${q}`, { token: tok.german }), 404, 'not_found');
    assertError(await t.req('PUT', `${API}/reviews/${here.id}${q}`, { token: tok.german, body: { status: 'approved' } }), 404, 'not_found');
    assertError(await t.req('PUT', `${API}/reviews/${g.body.id}${q}`, { token: tok.german, body: { stores: [1, 2] } }), 403, 'forbidden');
    const ok = await t.req('PUT', `${API}/reviews/${g.body.id}${q}`, { token: tok.german, body: { status: 'approved' } });
    assert.equal(ok.status, 200, ok.text);
    assert.equal((await reviewRow(here.id)).status, 'pending');
  });
});

describe('reviews switched off (catalog/review/active = 0)', () => {
  test('every review route is 404 and nothing is created', async () => {
    const p = await createTestProduct(t);
    const a = await created(p.id, body());
    await approve(a.id);
    await config('catalog/review/active', '0');
    try {
      const before = await reviewCount();
      assertError(await post(p.id, body(), alice), 404, 'not_found');
      assertError(await post(p.id, body(), admin), 404, 'not_found');
      assertError(await t.req('GET', `${API}/products/${p.id}/reviews`), 404, 'not_found');
      assertError(await t.req('GET', `${API}/reviews/${a.id}`), 404, 'not_found');
      assertError(await t.req('GET', `${API}/reviews/${a.id}`, { token: admin }), 404, 'not_found');
      assertError(await t.req('GET', `${API}/customers/me/reviews`, { token: alice }), 404, 'not_found');
      assertError(await t.req('GET', `${API}/reviews`, { token: admin }), 404, 'not_found');
      assertError(await moderate(a.id, { status: 'pending' }), 404, 'not_found');
      assert.equal(await reviewCount(), before);
      assert.equal((await reviewRow(a.id)).status, 'approved');
      const cfg = await t.req('GET', `${API}/store-config`);
      assert.equal(cfg.body.reviewsEnabled, false);
    } finally {
      await unsetConfig('catalog/review/active');
    }
    assert.deepEqual(await publicIds(p.id), [a.id]);
  });
});

describe('GraphQL', () => {
  const gql = (query: string, variables: Record<string, unknown> = {}, token?: string) =>
    t.req('POST', '/api/graphql', { token, body: { query, variables } });
  const CREATE = `mutation ($i: submitReviewInput!) { submitReview(input: $i) { review { _id status rating ratings stores } } }`;
  const input = (productId: number, i: Record<string, unknown>) => ({ i: { productId, ...i } });

  test('submitReview honours rating and per-code votes; updateReview approves; productReviews lists it', async () => {
    const p = await createTestProduct(t);
    const c = await gql(CREATE, input(p.id, { ...body(), rating: 2, ratings: [{ code: 'Value', value: 4 }] }), alice);
    assert.equal(c.status, 200, c.text);
    const review = c.body.data.submitReview.review;
    assert.equal(review.status, 'pending');
    assert.deepEqual(
      review.ratings.map((v: { value: number }) => v.value),
      [2, 4, 2],
    );
    assert.equal(review.rating, 3);

    const u = await gql(
      `mutation ($id: ID!) { updateReview(input: { id: $id, status: "approved", stores: ["default", "german"] }) { review { status stores } } }`,
      { id: review._id },
      admin,
    );
    assert.deepEqual(u.body.data.updateReview.review, { status: 'approved', stores: [1, 2] });
    const l = await gql(`query ($p: Int!) { productReviews(productId: $p) { totalCount edges { node { _id nickname } } } }`, { p: p.id });
    assert.deepEqual(l.body.data.productReviews, { totalCount: 1, edges: [{ node: { _id: review._id, nickname: 'Al' } }] });
    const mine = await gql(`{ myReviews(pageSize: 100) { edges { node { _id } } } }`, {}, alice);
    assert.ok(mine.body.data.myReviews.edges.some((e: { node: { _id: number } }) => e.node._id === review._id));
    assert.deepEqual(await summary(p.id), { count: 1, average: '2.67' });
  });

  test('the service rules hold over GraphQL: bad votes and text are 400, access as on REST', async () => {
    const p = await createTestProduct(t);
    const before = await reviewCount();
    for (const i of [
      { ...body(), rating: 6 },
      { ...body(), ratings: [{ code: 'Quality', value: 0 }] },
      { ...body(), ratings: [{ code: 'Looks', value: 3 }] },
      { ...body(), ratings: { Quality: 9 } },
      { ...body(), title: ' ' },
      { ...body(), nickname: 'x'.repeat(256) },
    ]) {
      const r = await gql(CREATE, input(p.id, i), alice);
      assert.equal(r.body.errors?.[0]?.extensions?.status, 400, `${JSON.stringify(i)}: ${r.text}`);
    }
    assert.equal((await gql(CREATE, input(p.id, body()))).body.errors[0].extensions.status, 401);
    assert.equal((await gql(CREATE, input(99999999, body()), alice)).body.errors[0].extensions.status, 404);
    assert.equal(await reviewCount(), before);
    assert.equal((await gql(`{ reviews { totalCount } }`, {}, alice)).body.errors[0].extensions.status, 403);
    assert.equal((await gql(`{ reviews(status: "bogus") { totalCount } }`, {}, admin)).body.errors[0].extensions.status, 400);
    assert.equal(
      (await gql(`mutation { updateReview(input: { id: 1 }) { review { _id } } }`, {}, admin)).body.errors[0].extensions.status,
      400,
    );
    assert.equal(
      (await gql(`mutation { updateReview(input: { id: 1, status: "approved" }) { review { _id } } }`, {}, bob)).body.errors[0].extensions
        .status,
      403,
    );
  });
});
