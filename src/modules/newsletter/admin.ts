/**
 * The back office's side of the newsletter: the subscriber grid (filtered, searched and sorted), subscribing a
 * customer or an email directly (no confirmation mail: the shop's staff add who asked them to), and setting a
 * subscriber's status (unsubscribing in bulk is one request per subscriber). Each change emits the event a
 * storefront change would.
 */
import { and, asc, desc, eq, ilike, sql, type SQL } from 'drizzle-orm';
import { assertScopeWritable, withTx, type Ctx } from '../../platform/context.js';
import { dateRangeConditions } from '../../platform/date-range.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { likeEscape } from '../../platform/format.js';
import type { CollectionResult, Page } from '../../platform/pagination.js';
import { assertCustomerInScope } from '../customers/service.js';
import { customerIdByEmail, subscriberAccount } from '../customers/subscription.js';
import type { NewsletterSubscriberDto, SubscriberCreateInput, SubscriberListQueryT, SubscriberUpdateInput } from './schemas.js';
import { adminDto, guestEmail, lockOrCreate, storeScope, subscriberEvent, targetStore, type SubscriberRow } from './service.js';
import { newsletterSubscribers } from './tables.js';

const s = newsletterSubscribers;

const SORTS: Record<NonNullable<SubscriberListQueryT['sortBy']>, SQL | undefined> = {
  id: undefined,
  email: sql`lower(${s.email})`,
  status: sql`${s.status}`,
  storeId: sql`${s.storeId}`,
  customerId: sql`${s.customerId}`,
  createdAt: sql`${s.createdAt}`,
  changeStatusAt: sql`${s.changeStatusAt}`,
};

/** The store view a customer's subscription goes to: the one the account was created in, else its website's default. */
function accountStore(ctx: Ctx, storeId: number | null, websiteId: number): number {
  const r = ctx.app.settings;
  if (storeId !== null && r.store(storeId)) return storeId;
  const website = r.website(websiteId);
  const group = website?.defaultGroupId ? r.group(website.defaultGroupId) : undefined;
  return group?.defaultStoreId ?? ctx.store.storeId;
}

/** GET /newsletter/subscribers (admin): filtered, by id unless sortBy. */
export async function listSubscribers(ctx: Ctx, q: SubscriberListQueryT, page: Page): Promise<CollectionResult<NewsletterSubscriberDto>> {
  const conds: SQL[] = dateRangeConditions({ created: s.createdAt, updated: s.changeStatusAt }, q);
  if (q.email?.trim()) conds.push(sql`lower(${s.email}) = ${q.email.trim().toLowerCase()}`);
  if (q.search?.trim()) conds.push(ilike(s.email, `%${likeEscape(q.search.trim())}%`));
  if (q.status) conds.push(eq(s.status, q.status));
  if (q.customerId !== undefined) conds.push(eq(s.customerId, q.customerId));
  if (q.storeId !== undefined) conds.push(eq(s.storeId, q.storeId));
  if (q.isCustomer !== undefined) {
    const yes = q.isCustomer === 'true' || q.isCustomer === '1';
    conds.push(yes ? sql`${s.customerId} IS NOT NULL` : sql`${s.customerId} IS NULL`);
  }
  const scope = storeScope(ctx);
  if (scope) conds.push(scope);
  const where = conds.length ? and(...conds) : undefined;
  const dir = q.sortDir === 'desc' ? desc : asc;
  const by = SORTS[q.sortBy ?? 'id'];
  const order = by ? [dir(by), dir(s.id)] : [dir(s.id)];
  const [rows, [counted]] = await Promise.all([
    ctx.db
      .select()
      .from(s)
      .where(where)
      .orderBy(...order)
      .limit(page.size)
      .offset(page.offset),
    ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(s)
      .where(where),
  ]);
  return { items: rows.map(adminDto), total: Number(counted?.n ?? 0) };
}

/**
 * POST /newsletter/subscribers (admin): subscribes a customer (their sign-in email, in the store view of the
 * account unless storeId) or an email (in storeId, default the request's). The subscription is active at once;
 * an existing row of that email and store view is subscribed again. Answers the subscriber.
 */
export async function createSubscriber(ctx: Ctx, input: SubscriberCreateInput): Promise<NewsletterSubscriberDto> {
  const hasCustomer = input.customerId !== undefined;
  if (hasCustomer === (input.email !== undefined)) {
    throw badRequest('Give either customerId or email', {
      reason: 'VALIDATION_FAILED',
      details: { field: 'customerId', constraint: 'required' },
    });
  }
  let email: string;
  let storeId: number;
  let customerId: number | null;
  if (hasCustomer) {
    await assertCustomerInScope(ctx, input.customerId!);
    const c = await subscriberAccount(ctx, input.customerId!);
    if (!c) throw notFound('Customer not found');
    email = c.email.toLowerCase();
    customerId = c.id;
    if (input.storeId !== undefined) {
      const target = targetStore(ctx, input.storeId);
      if (target.websiteId !== c.websiteId) {
        throw badRequest("The store view is not of the customer's website", {
          reason: 'UNKNOWN_STORE',
          details: { field: 'storeId' },
        });
      }
      storeId = target.storeId;
    } else {
      storeId = accountStore(ctx, c.storeId, c.websiteId);
    }
  } else {
    email = guestEmail(input.email);
    const target = targetStore(ctx, input.storeId);
    storeId = target.storeId;
    customerId = (await customerIdByEmail(ctx, target.websiteId, email)) ?? null;
  }
  assertScopeWritable(ctx, [storeId], 'storeId');
  return withTx(ctx, async (tx) => {
    const { row, created } = await lockOrCreate(tx, email, storeId, { status: 'subscribed', customerId });
    if (created) {
      subscriberEvent(tx, 'newsletter.subscribed', row);
      return adminDto(row);
    }
    const wasSubscribed = row.status === 'subscribed';
    const [now] = await tx.db
      .update(s)
      .set({
        status: 'subscribed',
        confirmCodeHash: null,
        customerId: customerId ?? row.customerId,
        ...(wasSubscribed ? {} : { changeStatusAt: ctx.now }),
      })
      .where(eq(s.id, row.id))
      .returning();
    if (!wasSubscribed) subscriberEvent(tx, 'newsletter.subscribed', now);
    return adminDto(now);
  });
}

/**
 * PUT /newsletter/subscribers/{id} (admin): subscribes or unsubscribes the subscriber; a pending confirmation
 * is dropped either way. Setting the status it already has changes nothing.
 */
export async function updateSubscriber(ctx: Ctx, id: number, input: SubscriberUpdateInput): Promise<NewsletterSubscriberDto> {
  return withTx(ctx, async (tx) => {
    const scope = storeScope(tx);
    const [row] = await tx.db
      .select()
      .from(s)
      .where(scope ? and(eq(s.id, id), scope) : eq(s.id, id))
      .for('update');
    if (!row) throw notFound('Newsletter subscriber not found', { reason: 'SUBSCRIBER_NOT_FOUND' });
    if (input.status === undefined || row.status === input.status) return adminDto(row);
    const [now]: SubscriberRow[] = await tx.db
      .update(s)
      .set({ status: input.status, confirmCodeHash: null, changeStatusAt: ctx.now })
      .where(eq(s.id, id))
      .returning();
    subscriberEvent(tx, input.status === 'subscribed' ? 'newsletter.subscribed' : 'newsletter.unsubscribed', now);
    return adminDto(now);
  });
}
