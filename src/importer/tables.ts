import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

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
