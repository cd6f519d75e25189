/**
 * Newsletter subscriptions: one row per email and store view (newsletter_subscribers), linked to the customer
 * account when there is one. Subscribe and unsubscribe are public; nothing a guest can send tells them whether
 * an email was subscribed before (only the customer who owns the subscription sees its state).
 */
import { and, desc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { randomToken, sha256Hex } from '../../platform/auth/secrets.js';
import { withTx, type Ctx } from '../../platform/context.js';
import { dateRangeConditions } from '../../platform/date-range.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { compact, isEmailAddress, wireDateTime } from '../../platform/format.js';
import { queueMail } from '../../platform/outbox.js';
import { configuredRule } from '../../platform/rate-limit.js';
import { declareDefaults } from '../../platform/settings.js';
import type { SubscribedExpression, SubscriptionLinker } from '../customers/subscription.js';
import { customers } from '../customers/tables.js';
import { stores } from '../stores/tables.js';
import type { ConfirmInput, NewsletterSubscriberDto, NewsletterSubscriptionDto, SubscribeInput, UnsubscribeInput } from './schemas.js';
import type { CollectionResult, Page } from '../../platform/pagination.js';
import { newsletterSubscribers } from './tables.js';
import { emitEvent } from '../webhooks/events.js';

declareDefaults({
  'newsletter/subscription/allow_guest_subscribe': 1,
  /** double opt-in: a new subscription stays not_active until the mailed code is confirmed */
  'newsletter/subscription/confirm': 0,
  /** per IP and per email, per hour */
  'api/rate_limit/newsletter_subscribe': 5,
  /** per IP, per hour */
  'api/rate_limit/newsletter_unsubscribe': 10,
});

export const MESSAGES = {
  subscribed: 'Thank you for your subscription.',
  confirmationSent: 'Confirmation request has been sent. Please check your email to confirm your subscription.',
  alreadySubscribed: 'You are already subscribed to our newsletter.',
  unsubscribed: 'You have been unsubscribed from our newsletter.',
  confirmed: 'Your subscription has been confirmed.',
};

const HOUR = 3600;

type SubscriberRow = typeof newsletterSubscribers.$inferSelect;

/**
 * The customers module's `isSubscribed`: a subscribed row carrying the customer's id. Every subscription of an
 * account's email is linked to it (at subscribe time when the account exists, by `linkCustomerSubscriptions`
 * when the account comes later), so one index probe answers it.
 */
export const subscribedExpression: SubscribedExpression = (c) => sql<boolean>`EXISTS (
    SELECT 1 FROM ${newsletterSubscribers} WHERE ${newsletterSubscribers.customerId} = ${c.id} AND ${newsletterSubscribers.status} = 'subscribed')`;

/** A new account takes over the unlinked subscriptions of its email in the store views of its website. */
export const linkCustomerSubscriptions: SubscriptionLinker = async (ctx, customer) => {
  await ctx.db
    .update(newsletterSubscribers)
    .set({ customerId: customer.id })
    .where(
      and(
        isNull(newsletterSubscribers.customerId),
        sql`lower(${newsletterSubscribers.email}) = ${customer.email.toLowerCase()}`,
        sql`${newsletterSubscribers.storeId} IN (SELECT ${stores.id} FROM ${stores} WHERE ${stores.websiteId} = ${customer.websiteId})`,
      ),
    );
};

function rule(ctx: Ctx, name: string) {
  return configuredRule(ctx.app.settings, name, HOUR, ctx.store.storeId);
}

/** Trimmed, lower-cased and checked; 400 when missing or malformed. */
function guestEmail(raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim() === '') {
    throw badRequest('Email address is required', { reason: 'EMAIL_REQUIRED', details: { field: 'email', constraint: 'required' } });
  }
  const e = raw.trim().toLowerCase();
  if (e.length > 254 || !isEmailAddress(e)) {
    throw badRequest('Invalid email address', { reason: 'INVALID_EMAIL', details: { field: 'email', constraint: 'format' } });
  }
  return e;
}

