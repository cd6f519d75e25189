/** Our product attribute ids by source attribute id, as the attributes importer recorded them. */
import { idMap, type ImportContext } from '../context.js';

const MEMO = 'attributeIds';

/** Our attribute ids by source attribute id (product attributes), read once per run. */
export async function attributeIdMap(ctx: ImportContext): Promise<Map<number, number>> {
  let map = ctx.memo.get(MEMO) as Map<number, number> | undefined;
  if (!map) ctx.memo.set(MEMO, (map = await idMap(ctx.db, 'product attributes')));
  return map;
}

/** After the attributes were (re)imported: the next read takes the id map afresh. */
export function forgetAttributeIds(ctx: ImportContext): void {
  ctx.memo.delete(MEMO);
}
