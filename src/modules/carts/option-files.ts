/**
 * The files of cart lines' file options: stored once a line is accepted, dropped again when its write fails,
 * and the keys cart lines refer to (a line keeps `file:<key>:<name>` in its buy request's options), which the
 * orphan pass keeps.
 */
import { sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import { rows } from '../../platform/db.js';
import { removeCustomOptionFiles } from '../catalog/product-extras/custom-option-files.js';
import { saveCustomOptionFile } from '../catalog/product-extras/custom-options-service.js';
import type { NewLine } from './items.js';
import { cartItems } from './tables.js';

/** The form of a stored file's key (random base64url), safe inside an array literal. */
const FILE_KEY = /^[A-Za-z0-9_-]{1,64}$/;

/** Stores the checked files of accepted lines. */
export async function storeLineFiles(ctx: Ctx, lines: NewLine[]): Promise<void> {
  const files = lines.flatMap((l) => l.files ?? []);
  const stored: string[] = [];
  try {
    for (const f of files) {
      await saveCustomOptionFile(ctx, f);
      stored.push(f.key);
    }
  } catch (err) {
    await removeCustomOptionFiles(ctx, stored).catch(() => undefined);
    throw err;
  }
}

/** Removes the files stored for lines whose write did not happen. */
export async function dropLineFiles(ctx: Ctx, lines: NewLine[]): Promise<void> {
  const keys = lines.flatMap((l) => l.files ?? []).map((f) => f.key);
  if (keys.length) await removeCustomOptionFiles(ctx, keys).catch((err: unknown) => ctx.log.warn({ err }, 'uploaded option files not removed'));
}

/** The keys among `keys` of option files some cart line refers to. */
export async function optionFileKeysInCarts(ctx: Ctx, keys: string[]): Promise<string[]> {
  const wanted = keys.filter((k) => FILE_KEY.test(k));
  if (!wanted.length) return [];
  const found = await rows<{ key: string }>(
    ctx.db,
    sql`SELECT DISTINCT split_part(o.value, ':', 2) AS key
      FROM ${cartItems} i, jsonb_each_text(CASE WHEN jsonb_typeof(i.buy_request -> 'options') = 'object' THEN i.buy_request -> 'options' ELSE '{}'::jsonb END) o
      WHERE o.value LIKE 'file:%' AND split_part(o.value, ':', 2) = ANY(${`{${wanted.join(',')}}`}::text[])`,
  );
  return found.map((r) => r.key);
}
