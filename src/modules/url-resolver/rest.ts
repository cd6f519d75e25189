import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { collectionResponse, sendCollection } from '../../platform/pagination.js';
import { UrlResolution, UrlResolverQuery } from './schemas.js';
import { resolvePath } from './service.js';

export function routes(app: RestApp): void {
  app.get(
    '/url-resolver',
    {
      schema: {
        operationId: 'urlResolver.resolve',
        tags: ['url-resolver'],
        summary:
          'What a URL path leads to in the current store view: a collection of 0 or 1 member (unpaginated). Product and category paths match with or without the url suffix configured now; a path the store view has not registered falls back to the default store view; an old path of a product or category is a 301 redirect to its current one',
        querystring: UrlResolverQuery,
        response: { 200: collectionResponse(UrlResolution) },
      },
      config: { access: access.public },
    },
    async (req, reply) => {
      const hit = await resolvePath(req.ctx, req.query.path ?? '');
      const items = hit ? [hit] : [];
      return sendCollection(req, reply, 'UrlResolver', { items, total: items.length });
    },
  );
}
