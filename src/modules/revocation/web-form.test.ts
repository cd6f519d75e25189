/** The public revocation web form at /revocation: pages, CSRF, validation, and the same rules as the API. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { and, count, eq, sql } from 'drizzle-orm';
import { API, buildTestApp, type Res, type TestApp } from '../../../test/helpers.js';
import { mailOutbox } from '../../platform/tables.js';
import { placeTestOrder } from '../../../test/fixtures/checkout.js';
import { orders } from '../orders/tables.js';
import { deleteConfig, setConfig } from '../stores/service.js';
import { revocationRequests } from './tables.js';

let t: TestApp;
let admin: string;
before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
});
after(() => t.close());

const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };
const NOT_FOUND_MESSAGE = 'We could not find an order with this number and email address.';
const EXPIRED_MESSAGE = 'The form expired, please submit it again.';

interface Form {
  cookie: string;
  token: string;
  page: Res;
}

function setCookieOf(r: Res): string | undefined {
  const h = r.headers['set-cookie'];
  return Array.isArray(h) ? h[0] : (h as string | undefined);
}

function tokenOf(html: string): string {
  const m = /<input type="hidden" name="_csrf" value="([^"]+)">/.exec(html);
  assert.ok(m, 'the page carries a CSRF field');
  return m[1];
}

/** Opens the form as a browser would: the cookie it sets and the token in its hidden field. */
async function openForm(app: TestApp = t, path = '/revocation'): Promise<Form> {
  const page = await app.req('GET', path);
  assert.equal(page.status, 200, page.text);
  const set = setCookieOf(page);
  assert.ok(set, 'the form sets its cookie');
  return { cookie: set.split(';')[0], token: tokenOf(page.text), page };
}

async function post(
  fields: Record<string, string>,
  o: { cookie?: string; headers?: Record<string, string>; app?: TestApp; path?: string } = {},
) {
  const headers: Record<string, string> = { ...FORM_TYPE, ...(o.headers ?? {}) };
  if (o.cookie) headers.cookie = o.cookie;
  return (o.app ?? t).req('POST', o.path ?? '/revocation', { raw: new URLSearchParams(fields).toString(), headers });
}

/** Opens the form and posts it with these values. */
async function submit(values: Record<string, string>, o: { headers?: Record<string, string>; app?: TestApp } = {}) {
  const form = await openForm(o.app);
  return post({ _csrf: form.token, ...values }, { cookie: form.cookie, ...o });
}

async function rowCount(app: TestApp = t): Promise<number> {
  const [r] = await app.database.db.select({ n: count() }).from(revocationRequests);
  return r.n;
}

async function config(path: string, value: string, fn: () => Promise<void>, app: TestApp = t) {
  await setConfig(app.database.db, app.services.settings, path, value);
  try {
    await fn();
  } finally {
    await deleteConfig(app.database.db, app.services.settings, path);
  }
}

function assertHtml(r: Res, status: number) {
  assert.equal(r.status, status, r.text);
  assert.equal(r.headers['content-type'], 'text/html; charset=utf-8');
  assert.match(r.text, /^<!DOCTYPE html>\n<html lang="[^"]+">/);
  assert.match(r.text, /<\/html>\n$/);
}

/** The page without its CSRF token, to compare two renderings. */
const withoutToken = (html: string) => html.replace(/name="_csrf" value="[^"]+"/, 'name="_csrf" value=""');

/** The attributes of the element with this id. */
function element(html: string, id: string): string {
  const m = new RegExp(`<(?:input|textarea) id="${id}"[^>]*>`).exec(html);
  assert.ok(m, `element #${id}`);
  return m[0];
}

