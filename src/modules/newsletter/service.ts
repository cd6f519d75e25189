/**
 * Newsletter subscriptions: one row per email and store view (newsletter_subscribers), linked to the customer
 * account when there is one. Subscribe and unsubscribe are public (unsubscribing needs the mailed code or the
 * account's login); nothing a guest can send tells them whether an email was subscribed before (only the
 * customer who owns the subscription sees its state).
 */
import crypto from 'node:crypto';
import { and, desc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { randomToken, safeEqual, sha256Hex } from '../../platform/auth/secrets.js';
import { withTx, type Ctx, type CustomerSubscriptions } from '../../platform/context.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { compact, isEmailAddress, wireDateTime } from '../../platform/format.js';
import { queueMail } from '../../platform/outbox.js';
import { configuredRule } from '../../platform/rate-limit.js';
import { declareConfig, declareConfigLabels } from '../../platform/settings.js';
import { customerIdByEmail, subscriberAccount } from '../customers/subscription.js';
import { storeIdsOfWebsiteSql } from '../stores/service.js';
import type { ConfirmInput, NewsletterSubscriberDto, NewsletterSubscriptionDto, SubscribeInput, UnsubscribeInput } from './schemas.js';
import { newsletterSubscribers } from './tables.js';
import { newsletterEvents } from './events.js';
import { deriveKey } from '../../platform/keys.js';

declareConfigLabels({ newsletter: 'Newsletter', 'newsletter/subscription': 'Subscription Options' });
declareConfig({
  'newsletter/subscription/allow_guest_subscribe': { type: 'boolean', default: true, label: 'Allow Guest Subscription' },
  'newsletter/subscription/confirm': {
    type: 'boolean',
    default: false,
    label: 'Need to Confirm',
    comment: 'double opt-in: a new subscription stays not active until the mailed code is confirmed',
  },
  'api/rate_limit/newsletter_subscribe': {
    type: 'integer',
    default: 5,
    label: 'Newsletter Subscriptions',
    comment: 'per IP and per email, per hour; 0: no limit',
    min: 0,
    scopes: ['default'],
  },
  'api/rate_limit/newsletter_unsubscribe': {
    type: 'integer',
    default: 10,
    label: 'Newsletter Unsubscriptions',
    comment: 'per IP, per hour; 0: no limit',
    min: 0,
    scopes: ['default'],
  },
});

export const MESSAGES = {
  subscribed: 'Thank you for your subscription.',
  confirmationSent: 'Confirmation request has been sent. Please check your email to confirm your subscription.',
  alreadySubscribed: 'You are already subscribed to our newsletter.',
  unsubscribed: 'You have been unsubscribed from our newsletter.',
  confirmed: 'Your subscription has been confirmed.',
};

const HOUR = 3600;

export type SubscriberRow = typeof newsletterSubscribers.$inferSelect;

/**
 * The customers module's `isSubscribed`: a subscribed row carrying the customer's id. Every subscription of an
 * account's email is linked to it (at subscribe time when the account exists, by `linkCustomerSubscriptions`
 * when the account comes later), so one index probe answers it.
 */
export const subscribedExpression: CustomerSubscriptions['subscribedSql'] = (customerId) => sql<boolean>`EXISTS (
    SELECT 1 FROM ${newsletterSubscribers} WHERE ${newsletterSubscribers.customerId} = ${customerId} AND ${newsletterSubscribers.status} = 'subscribed')`;

/** A new account takes over the unlinked subscriptions of its email in the store views of its website. */
export const linkCustomerSubscriptions: CustomerSubscriptions['link'] = async (ctx, customer) => {
  await ctx.db
    .update(newsletterSubscribers)
    .set({ customerId: customer.id })
    .where(
      and(
        isNull(newsletterSubscribers.customerId),
        sql`lower(${newsletterSubscribers.email}) = ${customer.email.toLowerCase()}`,
        inArray(newsletterSubscribers.storeId, storeIdsOfWebsiteSql(customer.websiteId)),
      ),
    );
};

/**
 * The code that proves a guest may unsubscribe this subscriber, as the `code` of Maho's unsubscribe link: made
 * from the subscriber's id and email with the server's secret, so any newsletter mail can carry it and nothing
 * needs storing. A change of the secret (JWT_SECRET) ends the codes already mailed.
 */
export function unsubscribeCode(ctx: Ctx, row: { id: number; email: string }): string {
  return crypto
    .createHmac('sha256', deriveKey(ctx.app.config.jwtSecret, 'newsletter-unsubscribe'))
    .update(`${row.id}\n${row.email.toLowerCase()}`)
    .digest('hex')
    .slice(0, 32);
}

/** The storefront's newsletter operations exist only where the store has the newsletter on. */
function assertActive(ctx: Ctx, storeId = ctx.store.storeId): void {
  if (!ctx.app.settings.getBool('newsletter/general/active', storeId)) {
    throw notFound('The newsletter is disabled in this store', { reason: 'NEWSLETTER_DISABLED' });
  }
}

/** The unsubscribe link a newsletter mail carries (id and code, as Maho's). */
export function unsubscribeLink(ctx: Ctx, row: { id: number; email: string; storeId: number }): string {
  return `${ctx.app.settings.baseUrl(row.storeId)}newsletter/subscriber/unsubscribe?id=${row.id}&code=${unsubscribeCode(ctx, row)}`;
}

function rule(ctx: Ctx, name: string) {
  return configuredRule(ctx.app.settings, name, HOUR, ctx.store.storeId);
}

/** Trimmed, lower-cased and checked; 400 when missing or malformed. */
export function guestEmail(raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim() === '') {
    throw badRequest('Email address is required', { reason: 'EMAIL_REQUIRED', details: { field: 'email', constraint: 'required' } });
  }
  const e = raw.trim().toLowerCase();
  if (e.length > 254 || !isEmailAddress(e)) {
    throw badRequest('Invalid email address', { reason: 'INVALID_EMAIL', details: { field: 'email', constraint: 'format' } });
  }
  return e;
}

