/**
 * What modules after orders lend to it (`OrderParts` in context.ts): each module contributes its parts as
 * `AppModule.orderParts`; the app collects them once at startup and hands them to the orders module as
 * `ctx.app.orderParts`.
 */
import type { OrderParts } from './context.js';

/** The parts of every module, checked once: each part given exactly once. */
export function collectOrderParts(contributions: readonly (Partial<OrderParts> | undefined)[]): OrderParts {
  const parts: Partial<OrderParts> = {};
  for (const c of contributions) {
    if (!c) continue;
    for (const key of Object.keys(c) as (keyof OrderParts)[]) {
      if (parts[key]) throw new Error(`The order part ${key} is contributed twice`);
      Object.assign(parts, { [key]: c[key] });
    }
  }
  const names: (keyof OrderParts)[] = ['shipmentsOf', 'giftcardsInvoiced'];
  const missing = names.filter((n) => !parts[n]);
  if (missing.length) throw new Error(`No module contributes the order parts ${missing.join(', ')}`);
  return parts as OrderParts;
}
