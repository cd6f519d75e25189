import { boolean, index, integer, numeric, pgTable, primaryKey, serial, text, timestamp, unique } from 'drizzle-orm/pg-core';

export const websites = pgTable('websites', {
  id: serial('id').primaryKey(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  sortOrder: integer('sort_order').notNull().default(0),
  defaultGroupId: integer('default_group_id'),
  isDefault: boolean('is_default').notNull().default(false),
});

export const storeGroups = pgTable('store_groups', {
  id: serial('id').primaryKey(),
  websiteId: integer('website_id')
    .notNull()
    .references(() => websites.id),
  name: text('name').notNull(),
  rootCategoryId: integer('root_category_id').notNull().default(2),
  defaultStoreId: integer('default_store_id'),
});

export const stores = pgTable('stores', {
  id: serial('id').primaryKey(),
  code: text('code').notNull().unique(),
  websiteId: integer('website_id')
    .notNull()
    .references(() => websites.id),
  groupId: integer('group_id')
    .notNull()
    .references(() => storeGroups.id),
  name: text('name').notNull(),
  sortOrder: integer('sort_order').notNull().default(0),
  isActive: boolean('is_active').notNull().default(true),
});

/** Scoped configuration: scope `default` (scope_id 0), `websites` or `stores`. */
export const configValues = pgTable(
  'config_values',
  {
    id: serial('id').primaryKey(),
    scope: text('scope').notNull(),
    scopeId: integer('scope_id').notNull().default(0),
    path: text('path').notNull(),
    value: text('value'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('config_values_scope_path').on(t.scope, t.scopeId, t.path)],
);

export const currencyRates = pgTable(
  'currency_rates',
  {
    base: text('base').notNull(),
    target: text('target').notNull(),
    rate: numeric('rate', { precision: 24, scale: 12 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.base, t.target] })],
);

/**
 * One row per configuration value changed through the API or the CLI: who (actor kind, id, username), when,
 * where (scope), the path, and the value before and after (null: not set at that scope). Secret values are
 * recorded as `[secret changed]`.
 */
export const configChanges = pgTable(
  'config_changes',
  {
    id: serial('id').primaryKey(),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
    /** admin principal kind (api_user, oauth_client, admin_user) or cli */
    actorKind: text('actor_kind').notNull(),
    actorId: integer('actor_id'),
    actorUsername: text('actor_username'),
    scope: text('scope').notNull(),
    scopeId: integer('scope_id').notNull().default(0),
    path: text('path').notNull(),
    oldValue: text('old_value'),
    newValue: text('new_value'),
  },
  (t) => [index('config_changes_path_idx').on(t.path, t.id), index('config_changes_changed_at_idx').on(t.changedAt)],
);
