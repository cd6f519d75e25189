/**
 * The public revocation web form at /revocation: plain HTML that works without JavaScript, for guests who have
 * no account. A submission goes through `submitRevocation` like the API's, so the declaration, its mails, the
 * cooling-off window, the feature switch and the per-IP limit are the same.
 *
 * CSRF protection is stateless, so that any process behind a load balancer can check a form another one
 * served: the page sets a random cookie and embeds an HMAC of it (and of the time it was issued) in the form;
 * a POST must bring both. A success redirects (303) to a confirmation address carrying the declaration's
 * summary under an HMAC, so that a reload shows the page again instead of declaring twice.
 */
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { access } from '../../platform/auth/access.js';
import type { Ctx } from '../../platform/context.js';
import { AppError, badRequest } from '../../platform/errors.js';
import { isEmailAddress } from '../../platform/format.js';
import { toAppError } from '../../platform/http.js';
import type { RevocationRequestDto } from './schemas.js';
import { REASON_MAX_LENGTH, submitRevocation } from './service.js';
import { deriveKey } from '../../platform/keys.js';
import { safeEqual } from '../../platform/auth/secrets.js';

const PATH = '/revocation';
const RECEIVED_PATH = '/revocation/received';
const COOKIE = 'revocation_csrf';
/** the form posts three short fields; anything bigger is not ours */
const BODY_LIMIT = 16 * 1024;
/** how long a served form can be submitted */
const FORM_TTL_MS = 2 * 3600 * 1000;
/** tolerated clock difference between the processes of one shop */
const CLOCK_SKEW_MS = 5 * 60 * 1000;
/** the per-IP window of revocation/abuse/ip_rate_limit_per_hour, the longest a refused client has to wait */
const RETRY_AFTER_SECONDS = 3600;
const ORDER_NUMBER_MAX = 50;
const EMAIL_MAX = 255;
/** control characters; the reason may hold line breaks and tabs */
const CONTROL = /[\u0000-\u001f\u007f]/;
const CONTROL_EXCEPT_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

const SECURITY_HEADERS: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

// ---- escaping and page templates ----

export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

type FieldName = 'orderNumber' | 'email' | 'reason';

const FIELD_IDS: Record<FieldName, string> = { orderNumber: 'order-number', email: 'email', reason: 'reason' };

interface FormError {
  message: string;
  /** the fields at fault; the summary links to the first. None: a problem with the submission as a whole */
  fields: FieldName[];
}

interface FormValues {
  orderNumber: string;
  email: string;
  reason: string;
}

const EMPTY: FormValues = { orderNumber: '', email: '', reason: '' };

/** What every page of a store shows: its language, name and the form's address in that store. */
interface PageScope {
  lang: string;
  storeName: string;
  /** `?store=<code>` when the caller named the store, so that the form posts to the same store */
  storeQuery: string;
  coolingOffDays: number;
}

function layout(scope: PageScope, title: string, main: string): string {
  const store = scope.storeName ? `<p class="store">${escapeHtml(scope.storeName)}</p>\n` : '';
  const fullTitle = scope.storeName ? `${title} – ${scope.storeName}` : title;
  return `<!DOCTYPE html>
<html lang="${escapeHtml(scope.lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(fullTitle)}</title>
<style>
body{font-family:system-ui,sans-serif;line-height:1.5;margin:0;color:#1b1b1b;background:#fff}
main{max-width:40rem;margin:0 auto;padding:1.5rem}
.store{font-weight:600;margin:0 0 .5rem}
.field{margin:0 0 1.25rem}
label{display:block;font-weight:600}
.hint{margin:.1rem 0 .3rem;color:#505a5f}
input,textarea{box-sizing:border-box;width:100%;font:inherit;padding:.4rem;border:2px solid #0b0c0c}
textarea{min-height:8rem}
[aria-invalid="true"]{border-color:#d4351c}
.field-error{color:#d4351c;font-weight:600;margin:.1rem 0}
.error-summary{border:4px solid #d4351c;padding:1rem;margin:0 0 1.5rem}
.error-summary h2{margin-top:0;font-size:1.2rem}
.error-summary a{color:#d4351c}
button{font:inherit;font-weight:600;padding:.5rem 1.25rem;background:#00703c;color:#fff;border:0;cursor:pointer}
:focus-visible{outline:3px solid #fd0;outline-offset:0}
dt{font-weight:600}
dd{margin:0 0 .75rem}
</style>
</head>
<body>
<main>
${store}${main}
</main>
</body>
</html>
`;
}

