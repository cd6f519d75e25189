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
import {
  EMAIL_MAX,
  formPage,
  messagePage,
  ORDER_NUMBER_MAX,
  PATH,
  receivedPage,
  EMPTY,
  type FormError,
  type FormValues,
  type PageScope,
  type Receipt,
} from './web-form-pages.js';

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
  else if (v.orderNumber.length > ORDER_NUMBER_MAX)
    errors.push({ message: `The order number is at most ${ORDER_NUMBER_MAX} characters.`, fields: ['orderNumber'] });
  else if (CONTROL.test(v.orderNumber))
    errors.push({ message: 'The order number contains characters that are not allowed.', fields: ['orderNumber'] });
  if (!v.email) errors.push({ message: 'Enter the email address you used for the order.', fields: ['email'] });
  else if (v.email.length > EMAIL_MAX || !isEmailAddress(v.email) || CONTROL.test(v.email)) {
    errors.push({ message: 'Enter a valid email address, like name@example.com.', fields: ['email'] });
  }
  if (v.reason.length > REASON_MAX_LENGTH)
    errors.push({ message: `The reason is at most ${REASON_MAX_LENGTH} characters.`, fields: ['reason'] });
  else if (CONTROL_EXCEPT_BREAKS.test(v.reason))
    errors.push({ message: 'The reason contains characters that are not allowed.', fields: ['reason'] });
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
      if (err.status >= 500)
        return {
          status: 500,
          html: messagePage(scope, 'Something went wrong', 'Your revocation could not be recorded. Please try again later.'),
        };
      return {
        status: err.status,
        html: messagePage(
          scope,
          'The request could not be processed',
          err.status === 400 ? 'The form data could not be read. Please send the form again from the revocation page.' : err.message,
        ),
      };
  }
}

function tooManyPage(scope: PageScope): string {
  return messagePage(scope, 'Too many requests', 'Too many revocations were sent from your network. Please try again in an hour.');
}

// ---- routes ----

/** GET /revocation, POST /revocation and the confirmation page, in a scope of their own (parser, errors, 404s). */
export function webFormRoutes(app: FastifyInstance): void {
  app.register(
    async (scope) => {
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
    },
    { prefix: PATH },
  );
}
