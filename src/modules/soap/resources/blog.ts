/**
 * `blog_post` of Maho's Magento 1 API: the posts with Magento's filters, one post's data, create, update and delete,
 * over the blog's post service (URL keys, store views, URL paths, store-limited principals). Store views are named
 * by id or code (`stores`, the `store` filter).
 *
 * Maho's api.xml declares no faults for this resource, so its handler answers each of them as the global
 * `unknown` (code 0); the message here is the reason Maho's Api.php gives (which its handler drops), and
 * `resourceFaults` lists the global faults, as Maho's does.
 */
import { and, sql, type SQL } from 'drizzle-orm';
import { Value } from 'typebox/value';
import type { Ctx } from '../../../platform/context.js';
import { storeZone, today } from '../../../platform/report-period.js';
import { createPost, deletePost, getPost, postsWhere, updatePost } from '../../blog/posts.js';
import { BlogPostWrite, type BlogPostDto, type BlogPostInput } from '../../blog/schemas.js';
import { isRecord } from '../encoding.js';
import { filterSql, FilterError, parseFilters, type FieldFilter, type FilterColumn } from '../filters.js';
import { defineResource, idArg, resourceFault, serviceFault, type LegacyValue } from '../resources.js';

const rec = (entries: [string, LegacyValue][]) => new Map<string, LegacyValue>(entries);

/** A fault of Maho's Api.php by its name (none is declared: code 0) with the reason as its message. */
const fault = (name: string, message: string) => resourceFault(blogPost, name, message);
const notExists = () => fault('post_not_exists', 'Post not exists.');

/** A post as Maho's API answers it; publish_date is a date (with its time when one was set other than midnight). */
function postRecord(p: BlogPostDto): Map<string, LegacyValue> {
  return rec([
    ['post_id', p.id],
    ['title', p.title],
    ['content', p.content],
    ['url_key', p.urlKey],
    ['image', p.image ?? null],
    ['is_active', p.isActive ? 1 : 0],
    ['publish_date', p.publishDate ? p.publishDate.replace(/ 00:00:00$/, '') : null],
    ['meta_title', p.metaTitle ?? null],
    ['meta_keywords', p.metaKeywords ?? null],
    ['meta_description', p.metaDescription ?? null],
    ['meta_robots', p.metaRobots ?? null],
    ['created_at', p.createdAt],
    ['updated_at', p.updatedAt],
    ['stores', p.stores],
  ]);
}

type Tables = Parameters<Parameters<typeof postsWhere>[1]>;

/** The filters' fields: the post entity's columns (Maho's static attributes and `entity_id`). */
const columns = (t: Tables[0]): Record<string, FilterColumn> => ({
  entity_id: { column: t.id, type: 'number' },
  post_id: { column: t.id, type: 'number' },
  title: { column: t.title },
  url_key: { column: t.urlKey },
  content: { column: t.content },
  short_content: { column: t.shortContent },
  image: { column: t.image },
  is_active: { column: t.isActive, type: 'bool' },
  publish_date: { column: t.publishDate, type: 'date' },
  meta_title: { column: t.metaTitle },
  meta_keywords: { column: t.metaKeywords },
  meta_description: { column: t.metaDescription },
  meta_robots: { column: t.metaRobots },
  created_at: { column: t.createdAt, type: 'date' },
  updated_at: { column: t.updatedAt, type: 'date' },
});

/** A store filter value (an id or a code; "admin" is 0) as the store id. */
function storeFilterValue(ctx: Ctx, v: LegacyValue): LegacyValue {
  if (Array.isArray(v)) return v.map((x) => storeFilterValue(ctx, x));
  if (typeof v !== 'string' || /^\s*\d+\s*$/.test(v)) return v;
  if (v.trim().toLowerCase() === 'admin') return 0;
  const found = ctx.app.settings.storeByCode(v.trim());
  if (!found) throw new FilterError(`Unknown store: ${v}`);
  return found.id;
}

/**
 * The WHERE of a list's filters; `store` (Maho's mapping to the post's store view links) holds for a post linked
 * to a matching store view.
 */
function listWhere(ctx: Ctx, filters: Map<string, FieldFilter>, [posts, links]: Tables): SQL | undefined {
  const store = filters.get('store');
  const rest = new Map([...filters].filter(([k]) => k !== 'store'));
  let inStores: SQL | undefined;
  if (store) {
    const byId: FieldFilter = store.map((alt) => new Map([...alt].map(([op, v]) => [op, storeFilterValue(ctx, v)])));
    const cond = filterSql(new Map([['store', byId]]), { store: { column: links.storeId, type: 'number' } });
    inStores = sql`${posts.id} IN (SELECT ${links.postId} FROM ${links} WHERE ${cond})`;
  }
  return and(filterSql(rest, columns(posts)), inStores);
}

/** A text field: a string or a number; null clears it. */
function text(field: string, v: LegacyValue | undefined): string | null | undefined {
  if (v === undefined) return undefined;
  if (v === null || typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  throw fault('data_invalid', `Invalid value for ${field}.`);
}

/** Maho reads is_active as an integer: 1, "1", true (and "true") are active, anything else not. */
function active(v: LegacyValue): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') return v.trim().toLowerCase() === 'true' || (/^\s*[+-]?\d+/.test(v) && parseInt(v, 10) !== 0);
  return false;
}

/** A list field (`stores`, `categories`): a list, or one value as a list of one. */
const listOf = (v: LegacyValue): LegacyValue[] => (Array.isArray(v) ? v : [v]);

