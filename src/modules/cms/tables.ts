/** CMS pages and blocks, each visible in the store views listed for it (store 0: every store view). */
import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';

export const cmsPages = pgTable(
  'cms_pages',
  {
    id: serial('id').primaryKey(),
    /** the URL key; unique per store view */
    identifier: text('identifier').notNull(),
    title: text('title').notNull(),
    contentHeading: text('content_heading'),
    content: text('content').notNull().default(''),
    metaKeywords: text('meta_keywords'),
    metaDescription: text('meta_description'),
    /** INDEX,FOLLOW | NOINDEX,FOLLOW | INDEX,NOFOLLOW | NOINDEX,NOFOLLOW */
    metaRobots: text('meta_robots'),
    pageLayout: text('page_layout'),
    sortOrder: integer('sort_order'),
    layoutUpdateXml: text('layout_update_xml'),
    customTheme: text('custom_theme'),
    customRootTemplate: text('custom_root_template'),
    customLayoutUpdateXml: text('custom_layout_update_xml'),
    customThemeFrom: date('custom_theme_from'),
    customThemeTo: date('custom_theme_to'),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('cms_pages_identifier_idx').on(sql`lower(${t.identifier})`)],
);

export const cmsPageStores = pgTable(
  'cms_page_stores',
  {
    pageId: integer('page_id')
      .notNull()
      .references(() => cmsPages.id, { onDelete: 'cascade' }),
    /** 0: every store view */
    storeId: integer('store_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.pageId, t.storeId] })],
);

export const cmsBlocks = pgTable(
  'cms_blocks',
  {
    id: serial('id').primaryKey(),
    /** unique per store view */
    identifier: text('identifier').notNull(),
    title: text('title').notNull(),
    content: text('content').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('cms_blocks_identifier_idx').on(sql`lower(${t.identifier})`)],
);

export const cmsBlockStores = pgTable(
  'cms_block_stores',
  {
    blockId: integer('block_id')
      .notNull()
      .references(() => cmsBlocks.id, { onDelete: 'cascade' }),
    /** 0: every store view */
    storeId: integer('store_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.blockId, t.storeId] })],
);
