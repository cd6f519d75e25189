/**
 * What PostgreSQL's autovacuum does for a server, done for the embedded database, which has no such process:
 * without it, nothing ever removed the dead rows that updates and deletes leave (carts are updated on every
 * change, so their table and indexes only grew) and nothing ever refreshed the planner's statistics (a table
 * filled after its first statistics was planned as if it were still empty). A pass picks the tables that
 * autovacuum's default thresholds would pick (dead rows above 50 + 20 % of the table: VACUUM; rows changed since
 * the last statistics above 50 + 10 %: ANALYZE) and runs one statement per table, as background work, so the
 * requests waiting go between them. The server runs a pass shortly after it starts and with its housekeeping.
 * On PostgreSQL it does nothing: the server's autovacuum does this.
 */
import { sql } from 'drizzle-orm';
import { rows, type Database } from './db.js';
import { runAsBackground } from './passes.js';

export interface MaintenanceDone {
  vacuumed: string[];
  analyzed: string[];
}

/** The tables past autovacuum's default thresholds, with what each needs. */
async function tablesDue(database: Database): Promise<{ name: string; vacuum: boolean; analyze: boolean }[]> {
  // the counters of the statements run so far reach the statistics views only when flushed
  await database.db.execute(sql`SELECT pg_stat_force_next_flush()`);
  return rows<{ name: string; vacuum: boolean; analyze: boolean }>(
    database.db,
    sql`SELECT s.relname AS name,
        s.n_dead_tup > 50 + 0.2 * GREATEST(c.reltuples, 0) AS vacuum,
        s.n_mod_since_analyze > 50 + 0.1 * GREATEST(c.reltuples, 0) AS analyze
      FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
      WHERE s.schemaname = current_schema()
        AND (s.n_dead_tup > 50 + 0.2 * GREATEST(c.reltuples, 0) OR s.n_mod_since_analyze > 50 + 0.1 * GREATEST(c.reltuples, 0))
      ORDER BY s.relname`,
  );
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** One pass over the embedded database's tables (nothing on PostgreSQL); answers what it did. */
export function maintainEmbedded(database: Database): Promise<MaintenanceDone> {
  return runAsBackground(async () => {
    const done: MaintenanceDone = { vacuumed: [], analyzed: [] };
    if (database.kind !== 'pglite') return done;
    for (const t of await tablesDue(database)) {
      // VACUUM (ANALYZE) does both in one pass over the table
      await database.db.execute(sql.raw(`${t.vacuum ? 'VACUUM (ANALYZE)' : 'ANALYZE'} ${quoted(t.name)}`));
      if (t.vacuum) done.vacuumed.push(t.name);
      done.analyzed.push(t.name);
    }
    return done;
  });
}