describe('GET /revocation', () => {
  test('renders an accessible form with the security headers and the CSRF cookie', async () => {
    const r = await t.req('GET', '/revocation');
    assertHtml(r, 200);
    assert.equal(
      r.headers['content-security-policy'],
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    assert.equal(r.headers['x-frame-options'], 'DENY');
    assert.equal(r.headers['referrer-policy'], 'same-origin');
    assert.equal(r.headers['cache-control'], 'no-store');
    assert.equal(r.headers['x-content-type-options'], 'nosniff');
    const cookie = setCookieOf(r)!;
    assert.match(cookie, /^revocation_csrf=[A-Za-z0-9_-]{43}; Path=\/revocation; HttpOnly; SameSite=Strict$/, 'no Secure flag over http');

    const html = r.text;
    assert.match(html, /<html lang="en-US">/, 'the store locale');
    assert.match(html, /<h1>Withdraw from your order<\/h1>/);
    assert.match(html, /<p class="store">Default Store View<\/p>/);
    assert.match(html, /within 14 days/, 'the cooling-off period');
    assert.match(html, /<form method="post" action="\/revocation">/);
    assert.doesNotMatch(html, /<script/i, 'no JavaScript');
    for (const id of ['order-number', 'email', 'reason']) assert.match(html, new RegExp(`<label for="${id}">`), `label for #${id}`);
    const orderNumber = element(html, 'order-number');
    assert.match(orderNumber, / name="orderNumber" required aria-required="true"/);
    const email = element(html, 'email');
    assert.match(email, / required aria-required="true"/);
    assert.match(email, / type="email" autocomplete="email"/);
    const reason = element(html, 'reason');
    assert.doesNotMatch(reason, /required/);
    assert.match(html, /<label for="reason">Reason \(optional\)<\/label>/);
    assert.match(tokenOf(html), /^\d+\.[A-Za-z0-9_-]{43}$/);
    assert.match(html, /<button type="submit">/);
    assert.doesNotMatch(html, /role="alert"/, 'no errors yet');
  });

  test("a second visit keeps the browser's cookie, so that forms open in other tabs stay valid", async () => {
    const first = await openForm();
    const again = await t.req('GET', '/revocation', { headers: { cookie: first.cookie } });
    assert.equal(again.status, 200);
    assert.equal(setCookieOf(again), undefined);
    assert.notEqual(tokenOf(again.text), '');
  });

  test('?store= and X-Store-Code pick the store; the form posts back to it; an unknown store is a 400 page', async () => {
    const named = await t.req('GET', '/revocation', { query: { store: 'default' } });
    assertHtml(named, 200);
    assert.match(named.text, /<form method="post" action="\/revocation\?store=default">/);
    const byHeader = await t.req('GET', '/revocation', { headers: { 'x-store-code': 'default' } });
    assert.match(byHeader.text, /action="\/revocation\?store=default"/);
    const unknown = await t.req('GET', '/revocation', { query: { store: 'nope' } });
    assertHtml(unknown, 400);
    assert.doesNotMatch(unknown.text, /"error"/, 'not the JSON error shape');
  });

  test('the page language follows general/locale/code; no cooling-off sentence when the window is 0 days', async () => {
    await config('general/locale/code', 'de_DE', async () => {
      assert.match((await t.req('GET', '/revocation')).text, /<html lang="de-DE">/);
    });
    await config('revocation/general/cooling_off_days', '0', async () => {
      assert.doesNotMatch((await t.req('GET', '/revocation')).text, /within \d+ days/);
    });
  });
});

describe('POST /revocation', () => {
  test('records one web_form declaration that the admin API lists, and redirects to a reload-safe confirmation', async () => {
    const order = await placeTestOrder(t);
    const before = await rowCount();
    const r = await submit({
      orderNumber: ` ${order.incrementId} `,
      email: order.customerEmail.toUpperCase(),
      reason: '  Changed my mind  ',
    });
    assert.equal(r.status, 303, r.text);
    const location = String(r.headers.location);
    assert.match(location, /^\/revocation\/received\?r=[A-Za-z0-9_.-]+$/);
    assert.equal(await rowCount(), before + 1);

    const list = await t.req('GET', `${API}/revocation-requests`, { token: admin, query: { orderId: String(order.id) } });
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body.totalItems, 1);
    const made = list.body.member[0];
    assert.equal(made.orderReference, order.incrementId);
    assert.equal(made.reason, 'Changed my mind', 'values are trimmed');
    assert.equal(made.verified, false, 'a guest declaration');
    const [row] = await t.database.db.select().from(revocationRequests).where(eq(revocationRequests.id, made.id));
    assert.equal(row.channel, 'web_form');
    const receipts = await t.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.template, 'revocation/receipt'), eq(mailOutbox.toAddress, order.customerEmail.toLowerCase())));
    assert.equal(receipts.length, 1, 'the receipt is queued as for the API');

    for (let i = 0; i < 2; i++) {
      const page = await t.req('GET', location);
      assertHtml(page, 200);
      assert.equal(page.headers['cache-control'], 'no-store');
      assert.match(page.text, /<h1>Your revocation has been received<\/h1>/);
      assert.match(page.text, new RegExp(`<dt>Reference</dt>\\n<dd>${made.id}</dd>`));
      assert.match(page.text, new RegExp(`<dt>Order number</dt>\\n<dd>${order.incrementId}</dd>`));
      assert.ok(page.text.includes(`<dd>${made.receivedAt} UTC</dd>`), 'the submitted date and time');
      assert.match(page.text, /A receipt has been sent to your email address\./);
    }
    assert.equal(await rowCount(), before + 1, 'showing the confirmation again declares nothing');
  });

  test('a tampered confirmation address is a 404 page', async () => {
    const order = await placeTestOrder(t);
    const r = await submit({ orderNumber: order.incrementId, email: order.customerEmail });
    assert.equal(r.status, 303);
    const location = String(r.headers.location);
    const [payload, mac] = location.split('r=')[1].split('.');
    const forged = Buffer.from(JSON.stringify([1, 'forged', '2020-01-01 00:00:00', 0])).toString('base64url');
    assertHtml(await t.req('GET', `/revocation/received?r=${forged}.${mac}`), 404);
    assertHtml(await t.req('GET', `/revocation/received?r=${payload}`), 404);
    assertHtml(await t.req('GET', '/revocation/received'), 404);
  });

  test('a second declaration the same day says that no further receipt is sent', async () => {
    const order = await placeTestOrder(t);
    assert.equal((await submit({ orderNumber: order.incrementId, email: order.customerEmail })).status, 303);
    const second = await submit({ orderNumber: order.incrementId, email: order.customerEmail });
    assert.equal(second.status, 303);
    const page = await t.req('GET', String(second.headers.location));
    assert.match(page.text, /We already sent a receipt to your email address today/);
  });

  test('an Origin of this server (as configured) is accepted; a foreign Origin is a 403 and writes nothing', async () => {
    const order = await placeTestOrder(t);
    const before = await rowCount();
    const foreign = await submit(
      { orderNumber: order.incrementId, email: order.customerEmail },
      { headers: { origin: 'https://evil.example' } },
    );
    assertHtml(foreign, 403);
    assert.match(foreign.text, /role="alert"/);
    assert.ok(setCookieOf(foreign), 'a fresh token');
    const opaque = await submit({ orderNumber: order.incrementId, email: order.customerEmail }, { headers: { origin: 'null' } });
    assert.equal(opaque.status, 403);
    assert.equal(await rowCount(), before);
    const own = await submit({ orderNumber: order.incrementId, email: order.customerEmail }, { headers: { origin: 'http://shop.test' } });
    assert.equal(own.status, 303, own.text);
  });
});