export function targetStore(ctx: Ctx, storeId: number | undefined): { storeId: number; websiteId: number } {
  if (storeId === undefined) return { storeId: ctx.store.storeId, websiteId: ctx.store.websiteId };
  const s = ctx.app.settings.store(storeId);
  if (!s) throw badRequest(`Unknown store: ${storeId}`, { reason: 'UNKNOWN_STORE', details: { field: 'storeId' } });
  return { storeId: s.id, websiteId: s.websiteId };
}

interface Account {
  id: number;
  email: string;
  websiteId: number;
}

async function account(ctx: Ctx): Promise<Account | undefined> {
  if (ctx.actor.kind !== 'customer') return undefined;
  const c = await subscriberAccount(ctx, ctx.actor.customerId);
  if (!c) throw notFound('Customer not found');
  return { ...c, email: c.email.toLowerCase() };
}

function storeName(ctx: Ctx, storeId: number): string {
  const s = ctx.app.settings;
  return s.get('general/store_information/name', storeId) || s.store(storeId)?.name || 'our store';
}

/** The customer's own view of a row: everything, ids included. */
function ownDto(row: SubscriberRow, message?: string): NewsletterSubscriptionDto {
  return compact({
    subscriberId: row.id,
    email: row.email,
    customerId: row.customerId,
    storeId: row.storeId,
    changeStatusAt: wireDateTime(row.changeStatusAt),
    status: row.status,
    isSubscribed: row.status === 'subscribed',
    confirmationRequired: row.status === 'not_active',
    message,
  }) as NewsletterSubscriptionDto;
}

/** The row of (email, store view) locked for update, created with `status` when missing. */
export async function lockOrCreate(
  ctx: Ctx,
  email: string,
  storeId: number,
  init: { status: string; customerId: number | null },
): Promise<{ row: SubscriberRow; created: boolean }> {
  const find = async () =>
    (
      await ctx.db
        .select()
        .from(newsletterSubscribers)
        .where(and(sql`lower(${newsletterSubscribers.email}) = ${email}`, eq(newsletterSubscribers.storeId, storeId)))
        .for('update')
    )[0];
  const existing = await find();
  if (existing) return { row: existing, created: false };
  const [inserted] = await ctx.db
    .insert(newsletterSubscribers)
    .values({ email, storeId, status: init.status, customerId: init.customerId, changeStatusAt: ctx.now, createdAt: ctx.now })
    .onConflictDoNothing()
    .returning();
  if (inserted) return { row: inserted, created: true };
  const raced = await find();
  if (!raced) throw new Error('newsletter subscriber vanished while subscribing');
  return { row: raced, created: false };
}

