/**
 * What the orders module asks of customers about a guest order's email: whether an account of the website
 * already has it (the guest order read offers an account only when none does, and POST
 * /customers/create-from-order refuses one that exists).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import { customers } from './tables.js';

/** Whether an account of the website has this email (case-insensitive). */
export async function customerEmailTaken(ctx: Ctx, websiteId: number, email: string): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.websiteId, websiteId), eq(customers.email, sql`${email.trim().toLowerCase()}::text`)))
    .limit(1);
  return !!row;
}
