/** Lists as the grids read them: the JSON-LD collection (its member and totalItems), for any list operation. */
import type { ListResult } from '../components/DataGrid';

export function collection<Row>(data: unknown): ListResult<Row> {
  const d = data as { member?: Row[]; totalItems?: number } | undefined;
  return { items: d?.member ?? [], total: d?.totalItems ?? 0 };
}

/** Drops empty filter values and turns numeric ones into numbers, as the API's query schemas expect. */
export function filterQuery(filters: Record<string, string>, numeric: string[] = []): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(filters)) {
    if (v === '') continue;
    out[k] = numeric.includes(k) && /^-?\d+$/.test(v) ? Number(v) : v;
  }
  return out;
}