async function mailConfirmation(ctx: Ctx, subscriberId: number, email: string, storeId: number, code: string): Promise<void> {
  const link = `${ctx.app.settings.baseUrl(storeId)}newsletter/subscriber/confirm?code=${code}&email=${encodeURIComponent(email)}`;
  const name = storeName(ctx, storeId);
  await queueMail(ctx, {
    to: email,
    subject: `Confirm your subscription to the ${name} newsletter`,
    template: 'newsletter/confirm',
    storeId,
    text: [
      'Hello,',
      '',
      `Thank you for subscribing to the ${name} newsletter. To confirm your subscription, open this link:`,
      '',
      link,
      '',
      `Or send this confirmation code: ${code}`,
      '',
      'If you did not ask for this, ignore this mail; you will not be subscribed.',
      '',
      `To unsubscribe at any time: ${unsubscribeLink(ctx, { id: subscriberId, email, storeId })}`,
    ].join('\n'),
  });
}

/**
 * POST /newsletter/subscribe. A customer subscribes their account email (a body email is ignored) and sees the
 * row; a guest sends `email` and gets a reply that depends only on the store config, never on the email's
 * previous state: with double opt-in off it always says "subscribed" (true afterwards either way), with it on
 * it always says a confirmation was requested (an already subscribed email is left subscribed and gets no mail,
 * so that the reply cannot be used to learn who is subscribed).
 */
export async function subscribe(ctx: Ctx, input: SubscribeInput): Promise<NewsletterSubscriptionDto> {
  assertActive(ctx);
  const limit = rule(ctx, 'newsletter_subscribe');
  await ctx.app.limiter.consume(limit, `ip:${ctx.ip}`);
  const me = await account(ctx);
  const { storeId, websiteId } = targetStore(ctx, input.storeId);
  assertActive(ctx, storeId);
  const settings = ctx.app.settings;
  if (!me && !settings.getBool('newsletter/subscription/allow_guest_subscribe', storeId)) {
    throw badRequest('Guest subscription is not allowed. Please log in or create an account to subscribe.', {
      reason: 'GUEST_SUBSCRIBE_DISABLED',
    });
  }
  const email = me ? me.email : guestEmail(input.email);
  await ctx.app.limiter.consume(limit, `email:${email}`);
  const confirm = settings.getBool('newsletter/subscription/confirm', storeId);
  const wanted = confirm ? 'not_active' : 'subscribed';

  return withTx(ctx, async (tx) => {
    let customerId = me?.id ?? null;
    if (customerId === null) {
      customerId = (await customerIdByEmail(tx, websiteId, email)) ?? null;
    }
    const { row, created } = await lockOrCreate(tx, email, storeId, { status: wanted, customerId });
    let current = row;
    let message: string;
    if (!created && row.status === 'subscribed') {
      message = MESSAGES.alreadySubscribed;
      if (customerId !== null && row.customerId !== customerId) {
        [current] = await tx.db.update(newsletterSubscribers).set({ customerId }).where(eq(newsletterSubscribers.id, row.id)).returning();
      }
    } else {
      let codeHash: string | null = null;
      if (confirm) {
        const code = randomToken();
        codeHash = sha256Hex(code);
        await mailConfirmation(tx, row.id, email, storeId, code);
      }
      [current] = await tx.db
        .update(newsletterSubscribers)
        .set({ status: wanted, confirmCodeHash: codeHash, customerId: customerId ?? row.customerId, changeStatusAt: ctx.now })
        .where(eq(newsletterSubscribers.id, row.id))
        .returning();
      message = confirm ? MESSAGES.confirmationSent : MESSAGES.subscribed;
      if (current.status === 'subscribed' && (created || row.status !== 'subscribed'))
        subscriberEvent(tx, 'newsletter.subscribed', current);
    }
    if (me) return ownDto(current, message);
    // Guests: built from the config alone (see above), never from the row.
    return {
      email,
      storeId,
      status: wanted,
      isSubscribed: !confirm,
      confirmationRequired: confirm,
      message: confirm ? MESSAGES.confirmationSent : MESSAGES.subscribed,
    };
  });
}

