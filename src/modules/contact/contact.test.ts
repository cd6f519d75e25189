/** GET /contact/config and POST /contact: validation, honeypot, captcha providers, mail. */
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { eq } from 'drizzle-orm';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import {
  RECAPTCHA_URL,
  registerCaptchaVerifier,
  setCaptchaFetch,
  TURNSTILE_URL,
  unregisterCaptchaVerifier,
  type CaptchaFetch,
} from '../../platform/captcha.js';
import { mailOutbox } from '../../platform/tables.js';
import { deleteConfig, setConfig } from '../stores/service.js';
import { honeypotFieldName, SUCCESS_MESSAGE } from './service.js';

let t: TestApp;
const touched = new Set<string>();
before(async () => {
  t = await buildTestApp();
  registerCaptchaVerifier('fake', async ({ token, secretKey }) => {
    if (token === 'down') throw new Error('connection refused');
    return token === 'good' && secretKey === 'fake-secret';
  });
});
after(async () => {
  unregisterCaptchaVerifier('fake');
  setCaptchaFetch(undefined);
  await t.close();
});
afterEach(async () => {
  for (const p of touched) await deleteConfig(t.database.db, t.services.settings, p);
  touched.clear();
  setCaptchaFetch(undefined);
});

async function cfg(path: string, value: string) {
  touched.add(path);
  await setConfig(t.database.db, t.services.settings, path, value);
}

let seq = 0;
const valid = () => ({ name: 'Jane Doe', email: `jane${++seq}@example.com`, comment: 'Hello there', telephone: '555-1234' });
const post = (body: unknown, token?: string) => t.req('POST', `${API}/contact`, { body, token });

async function mailsTo(email: string) {
  const rows = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.template, 'contact/form'));
  return rows.filter((r) => r.textBody.includes(email));
}

test('config: default shape (no captcha, honeypot on), public', async () => {
  const r = await t.req('GET', `${API}/contact/config`);
  assert.equal(r.status, 200);
  const field = honeypotFieldName(t.services.config.jwtSecret);
  assert.match(field, /^_h_[0-9a-f]{8}$/);
  assert.ok(!field.includes(t.services.config.jwtSecret.slice(0, 8)));
  assert.deepEqual(r.body, { id: 'contact', enabled: true, captchaProvider: 'none', captchaSiteKey: null, honeypotField: field });
  assert.match(r.text, /"captchaSiteKey":null/);
  assert.equal(honeypotFieldName(t.services.config.jwtSecret), field, 'deterministic');
  assert.notEqual(honeypotFieldName('another-secret'), field);
});

test('config: captcha site key shown with a provider; honeypot null when disabled', async () => {
  await cfg('contacts/captcha/provider', 'turnstile');
  await cfg('contacts/captcha/site_key', 'site-123');
  await cfg('contacts/captcha/secret_key', 'secret-never-shown');
  await cfg('contacts/honeypot/enabled', '0');
  await cfg('contacts/api/enabled', '0');
  const r = await t.req('GET', `${API}/contact/config`);
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, {
    id: 'contact',
    enabled: false,
    captchaProvider: 'turnstile',
    captchaSiteKey: 'site-123',
    honeypotField: null,
  });
  assert.match(r.text, /"honeypotField":null/);
  assert.ok(!r.text.includes('secret-never-shown'));
});

test('config: captchaSiteKey is always in the answer: a module provider gives its key, none gives null even with a key stored', async () => {
  await cfg('contacts/captcha/site_key', 'fake-site');
  await cfg('contacts/captcha/secret_key', 'fake-secret');
  await cfg('contacts/captcha/provider', 'fake');
  let r = await t.req('GET', `${API}/contact/config`);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.captchaProvider, 'fake');
  assert.equal(r.body.captchaSiteKey, 'fake-site');
  await cfg('contacts/captcha/provider', 'none');
  for (const accept of ['application/json', 'application/ld+json']) {
    r = await t.req('GET', `${API}/contact/config`, { headers: { accept } });
    assert.equal(r.status, 200, r.text);
    assert.ok(Object.hasOwn(r.body, 'captchaSiteKey'), `${accept}: ${r.text}`);
    assert.equal(r.body.captchaSiteKey, null, accept);
    assert.ok(!r.text.includes('fake-site'), accept);
  }
  // the OpenAPI document says so too: required, a string or null
  const doc = await t.req('GET', `${API}/openapi.json`);
  assert.equal(doc.status, 200);
  const schema = doc.body.paths['/api/rest/v2/contact/config'].get.responses['200'].content['application/json'].schema;
  assert.ok(schema.required.includes('captchaSiteKey') && schema.required.includes('honeypotField'), JSON.stringify(schema));
});