function targetStore(ctx: Ctx, storeId: number | undefined): { storeId: number; websiteId: number } {
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
  const [c] = await ctx.db
    .select({ id: customers.id, email: customers.email, websiteId: customers.websiteId })
    .from(customers)
    .where(eq(customers.id, ctx.actor.customerId));
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
async function lockOrCreate(ctx: Ctx, email: string, storeId: number, init: { status: string; customerId: number | null }): Promise<{ row: SubscriberRow; created: boolean }> {
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

async function mailConfirmation(ctx: Ctx, email: string, storeId: number, code: string): Promise<void> {
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
  const limit = rule(ctx, 'newsletter_subscribe');
  await ctx.app.limiter.consume(limit, `ip:${ctx.ip}`);
  const me = await account(ctx);
  const { storeId, websiteId } = targetStore(ctx, input.storeId);
  const settings = ctx.app.settings;
  if (!me && !settings.getBool('newsletter/subscription/allow_guest_subscribe', storeId)) {
    throw badRequest('Guest subscription is not allowed. Please log in or create an account to subscribe.', { reason: 'GUEST_SUBSCRIBE_DISABLED' });
  }
  const email = me ? me.email : guestEmail(input.email);
  await ctx.app.limiter.consume(limit, `email:${email}`);
  const confirm = settings.getBool('newsletter/subscription/confirm', storeId);
  const wanted = confirm ? 'not_active' : 'subscribed';

  return withTx(ctx, async (tx) => {
    let customerId = me?.id ?? null;
    if (customerId === null) {
      const [owner] = await tx.db
        .select({ id: customers.id })
        .from(customers)
        .where(and(eq(customers.websiteId, websiteId), eq(customers.email, email)));
      customerId = owner?.id ?? null;
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
        await mailConfirmation(tx, email, storeId, code);
      }
      [current] = await tx.db
        .update(newsletterSubscribers)
        .set({ status: wanted, confirmCodeHash: codeHash, customerId: customerId ?? row.customerId, changeStatusAt: ctx.now })
        .where(eq(newsletterSubscribers.id, row.id))
        .returning();
      message = confirm ? MESSAGES.confirmationSent : MESSAGES.subscribed;
      if (current.status === 'subscribed' && (created || row.status !== 'subscribed')) subscriberEvent(tx, 'newsletter.subscribed', current);
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
  const code = typeof input.code === 'string' ? input.code.trim() : '';
  if (!code) throw badRequest('Confirmation code is required', { reason: 'CODE_REQUIRED', details: { field: 'code', constraint: 'required' } });
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
  return { email: row.email, storeId: row.storeId, status: 'subscribed', isSubscribed: true, confirmationRequired: false, message: MESSAGES.confirmed };
}

/**
 * POST /newsletter/unsubscribe: public, by email (a customer token uses the account email and also covers rows
 * linked to the account). Every row of that email in the store's website ends unsubscribed; the reply is the
 * same whether or not there was any.
 */
export async function unsubscribe(ctx: Ctx, input: UnsubscribeInput): Promise<NewsletterSubscriptionDto> {
  await ctx.app.limiter.consume(rule(ctx, 'newsletter_unsubscribe'), `ip:${ctx.ip}`);
  const me = await account(ctx);
  const { storeId, websiteId } = targetStore(ctx, input.storeId);
  const email = me ? me.email : guestEmail(input.email);
  const inWebsite = and(
    sql`lower(${newsletterSubscribers.email}) = ${email}`,
    inArray(newsletterSubscribers.storeId, sql`(SELECT ${stores.id} FROM ${stores} WHERE ${stores.websiteId} = ${me ? me.websiteId : websiteId})`),
  )!;
  await withTx(ctx, async (tx) => {
    const left = await tx.db
      .update(newsletterSubscribers)
      .set({ status: 'unsubscribed', confirmCodeHash: null, changeStatusAt: ctx.now })
      .where(and(sql`${newsletterSubscribers.status} <> 'unsubscribed'`, me ? or(eq(newsletterSubscribers.customerId, me.id), inWebsite) : inWebsite))
      .returning();
    for (const r of left) subscriberEvent(tx, 'newsletter.unsubscribed', r);
  });
  return { email, storeId, status: 'unsubscribed', isSubscribed: false, confirmationRequired: false, message: MESSAGES.unsubscribed };
}

/** GET /newsletter/status: the calling customer's subscription (status `unknown` when they never had one). */
export async function status(ctx: Ctx): Promise<NewsletterSubscriptionDto> {
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
          inArray(newsletterSubscribers.storeId, sql`(SELECT ${stores.id} FROM ${stores} WHERE ${stores.websiteId} = ${me.websiteId})`),
        ),
      ),
    )
    .orderBy(sql`(${newsletterSubscribers.status} = 'subscribed') DESC`, sql`(${newsletterSubscribers.storeId} = ${ctx.store.storeId}) DESC`, desc(newsletterSubscribers.changeStatusAt), desc(newsletterSubscribers.id))
    .limit(1);
  if (!row) return { email: me.email, customerId: me.id, storeId: ctx.store.storeId, status: 'unknown', isSubscribed: false, confirmationRequired: false };
  return ownDto(row);
}

/** What an admin reads of a subscriber: its row, with its id. */
function adminDto(row: SubscriberRow): NewsletterSubscriberDto {
  return { id: row.id, ...ownDto(row) };
}

/** Rows of the store views a store-restricted admin token may see (every row for anyone else). */
function storeScope(ctx: Ctx): SQL | undefined {
  const a = ctx.actor;
  if (a.kind !== 'admin' || !a.allowedStoreIds) return undefined;
  return inArray(newsletterSubscribers.storeId, a.allowedStoreIds.length ? a.allowedStoreIds : [-1]);
}

/** newsletter.subscribed / newsletter.unsubscribed, with the subscriber as the back office reads it. */
function subscriberEvent(tx: Ctx, type: 'newsletter.subscribed' | 'newsletter.unsubscribed', row: typeof newsletterSubscribers.$inferSelect): void {
  emitEvent(tx, type, { resource: 'newsletter_subscriber', id: row.id, storeId: row.storeId }, adminDto(row));
}

/** GET /newsletter/subscribers (admin): by id, filtered by email (exact) and status. */
export async function listSubscribers(
  ctx: Ctx,
  q: { email?: string; status?: string; createdFrom?: string; createdTo?: string; updatedSince?: string },
  page: Page,
): Promise<CollectionResult<NewsletterSubscriberDto>> {
  const conds: SQL[] = dateRangeConditions({ created: newsletterSubscribers.createdAt, updated: newsletterSubscribers.changeStatusAt }, q);
  if (q.email?.trim()) conds.push(sql`lower(${newsletterSubscribers.email}) = ${q.email.trim().toLowerCase()}`);
  if (q.status) conds.push(eq(newsletterSubscribers.status, q.status));
  const scope = storeScope(ctx);
  if (scope) conds.push(scope);
  const where = conds.length ? and(...conds) : undefined;
  const [rows, [counted]] = await Promise.all([
    ctx.db.select().from(newsletterSubscribers).where(where).orderBy(newsletterSubscribers.id).limit(page.size).offset(page.offset),
    ctx.db.select({ n: sql<number>`count(*)::int` }).from(newsletterSubscribers).where(where),
  ]);
  return { items: rows.map(adminDto), total: Number(counted?.n ?? 0) };
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