function errorSummary(errors: FormError[]): string {
  if (!errors.length) return '';
  const items = errors
    .map((e) => (e.fields.length ? `<li><a href="#${FIELD_IDS[e.fields[0]]}">${escapeHtml(e.message)}</a></li>` : `<li>${escapeHtml(e.message)}</li>`))
    .join('\n');
  return `<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1">
<h2 id="error-summary-title">There is a problem</h2>
<ul>
${items}
</ul>
</div>
`;
}

interface FieldSpec {
  name: FieldName;
  label: string;
  hint?: string;
  required: boolean;
  control: (attrs: string) => string;
}

function field(spec: FieldSpec, errors: FormError[]): string {
  const id = FIELD_IDS[spec.name];
  const own = errors.filter((e) => e.fields.includes(spec.name));
  const described = [spec.hint ? `${id}-hint` : '', own.length ? `${id}-error` : ''].filter(Boolean).join(' ');
  const attrs = [
    `id="${id}"`,
    `name="${spec.name}"`,
    spec.required ? 'required aria-required="true"' : '',
    own.length ? 'aria-invalid="true"' : '',
    described ? `aria-describedby="${described}"` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const label = `<label for="${id}">${escapeHtml(spec.label)}${spec.required ? '' : ' (optional)'}</label>`;
  const hint = spec.hint ? `\n<p class="hint" id="${id}-hint">${escapeHtml(spec.hint)}</p>` : '';
  const error = own.length ? `\n<p class="field-error" id="${id}-error">Error: ${own.map((e) => escapeHtml(e.message)).join(' ')}</p>` : '';
  return `<div class="field">
${label}${hint}${error}
${spec.control(attrs)}
</div>`;
}

function formPage(scope: PageScope, values: FormValues, csrf: string, errors: FormError[] = []): string {
  const period =
    scope.coolingOffDays > 0
      ? `<p>You can withdraw within ${escapeHtml(scope.coolingOffDays)} days. The period starts when you placed the order or, if it was shipped, when it was last shipped to you.</p>\n`
      : '';
  const main = `<h1>Withdraw from your order</h1>
<p>You have the right to withdraw from a purchase without giving a reason. Tell us the order number and the email
address you used for the order; we record your declaration and send you a receipt by email.</p>
${period}${errorSummary(errors)}<form method="post" action="${escapeHtml(PATH + scope.storeQuery)}">
<input type="hidden" name="_csrf" value="${escapeHtml(csrf)}">
${field(
  {
    name: 'orderNumber',
    label: 'Order number',
    hint: 'As shown in your order confirmation, for example 100000001.',
    required: true,
    control: (a) => `<input ${a} type="text" autocomplete="off" spellcheck="false" maxlength="${ORDER_NUMBER_MAX}" value="${escapeHtml(values.orderNumber)}">`,
  },
  errors,
)}
${field(
  {
    name: 'email',
    label: 'Email address',
    hint: 'The email address you used for the order.',
    required: true,
    control: (a) => `<input ${a} type="email" autocomplete="email" spellcheck="false" maxlength="${EMAIL_MAX}" value="${escapeHtml(values.email)}">`,
  },
  errors,
)}
${field(
  {
    name: 'reason',
    label: 'Reason',
    hint: 'You do not have to give a reason.',
    required: false,
    control: (a) => `<textarea ${a} maxlength="${REASON_MAX_LENGTH}" rows="6">${escapeHtml(values.reason)}</textarea>`,
  },
  errors,
)}
<button type="submit">Send revocation</button>
</form>`;
  return layout(scope, 'Withdraw from your order', main);
}

function messagePage(scope: PageScope, title: string, message: string): string {
  return layout(scope, title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`);
}

interface Receipt {
  id: number;
  orderReference: string;
  receivedAt: string;
  /** the receipt mail was not sent again: the address had one today */
  suppressed: boolean;
}

function receivedPage(scope: PageScope, r: Receipt): string {
  const mail = r.suppressed
    ? 'We already sent a receipt to your email address today, so no further receipt is sent for this declaration.'
    : 'A receipt has been sent to your email address.';
  const main = `<h1>Your revocation has been received</h1>
<p>We have recorded your declaration. ${escapeHtml(mail)} Please keep the reference for your records.</p>
<dl>
<dt>Reference</dt>
<dd>${escapeHtml(r.id)}</dd>
<dt>Order number</dt>
<dd>${escapeHtml(r.orderReference)}</dd>
<dt>Submitted</dt>
<dd>${escapeHtml(r.receivedAt)} UTC</dd>
</dl>`;
  return layout(scope, 'Your revocation has been received', main);
}

// ---- request helpers ----

function pageScope(req: FastifyRequest): PageScope {
  const ctx = req.ctx as Ctx | null;
  // the context is missing when the request was refused before it was built (an unknown store)
  if (!ctx) return { lang: 'en', storeName: '', storeQuery: '', coolingOffDays: 0 };
  const s = ctx.app.settings;
  const storeId = ctx.store.storeId;
  const locale = (s.get('general/locale/code', storeId) ?? '').trim().replace(/_/g, '-');
  return {
    lang: /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(locale) ? locale : 'en',
    storeName: s.store(storeId)?.name ?? '',
    storeQuery: ctx.store.explicit ? `?store=${encodeURIComponent(ctx.store.storeCode)}` : '',
    coolingOffDays: Math.max(0, s.getInt('revocation/general/cooling_off_days', storeId)),
  };
}

function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.code(status).headers(SECURITY_HEADERS).send(html);
}

function enabled(ctx: Ctx): boolean {
  return ctx.app.settings.getBool('revocation/general/enabled', ctx.store.storeId);
}

function notFoundPage(scope: PageScope): string {
  return messagePage(scope, 'Page not found', 'This page does not exist.');
}

/** One key per installation for the form's HMACs, derived from the JWT secret and used for nothing else. */
function formKey(ctx: Ctx): Buffer {
  return deriveKey(ctx.app.config.jwtSecret, 'revocation-form');
}

function mac(key: Buffer, purpose: string, data: string): string {
  return crypto.createHmac('sha256', key).update(`${purpose}:${data}`).digest('base64url');
}

function cookieValue(req: FastifyRequest): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === COOKIE) {
      const v = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{43}$/.test(v) ? v : undefined;
    }
  }
  return undefined;
}

function isHttps(req: FastifyRequest): boolean {
  return req.protocol === 'https' || (req.ctx?.app.config.publicUrl ?? '').startsWith('https:');
}

/**
 * The token of a form to render: an HMAC of the browser's cookie (a new one unless `reuse` and the browser
 * has a well-formed one; other open forms of the same browser stay valid then) and of the time of issue.
 */
function issueToken(req: FastifyRequest, reply: FastifyReply, reuse: boolean): string {
  let cookie = reuse ? cookieValue(req) : undefined;
  if (!cookie) {
    cookie = crypto.randomBytes(32).toString('base64url');
    const secure = isHttps(req) ? '; Secure' : '';
    reply.header('set-cookie', `${COOKIE}=${cookie}; Path=${PATH}; HttpOnly; SameSite=Strict${secure}`);
  }
  const issued = String(req.ctx.now.getTime());
  return `${issued}.${mac(formKey(req.ctx), 'csrf', `${cookie}.${issued}`)}`;
}

/** True when the POST brings the cookie and a token made from it, issued within the form's lifetime. */
function tokenValid(req: FastifyRequest, token: string | undefined): boolean {
  const cookie = cookieValue(req);
  const m = /^(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(token ?? '');
  if (!cookie || !m) return false;
  const age = req.ctx.now.getTime() - Number(m[1]);
  if (age > FORM_TTL_MS || age < -CLOCK_SKEW_MS) return false;
  return safeEqual(m[2], mac(formKey(req.ctx), 'csrf', `${cookie}.${m[1]}`));
}

/** A browser's Origin, when it sends one, must be this server's: as reached, or as configured. */
function originAllowed(req: FastifyRequest): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  const own = new Set([`${req.protocol}://${req.host}`.toLowerCase()]);
  for (const url of [req.ctx.app.config.publicUrl, req.ctx.app.settings.baseUrl(req.ctx.store.storeId)]) {
    if (!url) continue;
    try {
      own.add(new URL(url).origin);
    } catch {
      // a malformed configured URL names no origin
    }
  }
  return own.has(origin.trim().toLowerCase());
}

function encodeReceipt(key: Buffer, r: Receipt): string {
  const payload = Buffer.from(JSON.stringify([r.id, r.orderReference, r.receivedAt, r.suppressed ? 1 : 0])).toString('base64url');
  return `${payload}.${mac(key, 'receipt', payload)}`;
}

function decodeReceipt(key: Buffer, value: unknown): Receipt | undefined {
  const m = typeof value === 'string' ? /^([A-Za-z0-9_-]{1,1000})\.([A-Za-z0-9_-]{43})$/.exec(value) : null;
  if (!m || !safeEqual(m[2], mac(key, 'receipt', m[1]))) return undefined;
  try {
    const [id, orderReference, receivedAt, suppressed] = JSON.parse(Buffer.from(m[1], 'base64url').toString('utf8')) as unknown[];
    if (typeof id !== 'number' || typeof orderReference !== 'string' || typeof receivedAt !== 'string') return undefined;
    return { id, orderReference, receivedAt, suppressed: suppressed === 1 };
  } catch {
    return undefined;
  }
}

/**
 * `application/x-www-form-urlencoded`, strictly: a malformed escape or a field given twice is a 400 rather than
 * a guess. Values are strings; unknown fields are kept and ignored.
 */
export function parseUrlEncoded(body: string): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  if (!body) return out;
  for (const pair of body.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    let name: string;
    let value: string;
    try {
      name = decode(eq < 0 ? pair : pair.slice(0, eq));
      value = eq < 0 ? '' : decode(pair.slice(eq + 1));
    } catch {
      throw badRequest('Malformed form data', { reason: 'MALFORMED_FORM' });
    }
    if (name in out) throw badRequest(`The field ${name} was sent twice`, { reason: 'MALFORMED_FORM' });
    out[name] = value;
  }
  return out;
}

function validate(v: FormValues): FormError[] {
  const errors: FormError[] = [];
  if (!v.orderNumber) errors.push({ message: 'Enter your order number.', fields: ['orderNumber'] });
  else if (v.orderNumber.length > ORDER_NUMBER_MAX) errors.push({ message: `The order number is at most ${ORDER_NUMBER_MAX} characters.`, fields: ['orderNumber'] });
  else if (CONTROL.test(v.orderNumber)) errors.push({ message: 'The order number contains characters that are not allowed.', fields: ['orderNumber'] });
  if (!v.email) errors.push({ message: 'Enter the email address you used for the order.', fields: ['email'] });
  else if (v.email.length > EMAIL_MAX || !isEmailAddress(v.email) || CONTROL.test(v.email)) {
    errors.push({ message: 'Enter a valid email address, like name@example.com.', fields: ['email'] });
  }
  if (v.reason.length > REASON_MAX_LENGTH) errors.push({ message: `The reason is at most ${REASON_MAX_LENGTH} characters.`, fields: ['reason'] });
  else if (CONTROL_EXCEPT_BREAKS.test(v.reason)) errors.push({ message: 'The reason contains characters that are not allowed.', fields: ['reason'] });
  return errors;
}

const NOT_FOUND_MESSAGE = 'We could not find an order with this number and email address.';

/** Status and wording of the pages for errors that are not the form's: the request itself was refused. */
function errorPage(scope: PageScope, err: AppError): { status: number; html: string } {
  switch (err.status) {
    case 404:
      return { status: 404, html: notFoundPage(scope) };
    case 413:
      return { status: 413, html: messagePage(scope, 'The form is too large', 'Please shorten your entries and send the form again.') };
    case 415:
      return { status: 415, html: messagePage(scope, 'Unsupported form', 'Please send the form from the revocation page.') };
    case 429:
      return { status: 429, html: tooManyPage(scope) };
    default:
      if (err.status >= 500) return { status: 500, html: messagePage(scope, 'Something went wrong', 'Your revocation could not be recorded. Please try again later.') };
      return { status: err.status, html: messagePage(scope, 'The request could not be processed', err.status === 400 ? 'The form data could not be read. Please send the form again from the revocation page.' : err.message) };
  }
}

function tooManyPage(scope: PageScope): string {
  return messagePage(scope, 'Too many requests', 'Too many revocations were sent from your network. Please try again in an hour.');
}

// ---- routes ----

/** GET /revocation, POST /revocation and the confirmation page, in a scope of their own (parser, errors, 404s). */
export function webFormRoutes(app: FastifyInstance): void {
  app.register(async (scope) => {
    // only form posts, read here with a small limit; JSON, multipart and the rest are refused with a 415 page
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_req, body, done) => {
      try {
        done(null, parseUrlEncoded(String(body)));
      } catch (err) {
        done(err as Error, undefined);
      }
    });
    scope.setErrorHandler((err, req, reply) => {
      const appErr = toAppError(err);
      if (appErr.status >= 500) req.log.error({ err }, 'revocation form failed');
      else req.log.debug({ err: appErr.message, reason: appErr.reason }, 'revocation form request refused');
      const { status, html } = errorPage(pageScope(req), appErr);
      if (status === 429) reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      return sendPage(reply, status, html);
    });
    scope.setNotFoundHandler((req, reply) => sendPage(reply, 404, notFoundPage(pageScope(req))));

    const config = { access: access.public };

    scope.get('', { config }, async (req, reply) => {
      const page = pageScope(req);
      if (!enabled(req.ctx)) return sendPage(reply, 404, notFoundPage(page));
      return sendPage(reply, 200, formPage(page, EMPTY, issueToken(req, reply, true)));
    });

    scope.post('', { config, bodyLimit: BODY_LIMIT }, async (req, reply) => {
      const ctx = req.ctx;
      const page = pageScope(req);
      if (!enabled(ctx)) return sendPage(reply, 404, notFoundPage(page));
      const body = req.body as Record<string, string> | undefined;
      if (!body || typeof body !== 'object') {
        return sendPage(reply, 415, messagePage(page, 'Unsupported form', 'Please send the form from the revocation page.'));
      }
      if (!originAllowed(req)) {
        const error = { message: 'This form can only be sent from this shop’s own revocation page. Please submit it again.', fields: [] };
        return sendPage(reply, 403, formPage(page, EMPTY, issueToken(req, reply, false), [error]));
      }
      const values: FormValues = {
        orderNumber: (body.orderNumber ?? '').trim(),
        email: (body.email ?? '').trim(),
        reason: (body.reason ?? '').trim(),
      };
      if (!tokenValid(req, body._csrf)) {
        const error = { message: 'The form expired, please submit it again.', fields: [] };
        return sendPage(reply, 403, formPage(page, values, issueToken(req, reply, false), [error]));
      }
      const invalid = validate(values);
      if (invalid.length) return sendPage(reply, 422, formPage(page, values, issueToken(req, reply, true), invalid));

      // a guest declaration, whatever credentials the browser may also carry
      const guest: Ctx = { ...ctx, actor: { kind: 'anonymous' } };
      let made: RevocationRequestDto;
      try {
        made = await submitRevocation(guest, {
          orderReference: values.orderNumber,
          email: values.email,
          reason: values.reason || undefined,
          channel: 'web_form',
        });
      } catch (err) {
        const refused = err instanceof AppError ? err : undefined;
        if (refused?.reason === 'ORDER_NOT_FOUND') {
          const error: FormError = { message: NOT_FOUND_MESSAGE, fields: ['orderNumber', 'email'] };
          return sendPage(reply, 422, formPage(page, values, issueToken(req, reply, true), [error]));
        }
        if (refused?.status === 422) {
          const error: FormError = { message: `${refused.message}.`, fields: [] };
          return sendPage(reply, 422, formPage(page, values, issueToken(req, reply, true), [error]));
        }
        throw err;
      }
      const receipt = encodeReceipt(formKey(ctx), {
        id: made.id,
        orderReference: made.orderReference,
        receivedAt: made.receivedAt,
        suppressed: made.suppressedAt !== undefined,
      });
      const query = page.storeQuery ? `${page.storeQuery}&` : '?';
      reply.header('location', `${RECEIVED_PATH}${query}r=${receipt}`);
      return sendPage(reply, 303, messagePage(page, 'Your revocation has been received', 'Continue to the confirmation page.'));
    });

    scope.get(RECEIVED_PATH.slice(PATH.length), { config }, async (req, reply) => {
      const page = pageScope(req);
      if (!enabled(req.ctx)) return sendPage(reply, 404, notFoundPage(page));
      const receipt = decodeReceipt(formKey(req.ctx), (req.query as Record<string, unknown>).r);
      if (!receipt) return sendPage(reply, 404, messagePage(page, 'Confirmation not found', 'This confirmation link is not valid.'));
      return sendPage(reply, 200, receivedPage(page, receipt));
    });
  }, { prefix: PATH });
}