/** POST /newsletter/confirm: activates the subscription whose mailed code this is (400 for any other code). */
export async function confirmSubscription(ctx: Ctx, input: ConfirmInput): Promise<NewsletterSubscriptionDto> {
  assertActive(ctx);
  const code = typeof input.code === 'string' ? input.code.trim() : '';
  if (!code)
    throw badRequest('Confirmation code is required', { reason: 'CODE_REQUIRED', details: { field: 'code', constraint: 'required' } });
  const email = input.email === undefined || input.email === '' ? undefined : guestEmail(input.email);
  const conds: SQL[] = [eq(newsletterSubscribers.confirmCodeHash, sha256Hex(code)), eq(newsletterSubscribers.status, 'not_active')];
  if (email) conds.push(sql`lower(${newsletterSubscribers.email}) = ${email}`);
  const row = await withTx(ctx, async (tx) => {
    const [confirmed] = await tx.db
      .update(newsletterSubscribers)
      .set({ status: 'subscribed', confirmCodeHash: null, changeStatusAt: ctx.now })
      .where(and(...conds))
      .returning();
    if (confirmed) subscriberEvent(tx, 'newsletter.subscribed', confirmed);
    return confirmed;
  });
  if (!row) throw badRequest('Invalid or expired confirmation code', { reason: 'INVALID_CONFIRMATION_CODE', details: { field: 'code' } });
  if (ctx.actor.kind === 'customer' && row.customerId === ctx.actor.customerId) return ownDto(row, MESSAGES.confirmed);
  return {
    email: row.email,
    storeId: row.storeId,
    status: 'subscribed',
    isSubscribed: true,
    confirmationRequired: false,
    message: MESSAGES.confirmed,
  };
}

/**
 * POST /newsletter/unsubscribe. A customer token unsubscribes the account email: every row of it in the
 * account's website and every row linked to the account. Anyone else proves the subscription is theirs, as
 * Maho's unsubscribe link (id + code) does: the `code` from the newsletter mail with the subscriberId or the
 * email, or the confirmation code of a subscription still pending; that one row ends unsubscribed. An email
 * alone is a 400 and changes nothing.
 */
export async function unsubscribe(ctx: Ctx, input: UnsubscribeInput): Promise<NewsletterSubscriptionDto> {
  assertActive(ctx);
  await ctx.app.limiter.consume(rule(ctx, 'newsletter_unsubscribe'), `ip:${ctx.ip}`);
  const me = await account(ctx);
  if (!me) return unsubscribeByCode(ctx, input);
  const { storeId } = targetStore(ctx, input.storeId);
  const email = me.email;
  const inWebsite = and(
    sql`lower(${newsletterSubscribers.email}) = ${email}`,
    inArray(newsletterSubscribers.storeId, storeIdsOfWebsiteSql(me.websiteId)),
  )!;
  await withTx(ctx, async (tx) => {
    const left = await tx.db
      .update(newsletterSubscribers)
      .set({ status: 'unsubscribed', confirmCodeHash: null, changeStatusAt: ctx.now })
      .where(and(sql`${newsletterSubscribers.status} <> 'unsubscribed'`, or(eq(newsletterSubscribers.customerId, me.id), inWebsite)))
      .returning();
    for (const r of left) subscriberEvent(tx, 'newsletter.unsubscribed', r);
  });
  return { email, storeId, status: 'unsubscribed', isSubscribed: false, confirmationRequired: false, message: MESSAGES.unsubscribed };
}

/** Whether the code is this subscriber's unsubscribe code, or the confirmation code of its pending subscription. */
function provesSubscriber(ctx: Ctx, row: SubscriberRow, code: string): boolean {
  if (safeEqual(code, unsubscribeCode(ctx, row))) return true;
  return row.confirmCodeHash !== null && /^[a-f0-9]{64}$/.test(code) && safeEqual(sha256Hex(code), row.confirmCodeHash);
}

