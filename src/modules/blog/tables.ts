/** Blog posts and categories (a tree), each visible in the store views listed for it (store 0: every store view). */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';

export const blogCategories = pgTable(
  'blog_categories',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    urlKey: text('url_key').notNull(),
    parentId: integer('parent_id'),
    /** ids from the top down to this one, joined by '/' ("3/7") */
    path: text('path').notNull().default(''),
    /** top level = 1 */
    level: integer('level').notNull().default(1),
    position: integer('position').notNull().default(0),
    isActive: boolean('is_active').notNull().default(true),
    metaTitle: text('meta_title'),
    metaDescription: text('meta_description'),
    metaKeywords: text('meta_keywords'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('blog_categories_parent_idx').on(t.parentId), index('blog_categories_url_key_idx').on(sql`lower(${t.urlKey})`)],
);

export const blogCategoryStores = pgTable(
  'blog_category_stores',
  {
    categoryId: integer('category_id')
      .notNull()
      .references(() => blogCategories.id, { onDelete: 'cascade' }),
    storeId: integer('store_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.categoryId, t.storeId] })],
);

export const blogPosts = pgTable(
  'blog_posts',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    urlKey: text('url_key').notNull(),
    content: text('content').notNull().default(''),
    shortContent: text('short_content'),
    /** media path of the post image, relative to the media folder */
    image: text('image'),
    /** when the post shows publicly; null: not scheduled (public only once set and not in the future) */
    publishDate: timestamp('publish_date', { withTimezone: true }),
    metaTitle: text('meta_title'),
    metaDescription: text('meta_description'),
    metaKeywords: text('meta_keywords'),
    metaRobots: text('meta_robots'),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('blog_posts_url_key_idx').on(sql`lower(${t.urlKey})`), index('blog_posts_publish_idx').on(t.publishDate)],
);

export const blogPostStores = pgTable(
  'blog_post_stores',
  {
    postId: integer('post_id')
      .notNull()
      .references(() => blogPosts.id, { onDelete: 'cascade' }),
    storeId: integer('store_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.storeId] })],
);

export const blogPostCategories = pgTable(
  'blog_post_categories',
  {
    postId: integer('post_id')
      .notNull()
      .references(() => blogPosts.id, { onDelete: 'cascade' }),
    categoryId: integer('category_id')
      .notNull()
      .references(() => blogCategories.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.postId, t.categoryId] }), index('blog_post_categories_category_idx').on(t.categoryId)],
);
