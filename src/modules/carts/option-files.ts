/**
 * The files of cart lines' file options: stored once a line is accepted, dropped again when its write fails,
 * and the keys cart lines refer to (a line keeps `file:<key>:<name>` in its buy request's options), which the
 * orphan pass keeps.
 */
import type { Ctx } from '../../platform/context.js';
import { optionFileKeysReferencedBy, removeCustomOptionFiles } from '../catalog/product-extras/custom-option-files.js';
import { saveCustomOptionFile } from '../catalog/product-extras/custom-options-service.js';
import type { NewLine } from './items.js';
import { cartItems } from './tables.js';

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
  if (keys.length)
    await removeCustomOptionFiles(ctx, keys).catch((err: unknown) => ctx.log.warn({ err }, 'uploaded option files not removed'));
}

/** The keys among `keys` of option files some cart line refers to. */
export function optionFileKeysInCarts(ctx: Ctx, keys: string[]): Promise<string[]> {
  return optionFileKeysReferencedBy(ctx, cartItems, keys);
}
