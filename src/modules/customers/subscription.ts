/**
 * Whether a customer is subscribed to the newsletter, as an SQL expression over the customers row so that
 * customer reads stay one query. False until the newsletter module installs its own expression with
 * `setSubscribedExpression` when it loads. That module also installs a linker, which a new account runs so
 * that subscriptions made with its email before it existed become its own.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import { customers } from './tables.js';

export type SubscribedExpression = (c: typeof customers) => SQL<boolean>;
export type SubscriptionLinker = (ctx: Ctx, customer: { id: number; email: string; websiteId: number }) => Promise<void>;

const notSubscribed: SubscribedExpression = () => sql<boolean>`false`;
let expression: SubscribedExpression = notSubscribed;
let linker: SubscriptionLinker | undefined;

export function setSubscribedExpression(fn: SubscribedExpression | undefined, link?: SubscriptionLinker): void {
  expression = fn ?? notSubscribed;
  linker = link;
}

export function subscribedSql(): SQL<boolean> {
  return expression(customers);
}

/** Makes the subscriptions of a new account's email in its website the account's own. */
export async function linkSubscriptions(ctx: Ctx, customer: { id: number; email: string; websiteId: number }): Promise<void> {
  await linker?.(ctx, customer);
}