describe('CSRF', () => {
  let order: Awaited<ReturnType<typeof placeTestOrder>>;
  before(async () => {
    order = await placeTestOrder(t);
  });

  async function assertRefused(r: Res) {
    assertHtml(r, 403);
    assert.match(r.text, /<div class="error-summary" role="alert"/);
    assert.ok(r.text.includes(EXPIRED_MESSAGE), 'says the form expired');
    const fresh = setCookieOf(r);
    assert.match(fresh ?? '', /^revocation_csrf=[A-Za-z0-9_-]{43}; Path=\/revocation; HttpOnly; SameSite=Strict$/, 'a fresh cookie');
    assert.match(tokenOf(r.text), /^\d+\.[A-Za-z0-9_-]{43}$/, 'and a fresh token');
    assert.ok(r.text.includes(`value="${order.incrementId}"`), 'the values are kept');
  }

  test("a POST without the cookie, without the token, with another browser's token or a forged one is a 403; nothing written", async () => {
    const values = { orderNumber: order.incrementId, email: order.customerEmail };
    const a = await openForm();
    const b = await openForm();
    assert.notEqual(a.cookie, b.cookie);
    const before = await rowCount();
    await assertRefused(await post({ _csrf: a.token, ...values }));
    await assertRefused(await post(values, { cookie: a.cookie }));
    await assertRefused(await post({ _csrf: '', ...values }, { cookie: a.cookie }));
    await assertRefused(await post({ _csrf: b.token, ...values }, { cookie: a.cookie }));
    const [issued] = a.token.split('.');
    await assertRefused(await post({ _csrf: `${issued}.${'A'.repeat(43)}`, ...values }, { cookie: a.cookie }));
    await assertRefused(await post({ _csrf: `${Number(issued) - 1}.${a.token.split('.')[1]}`, ...values }, { cookie: a.cookie }));
    await assertRefused(await post({ _csrf: a.token, ...values }, { cookie: 'revocation_csrf=not-a-cookie' }));
    assert.equal(await rowCount(), before);

    const refused = await post({ _csrf: a.token, ...values });
    const retried = await post({ _csrf: tokenOf(refused.text), ...values }, { cookie: setCookieOf(refused)!.split(';')[0] });
    assert.equal(retried.status, 303, 'the fresh token works');
  });
});

