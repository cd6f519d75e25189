/**
 * EU contract revocation declarations: submission by the order's owner (REST, GraphQL) or by anyone who knows the
 * order's number and email (the public web form), the customer's own list, and the back office's list, read and
 * processing update.
 * Every declaration is written; only its mails may be suppressed.
 */
import { and, count, desc, eq, gte, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { adminStoreScope, withTx, type Ctx } from '../../platform/context.js';
import { dateRangeConditions } from '../../platform/date-range.js';
import { badRequest, notFound, unprocessable } from '../../platform/errors.js';
import { compact, likeEscape, wireDateTime } from '../../platform/format.js';
import { queueMail } from '../../platform/outbox.js';
import type { CollectionResult, Page } from '../../platform/pagination.js';
import type { RateRule } from '../../platform/rate-limit.js';
import { declareConfig, declareConfigLabels, declaredDefault } from '../../platform/settings.js';
import { findOrder, findOrderByIncrementId, type OrderRow } from '../orders/core.js';
import { shipmentsForOrder } from '../shipments/service.js';
import {
  PROCESSED_STATUSES,
  REVOCATION_SORT_FIELDS,
  type RevocationListQueryT,
  type RevocationRequestDto,
  type RevocationUpdateInput,
} from './schemas.js';
import { revocationRequests } from './tables.js';
import { revocationEvents } from './events.js';
import { LOCKS } from '../../platform/locks.js';

declareConfigLabels({ revocation: 'Withdrawal (Revocation)', 'revocation/abuse': 'Abuse Protection' });
declareConfig({
  'revocation/general/enabled': { type: 'boolean', default: true, label: 'Enabled' },
  'revocation/general/cooling_off_days': {
    type: 'integer',
    default: 14,
    label: 'Withdrawal Period (days)',
    comment: 'after the later of order creation and its latest shipment; 0: no limit',
    min: 0,
  },
  'revocation/general/notify_email': {
    type: 'email',
    default: '',
    label: 'Notify Email',
    comment: 'where the store notice goes; empty: the contact form recipient',
  },
  'revocation/abuse/ip_rate_limit_per_hour': {
    type: 'integer',
    default: 5,
    label: 'Submissions per IP an Hour',
    comment: '0: no limit',
    min: 0,
  },
});

type Row = typeof revocationRequests.$inferSelect;

export interface SubmitRevocationInput {
  orderId?: number;
  orderReference?: string;
  reason?: string;
  /** guests (web form): must match the order's email */
  email?: string;
  channel: 'api' | 'web_form';
}

/** the longest reason a declaration takes, on every channel */
export const REASON_MAX_LENGTH = 2000;
const DAY_MS = 86_400_000;
/** advisory lock namespace of the per-recipient receipt decision (second key: the address and the UTC day) */

export const revocationNotFound = () => notFound('Revocation request not found', { reason: 'REVOCATION_REQUEST_NOT_FOUND' });
const orderNotFound = () => notFound('Order not found', { reason: 'ORDER_NOT_FOUND' });

/** 404 on every revocation endpoint while the feature is off. */
function assertEnabled(ctx: Ctx, storeId = ctx.store.storeId): void {
  if (!ctx.app.settings.getBool('revocation/general/enabled', storeId)) throw notFound('Not Found', { reason: 'REVOCATION_DISABLED' });
}

function isBackOffice(ctx: Ctx): boolean {
  return ctx.actor.kind === 'admin';
}

function view(row: Row, admin: boolean): RevocationRequestDto {
  return compact({
    id: row.id,
    orderId: row.orderId,
    orderReference: row.orderReference,
    reason: row.reason,
    customerName: row.customerName,
    email: row.email,
    verified: row.verified,
    storeId: row.storeId,
    receivedAt: wireDateTime(row.receivedAt)!,
    processedStatus: row.processedStatus,
    processedAt: wireDateTime(row.processedAt),
    suppressedAt: wireDateTime(row.suppressedAt),
    suppressedReason: row.suppressedReason,
    adminNote: admin ? row.adminNote : undefined,
    ip: admin ? row.ip : undefined,
    userAgent: admin ? row.userAgent : undefined,
  }) as RevocationRequestDto;
}

async function limitSubmissions(ctx: Ctx): Promise<void> {
  const rule: RateRule = {
    name: 'revocation_ip',
    limit: ctx.app.settings.getInt('revocation/abuse/ip_rate_limit_per_hour', ctx.store.storeId),
    windowSeconds: 3600,
  };
  await ctx.app.limiter.consume(rule, `ip:${ctx.ip}`);
}

/** The start of the cooling-off window: the later of the order's creation and its latest shipment. */
async function coolingOffStart(ctx: Ctx, order: OrderRow): Promise<Date> {
  let start = order.createdAt.getTime();
  for (const s of await shipmentsForOrder(ctx, order)) {
    const at = new Date(`${s.createdAt.replace(' ', 'T')}Z`).getTime();
    if (!Number.isNaN(at) && at > start) start = at;
  }
  return new Date(start);
}

function notifyAddress(ctx: Ctx, storeId: number): string {
  const s = ctx.app.settings;
  const own = (s.get('revocation/general/notify_email', storeId) ?? '').trim();
  if (own) return own;
  if (declaredDefault('contacts/email/recipient_email') !== undefined) {
    const contact = (s.get('contacts/email/recipient_email', storeId) ?? '').trim();
    if (contact) return contact;
  }
  return 'owner@example.com';
}

/**
 * Records a revocation declaration for an order: a signed-in customer's own order (channel api), or a guest's
 * order whose email matches `email` (channel web_form). 404 for an order the caller may not use, 422 past the
 * cooling-off window, 429 past the per-IP limit. Queues the customer's receipt (at most one per address a day;
 * otherwise the row is marked suppressed) and the store's notice in the same transaction.
 */
export async function submitRevocation(ctx: Ctx, input: SubmitRevocationInput): Promise<RevocationRequestDto> {
  assertEnabled(ctx);
  const reference = input.orderReference?.trim();
  if (input.orderId === undefined && !reference) throw badRequest('orderId or orderReference is required', { reason: 'ORDER_REQUIRED' });
  if (input.reason !== undefined && input.reason.length > REASON_MAX_LENGTH) {
    throw badRequest(`reason is at most ${REASON_MAX_LENGTH} characters`, { reason: 'REASON_TOO_LONG' });
  }
  await limitSubmissions(ctx);

  const order = input.orderId !== undefined ? (await findOrder(ctx, input.orderId))?.order : await findOrderByIncrementId(ctx, reference!);
  if (!order) throw orderNotFound();
  if (reference && order.incrementId !== reference) throw orderNotFound();
  const actor = ctx.actor;
  const verified = actor.kind === 'customer' && order.customerId === actor.customerId;
  if (actor.kind === 'customer') {
    if (!verified) throw orderNotFound();
  } else if (!input.email || input.email.trim().toLowerCase() !== order.customerEmail.toLowerCase()) {
    throw orderNotFound();
  }
  assertEnabled(ctx, order.storeId);

  const days = ctx.app.settings.getInt('revocation/general/cooling_off_days', order.storeId);
  if (days > 0) {
    const start = await coolingOffStart(ctx, order);
    if (ctx.now.getTime() > start.getTime() + days * DAY_MS) {
      throw unprocessable('The revocation period for this order has expired', { reason: 'REVOCATION_PERIOD_EXPIRED' });
    }
  }

  const email = order.customerEmail.trim().toLowerCase();
  const customerName = [order.customerFirstname, order.customerLastname].filter(Boolean).join(' ') || email;
  const row = await withTx(ctx, async (tx) => {
    const dayStart = new Date(Date.UTC(tx.now.getUTCFullYear(), tx.now.getUTCMonth(), tx.now.getUTCDate()));
    // "has this address had its receipt today?" and the insert that answers it for the next caller must not
    // interleave: concurrent declarations of one address wait here until the first has committed
    await tx.db.execute(
      sql`SELECT pg_advisory_xact_lock(${LOCKS.revocationReceipt}::int, hashtext(${`${email}|${dayStart.toISOString().slice(0, 10)}`}))`,
    );
    const [sent] = await tx.db
      .select({ n: count() })
      .from(revocationRequests)
      .where(
        and(eq(revocationRequests.email, email), gte(revocationRequests.receivedAt, dayStart), isNull(revocationRequests.suppressedAt)),
      );
    const suppress = sent.n > 0;
    const [created] = await tx.db
      .insert(revocationRequests)
      .values({
        orderId: order.id,
        orderReference: order.incrementId,
        reason: input.reason ?? null,
        customerName,
        email,
        customerId: order.customerId,
        verified,
        storeId: order.storeId,
        receivedAt: tx.now,
        suppressedAt: suppress ? tx.now : null,
        suppressedReason: suppress ? 'rate_limit_recipient' : null,
        ip: ctx.ip || null,
        userAgent: ctx.userAgent ?? null,
        channel: input.channel,
      })
      .returning();
    const summary = `Order: ${order.incrementId}\nReceived: ${wireDateTime(tx.now)} UTC\nReason: ${input.reason ?? '-'}\n`;
    if (!suppress) {
      await queueMail(tx, {
        to: email,
        subject: `We received your revocation of order ${order.incrementId}`,
        text: `Dear ${customerName},\n\nwe have received your revocation declaration.\n\n${summary}`,
        template: 'revocation/receipt',
        storeId: order.storeId,
      });
    }
    await queueMail(tx, {
      to: notifyAddress(tx, order.storeId),
      subject: `Revocation declared for order ${order.incrementId}`,
      text: `${customerName} <${email}> declared the revocation of an order.\n\n${summary}Channel: ${input.channel}\n`,
      template: 'revocation/notice',
      storeId: order.storeId,
    });
    revocationEvents.emit(
      tx,
      'revocation.submitted',
      { resource: 'revocation', id: created.id, storeId: order.storeId },
      view(created, true),
    );
    return created;
  });
  return view(row, false);
}

/**
 * A customer's declarations are those made for their orders, matched by customer id: never by address, which a
 * guest order may carry too and which an account may give up to another. A guest's declaration has no customer.
 */
function ownedByCaller(ctx: Ctx): SQL {
  return ctx.actor.kind === 'customer' ? eq(revocationRequests.customerId, ctx.actor.customerId) : sql`false`;
}

/** GET /customers/me/revocation-requests: the caller's declarations, newest first. */
export async function listMyRevocations(ctx: Ctx, page: Page): Promise<CollectionResult<RevocationRequestDto>> {
  assertEnabled(ctx);
  return listWhere(ctx, ownedByCaller(ctx), page);
}

type SortField = (typeof REVOCATION_SORT_FIELDS)[number];

/** Newest first unless told otherwise; ties by id in the same direction, nulls (not processed) last. */
function listOrder(sortBy: SortField | undefined, sortDir: string | undefined): SQL[] {
  if (!sortBy) return [desc(revocationRequests.receivedAt), desc(revocationRequests.id)];
  const dir = sortDir?.toLowerCase() === 'desc' ? sql`DESC` : sql`ASC`;
  const out = [sql`${revocationRequests[sortBy]} ${dir} NULLS LAST`];
  if (sortBy !== 'id') out.push(sql`${revocationRequests.id} ${dir}`);
  return out;
}

async function listWhere(
  ctx: Ctx,
  where: SQL | undefined,
  page: Page,
  order: SQL[] = listOrder(undefined, undefined),
): Promise<CollectionResult<RevocationRequestDto>> {
  const [list, [{ n }]] = await Promise.all([
    ctx.db
      .select()
      .from(revocationRequests)
      .where(where)
      .orderBy(...order)
      .limit(page.size)
      .offset(page.offset),
    ctx.db.select({ n: count() }).from(revocationRequests).where(where),
  ]);
  return { items: list.map((r) => view(r, isBackOffice(ctx))), total: n };
}

/** GET /revocation-requests: every declaration (within a limited principal's store views), newest first. */
export async function listRevocations(
  ctx: Ctx,
  q: Omit<RevocationListQueryT, 'page' | 'itemsPerPage' | 'pageSize'>,
  page: Page,
): Promise<CollectionResult<RevocationRequestDto>> {
  assertEnabled(ctx);
  const conds: SQL[] = [];
  if (q.email) conds.push(eq(revocationRequests.email, q.email.trim().toLowerCase()));
  if (q.orderId !== undefined) conds.push(eq(revocationRequests.orderId, q.orderId));
  if (q.processedStatus === 'pending') conds.push(isNull(revocationRequests.processedStatus));
  else if (q.processedStatus) conds.push(eq(revocationRequests.processedStatus, q.processedStatus));
  if (q.verified !== undefined) conds.push(eq(revocationRequests.verified, q.verified));
  if (q.search !== undefined) {
    const term = q.search.trim();
    if (term.length < 3) {
      throw badRequest('search must be at least 3 characters', { reason: 'SEARCH_TOO_SHORT', details: { field: 'search', minLength: 3 } });
    }
    const like = `%${likeEscape(term)}%`;
    conds.push(
      sql`(${revocationRequests.orderReference} ILIKE ${like} OR ${revocationRequests.email} ILIKE ${like} OR ${revocationRequests.customerName} ILIKE ${like})`,
    );
  }
  if (q.storeId !== undefined) conds.push(eq(revocationRequests.storeId, q.storeId));
  conds.push(...dateRangeConditions({ created: revocationRequests.receivedAt }, q));
  const allowed = adminStoreScope(ctx);
  if (allowed) conds.push(allowed.length ? inArray(revocationRequests.storeId, allowed) : sql`false`);
  return listWhere(ctx, conds.length ? and(...conds) : undefined, page, listOrder(q.sortBy, q.sortDir));
}

async function rowForCaller(ctx: Ctx, id: number): Promise<Row> {
  const [row] = await ctx.db.select().from(revocationRequests).where(eq(revocationRequests.id, id));
  if (!row) throw revocationNotFound();
  const a = ctx.actor;
  if (a.kind === 'admin') {
    if (a.allowedStoreIds && !a.allowedStoreIds.includes(row.storeId)) throw revocationNotFound();
  } else if (a.kind !== 'customer' || row.customerId !== a.customerId) {
    throw revocationNotFound();
  }
  return row;
}

/** GET /revocation-requests/{id}: customers their own only (else 404); admins any. */
export async function getRevocation(ctx: Ctx, id: number): Promise<RevocationRequestDto> {
  assertEnabled(ctx);
  return view(await rowForCaller(ctx, id), isBackOffice(ctx));
}

/** PUT /revocation-requests/{id}: sets processedStatus (stamping processedAt) and/or adminNote ("" clears). */
export async function updateRevocation(ctx: Ctx, id: number, input: RevocationUpdateInput): Promise<RevocationRequestDto> {
  assertEnabled(ctx);
  if (input.processedStatus === undefined && input.adminNote === undefined) {
    throw badRequest('processedStatus or adminNote is required', { reason: 'NOTHING_TO_UPDATE' });
  }
  if (input.processedStatus !== undefined && !(PROCESSED_STATUSES as readonly string[]).includes(input.processedStatus)) {
    throw unprocessable('processedStatus must be accepted, rejected or info_requested', { reason: 'INVALID_PROCESSED_STATUS' });
  }
  return withTx(ctx, async (tx) => {
    await rowForCaller(tx, id);
    const set: Partial<Row> = {};
    if (input.processedStatus !== undefined) {
      set.processedStatus = input.processedStatus;
      set.processedAt = tx.now;
    }
    if (input.adminNote !== undefined) set.adminNote = input.adminNote === '' ? null : input.adminNote;
    const [row] = await tx.db.update(revocationRequests).set(set).where(eq(revocationRequests.id, id)).returning();
    return view(row, true);
  });
}
