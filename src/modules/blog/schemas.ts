import { Type, type Static } from 'typebox';
import { PageQuery } from '../../platform/pagination.js';

const INT_MAX = 2147483647;
const DT = 'YYYY-MM-DD HH:MM:SS UTC';

const Stores = Type.Array(Type.Integer(), { description: 'store view ids the content is shown in; 0: every store view' });

export const BlogPost = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  urlKey: Type.String({ description: 'unique per store view; the post is reachable at blog/<urlKey> through the URL resolver' }),
  content: Type.String(),
  shortContent: Type.Optional(Type.String()),
  image: Type.Optional(Type.String({ description: 'media path relative to the media folder' })),
  imageUrl: Type.Optional(Type.String({ description: 'full URL of the image (read-only)' })),
  publishDate: Type.Optional(Type.String({ description: DT })),
  metaTitle: Type.Optional(Type.String()),
  metaDescription: Type.Optional(Type.String()),
  metaKeywords: Type.Optional(Type.String()),
  metaRobots: Type.Optional(Type.String()),
  status: Type.String({ description: 'enabled or disabled (read-only; follows isActive)' }),
  isActive: Type.Boolean(),
  stores: Stores,
  categoryIds: Type.Array(Type.Integer(), { description: 'by position' }),
  excerpt: Type.String({ description: 'read-only: at most 200 characters of the text without tags, then "..."' }),
  createdAt: Type.String({ description: DT }),
  updatedAt: Type.String({ description: DT }),
});

export const BlogCategory = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  urlKey: Type.String(),
  parentId: Type.Optional(Type.Integer()),
  path: Type.String({ description: 'ids from the top down to this one, joined by "/" (read-only)' }),
  level: Type.Integer({ description: 'top level = 1 (read-only)' }),
  position: Type.Integer(),
  isActive: Type.Boolean(),
  metaTitle: Type.Optional(Type.String()),
  metaDescription: Type.Optional(Type.String()),
  metaKeywords: Type.Optional(Type.String()),
  stores: Stores,
  createdAt: Type.String({ description: DT }),
  updatedAt: Type.String({ description: DT }),
});

const Text = (maxLength: number, description?: string) => Type.Optional(Type.Union([Type.String({ maxLength, description }), Type.Null()]));

const StoresInput = Type.Optional(
  Type.Array(Type.Union([Type.Integer({ minimum: 0, maximum: INT_MAX }), Type.String({ maxLength: 64 })]), {
    minItems: 1,
    maxItems: 1000,
    description: 'store view ids or codes, or ["all"] (also 0): every store view; default every store view',
  }),
);

const urlKey = Type.String({ maxLength: 1000, description: "lowercase a-z, 0-9 and '-'; generated from the title/name when omitted" });

export const BlogPostWrite = Type.Object(
  {
    title: Type.Optional(Type.String({ maxLength: 255 })),
    urlKey: Type.Optional(urlKey),
    content: Text(2_000_000),
    shortContent: Text(65535),
    image: Text(1000, 'media path relative to the media folder'),
    publishDate: Text(32, 'YYYY-MM-DD or YYYY-MM-DD HH:MM:SS (UTC); "" or null clears (the post is then not public)'),
    metaTitle: Text(255),
    metaDescription: Text(65535),
    metaKeywords: Text(65535),
    metaRobots: Text(32),
    isActive: Type.Optional(Type.Boolean({ description: 'default true' })),
    stores: StoresInput,
    categoryIds: Type.Optional(
      Type.Array(
        Type.Union([
          Type.Integer({ minimum: 1, maximum: INT_MAX }),
          Type.Object({
            id: Type.Integer({ minimum: 1, maximum: INT_MAX }),
            position: Type.Optional(Type.Integer({ minimum: -INT_MAX, maximum: INT_MAX })),
          }),
        ]),
        { maxItems: 1000, description: 'category ids, or {id, position} objects; unknown ids are a 400' },
      ),
    ),
  },
  { additionalProperties: false },
);

export const BlogCategoryWrite = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 255 })),
    urlKey: Type.Optional(urlKey),
    parentId: Type.Optional(
      Type.Union([Type.Integer({ minimum: 0, maximum: INT_MAX }), Type.Null()], { description: 'null or 0: top level' }),
    ),
    position: Type.Optional(Type.Integer({ minimum: -INT_MAX, maximum: INT_MAX })),
    isActive: Type.Optional(Type.Boolean({ description: 'default true' })),
    metaTitle: Text(255),
    metaDescription: Text(65535),
    metaKeywords: Text(65535),
    stores: StoresInput,
  },
  { additionalProperties: false },
);

/** What the blog lists sort by (`sortBy`); ties go by id. */
export const POST_SORT_FIELDS = ['publishDate', 'title', 'urlKey', 'isActive', 'createdAt', 'updatedAt', 'id'] as const;
export const CATEGORY_SORT_FIELDS = ['position', 'name', 'urlKey', 'level', 'isActive', 'createdAt', 'updatedAt', 'id'] as const;

const listFilters = {
  isActive: Type.Optional(Type.Boolean({ description: 'only active (true) or inactive (false) ones' })),
  storeId: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: INT_MAX,
      description: 'only those shown in this store view (assigned to it or to every store view); 0: assigned to every store view',
    }),
  ),
  sortDir: Type.Optional(Type.Enum(['asc', 'desc', 'ASC', 'DESC'])),
};

const scope = Type.Optional(Type.String({ maxLength: 16, description: '"all": every store view, active or not (back office only)' }));

export const BlogPostListQuery = Type.Object({
  ...PageQuery,
  urlKey: Type.Optional(Type.String({ maxLength: 255 })),
  categoryId: Type.Optional(Type.Integer({ minimum: 0, maximum: INT_MAX })),
  search: Type.Optional(Type.String({ maxLength: 255, description: 'in title, short content and content; at least 3 characters' })),
  scope,
  ...listFilters,
  sortBy: Type.Optional(Type.Enum([...POST_SORT_FIELDS], { description: 'default publishDate, newest first (sortDir desc)' })),
});

export const BlogCategoryListQuery = Type.Object({
  ...PageQuery,
  parentId: Type.Optional(Type.Integer({ minimum: 0, maximum: INT_MAX, description: '0: top level' })),
  search: Type.Optional(Type.String({ maxLength: 255, description: 'in name and URL key; at least 3 characters' })),
  scope,
  ...listFilters,
  sortBy: Type.Optional(Type.Enum([...CATEGORY_SORT_FIELDS], { description: 'default position, then name' })),
});

export type BlogPostDto = Static<typeof BlogPost>;
export type BlogCategoryDto = Static<typeof BlogCategory>;
export type BlogPostInput = Static<typeof BlogPostWrite>;
export type BlogCategoryInput = Static<typeof BlogCategoryWrite>;
export type BlogPostListQueryT = Static<typeof BlogPostListQuery>;
export type BlogCategoryListQueryT = Static<typeof BlogCategoryListQuery>;
