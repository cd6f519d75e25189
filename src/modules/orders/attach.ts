/**
 * A guest order joins the account created from it (POST /customers/create-from-order): what the customers
 * module reads of the order, and the one statement that gives the order its customer.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import type { OrderAddress } from './tables.js';
import { orders } from './tables.js';

export interface OrderForAccount {
  id: number;
  storeId: number;
  customerId: number | null;
  email: string;
  firstname: string | null;
  lastname: string | null;
  billingAddress: OrderAddress | null;
}

/**
 * What creating an account needs of the order, with the order row locked until the caller's transaction
 * ends (call inside withTx); undefined when there is no such order.
 */
export async function orderForAccount(ctx: Ctx, orderId: number): Promise<OrderForAccount | undefined> {
  if (!Number.isInteger(orderId) || orderId < 1 || orderId > 2147483647) return undefined;
  const [o] = await ctx.db
    .select({
      id: orders.id,
      storeId: orders.storeId,
      customerId: orders.customerId,
      email: orders.customerEmail,
      firstname: orders.customerFirstname,
      lastname: orders.customerLastname,
      billingAddress: orders.billingAddress,
    })
    .from(orders)
    .where(eq(orders.id, orderId))
    .for('update');
  return o;
}

/**
 * Gives a guest order its customer: customer id set, no longer a guest order, its one-time token gone.
 * False when the order has a customer already (or is gone); never changes a customer's order.
 */
export async function attachOrderToCustomer(ctx: Ctx, orderId: number, customerId: number): Promise<boolean> {
  const done = await ctx.db
    .update(orders)
    .set({ customerId, customerIsGuest: false, accessTokenHash: null, updatedAt: ctx.now })
    .where(and(eq(orders.id, orderId), isNull(orders.customerId)))
    .returning({ id: orders.id });
  return done.length > 0;
}