test('submit: success queues a mail to the store contact with the reply-to in the text', async () => {
  await cfg('contacts/email/recipient_email', 'support@shop.test');
  const body = { name: 'Jane Doe', email: 'jane.mail@example.com', message: 'About my order', phone: '555-9876' };
  const r = await post(body);
  assert.equal(r.status, 201);
  assert.deepEqual(r.body, { success: true, message: SUCCESS_MESSAGE });
  const [mail, ...more] = await mailsTo('jane.mail@example.com');
  assert.ok(mail, 'a mail');
  assert.equal(more.length, 0);
  assert.equal(mail.toAddress, 'support@shop.test');
  assert.match(mail.subject, /Jane Doe/);
  assert.match(mail.textBody, /Reply-To: Jane Doe <jane\.mail@example\.com>/);
  assert.match(mail.textBody, /About my order/);
  assert.match(mail.textBody, /Telephone: 555-9876/);
});

test('submit: default recipient and customer tokens are accepted too', async () => {
  const body = valid();
  const r = await post(body, await t.tokens.customer());
  assert.equal(r.status, 201);
  const [mail] = await mailsTo(body.email);
  assert.equal(mail.toAddress, 'owner@example.com');
});

test('submit: disabled is 404 and sends nothing', async () => {
  await cfg('contacts/api/enabled', '0');
  const body = valid();
  const r = await post(body);
  assert.equal(r.status, 404);
  assert.equal((await mailsTo(body.email)).length, 0);
});

test('submit: missing name, invalid email, missing comment are 422 naming the field', async () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ ...valid(), name: '  ' }, 'name'],
    [{ ...valid(), name: undefined }, 'name'],
    [{ ...valid(), email: 'not-an-email' }, 'email'],
    [{ ...valid(), email: undefined }, 'email'],
    [{ ...valid(), comment: '' }, 'comment'],
    [{ ...valid(), name: 'x'.repeat(256) }, 'name'],
  ];
  for (const [body, field] of cases) {
    const r = await post(body);
    assert.equal(r.status, 422, field);
    assert.equal(r.body.error, 'unprocessable_entity');
    assert.equal(r.body.details.field, field);
  }
  const r = await post({ ...valid(), name: 5 });
  assert.equal(r.status, 400, 'a wrong type is a 400');
  const rows = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.template, 'contact/form'));
  assert.ok(!rows.some((m) => m.textBody.includes('not-an-email')));
});

test('submit: a filled honeypot answers success and sends nothing; an empty one is fine', async () => {
  const field = honeypotFieldName(t.services.config.jwtSecret);
  const trapped = { ...valid(), [field]: 'http://spam.test' };
  const r = await post(trapped);
  assert.equal(r.status, 201);
  assert.deepEqual(r.body, { success: true, message: SUCCESS_MESSAGE });
  assert.equal((await mailsTo(trapped.email)).length, 0);
  const clean = { ...valid(), [field]: '' };
  assert.equal((await post(clean)).status, 201);
  assert.equal((await mailsTo(clean.email)).length, 1);
  await cfg('contacts/honeypot/enabled', '0');
  const off = { ...valid(), [field]: 'x' };
  assert.equal((await post(off)).status, 201);
  assert.equal((await mailsTo(off.email)).length, 1, 'honeypot disabled: the field is ignored');
});