async function unsubscribeByCode(ctx: Ctx, input: UnsubscribeInput): Promise<NewsletterSubscriptionDto> {
  const email = input.email === undefined || input.email === '' ? undefined : guestEmail(input.email);
  const code = typeof input.code === 'string' ? input.code.trim() : '';
  if (!code) {
    throw badRequest('Unsubscribing needs the code from the newsletter mail, or a customer login', {
      reason: 'UNSUBSCRIBE_CODE_REQUIRED',
      details: { field: 'code', constraint: 'required' },
    });
  }
  let candidates: SubscriberRow[];
  if (input.subscriberId !== undefined) {
    candidates = await ctx.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.id, input.subscriberId));
    if (email) candidates = candidates.filter((r) => r.email.toLowerCase() === email);
  } else {
    if (!email)
      throw badRequest('Email address is required', { reason: 'EMAIL_REQUIRED', details: { field: 'email', constraint: 'required' } });
    const { websiteId } = targetStore(ctx, input.storeId);
    candidates = await ctx.db
      .select()
      .from(newsletterSubscribers)
      .where(
        and(sql`lower(${newsletterSubscribers.email}) = ${email}`, inArray(newsletterSubscribers.storeId, storeIdsOfWebsiteSql(websiteId))),
      );
  }
  const row = candidates.find((r) => provesSubscriber(ctx, r, code));
  if (!row) throw badRequest('Invalid unsubscribe code', { reason: 'INVALID_UNSUBSCRIBE_CODE', details: { field: 'code' } });
  await withTx(ctx, async (tx) => {
    const [left] = await tx.db
      .update(newsletterSubscribers)
      .set({ status: 'unsubscribed', confirmCodeHash: null, changeStatusAt: ctx.now })
      .where(and(eq(newsletterSubscribers.id, row.id), sql`${newsletterSubscribers.status} <> 'unsubscribed'`))
      .returning();
    if (left) subscriberEvent(tx, 'newsletter.unsubscribed', left);
  });
  return {
    email: row.email,
    storeId: row.storeId,
    status: 'unsubscribed',
    isSubscribed: false,
    confirmationRequired: false,
    message: MESSAGES.unsubscribed,
  };
}

/** GET /newsletter/status: the calling customer's subscription (status `unknown` when they never had one). */
export async function status(ctx: Ctx): Promise<NewsletterSubscriptionDto> {
  assertActive(ctx);
  const me = await account(ctx);
  if (!me) throw notFound('Customer not found');
  const [row] = await ctx.db
    .select()
    .from(newsletterSubscribers)
    .where(
      or(
        eq(newsletterSubscribers.customerId, me.id),
        and(
          sql`lower(${newsletterSubscribers.email}) = ${me.email}`,
          inArray(newsletterSubscribers.storeId, storeIdsOfWebsiteSql(me.websiteId)),
        ),
      ),
    )
    .orderBy(
      sql`(${newsletterSubscribers.status} = 'subscribed') DESC`,
      sql`(${newsletterSubscribers.storeId} = ${ctx.store.storeId}) DESC`,
      desc(newsletterSubscribers.changeStatusAt),
      desc(newsletterSubscribers.id),
    )
    .limit(1);
  if (!row)
    return {
      email: me.email,
      customerId: me.id,
      storeId: ctx.store.storeId,
      status: 'unknown',
      isSubscribed: false,
      confirmationRequired: false,
    };
  return ownDto(row);
}

/** What an admin reads of a subscriber: its row, with its id. */
export function adminDto(row: SubscriberRow): NewsletterSubscriberDto {
  return { id: row.id, ...ownDto(row) };
}

/** Rows of the store views a store-restricted admin token may see (every row for anyone else). */
export function storeScope(ctx: Ctx): SQL | undefined {
  const a = ctx.actor;
  if (a.kind !== 'admin' || !a.allowedStoreIds) return undefined;
  return inArray(newsletterSubscribers.storeId, a.allowedStoreIds.length ? a.allowedStoreIds : [-1]);
}

/** newsletter.subscribed / newsletter.unsubscribed, with the subscriber as the back office reads it. */
export function subscriberEvent(
  tx: Ctx,
  type: 'newsletter.subscribed' | 'newsletter.unsubscribed',
  row: typeof newsletterSubscribers.$inferSelect,
): void {
  newsletterEvents.emit(tx, type, { resource: 'newsletter_subscriber', id: row.id, storeId: row.storeId }, adminDto(row));
}

/** GET /newsletter/subscribers/{id} (admin). */
export async function getSubscriber(ctx: Ctx, id: number): Promise<NewsletterSubscriberDto> {
  const scope = storeScope(ctx);
  const [row] = await ctx.db
    .select()
    .from(newsletterSubscribers)
    .where(scope ? and(eq(newsletterSubscribers.id, id), scope) : eq(newsletterSubscribers.id, id));
  if (!row) throw notFound('Newsletter subscriber not found', { reason: 'SUBSCRIBER_NOT_FOUND' });
  return adminDto(row);
}
