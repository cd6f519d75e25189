/**
 * URL paths per store view and what they lead to. The module that owns an entity (products, categories, CMS
 * pages, blog posts) writes its paths through this module's service; the resolver only reads.
 */
import { index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';

export const urlRewrites = pgTable(
  'url_rewrites',
  {
    id: serial('id').primaryKey(),
    storeId: integer('store_id').notNull(),
    /** without a leading slash, as stored: "women/dresses.html" */
    requestPath: text('request_path').notNull(),
    /** product, category, cms_page, blog_post, redirect */
    entityType: text('entity_type').notNull(),
    entityId: integer('entity_id'),
    /** for redirects: where to */
    targetPath: text('target_path'),
    /** 0 (not a redirect), 301 or 302 */
    redirectType: integer('redirect_type').notNull().default(0),
  },
  (t) => [
    uniqueIndex('url_rewrites_store_path_uq').on(t.storeId, t.requestPath),
    index('url_rewrites_entity_idx').on(t.entityType, t.entityId),
  ],
);
