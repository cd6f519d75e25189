/**
 * What a URL path leads to: GET /url-resolver (Maho's GraphQL `urlResolveResults(path:)`, a collection of 0 or 1)
 * and its item form GET /url-resolver/result (`resolveUrlResolveResult(path:)`, and `urlResolveResult(id:)` for
 * the IRI a result carries). Over GraphQL, nothing found is a result of type `not_found`, as Maho answers.
 */
import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import { AppError } from '../../platform/errors.js';
import { GraphqlId } from '../../platform/graphql-derive.js';
import { op, type Operation } from '../../platform/operations.js';
import { UrlResolution, UrlResolverPathQuery, UrlResolverQuery } from './schemas.js';
import { resolvePath, type ResolvedUrl } from './service.js';

const IRI_PREFIX = '/api/rest/v2/url-resolver?path=';
const NOTHING_FOUND = 'URL_NOT_FOUND';

/**
 * The GraphQL node of a resolution: its `id` (the type's `ID!`) is the IRI of the query that found it, which
 * `urlResolveResult(id:)` takes back; `_id` is the entity's id (none for a redirect or nothing found).
 */
export function graphqlNode(hit: ResolvedUrl, path: string): Omit<ResolvedUrl, 'id'> & { id: string; _id: number | null } {
  return { ...hit, id: `${IRI_PREFIX}${encodeURIComponent(path)}`, _id: hit.id ?? null };
}

/** The path an IRI of `graphqlNode` names; anything else is taken as the path itself. */
export function pathOfIri(id: string): string {
  return id.startsWith(IRI_PREFIX) ? (new URLSearchParams(id.slice(id.indexOf('?'))).get('path') ?? '') : id;
}

export const operations: Operation[] = [
  op({
    id: 'urlResolver.resolve',
    method: 'GET',
    path: '/url-resolver',
    tags: ['url-resolver'],
    summary:
      'What a URL path leads to in the current store view: a collection of 0 or 1 member (unpaginated). Product and category paths match with or without the url suffix configured now; a path the store view has not registered falls back to the default store view; an old path of a product or category is a 301 redirect to its current one',
    access: access.public,
    shortName: 'UrlResolveResult',
    query: UrlResolverQuery,
    kind: 'collection',
    response: UrlResolution,
    // Maho's name; a `graphql` part (empty) marks the GraphQL call, whose nodes need an id
    graphql: { name: 'urlResolveResults', input: (a) => ({ query: a.path == null ? {} : { path: a.path }, graphql: {} }) },
    run: async (ctx, { query, graphql }) => {
      const path = query.path ?? '';
      const hit = await resolvePath(ctx, path);
      const items = hit ? [graphql ? graphqlNode(hit, path) : hit] : [];
      return { items, total: items.length };
    },
  }),
  op({
    id: 'urlResolver.resolveOne',
    method: 'GET',
    path: '/url-resolver/result',
    tags: ['url-resolver'],
    summary: 'What a URL path leads to in the current store view, as GET /url-resolver finds it; a path that leads nowhere is a 404',
    access: access.public,
    shortName: 'UrlResolveResult',
    query: UrlResolverPathQuery,
    response: UrlResolution,
    mcp: { name: 'url_resolver_result' },
    graphql: {
      name: 'resolveUrlResolveResult',
      input: (a) => ({ query: { path: a.path }, graphql: {} }),
      // the IRI a GraphQL result carries names the query that found it
      aliases: [
        {
          name: 'urlResolveResult',
          args: Type.Object({ id: GraphqlId() }),
          input: (a) => ({ query: { path: pathOfIri(String(a.id)) }, graphql: {} }),
        },
      ],
      // Maho's GraphQL answers a result of type not_found where REST answers 404
      around: (args, next) =>
        next(args).catch((err: unknown) => {
          if (!(err instanceof AppError) || err.reason !== NOTHING_FOUND) throw err;
          const path = typeof args.path === 'string' ? args.path : pathOfIri(String(args.id ?? ''));
          return graphqlNode({ type: 'not_found' as never, redirectType: 0 }, path);
        }),
    },
    run: async (ctx, { query, graphql }) => {
      const hit = await resolvePath(ctx, query.path);
      if (!hit) throw new AppError('not_found', 'Nothing is found at this path', { reason: NOTHING_FOUND });
      return graphql ? graphqlNode(hit, query.path) : hit;
    },
  }),
];