test('captcha: a registered provider passes, refuses (422), is missing (422) or down (503)', async () => {
  await cfg('contacts/captcha/provider', 'fake');
  await cfg('contacts/captcha/secret_key', 'fake-secret');
  const ok = valid();
  assert.equal((await post({ ...ok, captchaToken: 'good' })).status, 201);
  assert.equal((await mailsTo(ok.email)).length, 1);

  const bad = valid();
  const refused = await post({ ...bad, captchaToken: 'bad' });
  assert.equal(refused.status, 422);
  assert.equal(refused.body.details.field, 'captchaToken');
  const missing = await post(bad);
  assert.equal(missing.status, 422);
  assert.equal(missing.body.details.constraint, 'required');
  const down = await post({ ...bad, captchaToken: 'down' });
  assert.equal(down.status, 503);
  assert.equal(down.body.error, 'service_unavailable');
  assert.equal((await mailsTo(bad.email)).length, 0);

  await cfg('contacts/captcha/provider', 'not-installed');
  assert.equal((await post({ ...valid(), captchaToken: 'good' })).status, 503, 'an unknown provider is unavailable');
});

function fakeFetch(answer: (url: string, form: URLSearchParams) => unknown, calls: { url: string; form: URLSearchParams }[]): CaptchaFetch {
  return async (url, init) => {
    const form = new URLSearchParams(init.body);
    calls.push({ url, form });
    const body = answer(url, form);
    if (body instanceof Error) throw body;
    if (typeof body === 'number') return { ok: false, status: body, json: async () => ({}) };
    return { ok: true, status: 200, json: async () => body };
  };
}

test('captcha: turnstile posts secret and response to Cloudflare', async () => {
  await cfg('contacts/captcha/provider', 'turnstile');
  await cfg('contacts/captcha/secret_key', 'ts-secret');
  const calls: { url: string; form: URLSearchParams }[] = [];
  setCaptchaFetch(
    fakeFetch(
      (_u, f) =>
        f.get('response') === 'down'
          ? new Error('ECONNREFUSED')
          : f.get('response') === '500'
            ? 500
            : { success: f.get('response') === 'ok-token' },
      calls,
    ),
  );
  const body = valid();
  assert.equal((await post({ ...body, captchaToken: 'ok-token' })).status, 201);
  assert.equal(calls[0].url, TURNSTILE_URL);
  assert.equal(calls[0].form.get('secret'), 'ts-secret');
  assert.equal(calls[0].form.get('response'), 'ok-token');
  assert.equal((await mailsTo(body.email)).length, 1);
  assert.equal((await post({ ...valid(), captchaToken: 'wrong' })).status, 422);
  assert.equal((await post({ ...valid(), captchaToken: 'down' })).status, 503);
  assert.equal((await post({ ...valid(), captchaToken: '500' })).status, 503);
  const n = calls.length;
  assert.equal((await post(valid())).status, 422, 'no token');
  assert.equal(calls.length, n, 'a missing token is not sent to the verifier');
});

test('captcha: recaptcha_v3 needs success and a score at or above min_score', async () => {
  await cfg('contacts/captcha/provider', 'recaptcha_v3');
  await cfg('contacts/captcha/secret_key', 'rc-secret');
  const calls: { url: string; form: URLSearchParams }[] = [];
  setCaptchaFetch(
    fakeFetch((_u, f) => {
      const tok = f.get('response') ?? '';
      if (tok === 'fail') return { success: false, 'error-codes': ['invalid-input-response'] };
      return { success: true, score: Number(tok) };
    }, calls),
  );
  assert.equal((await post({ ...valid(), captchaToken: '0.9' })).status, 201);
  assert.equal(calls[0].url, RECAPTCHA_URL);
  assert.equal(calls[0].form.get('secret'), 'rc-secret');
  assert.equal((await post({ ...valid(), captchaToken: '0.5' })).status, 201, 'the default minimum is 0.5');
  assert.equal((await post({ ...valid(), captchaToken: '0.3' })).status, 422);
  assert.equal((await post({ ...valid(), captchaToken: 'fail' })).status, 422);
  await cfg('contacts/captcha/min_score', '0.2');
  assert.equal((await post({ ...valid(), captchaToken: '0.3' })).status, 201);
});
