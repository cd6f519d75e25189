/**
 * Contact form: the public config (captcha provider, honeypot field) and the submission, which mails the
 * store contact. Rate limited per IP and store and per email (api/rate_limit/contact, 5 an hour).
 */
import crypto from 'node:crypto';
import type { Ctx } from '../../platform/context.js';
import { verifyCaptcha } from '../../platform/captcha.js';
import { notFound, unprocessable } from '../../platform/errors.js';
import { isEmailAddress } from '../../platform/format.js';
import { queueMail } from '../../platform/outbox.js';
import { configuredRule } from '../../platform/rate-limit.js';
import { declareConfig, declareConfigLabels } from '../../platform/settings.js';
import type { ContactConfigDto, ContactResultDto, ContactSubmitInput } from './schemas.js';
import { deriveKey } from '../../platform/keys.js';

declareConfigLabels({ contacts: 'Contacts', 'contacts/api': 'Contact Us', 'contacts/email': 'Email Options' });
declareConfig({
  'contacts/api/enabled': { type: 'boolean', default: true, label: 'Enable Contact Form through the API' },
  'contacts/email/recipient_email': { type: 'email', default: 'owner@example.com', label: 'Send Emails To', required: true },
  'contacts/captcha/provider': {
    type: 'string',
    default: 'none',
    label: 'Captcha',
    comment: 'none, turnstile, recaptcha_v3 or a provider id registered by a module',
    pattern: /^[a-z0-9_]{1,32}$/,
  },
  'contacts/captcha/site_key': { type: 'string', default: '', label: 'Site Key' },
  'contacts/captcha/secret_key': { type: 'secret', default: '', label: 'Secret Key' },
  'contacts/captcha/min_score': {
    type: 'decimal',
    default: '0.5',
    label: 'Minimum Score',
    comment: 'reCAPTCHA v3: 0 to 1',
    min: 0,
    max: 1,
  },
  'contacts/honeypot/enabled': { type: 'boolean', default: true, label: 'Honeypot Field' },
  'api/rate_limit/contact': {
    type: 'integer',
    default: 5,
    label: 'Contact Form Posts',
    comment: 'contact form posts per IP an hour; 0: no limit',
    min: 0,
    scopes: ['default'],
  },
});

export const SUCCESS_MESSAGE = 'Your message has been sent. We will get back to you soon.';
const HOUR = 3600;
const MAX = { name: 255, email: 255, telephone: 64, comment: 10_000 };

/** `_h_` + 8 hex chars derived from the installation's JWT secret: stable per installation, reveals nothing. */
export function honeypotFieldName(secret: string): string {
  return `_h_${crypto.createHmac('sha256', deriveKey(secret, 'contact-honeypot')).update('field').digest('hex').slice(0, 8)}`;
}

function provider(ctx: Ctx): string {
  return (ctx.app.settings.get('contacts/captcha/provider', ctx.store.storeId) ?? '').trim() || 'none';
}

/** The store's contact address in a store view: where the contact form and notices to the shop owner go. */
export function storeContactEmail(ctx: Ctx, storeId: number): string {
  return (ctx.app.settings.get('contacts/email/recipient_email', storeId) ?? '').trim() || 'owner@example.com';
}

export function getContactConfig(ctx: Ctx): ContactConfigDto {
  const s = ctx.app.settings;
  const storeId = ctx.store.storeId;
  const captchaProvider = provider(ctx);
  // both keys are always there (null when off), as the spec's field table has them
  return {
    id: 'contact',
    enabled: s.getBool('contacts/api/enabled', storeId),
    captchaProvider,
    captchaSiteKey: captchaProvider === 'none' ? null : (s.get('contacts/captcha/site_key', storeId) ?? ''),
    honeypotField: s.getBool('contacts/honeypot/enabled', storeId) ? honeypotFieldName(ctx.app.config.jwtSecret) : null,
  };
}

function invalid(field: string, message: string, constraint: string) {
  return unprocessable(message, { reason: 'VALIDATION_FAILED', details: { field, constraint } });
}

function text(v: unknown): string {
  return typeof v === 'string' ? v.trim() : '';
}

function checkLength(field: keyof typeof MAX, value: string): void {
  if (value.length > MAX[field]) throw invalid(field, `${field} must be at most ${MAX[field]} characters`, 'maxLength');
}

export async function submitContact(ctx: Ctx, input: ContactSubmitInput): Promise<ContactResultDto> {
  const s = ctx.app.settings;
  const storeId = ctx.store.storeId;
  if (!s.getBool('contacts/api/enabled', storeId)) throw notFound('The contact form is disabled');

  const name = text(input.name);
  const email = text(input.email);
  const comment = text(input.comment) || text(input.message);
  const telephone = text(input.telephone) || text(input.phone);
  if (!name) throw invalid('name', 'name is required', 'required');
  checkLength('name', name);
  if (!email) throw invalid('email', 'email is required', 'required');
  if (email.length > MAX.email || !isEmailAddress(email)) throw invalid('email', 'Invalid email address', 'format');
  if (!comment) throw invalid('comment', 'comment is required', 'required');
  checkLength('comment', comment);
  checkLength('telephone', telephone);

  const rule = configuredRule(s, 'contact', HOUR, storeId);
  await ctx.app.limiter.consume(rule, `ip:${ctx.ip}:store:${storeId}`);
  await ctx.app.limiter.consume(rule, `email:${email.toLowerCase()}`);

  if (s.getBool('contacts/honeypot/enabled', storeId)) {
    const trap = input[honeypotFieldName(ctx.app.config.jwtSecret)];
    if (trap !== undefined && trap !== null && trap !== '') {
      ctx.log.info({ ip: ctx.ip }, 'contact form honeypot filled; message dropped');
      return { success: true, message: SUCCESS_MESSAGE };
    }
  }

  const minScore = Number(s.get('contacts/captcha/min_score', storeId));
  const passed = await verifyCaptcha(ctx, provider(ctx), input.captchaToken, ctx.ip, {
    secretKey: s.get('contacts/captcha/secret_key', storeId) ?? '',
    minScore: Number.isFinite(minScore) ? minScore : 0.5,
  });
  if (!passed) {
    const missing = !text(input.captchaToken);
    throw unprocessable(missing ? 'Captcha verification is required' : 'Captcha verification failed', {
      reason: missing ? 'CAPTCHA_REQUIRED' : 'CAPTCHA_FAILED',
      details: { field: 'captchaToken', constraint: missing ? 'required' : 'captcha' },
    });
  }

  const to = storeContactEmail(ctx, storeId);
  const lines = [
    `Reply-To: ${name} <${email}>`,
    '',
    `Name: ${name}`,
    `Email: ${email}`,
    ...(telephone ? [`Telephone: ${telephone}`] : []),
    '',
    'Comment:',
    comment,
  ];
  await queueMail(ctx, { to, subject: `Contact form: ${name}`, text: lines.join('\n'), template: 'contact/form' });
  return { success: true, message: SUCCESS_MESSAGE };
}