describe('validation', () => {
  let order: Awaited<ReturnType<typeof placeTestOrder>>;
  before(async () => {
    order = await placeTestOrder(t);
  });

  test('a missing order number is a 422 with an error summary linked to the field, which is marked invalid', async () => {
    const before = await rowCount();
    const r = await submit({ orderNumber: '  ', email: order.customerEmail, reason: 'kept' });
    assertHtml(r, 422);
    assert.match(r.text, /<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1">/);
    assert.match(r.text, /<li><a href="#order-number">Enter your order number\.<\/a><\/li>/);
    const field = element(r.text, 'order-number');
    assert.match(field, /aria-invalid="true"/);
    assert.match(field, /aria-describedby="order-number-hint order-number-error"/);
    assert.match(r.text, /<p class="field-error" id="order-number-error">Error: Enter your order number\.<\/p>/);
    assert.doesNotMatch(element(r.text, 'email'), /aria-invalid/);
    assert.ok(element(r.text, 'email').includes(`value="${order.customerEmail}"`), 'the email is kept');
    assert.match(r.text, />kept<\/textarea>/);
    assert.equal(await rowCount(), before);
  });

  test('a missing or malformed email and an over-long reason are 422s; nothing written', async () => {
    const before = await rowCount();
    const missing = await submit({ orderNumber: order.incrementId });
    assertHtml(missing, 422);
    assert.match(missing.text, /<a href="#email">Enter the email address you used for the order\.<\/a>/);
    assert.match(element(missing.text, 'email'), /aria-invalid="true"/);
    for (const email of ['not-an-email', 'a@b', `${'x'.repeat(250)}@example.com`, 'a\u0001b@example.com']) {
      const r = await submit({ orderNumber: order.incrementId, email });
      assertHtml(r, 422);
      assert.match(r.text, /<a href="#email">Enter a valid email address/, email);
    }
    const long = await submit({ orderNumber: order.incrementId, email: order.customerEmail, reason: 'x'.repeat(2001) });
    assertHtml(long, 422);
    assert.match(long.text, /<a href="#reason">The reason is at most 2000 characters\.<\/a>/);
    assert.match(element(long.text, 'reason'), /aria-invalid="true"/);
    const nul = await submit({ orderNumber: order.incrementId, email: order.customerEmail, reason: 'a\u0000b' });
    assertHtml(nul, 422);
    const longNumber = await submit({ orderNumber: '1'.repeat(51), email: order.customerEmail });
    assertHtml(longNumber, 422);
    assert.equal(await rowCount(), before);
    const fine = await submit({ orderNumber: order.incrementId, email: order.customerEmail, reason: `${'x'.repeat(1999)}\n` });
    assert.equal(fine.status, 303, 'a reason of 2000 characters with a line break is fine');
  });

  test('a wrong email for the order and an unknown order give the same page, which reveals nothing; nothing written', async () => {
    const before = await rowCount();
    const wrongEmail = await submit({ orderNumber: order.incrementId, email: 'someone@else.example' });
    const unknown = await submit({ orderNumber: '999999999', email: 'someone@else.example' });
    assertHtml(wrongEmail, 422);
    assertHtml(unknown, 422);
    for (const r of [wrongEmail, unknown]) {
      assert.ok(r.text.includes(NOT_FOUND_MESSAGE));
      assert.match(element(r.text, 'order-number'), /aria-invalid="true"/);
      assert.match(element(r.text, 'email'), /aria-invalid="true"/);
    }
    assert.equal(withoutToken(wrongEmail.text).replace(order.incrementId, '999999999'), withoutToken(unknown.text));
    assert.equal(await rowCount(), before);
  });

  test('markup in the submitted values is escaped in the re-rendered page', async () => {
    const evilNumber = '<script>alert(1)</script>';
    const evilReason = '</textarea><img src=x onerror=alert(2)>"\'&';
    const r = await submit({ orderNumber: evilNumber, email: 'x@example.com', reason: evilReason });
    assertHtml(r, 422);
    assert.ok(r.text.includes(NOT_FOUND_MESSAGE));
    assert.doesNotMatch(r.text, /<script|<img/);
    assert.ok(r.text.includes('value="&lt;script&gt;alert(1)&lt;/script&gt;"'));
    assert.ok(r.text.includes('>&lt;/textarea&gt;&lt;img src=x onerror=alert(2)&gt;&quot;&#39;&amp;</textarea>'));
    const quoted = await submit({ orderNumber: '"><b>x', email: '"onfocus="alert(3)' });
    assertHtml(quoted, 422);
    assert.ok(quoted.text.includes('value="&quot;&gt;&lt;b&gt;x"'));
    assert.ok(quoted.text.includes('value="&quot;onfocus=&quot;alert(3)"'));
    assert.doesNotMatch(quoted.text, /<b>/);
  });

  test('an order past the cooling-off window is a 422 page saying so; nothing written', async () => {
    const old = await placeTestOrder(t);
    await t.database.db
      .update(orders)
      .set({ createdAt: sql`now() - make_interval(days => 20)` })
      .where(eq(orders.id, old.id));
    const before = await rowCount();
    const r = await submit({ orderNumber: old.incrementId, email: old.customerEmail });
    assertHtml(r, 422);
    assert.match(r.text, /<li>The revocation period for this order has expired\.<\/li>/);
    assert.equal(await rowCount(), before);
  });
});

describe('malformed requests', () => {
  let order: Awaited<ReturnType<typeof placeTestOrder>>;
  before(async () => {
    order = await placeTestOrder(t);
  });

  test('bad form encoding, a repeated field, another content type or an oversized body are 4xx HTML pages; nothing written', async () => {
    const form = await openForm();
    const good = `_csrf=${encodeURIComponent(form.token)}&orderNumber=${order.incrementId}&email=${encodeURIComponent(order.customerEmail)}`;
    const send = (raw: string | Buffer, headers: Record<string, string> = FORM_TYPE) =>
      t.req('POST', '/revocation', { raw, headers: { ...headers, cookie: form.cookie } });
    const before = await rowCount();

    assertHtml(await send(`${good}&reason=%E0%A4%A`), 400);
    assertHtml(await send(`${good}&email=other%40example.com`), 400);
    const json = await send(JSON.stringify({ _csrf: form.token, orderNumber: order.incrementId, email: order.customerEmail }), {
      'content-type': 'application/json',
    });
    assertHtml(json, 415);
    assert.doesNotMatch(json.text, /"error"/);
    assertHtml(await send(good, { 'content-type': 'multipart/form-data; boundary=x' }), 415);
    assertHtml(await send(good, { 'content-type': 'text/plain' }), 415);
    assertHtml(await send('', {}), 415);
    const big = await send(`${good}&reason=${'x'.repeat(17 * 1024)}`);
    assertHtml(big, 413);
    assert.equal(await rowCount(), before);

    assert.equal((await send(good)).status, 303, 'the same form, well formed, is accepted');
  });

  test('other addresses and methods under /revocation are 404 pages in the same style', async () => {
    for (const [method, url] of [
      ['GET', '/revocation/nope'],
      ['PUT', '/revocation'],
      ['DELETE', '/revocation/received'],
    ]) {
      const r = await t.req(method, url);
      assertHtml(r, 404);
      assert.match(r.text, /<h1>Page not found<\/h1>/);
      assert.equal(r.headers['x-frame-options'], 'DENY');
    }
  });
});

describe('revocation/general/enabled = 0', () => {
  test('the form, its POST and the confirmation are 404 pages; nothing written', async () => {
    const order = await placeTestOrder(t);
    const form = await openForm();
    const made = await submit({ orderNumber: order.incrementId, email: order.customerEmail });
    assert.equal(made.status, 303);
    const before = await rowCount();
    await config('revocation/general/enabled', '0', async () => {
      const page = await t.req('GET', '/revocation');
      assertHtml(page, 404);
      assert.equal(setCookieOf(page), undefined);
      assert.equal(
        page.headers['content-security-policy'],
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      );
      assertHtml(
        await post({ _csrf: form.token, orderNumber: order.incrementId, email: order.customerEmail }, { cookie: form.cookie }),
        404,
      );
      assertHtml(await t.req('GET', String(made.headers.location)), 404);
    });
    assert.equal(await rowCount(), before);
  });
});

describe('per-IP rate limit (revocation/abuse/ip_rate_limit_per_hour), with rate limits on', () => {
  let limited: TestApp;
  before(async () => {
    limited = await buildTestApp({ env: { RATE_LIMITS: '1', PUBLIC_URL: 'https://shop.test' } });
  });
  after(() => limited.close());

  test('the cookie is Secure when the shop is served over https', async () => {
    const form = await openForm(limited);
    assert.match(setCookieOf(form.page)!, /; HttpOnly; SameSite=Strict; Secure$/);
  });

  test('past the limit a submission is a 429 page with Retry-After and writes nothing; refused forms do not count', async () => {
    const order = await placeTestOrder(limited);
    const values = { orderNumber: order.incrementId, email: order.customerEmail };
    await config(
      'revocation/abuse/ip_rate_limit_per_hour',
      '2',
      async () => {
        for (let i = 0; i < 3; i++)
          assert.equal((await submit({ orderNumber: order.incrementId }, { app: limited })).status, 422, 'invalid forms');
        assert.equal((await post(values, { app: limited })).status, 403, 'no token');
        assert.equal((await submit(values, { app: limited })).status, 303);
        assert.equal((await submit({ ...values, email: 'other@example.com' }, { app: limited })).status, 422, 'unknown orders count');
        const before = await rowCount(limited);
        const r = await submit(values, { app: limited });
        assertHtml(r, 429);
        assert.equal(r.headers['retry-after'], '3600');
        assert.match(r.text, /Too many requests/);
        assert.equal(await rowCount(limited), before);

        // another address is not limited by this one's submissions
        const form = await openForm(limited);
        const other = await limited.app.inject({
          method: 'POST',
          url: '/revocation',
          remoteAddress: '127.0.9.1',
          headers: { ...FORM_TYPE, cookie: form.cookie },
          payload: new URLSearchParams({ _csrf: form.token, ...values }).toString(),
        });
        assert.equal(other.statusCode, 303);
      },
      limited,
    );
  });
});
