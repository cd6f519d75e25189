/**
 * Collections: the paging parameters and the two envelopes of the wire reference. `Accept: application/json`
 * (without ld+json) gets a bare array; everything else gets the JSON-LD `Collection` object.
 */
import { Type, type TSchema } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface PageOptions {
  defaultSize?: number;
  maxSize?: number;
}

export interface Page {
  page: number;
  size: number;
  offset: number;
}

/** Pages beyond this read as this one (always empty in practice). */
export const MAX_PAGE = 1_000_000;

export const PageQuery = {
  page: Type.Optional(Type.Integer({ description: '1-based page number; values below 1 read as 1' })),
  itemsPerPage: Type.Optional(Type.Integer({ description: 'page size, clamped to the list maximum' })),
  pageSize: Type.Optional(Type.Integer({ description: 'alias of itemsPerPage' })),
};

export function pageOf(q: { page?: number; itemsPerPage?: number; pageSize?: number }, opts: PageOptions = {}): Page {
  const max = opts.maxSize ?? 100;
  // far past any real list, and small enough that the offset stays an exact integer the database accepts
  const page = Math.min(MAX_PAGE, Math.max(1, q.page ?? 1));
  const size = Math.min(max, Math.max(1, q.itemsPerPage ?? q.pageSize ?? opts.defaultSize ?? 20));
  return { page, size, offset: (page - 1) * size };
}

export interface CollectionResult<T> {
  items: T[];
  total: number;
}

/** Response schemas of a collection route, for both media types. */
export function collectionResponse(item: TSchema) {
  const view = Type.Object({
    '@id': Type.String(),
    '@type': Type.String(),
    first: Type.Optional(Type.String()),
    last: Type.Optional(Type.String()),
    next: Type.Optional(Type.String()),
    previous: Type.Optional(Type.String()),
  });
  return {
    content: {
      'application/ld+json': {
        schema: Type.Object({
          '@context': Type.String(),
          '@id': Type.String(),
          '@type': Type.Literal('Collection'),
          totalItems: Type.Integer(),
          member: Type.Array(item),
          view: Type.Optional(view),
        }),
      },
      'application/json': { schema: Type.Array(item) },
    },
  };
}

export function wantsPlainJson(req: FastifyRequest): boolean {
  const accept = req.headers.accept;
  return !!accept && !accept.includes('application/ld+json') && accept.includes('application/json');
}

/**
 * The JSON-LD `Collection` document of a list answered at `path` for the query string `search` (without `?`); its
 * view links repeat the query with another page. `page` is omitted for unpaginated lists (the whole list,
 * totalItems = its length). MCP list tools answer the same document.
 */
export function collectionDocument<T>(
  context: string,
  path: string,
  search: string,
  result: CollectionResult<T>,
  page?: Page,
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    '@context': `/api/contexts/${context}`,
    '@id': path,
    '@type': 'Collection',
    totalItems: result.total,
    member: result.items,
  };
  if (page) {
    const params = new URLSearchParams(search);
    const link = (n: number) => {
      params.set('page', String(n));
      return `${path}?${params.toString()}`;
    };
    const last = Math.max(1, Math.ceil(result.total / page.size));
    const view: Record<string, string> = { '@id': link(page.page), '@type': 'PartialCollectionView' };
    view.first = link(1);
    view.last = link(last);
    if (page.page > 1) view.previous = link(Math.min(page.page - 1, last));
    if (page.page < last) view.next = link(page.page + 1);
    body.view = view;
  }
  return body;
}

/** Where the serialized members go in a document serialized without them. */
const MEMBERS = '\u0000member';
const MEMBERS_JSON = JSON.stringify(MEMBERS);

/**
 * Sends a collection: a bare array to `Accept: application/json`, else the JSON-LD document (see collectionDocument).
 * `memberJson`, the items already serialized (a cached page's, serialized once), is sent as it is.
 */
export function sendCollection<T>(
  req: FastifyRequest,
  reply: FastifyReply,
  context: string,
  result: CollectionResult<T>,
  page?: Page,
  memberJson?: string,
) {
  if (wantsPlainJson(req)) {
    reply.type('application/json; charset=utf-8');
    return reply.send(memberJson ?? result.items);
  }
  reply.type('application/ld+json; charset=utf-8');
  const q = req.url.indexOf('?');
  const doc = collectionDocument(
    context,
    q < 0 ? req.url : req.url.slice(0, q),
    q < 0 ? '' : req.url.slice(q + 1),
    memberJson === undefined ? result : { ...result, items: MEMBERS as never },
    page,
  );
  return reply.send(memberJson === undefined ? doc : JSON.stringify(doc).replace(MEMBERS_JSON, () => memberJson));
}
