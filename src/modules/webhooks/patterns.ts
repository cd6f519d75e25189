/** Which events a subscription asks for: event names (`order.placed`) and wildcards (`order.*`, `*`). */
import { sql, type SQL } from 'drizzle-orm';

/** The test event `POST /webhooks/{id}/ping` sends; no subscription asks for it, each can be sent it. */
export const PING = 'webhook.ping';

/** Whether a subscription's pattern (`order.placed`, `order.*`, `*`) covers an event type. */
export function patternMatches(pattern: string, type: string): boolean {
  if (pattern === '*' || pattern === type) return true;
  return pattern.endsWith('.*') && type.startsWith(pattern.slice(0, -1));
}

/** The SQL twin of patternMatches: whether any of the patterns `events` (a text[]) covers `type`. */
export const patternMatchesSql = (events: SQL, type: SQL | string) =>
  sql`EXISTS (SELECT 1 FROM unnest(${events}) p WHERE p = '*' OR p = ${type} OR (right(p, 2) = '.*' AND starts_with(${type}, left(p, -1))))`;
