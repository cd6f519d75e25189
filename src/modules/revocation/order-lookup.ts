/**
 * Finding an order by its increment id. orders/core.ts has no such function yet; this belongs there
 * (findOrderByIncrementId next to findOrder) and should move once the orders module takes it.
 */
import { eq } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import type { OrderRow } from '../orders/core.js';
import { orders } from '../orders/tables.js';

export async function findOrderByIncrementId(ctx: Ctx, incrementId: string): Promise<OrderRow | undefined> {
  const number = incrementId.trim();
  if (!number || number.length > 50) return undefined;
  const [order] = await ctx.db.select().from(orders).where(eq(orders.incrementId, number));
  return order;
}
