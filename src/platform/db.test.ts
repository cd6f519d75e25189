/**
 * Memoized statements on the embedded database: answered from memory while nothing has written, read again
 * after any statement that may write, any transaction and any script; never memoized on PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { openDatabase, rows, statement, type Database } from './db.js';
import { postgresDatabase } from '../../test/helpers.js';

const counted = statement<{ n: number }>(
  'db_test_count',
  () => sql`SELECT count(*)::int AS n FROM memo_probe WHERE tag = ${sql.placeholder('tag')}`,
  { memo: true },
);
const plain = statement<{ n: number }>(
  'db_test_count_plain',
  () => sql`SELECT count(*)::int AS n FROM memo_probe WHERE tag = ${sql.placeholder('tag')}`,
);

for (const kind of ['pglite', 'postgres'] as const) {
  describe(`memoized statements (${kind})`, { skip: kind === 'postgres' && !process.env.TEST_DATABASE_URL }, () => {
    let database: Database;
    let drop: () => Promise<void> = async () => undefined;

    before(async () => {
      if (kind === 'pglite') database = await openDatabase({});
      else ({ database, drop } = await postgresDatabase(process.env.TEST_DATABASE_URL!));
      await database.db.execute(sql`CREATE TABLE memo_probe (id serial PRIMARY KEY, tag text NOT NULL)`);
    });
    after(async () => {
      await database.close();
      await drop();
    });

    const n = async (tag = 'a') => (await counted.run(database.db, { tag }))[0].n;

    test('the same rows while nothing writes (embedded only); each value set apart', async () => {
      const first = await counted.run(database.db, { tag: 'a' });
      const again = await counted.run(database.db, { tag: 'a' });
      assert.equal(again === first, kind === 'pglite', 'answered from memory on the embedded database only');
      assert.notEqual(await counted.run(database.db, { tag: 'b' }), first);
      assert.notEqual(await plain.run(database.db, { tag: 'a' }), await plain.run(database.db, { tag: 'a' }));
    });

    test('read again after a write of any kind', async () => {
      assert.equal(await n(), 0);
      await database.db.execute(sql`INSERT INTO memo_probe (tag) VALUES ('a')`);
      assert.equal(await n(), 1);
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO memo_probe (tag) VALUES ('a')`);
      });
      assert.equal(await n(), 2);
      await rows(
        database.db,
        sql`WITH gone AS (DELETE FROM memo_probe WHERE id = (SELECT min(id) FROM memo_probe) RETURNING id) SELECT id FROM gone`,
      );
      assert.equal(await n(), 1);
      if (database.pglite) {
        await database.pglite.exec(`INSERT INTO memo_probe (tag) VALUES ('a'); INSERT INTO memo_probe (tag) VALUES ('a')`);
        assert.equal(await n(), 3);
      }
    });

    test('a rolled-back transaction leaves the answer right', async () => {
      const before = await n();
      await assert.rejects(
        database.db.transaction(async (tx) => {
          await tx.execute(sql`INSERT INTO memo_probe (tag) VALUES ('a')`);
          assert.equal((await counted.run(tx, { tag: 'a' }))[0].n, before + 1, 'inside the transaction: its own write');
          throw new Error('roll back');
        }),
        /roll back/,
      );
      assert.equal(await n(), before);
    });

    test('statements are planned once for every value, on both databases', async () => {
      // plans made afresh for each execution cost a placement's insert half its time on the embedded database
      const [row] = await rows<{ mode: string }>(database.db, sql`SELECT current_setting('plan_cache_mode') AS mode`);
      assert.equal(row.mode, 'force_generic_plan');
    });

    test('a read racing a write is not kept', async () => {
      const before = await n();
      const [, during] = await Promise.all([database.db.execute(sql`INSERT INTO memo_probe (tag) VALUES ('a')`), n()]);
      assert.ok(during === before || during === before + 1);
      assert.equal(await n(), before + 1);
    });
  });
}
