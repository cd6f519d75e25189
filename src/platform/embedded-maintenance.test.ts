/**
 * The embedded database's upkeep: tables past autovacuum's thresholds are vacuumed and analyzed, the others left
 * alone; on PostgreSQL, whose autovacuum does it, nothing is done.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { openDatabase, rows, statement, type Database } from './db.js';
import { maintainEmbedded } from './embedded-maintenance.js';
import { postgresDatabase } from '../../test/helpers.js';

const byTag = statement<{ n: number }>(
  'maintenance_test_by_tag',
  () => sql`SELECT count(*)::int AS n FROM upkeep_probe WHERE tag = ${sql.placeholder('tag')}`,
);

async function fill(database: Database): Promise<void> {
  await database.db.execute(sql`CREATE TABLE upkeep_probe (id serial PRIMARY KEY, tag text NOT NULL, n int NOT NULL)`);
  await database.db.execute(sql`CREATE TABLE upkeep_quiet (id serial PRIMARY KEY)`);
  await database.db.execute(sql`INSERT INTO upkeep_probe (tag, n) SELECT 'a', g FROM generate_series(1, 3000) g`);
  await database.db.execute(sql`UPDATE upkeep_probe SET n = n + 1 WHERE id <= 1500`);
  await database.db.execute(sql`DELETE FROM upkeep_probe WHERE id > 2500`);
}

const stats = async (database: Database) =>
  (
    await rows<{ vacuumed: boolean; analyzed: boolean; tuples: number }>(
      database.db,
      sql`SELECT s.last_vacuum IS NOT NULL AS vacuumed, s.last_analyze IS NOT NULL AS analyzed, c.reltuples::int AS tuples
        FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid WHERE s.relname = 'upkeep_probe'`,
    )
  )[0];

describe('the embedded database upkeep', () => {
  let database: Database;
  before(async () => {
    database = await openDatabase({});
    await fill(database);
  });
  after(() => database.close());

  test('vacuums and analyzes a table past the thresholds, once', async () => {
    assert.equal((await byTag.run(database.db, { tag: 'a' }))[0].n, 2500);
    const done = await maintainEmbedded(database);
    assert.ok(done.vacuumed.includes('upkeep_probe'), `vacuumed: ${done.vacuumed.join(', ')}`);
    assert.ok(done.analyzed.includes('upkeep_probe'));
    assert.ok(!done.analyzed.includes('upkeep_quiet'), 'a table nothing changed is left alone');
    assert.deepEqual(await stats(database), { vacuumed: true, analyzed: true, tuples: 2500 });
    // nothing changed since: the next pass has nothing to do for it
    const again = await maintainEmbedded(database);
    assert.ok(!again.analyzed.includes('upkeep_probe'), `analyzed again: ${again.analyzed.join(', ')}`);
    assert.equal((await byTag.run(database.db, { tag: 'a' }))[0].n, 2500);
  });

  test('a table changed by a few rows since is left alone', async () => {
    await database.db.execute(sql`UPDATE upkeep_probe SET n = n + 1 WHERE id <= 10`);
    const done = await maintainEmbedded(database);
    assert.deepEqual(done, { vacuumed: [], analyzed: [] });
  });
});

describe('the upkeep on PostgreSQL', { skip: !process.env.TEST_DATABASE_URL }, () => {
  let database: Database;
  let drop: () => Promise<void>;
  before(async () => {
    ({ database, drop } = await postgresDatabase(process.env.TEST_DATABASE_URL!));
    await fill(database);
  });
  after(async () => {
    await database.close();
    await drop();
  });

  test('does nothing: the server vacuums and analyzes its own tables', async () => {
    assert.deepEqual(await maintainEmbedded(database), { vacuumed: [], analyzed: [] });
  });
});
