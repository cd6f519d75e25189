/**
 * Whether a customer is subscribed to the newsletter, as an SQL expression over the customers row so that
 * customer reads stay one query. False until the newsletter module installs its own expression with
 * `setSubscribedExpression` when it loads.
 */
import { sql, type SQL } from 'drizzle-orm';
import { customers } from './tables.js';

export type SubscribedExpression = (c: typeof customers) => SQL<boolean>;

const notSubscribed: SubscribedExpression = () => sql<boolean>`false`;
let expression: SubscribedExpression = notSubscribed;

export function setSubscribedExpression(fn: SubscribedExpression | undefined): void {
  expression = fn ?? notSubscribed;
}

export function subscribedSql(): SQL<boolean> {
  return expression(customers);
}
