/**
 * The customers' side of newsletter subscriptions. Whether a customer is subscribed is SQL over the customers
 * row, so that customer reads stay one query; the newsletter module lends it, and the linking of a new account's
 * earlier subscriptions, as `AppModule.customerSubscriptions` (`ctx.app.customerSubscriptions`). Without it
 * nobody is subscribed. The newsletter reads accounts through the functions below.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import { customers } from './tables.js';

/** Whether the customers row is subscribed to the newsletter, as SQL. */
export function subscribedSql(ctx: Ctx): SQL<boolean> {
  return ctx.app.customerSubscriptions?.subscribedSql(customers.id) ?? sql<boolean>`false`;
}

/** Makes the subscriptions of a new account's email in its website the account's own. */
export async function linkSubscriptions(ctx: Ctx, customer: { id: number; email: string; websiteId: number }): Promise<void> {
  await ctx.app.customerSubscriptions?.link(ctx, customer);
}

/**
 * What the newsletter needs of an account: its id, sign-in email, website and the store view it was created in;
 * undefined for no such customer.
 */
export async function subscriberAccount(
  ctx: Ctx,
  customerId: number,
): Promise<{ id: number; email: string; websiteId: number; storeId: number | null } | undefined> {
  const [c] = await ctx.db
    .select({ id: customers.id, email: customers.email, websiteId: customers.websiteId, storeId: customers.storeId })
    .from(customers)
    .where(eq(customers.id, customerId));
  return c;
}

/** The id of the account with this sign-in email (as stored, lower case) in a website, undefined for none. */
export async function customerIdByEmail(ctx: Ctx, websiteId: number, email: string): Promise<number | undefined> {
  const [c] = await ctx.db
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.websiteId, websiteId), eq(customers.email, email)));
  return c?.id;
}
