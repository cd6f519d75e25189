/**
 * The orphan pass over the files shoppers upload for file options: a file no cart line and no order item
 * refers to (its line removed, its cart gone, its upload refused by a rolled-back write) is removed once it is
 * older than a grace period, a day by default, so that a file is never removed under a request still adding
 * its line. It lives here, with placement, because it reads what placement writes: the order items' buy
 * requests, which keep the cart line's `file:<key>:<name>` references.
 */
import { sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import { rows } from '../../platform/db.js';
import { removeCustomOptionFiles, removeUnrecordedOptionFiles, staleCustomOptionFileKeys } from '../catalog/product-extras/custom-option-files.js';
import { optionFileKeysInCarts } from '../carts/option-files.js';
import { orderItems } from '../orders/tables.js';

const DAY_MS = 24 * 3600 * 1000;
const BATCH = 500;
/** The form of a stored file's key (random base64url), safe inside an array literal. */
const FILE_KEY = /^[A-Za-z0-9_-]{1,64}$/;

/** The keys among `keys` of option files some order item refers to. */
async function optionFileKeysInOrders(ctx: Ctx, keys: string[]): Promise<string[]> {
  const wanted = keys.filter((k) => FILE_KEY.test(k));
  if (!wanted.length) return [];
  const found = await rows<{ key: string }>(
    ctx.db,
    sql`SELECT DISTINCT split_part(o.value, ':', 2) AS key
      FROM ${orderItems} i, jsonb_each_text(CASE WHEN jsonb_typeof(i.buy_request -> 'options') = 'object' THEN i.buy_request -> 'options' ELSE '{}'::jsonb END) o
      WHERE o.value LIKE 'file:%' AND split_part(o.value, ':', 2) = ANY(${`{${wanted.join(',')}}`}::text[])`,
  );
  return found.map((r) => r.key);
}

/**
 * Removes the uploaded option files older than `graceMs` before `ctx.now` that nothing refers to, records and
 * files, and the files that never got a record. Answers how many files went.
 */
export async function purgeOrphanOptionFiles(ctx: Ctx, graceMs = DAY_MS): Promise<number> {
  const before = new Date(ctx.now.getTime() - graceMs);
  let removed = 0;
  let after: string | undefined;
  for (;;) {
    const keys = await staleCustomOptionFileKeys(ctx, before, BATCH, after);
    if (!keys.length) break;
    const kept = new Set([...(await optionFileKeysInCarts(ctx, keys)), ...(await optionFileKeysInOrders(ctx, keys))]);
    removed += await removeCustomOptionFiles(
      ctx,
      keys.filter((k) => !kept.has(k)),
      before,
    );
    if (keys.length < BATCH) break;
    after = keys[keys.length - 1];
  }
  return removed + (await removeUnrecordedOptionFiles(ctx, before));
}
