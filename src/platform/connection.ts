/**
 * Relay connections: the one cursor format of the API (base64 of the item's offset in the list) and the one
 * reading of `first`, `last`, `before` and `after`, for every GraphQL connection (see graphql-runtime.ts).
 * A window is taken as the Relay specification says: after and before bound the list, then first keeps the
 * first items of what is left and last the last ones; neither keeps the page the other arguments ask for.
 */
import { Type } from 'typebox';
import { AppError } from './errors.js';

export interface ConnectionArgs {
  first?: number | null;
  last?: number | null;
  before?: string | null;
  after?: string | null;
}

/** The items of one slice of a list and the list's length. */
export interface Slice<T> {
  items: T[];
  total: number;
}

export interface Connection<T> {
  edges: { node: T; cursor: string }[];
  totalCount: number;
  pageInfo: { startCursor: string | null; endCursor: string | null; hasNextPage: boolean; hasPreviousPage: boolean };
}

const MAX_OFFSET = 999_999_999;

/**
 * The page query of a paginated list in the order Maho's GraphQL lists take it (`page`, `pageSize`,
 * `itemsPerPage`); the same keys as `PageQuery`.
 */
export const ListPageQuery = Type.Object({
  page: Type.Optional(Type.Integer({ description: '1-based page number; values below 1 read as 1' })),
  pageSize: Type.Optional(Type.Integer({ description: 'page size, clamped to the list maximum' })),
  itemsPerPage: Type.Optional(Type.Integer({ description: 'alias of pageSize' })),
});

export const cursorOf = (offset: number): string => Buffer.from(String(offset)).toString('base64');

/** The offset a cursor names; anything but a cursor this API gave is a 400 (BAD_CURSOR). */
export function offsetOf(cursor: unknown): number {
  const text = typeof cursor === 'string' ? Buffer.from(cursor, 'base64').toString() : '';
  const n = /^(0|[1-9]\d{0,8})$/.test(text) ? Number(text) : -1;
  if (n < 0 || n > MAX_OFFSET || cursorOf(n) !== cursor)
    throw new AppError('bad_request', 'The cursor is not one this API gave', { reason: 'BAD_CURSOR' });
  return n;
}

function count(name: string, v: number | null | undefined): number | undefined {
  if (v === null || v === undefined) return undefined;
  if (!Number.isInteger(v) || v < 0)
    throw new AppError('bad_request', `${name} must be zero or more`, { reason: 'VALIDATION_FAILED', details: { field: name } });
  return v;
}

/** Whether the arguments ask for a window by cursor (else the page of the other arguments is answered). */
export function byCursor(args: ConnectionArgs): boolean {
  return args.first != null || args.last != null || args.before != null || args.after != null;
}

export function connectionOf<T>(items: T[], total: number, offset: number): Connection<T> {
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

export interface WindowOptions {
  /** the slice answered without cursor arguments (the page the other arguments ask for) */
  page: { size: number; offset: number };
  /** the most items one answer holds */
  maxSize: number;
}

/**
 * A connection over a list read one slice at a time: `fetch` answers the items of a slice and the list's length
 * (it is asked for a one-item slice first when `last` counts from the end of the list).
 */
export async function pagedConnection<T>(
  args: ConnectionArgs,
  fetch: (slice: { size: number; offset: number }) => Promise<Slice<T>>,
  opts: WindowOptions,
): Promise<Connection<T>> {
  const first = count('first', args.first);
  const last = count('last', args.last);
  const cursor = byCursor(args);
  let from = args.after != null ? offsetOf(args.after) + 1 : cursor ? 0 : opts.page.offset;
  let to = args.before != null ? offsetOf(args.before) : Number.POSITIVE_INFINITY;
  let total: number | undefined;
  if (first === undefined && last === undefined) to = Math.min(to, from + opts.page.size);
  if (first !== undefined) to = Math.min(to, from + first);
  if (last !== undefined) {
    if (!Number.isFinite(to)) {
      total = (await fetch({ size: 1, offset: 0 })).total;
      to = total;
    }
    from = Math.max(from, to - Math.min(opts.maxSize, last));
  }
  const size = Math.max(0, Math.min(opts.maxSize, to - from));
  if (size === 0) return connectionOf([], total ?? (await fetch({ size: 1, offset: 0 })).total, from);
  const slice = await fetch({ size, offset: from });
  return sliceConnection(slice, from);
}

/**
 * The connections made of slices, by the slice's items: a cache that answers the same items again (a page of
 * products shared by every anonymous shopper) gets the same connection again, made once. As REST serializes
 * such a page's members once by the list's identity, the items of a list answered twice are taken as unchanged.
 */
const connectionsOfItems = new WeakMap<object, { offset: number; total: number; connection: Connection<unknown> }>();
/** the connections answered more than once (see answeredBefore) */
const repeated = new WeakSet<object>();

function sliceConnection<T>(slice: Slice<T>, offset: number): Connection<T> {
  const known = connectionsOfItems.get(slice.items);
  if (known && known.offset === offset && known.total === slice.total) {
    repeated.add(known.connection);
    return known.connection as Connection<T>;
  }
  const connection = connectionOf(slice.items, slice.total, offset);
  connectionsOfItems.set(slice.items, { offset, total: slice.total, connection });
  return connection;
}

/** Whether a value is a connection answered before, over the same items: the same again while they are kept. */
export function answeredBefore(value: unknown): boolean {
  return typeof value === 'object' && value !== null && repeated.has(value);
}

/** A connection over a whole list in memory, windowed by the same arguments (all of it without them). */
export function listConnection<T>(all: T[], args: ConnectionArgs): Promise<Connection<T>> {
  return pagedConnection(
    args,
    // the whole list is answered as the list itself, so a list a cache keeps makes the same connection again
    async (s) => ({ items: s.offset === 0 && s.size >= all.length ? all : all.slice(s.offset, s.offset + s.size), total: all.length }),
    { page: { size: all.length, offset: 0 }, maxSize: Number.POSITIVE_INFINITY },
  );
}
