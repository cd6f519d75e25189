import { customType, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** Source row → our row, per imported entity (see drizzle/0014_import_id_map.sql). */
export const importIdMap = pgTable(
  'import_id_map',
  {
    entity: text('entity').notNull(),
    sourceId: text('source_id').notNull(),
    targetId: integer('target_id').notNull(),
    importedAt: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'import_id_map_pk', columns: [t.entity, t.sourceId] }),
    index('import_id_map_target_idx').on(t.entity, t.targetId),
  ],
);

const int8multirange = customType<{ data: string }>({ dataType: () => 'int8multirange' });

/**
 * The ids an entity whose ids are kept (source id = our id) was imported with, as ranges: one row per entity
 * rather than a row per id in the id map (see drizzle/0031_import_kept_ids.sql).
 */
export const importKeptIds = pgTable('import_kept_ids', {
  entity: text('entity').primaryKey(),
  ids: int8multirange('ids').notNull(),
  importedAt: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
});
