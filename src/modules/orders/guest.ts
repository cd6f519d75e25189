/**
 * The guest order lookup, GET /orders/{incrementId}/details and GraphQL guestOrder: public, rate limited per
 * client IP (every attempt counts), and answered once per X-Order-Token. The token is spent by one conditional
 * UPDATE, so that of any number of concurrent reads, on any number of processes, exactly one succeeds.
 */
import { and, eq } from 'drizzle-orm';
import { sha256Hex } from '../../platform/auth/secrets.js';
import { withTx, type Ctx } from '../../platform/context.js';
import { configuredRule } from '../../platform/rate-limit.js';
import { declareConfig } from '../../platform/settings.js';
import { customerEmailTaken } from '../customers/from-order.js';
import { signAccountToken } from './account-token.js';
import { findOrder, orderNotFound } from './core.js';
import { orderDetail } from './detail.js';
import type { OrderDto } from './schemas.js';
import { orders } from './tables.js';

declareConfig({
  'api/rate_limit/guest_order_lookup': {
    type: 'integer',
    default: 30,
    label: 'Guest Order Lookups',
    comment: 'guest order lookups per IP an hour (every attempt, right or wrong); 0: no limit',
    min: 0,
    scopes: ['default'],
  },
});

const TOKEN_RE = /^[0-9a-fA-F]{64}$/;
const MAX_INCREMENT_ID = 50;

/** Counts one lookup of the caller's IP against api/rate_limit/guest_order_lookup (429 past it). */
async function limitLookups(ctx: Ctx): Promise<void> {
  await ctx.app.limiter.consume(configuredRule(ctx.app.settings, 'guest_order_lookup', 3600, ctx.store.storeId), `ip:${ctx.ip}`);
}

/**
 * The order numbered `incrementId` for the holder of its one-time token, which this read spends. A missing or
 * wrong token and an unknown number are the same 404. When no account of the order's website has the order
 * email, the answer carries an accountToken for POST /customers/create-from-order.
 */
export async function guestOrderDetails(ctx: Ctx, incrementId: string, token: string | undefined): Promise<OrderDto> {
  await limitLookups(ctx);
  const number = incrementId.trim();
  const raw = (token ?? '').trim();
  if (!number || number.length > MAX_INCREMENT_ID || !TOKEN_RE.test(raw)) throw orderNotFound();
  return withTx(ctx, async (tx) => {
    // the stored value is sha256 (hex) of the token as placement returned it (lower-case hex)
    const [spent] = await tx.db
      .update(orders)
      .set({ accessTokenHash: null })
      .where(and(eq(orders.incrementId, number), eq(orders.accessTokenHash, sha256Hex(raw.toLowerCase()))))
      .returning({ id: orders.id });
    if (!spent) throw orderNotFound();
    const { order, items } = (await findOrder(tx, spent.id))!;
    const websiteId = ctx.app.settings.store(order.storeId)?.websiteId ?? ctx.store.websiteId;
    const hasAccount = order.customerId !== null || (await customerEmailTaken(tx, websiteId, order.customerEmail));
    return orderDetail(tx, order, items, hasAccount ? {} : { accountToken: signAccountToken(tx, order) });
  });
}
