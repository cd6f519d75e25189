/** What a URL path leads to: GET /url-resolver, and Maho's GraphQL `urlResolveResults(path:)`. */
import { access } from '../../platform/auth/access.js';
import { op, type Operation } from '../../platform/operations.js';
import { UrlResolution, UrlResolverQuery } from './schemas.js';
import { resolvePath, type ResolvedUrl } from './service.js';

const IRI_PREFIX = '/api/rest/v2/url-resolver?path=';

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
    // Maho's name; the item form `resolveUrlResolveResult(path:)` is in graphql.ts
    // a `graphql` part (empty) marks the GraphQL call, whose nodes need an id
    graphql: { name: 'urlResolveResults', input: (a) => ({ query: a.path == null ? {} : { path: a.path }, graphql: {} }) },
    run: async (ctx, { query, graphql }) => {
      const path = query.path ?? '';
      const hit = await resolvePath(ctx, path);
      const items = hit ? [graphql ? graphqlNode(hit, path) : hit] : [];
      return { items, total: items.length };
    },
  }),
];
