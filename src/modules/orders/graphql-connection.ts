/**
 * Relay connections for the GraphQL-only collections of the sales modules (Maho's `shipments`, `creditMemos`,
 * `giftCards` collection queries have no REST twin): the same arguments, cursors (base64 of the offset) and
 * page sizes (20 by default, 100 at most) as the connections derived from REST declarations.
 */
import { AppError } from '../../platform/errors.js';

export interface ConnectionArgs {
  first?: number | null;
  last?: number | null;
  before?: string | null;
  after?: string | null;
  page?: number | null;
  pageSize?: number | null;
  itemsPerPage?: number | null;
}

/** The arguments of such a connection field, in SDL. */
export const CONNECTION_ARGS = 'first: Int, last: Int, before: String, after: String, page: Int, pageSize: Int, itemsPerPage: Int';

const MAX = 100;
const DEFAULT = 20;

const cursorOf = (offset: number) => Buffer.from(String(offset)).toString('base64');

function offsetOf(cursor: string): number {
  const n = Number(Buffer.from(cursor, 'base64').toString());
  if (!Number.isInteger(n) || n < 0) throw new AppError('bad_request', 'The cursor is not one this API gave', { reason: 'BAD_CURSOR' });
  return n;
}

function count(name: string, v: number | null | undefined): number | undefined {
  if (v === null || v === undefined) return undefined;
  if (!Number.isInteger(v) || v < 0) throw new AppError('bad_request', `${name} must be zero or more`, { reason: 'VALIDATION_FAILED' });
  return v;
}

/** Pages a listing as a connection: `fetch` answers the items of one page and the total. */
export async function pagedConnection<T>(
  args: ConnectionArgs,
  fetch: (page: { size: number; offset: number }) => Promise<{ items: T[]; total: number }>,
) {
  const first = count('first', args.first);
  const last = count('last', args.last);
  const perPage = Math.min(MAX, Math.max(1, count('pageSize', args.pageSize ?? args.itemsPerPage) || DEFAULT));
  const pageNo = Math.max(1, Math.floor(args.page ?? 1) || 1);
  let offset = args.after ? offsetOf(args.after) + 1 : args.before || first !== undefined || last !== undefined ? 0 : (pageNo - 1) * perPage;
  let end = args.before ? offsetOf(args.before) : Number.POSITIVE_INFINITY;
  let size = Math.min(MAX, first ?? perPage);
  if (last !== undefined) {
    if (!Number.isFinite(end)) end = (await fetch({ size: 1, offset: 0 })).total;
    const from = Math.max(offset, end - Math.min(MAX, last));
    size = Math.min(size, end - from);
    offset = from;
  } else if (Number.isFinite(end)) size = Math.min(size, Math.max(0, end - offset));
  const { items, total } = size > 0 ? await fetch({ size, offset }) : { items: [] as T[], total: (await fetch({ size: 1, offset: 0 })).total };
  return {
    edges: items.map((node, i) => ({ node, cursor: cursorOf(offset + i) })),
    totalCount: total,
    pageInfo: {
      startCursor: items.length ? cursorOf(offset) : null,
      endCursor: items.length ? cursorOf(offset + items.length - 1) : null,
      hasNextPage: offset + items.length < total,
      hasPreviousPage: offset > 0,
    },
  };
}
