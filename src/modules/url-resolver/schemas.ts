import { Type, type Static } from 'typebox';

export const UrlResolution = Type.Object({
  type: Type.String({ description: 'product, category, cms_page, blog_post or redirect' }),
  id: Type.Optional(Type.Integer({ description: 'the entity id' })),
  identifier: Type.Optional(Type.String({ description: 'CMS pages and blog posts: their identifier' })),
  redirectUrl: Type.Optional(Type.String({ description: 'redirects: where to' })),
  redirectType: Type.Integer({ description: '301 or 302 for redirects, else 0' }),
});

export const UrlResolverQuery = Type.Object({
  path: Type.Optional(
    Type.String({
      maxLength: 4096,
      description: 'the request path; a leading slash, a query string and case are ignored; empty is the home page; at most 255 characters',
    }),
  ),
});

export const UrlResolverPathQuery = Type.Object({
  path: Type.String({
    maxLength: 4096,
    description: 'the request path; a leading slash, a query string and case are ignored; empty is the home page; at most 255 characters',
  }),
});

export type UrlResolutionDto = Static<typeof UrlResolution>;
