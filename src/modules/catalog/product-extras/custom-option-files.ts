/**
 * Upkeep of the files shoppers upload for `file` custom options: the removal of those nothing refers to any
 * more. Which those are is for the callers to say (cart lines and order items belong to other modules): the
 * catalog lists its stale records, and removes records with their files, and files that never got a record.
 */
import path from 'node:path';
import { and, asc, gt, inArray, lt, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Ctx } from '../../../platform/context.js';
import { rows } from '../../../platform/db.js';
import { CUSTOM_OPTIONS_DIR, deleteMediaFile, listMediaFiles } from '../../../platform/files.js';
import { customOptionFiles } from '../tables.js';

/** The form of a stored file's key (random base64url), safe inside an array literal. */
const FILE_KEY = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The keys among `keys` of option files that rows of `table` refer to: a cart line or order item keeps
 * `file:<key>:<name>` among the options of its `buy_request`. The module owning the table passes it.
 */
export async function optionFileKeysReferencedBy(ctx: Ctx, table: PgTable, keys: string[]): Promise<string[]> {
  const wanted = keys.filter((k) => FILE_KEY.test(k));
  if (!wanted.length) return [];
  const found = await rows<{ key: string }>(
    ctx.db,
    sql`SELECT DISTINCT split_part(o.value, ':', 2) AS key
      FROM ${table} i, jsonb_each_text(CASE WHEN jsonb_typeof(i.buy_request -> 'options') = 'object' THEN i.buy_request -> 'options' ELSE '{}'::jsonb END) o
      WHERE o.value LIKE 'file:%' AND split_part(o.value, ':', 2) = ANY(${`{${wanted.join(',')}}`}::text[])`,
  );
  return found.map((r) => r.key);
}

/** Keys of the option files recorded before `before`, in key order after `after`, at most `limit`. */
export async function staleCustomOptionFileKeys(ctx: Ctx, before: Date, limit: number, after?: string): Promise<string[]> {
  const older = lt(customOptionFiles.createdAt, before);
  const rows = await ctx.db
    .select({ key: customOptionFiles.key })
    .from(customOptionFiles)
    .where(after === undefined ? older : and(older, gt(customOptionFiles.key, after)))
    .orderBy(asc(customOptionFiles.key))
    .limit(limit);
  return rows.map((r) => r.key);
}

async function removeFile(ctx: Ctx, rel: string): Promise<boolean> {
  try {
    return await deleteMediaFile(ctx.app.config, rel);
  } catch (err) {
    ctx.log.warn({ err, file: rel }, 'custom option file not removed');
    return false;
  }
}

/**
 * Removes the records and files of these keys; with `before`, those recorded before it only (an upload newer
 * than the caller's look at the references is never touched). Answers how many records went.
 */
export async function removeCustomOptionFiles(ctx: Ctx, keys: string[], before?: Date): Promise<number> {
  if (!keys.length) return 0;
  const byKey = inArray(customOptionFiles.key, keys);
  const gone = await ctx.db
    .delete(customOptionFiles)
    .where(before ? and(byKey, lt(customOptionFiles.createdAt, before)) : byKey)
    .returning({ path: customOptionFiles.path });
  for (const g of gone) await removeFile(ctx, g.path);
  return gone.length;
}

/**
 * Removes the files under media/custom_options last written before `before` that have no record: a write whose
 * record was never made (a crash between the two) or was rolled back with its transaction. Answers how many.
 */
export async function removeUnrecordedOptionFiles(ctx: Ctx, before: Date): Promise<number> {
  let removed = 0;
  let batch: { path: string; key: string }[] = [];
  const flush = async () => {
    const keys = batch.map((b) => b.key);
    const known = new Set(
      (await ctx.db.select({ key: customOptionFiles.key }).from(customOptionFiles).where(inArray(customOptionFiles.key, keys))).map(
        (r) => r.key,
      ),
    );
    for (const b of batch) if (!known.has(b.key) && (await removeFile(ctx, b.path))) removed++;
    batch = [];
  };
  for await (const f of listMediaFiles(ctx.app.config, CUSTOM_OPTIONS_DIR)) {
    if (f.mtime >= before) continue;
    batch.push({ path: f.path, key: path.posix.basename(f.path) });
    if (batch.length >= 500) await flush();
  }
  if (batch.length) await flush();
  return removed;
}
