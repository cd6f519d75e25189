import { Type, type Static } from 'typebox';
import { PageQuery } from '../../platform/pagination.js';

const INT_MAX = 2147483647;

/** What CMS lists sort by (`sortBy`); ties go by id. */
export const CMS_SORT_FIELDS = ['title', 'identifier', 'isActive', 'createdAt', 'updatedAt', 'id'] as const;

export const META_ROBOTS = ['INDEX,FOLLOW', 'NOINDEX,FOLLOW', 'INDEX,NOFOLLOW', 'NOINDEX,NOFOLLOW'] as const;

const Status = Type.String({ description: 'enabled or disabled (read-only; follows isActive)' });
const Stores = Type.Array(Type.Integer(), { description: 'store view ids the content is shown in; 0: every store view' });

export const CmsPage = Type.Object({
  id: Type.Integer(),
  identifier: Type.String({ description: 'the URL key' }),
  title: Type.String(),
  contentHeading: Type.Optional(Type.String()),
  content: Type.String(),
  metaKeywords: Type.Optional(Type.String()),
  metaDescription: Type.Optional(Type.String()),
  metaRobots: Type.Optional(Type.String({ description: 'INDEX,FOLLOW | NOINDEX,FOLLOW | INDEX,NOFOLLOW | NOINDEX,NOFOLLOW' })),
  pageLayout: Type.Optional(Type.String()),
  sortOrder: Type.Optional(Type.Integer()),
  layoutUpdateXml: Type.Optional(Type.String({ description: 'back office only' })),
  customTheme: Type.Optional(Type.String({ description: 'back office only' })),
  customRootTemplate: Type.Optional(Type.String({ description: 'back office only' })),
  customLayoutUpdateXml: Type.Optional(Type.String({ description: 'back office only' })),
  customThemeFrom: Type.Optional(Type.String({ description: 'YYYY-MM-DD; back office only' })),
  customThemeTo: Type.Optional(Type.String({ description: 'YYYY-MM-DD; back office only' })),
  status: Status,
  isActive: Type.Boolean(),
  stores: Stores,
  createdAt: Type.String({ description: 'YYYY-MM-DD HH:MM:SS UTC' }),
  updatedAt: Type.String({ description: 'YYYY-MM-DD HH:MM:SS UTC' }),
});

export const CmsBlock = Type.Object({
  id: Type.Integer(),
  identifier: Type.String(),
  title: Type.String(),
  content: Type.String(),
  status: Status,
  isActive: Type.Boolean(),
  stores: Stores,
  createdAt: Type.String({ description: 'YYYY-MM-DD HH:MM:SS UTC' }),
  updatedAt: Type.String({ description: 'YYYY-MM-DD HH:MM:SS UTC' }),
});

const Nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(t: T) =>
  Type.Optional(Type.Union([t, Type.Null()]));
const Text = (maxLength: number, description?: string) => Nullable(Type.String({ maxLength, description }));
const DateInput = (description: string) =>
  Nullable(Type.String({ maxLength: 32, description: `${description}; YYYY-MM-DD, "" or null clears` }));

const StoresInput = Type.Optional(
  Type.Array(Type.Union([Type.Integer({ minimum: 0, maximum: INT_MAX }), Type.String({ maxLength: 64 })]), {
    minItems: 1,
    maxItems: 1000,
    description: 'store view ids or codes, or ["all"] (also 0): every store view; default every store view',
  }),
);

const identifier = Type.String({
  maxLength: 1000,
  description: "URL-key characters only (a-z, 0-9, '-', '_', '/', '.'), at most 100; unique per store view",
});
const title = Type.String({ maxLength: 255 });

const pageFields = {
  identifier: Type.Optional(identifier),
  title: Type.Optional(title),
  contentHeading: Text(255),
  content: Text(2_000_000),
  metaKeywords: Text(65535),
  metaDescription: Text(65535),
  metaRobots: Text(32, 'INDEX,FOLLOW, NOINDEX,FOLLOW, INDEX,NOFOLLOW or NOINDEX,NOFOLLOW; null clears'),
  pageLayout: Text(255),
  sortOrder: Nullable(Type.Integer({ minimum: -INT_MAX, maximum: INT_MAX })),
  layoutUpdateXml: Text(65535),
  customTheme: Text(255),
  customRootTemplate: Text(255),
  customLayoutUpdateXml: Text(65535),
  customThemeFrom: DateInput('custom theme from'),
  customThemeTo: DateInput('custom theme to'),
  isActive: Type.Optional(Type.Boolean({ description: 'default true' })),
  stores: StoresInput,
};

/** Create and update share the shape: create requires identifier and title (checked by the service, a 400). */
export const CmsPageWrite = Type.Object(pageFields, { additionalProperties: false });

export const CmsBlockWrite = Type.Object(
  {
    identifier: Type.Optional(identifier),
    title: Type.Optional(title),
    content: Text(2_000_000),
    isActive: Type.Optional(Type.Boolean({ description: 'default true' })),
    stores: StoresInput,
  },
  { additionalProperties: false },
);

export const CmsListQuery = Type.Object({
  ...PageQuery,
  identifier: Type.Optional(Type.String({ maxLength: 255, description: 'exact identifier (0 or 1 item in a store view)' })),
  search: Type.Optional(Type.String({ maxLength: 255, description: 'in identifier, title and content; at least 3 characters' })),
  q: Type.Optional(Type.String({ maxLength: 255, description: 'alias of search' })),
  createdFrom: Type.Optional(Type.String({ maxLength: 32, description: 'created at or after (YYYY-MM-DD or YYYY-MM-DD HH:MM:SS UTC)' })),
  createdTo: Type.Optional(Type.String({ maxLength: 32, description: 'created at or before (a date alone: that whole day)' })),
  updatedSince: Type.Optional(Type.String({ maxLength: 32, description: 'updated at or after' })),
  scope: Type.Optional(Type.String({ maxLength: 16, description: '"all": every store view, active or not (back office only)' })),
  isActive: Type.Optional(Type.Boolean({ description: 'only active (true) or inactive (false) content' })),
  storeId: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: INT_MAX,
      description: 'only content shown in this store view (assigned to it or to every store view); 0: assigned to every store view',
    }),
  ),
  sortBy: Type.Optional(Type.Enum([...CMS_SORT_FIELDS], { description: 'default title' })),
  sortDir: Type.Optional(Type.Enum(['asc', 'desc', 'ASC', 'DESC'], { description: 'default asc' })),
});

export type CmsPageDto = Static<typeof CmsPage>;
export type CmsBlockDto = Static<typeof CmsBlock>;
export type CmsPageInput = Static<typeof CmsPageWrite>;
export type CmsBlockInput = Static<typeof CmsBlockWrite>;
export type CmsListQueryT = Static<typeof CmsListQuery>;
