/**
 * The orphan pass over the files shoppers upload for file options: a file no cart line and no order item
 * refers to (its line removed, its cart gone, its upload refused by a rolled-back write) is removed once it is
 * older than a grace period, a day by default, so that a file is never removed under a request still adding
 * its line. It lives here, with placement, which turns the cart lines that refer to files into the order items
 * that then do; each of the two modules answers for its own rows.
 */
import type { Ctx } from '../../platform/context.js';
import {
  removeCustomOptionFiles,
  removeUnrecordedOptionFiles,
  staleCustomOptionFileKeys,
} from '../catalog/product-extras/custom-option-files.js';
import { optionFileKeysInCarts } from '../carts/option-files.js';
import { optionFileKeysInOrders } from '../orders/option-files.js';

const DAY_MS = 24 * 3600 * 1000;
const BATCH = 500;

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