/** The service's names of the fields, for messages in Maho's. */
const FIELD_NAMES: Record<string, string> = {
  urlKey: 'url_key',
  shortContent: 'short_content',
  publishDate: 'publish_date',
  metaTitle: 'meta_title',
  metaDescription: 'meta_description',
  metaKeywords: 'meta_keywords',
  metaRobots: 'meta_robots',
  isActive: 'is_active',
  categoryIds: 'categories',
};

/**
 * A create's or update's post data in the service's names; keys Maho does not save are ignored. As Maho's post
 * model saves it: a post created without is_active is inactive, and one without a publish date (or with an empty
 * one) is published today, in the store view's time zone.
 */
function postData(ctx: Ctx, v: LegacyValue | undefined, mode: 'create' | 'update'): BlogPostInput {
  if (!isRecord(v)) throw fault('data_invalid', 'Post data must be a struct.');
  const body: Record<string, unknown> = {};
  for (const [key, field] of [
    ['title', 'title'],
    ['content', 'content'],
    ['url_key', 'urlKey'],
    ['short_content', 'shortContent'],
    ['image', 'image'],
    ['meta_title', 'metaTitle'],
    ['meta_keywords', 'metaKeywords'],
    ['meta_description', 'metaDescription'],
    ['meta_robots', 'metaRobots'],
  ] as const) {
    const value = text(key, v.get(key));
    if (value !== undefined) body[field] = value;
  }
  if (mode === 'create') {
    for (const f of ['title', 'content'] as const) {
      if (!body[f]) throw fault('data_invalid', `${f[0].toUpperCase()}${f.slice(1)} is required.`);
    }
  }
  if (body.title === null) body.title = '';
  if (body.content === null) body.content = '';
  if (v.has('is_active')) body.isActive = active(v.get('is_active') ?? null);
  else if (mode === 'create') body.isActive = false;
  const date = text('publish_date', v.get('publish_date'));
  if (date === undefined ? mode === 'create' : !date?.trim()) body.publishDate = today(storeZone(ctx, ctx.store.storeId), ctx.now);
  else if (date !== undefined) body.publishDate = date;
  const stores = v.get('stores');
  if (stores !== undefined && stores !== null) {
    body.stores = listOf(stores).map((s) => {
      if (typeof s === 'number' || typeof s === 'string') return typeof s === 'string' && /^\s*\d+\s*$/.test(s) ? Number(s) : s;
      throw fault('data_invalid', 'Invalid value for stores.');
    });
  }
  const categories = v.get('categories');
  if (categories !== undefined && categories !== null) {
    body.categoryIds = listOf(categories).map((c) => {
      const id = idArg(c);
      if (id === undefined) throw fault('data_invalid', 'Invalid value for categories.');
      return id;
    });
  }
  // the constraints REST enforces through its body schema (lengths, list sizes)
  const [first] = [...Value.Errors(BlogPostWrite, body)];
  if (first) {
    const key = first.instancePath.split('/')[1] ?? '';
    throw fault('data_invalid', `${FIELD_NAMES[key] ?? key} ${first.message}`.trim());
  }
  return body as BlogPostInput;
}

/** A service's refusal as the resource's fault: a post not found, a store view out of reach, data refused. */
function asFault(err: unknown, invalid: 'data_invalid' | 'not_deleted'): never {
  return serviceFault(blogPost, err, {
    missing: 'post_not_exists',
    forbidden: 'access_denied',
    invalid,
    reasons: { BLOG_POST_NOT_FOUND: ['post_not_exists', 'Post not exists.'] },
  });
}

function postId(v: LegacyValue | undefined): number {
  const id = idArg(v);
  if (id === undefined) throw notExists();
  return id;
}

export const blogPost = defineResource({
  name: 'blog_post',
  title: 'Blog Post API',
  faults: {},
  methods: {
    list: {
      title: 'Get post list',
      permission: ['blog-posts', 'read'],
      params: ['filters'],
      run: async (ctx, [filters]) => {
        let posts: BlogPostDto[];
        try {
          const parsed = parseFilters(filters);
          posts = await postsWhere(ctx, (...t) => listWhere(ctx, parsed, t));
        } catch (err) {
          if (err instanceof FilterError) throw fault('filters_invalid', err.message);
          throw err;
        }
        return posts.map(postRecord);
      },
    },
    info: {
      title: 'Get post info',
      permission: ['blog-posts', 'read'],
      params: ['postId'],
      run: async (ctx, [id]) => {
        try {
          return postRecord(await getPost(ctx, postId(id)));
        } catch (err) {
          asFault(err, 'data_invalid');
        }
      },
    },
    create: {
      title: 'Create new post',
      permission: ['blog-posts', 'create'],
      params: ['postData'],
      run: async (ctx, [data]) => {
        const body = postData(ctx, data, 'create');
        try {
          return (await createPost(ctx, body)).id;
        } catch (err) {
          asFault(err, 'data_invalid');
        }
      },
    },
    update: {
      title: 'Update post',
      permission: ['blog-posts', 'write'],
      params: ['postId', 'postData'],
      run: async (ctx, [id, data]) => {
        const n = postId(id);
        const body = postData(ctx, data, 'update');
        try {
          await updatePost(ctx, n, body);
        } catch (err) {
          asFault(err, 'data_invalid');
        }
        return true;
      },
    },
    delete: {
      title: 'Delete post',
      permission: ['blog-posts', 'delete'],
      params: ['postId'],
      run: async (ctx, [id]) => {
        try {
          await deletePost(ctx, postId(id));
        } catch (err) {
          asFault(err, 'not_deleted');
        }
        return true;
      },
    },
  },
});
