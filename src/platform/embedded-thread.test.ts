/**
 * The embedded database on its own thread: rows, errors and transactions as PGlite itself gives them, the order
 * PGlite runs calls in (background work after the requests'), prepared statements across schema changes and
 * evictions, dump and load, and a thread that neither holds an idle process open nor leaves a caller waiting
 * when it dies.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import workerThreads, { type WorkerOptions } from 'node:worker_threads';
import { PGlite, types } from '@electric-sql/pglite';
import { openEmbeddedThread, type EmbeddedClient } from './embedded-thread.js';
import { runAsBackground } from './passes.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The database's thread that stops when a statement says so (see the fixture). */
const STOPPING_THREAD = path.join(ROOT, 'test/fixtures/stopping-embedded-thread.mjs');

/** The query builder's parsers: dates and intervals stay PostgreSQL's text. */
const RAW_DATES = {
  rowMode: 'array' as const,
  parsers: { [types.TIMESTAMPTZ]: (v: string) => v, [types.DATE]: (v: string) => v, [types.INTERVAL]: (v: string) => v },
};

const SCHEMA = `CREATE TABLE kinds (
  id serial PRIMARY KEY, i int, big bigint, n numeric(12,4), t text, b boolean, j jsonb, arr text[], ints int[],
  bin bytea, at timestamptz, day date, span interval, u uuid, f float8
)`;
const ROW = [
  7,
  '9007199254740993',
  '12.3400',
  'a "quoted", text',
  true,
  { nested: [1, { x: 'y' }] },
  ['a', 'b,c', 'd"e'],
  [1, 2, 3],
  new Uint8Array([0, 1, 255]),
  new Date('2026-01-02T03:04:05.678Z'),
  '2026-02-03',
  '1 day 02:03:04',
  '0b0f8f1e-9b6c-4a5e-8d3b-2f6c1f1e2d3c',
  1.5,
];
const INSERT =
  'INSERT INTO kinds (i, big, n, t, b, j, arr, ints, bin, at, day, span, u, f) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING *';

describe('the embedded database on its own thread', () => {
  let threaded: EmbeddedClient;
  let direct: PGlite;

  before(async () => {
    threaded = await openEmbeddedThread({});
    direct = new PGlite();
    await direct.waitReady;
    for (const db of [threaded, direct]) await db.exec(SCHEMA);
  });
  after(async () => {
    await threaded.close();
    await direct.close();
  });

  test('answers the rows, fields and counts PGlite answers itself, for every kind of value', async () => {
    const mine = await threaded.query(INSERT, ROW);
    const theirs = await direct.query(INSERT, ROW);
    assert.deepEqual(mine.rows, theirs.rows);
    assert.deepEqual(mine.fields, theirs.fields);
    assert.equal(mine.affectedRows, 1);
    for (const options of [undefined, RAW_DATES, { rowMode: 'object' as const, parsers: RAW_DATES.parsers }]) {
      const text = 'SELECT *, NULL::text AS nothing FROM kinds WHERE id = ANY($1::int[]) AND t LIKE $2';
      const a = await threaded.query(text, [[1, 2], '%quoted%'], options);
      const b = await direct.query(text, [[1, 2], '%quoted%'], options);
      assert.deepEqual(a.rows, b.rows);
      assert.equal(a.rows.length, 1);
    }
    const updated = await threaded.query('UPDATE kinds SET i = i + 1 WHERE id > $1', [0]);
    assert.equal(updated.affectedRows, 1);
    assert.deepEqual(updated.rows, []);
    // a statement run again answers from its prepared statement, and the same
    const again = await threaded.query('SELECT i FROM kinds WHERE id = $1', [1]);
    assert.deepEqual((await threaded.query('SELECT i FROM kinds WHERE id = $1', [1])).rows, again.rows);
    assert.deepEqual(again.rows, [{ i: 8 }]);
  });

  test('an error keeps PostgreSQL’s fields and changes nothing', async () => {
    await threaded.exec('CREATE TABLE uniq (k text PRIMARY KEY, v int CHECK (v >= 0))');
    await threaded.query('INSERT INTO uniq VALUES ($1, $2)', ['a', 1]);
    await assert.rejects(
      threaded.query('INSERT INTO uniq VALUES ($1, $2)', ['a', 2]),
      (err: Error & { code?: string; constraint?: string }) => {
        assert.equal(err.code, '23505');
        assert.equal(err.constraint, 'uniq_pkey');
        assert.match(err.message, /duplicate key/);
        return true;
      },
    );
    await assert.rejects(threaded.query('INSERT INTO uniq VALUES ($1, $2)', ['b', 'x']), { code: '22P02' });
    await assert.rejects(threaded.query('SELEC 1'), { code: '42601' });
    assert.deepEqual((await threaded.query('SELECT k, v FROM uniq ORDER BY k')).rows, [{ k: 'a', v: 1 }]);
  });

  test('a transaction commits, rolls back on an error, keeps savepoints, and holds the database until it ends', async () => {
    await threaded.exec('CREATE TABLE ledger (n int)');
    const inside = await threaded.transaction(async (tx) => {
      await tx.query('INSERT INTO ledger VALUES ($1)', [1]);
      await tx.query('SAVEPOINT sp1');
      await tx.query('INSERT INTO ledger VALUES ($1)', [2]);
      await tx.query('ROLLBACK TO SAVEPOINT sp1');
      return (await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger')).rows[0].n;
    });
    assert.equal(inside, 1);
    await assert.rejects(
      threaded.transaction(async (tx) => {
        await tx.query('INSERT INTO ledger VALUES ($1)', [3]);
        throw new Error('changed my mind');
      }),
      /changed my mind/,
    );
    // a statement outside waits for the open transaction, and then sees all of it
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const tx = threaded.transaction(async (t) => {
      await t.query('INSERT INTO ledger VALUES ($1)', [4]);
      await held;
      await t.query('INSERT INTO ledger VALUES ($1)', [5]);
    });
    await new Promise((r) => setTimeout(r, 20));
    const outside = threaded.query<{ ns: number[] }>('SELECT array_agg(n ORDER BY n) AS ns FROM ledger');
    let answered = false;
    void outside.then(() => (answered = true));
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(answered, false, 'the statement outside waits for the transaction');
    release();
    await tx;
    assert.deepEqual((await outside).rows[0].ns, [1, 4, 5]);
    // a failed COMMIT (the transaction was aborted by a statement whose error was caught) reaches the caller
    await assert.rejects(
      threaded.transaction(async (t) => {
        await t.query('INSERT INTO ledger VALUES ($1)', [6]);
        await t.query('SELECT 1/0').catch(() => undefined);
      }),
    );
    assert.deepEqual((await threaded.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger')).rows[0].n, 3);
    // BEGIN goes with the first statement: when that statement fails, its error keeps PostgreSQL's fields, the
    // transaction is rolled back, and the database is free for the next one
    await assert.rejects(
      threaded.transaction(async (t) => {
        await t.query('INSERT INTO ledger VALUES ($1)', ['not a number']);
      }),
      (err: Error & { code?: string }) => err.code === '22P02',
    );
    let caught: unknown;
    await threaded.transaction(async (t) => {
      caught = await t.query('INSERT INTO missing_table VALUES (1)').catch((err: unknown) => err);
      await t.query('ROLLBACK');
    });
    assert.equal((caught as { code?: string }).code, '42P01');
    // one that runs no statement opens nothing, and statements sent at once are all answered in order
    assert.equal(await threaded.transaction(async () => 'nothing'), 'nothing');
    const together = await threaded.transaction(async (t) =>
      Promise.all([1, 2, 3].map((n) => t.query<{ n: number }>('INSERT INTO ledger VALUES ($1) RETURNING n', [n]))),
    );
    assert.deepEqual(
      together.map((r) => r.rows[0].n),
      [1, 2, 3],
    );
    assert.deepEqual((await threaded.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger')).rows[0].n, 6);
  });

  test('a schema change is seen by statements prepared before it', async () => {
    await threaded.exec('CREATE TABLE shape (a int)');
    await threaded.query('INSERT INTO shape VALUES ($1)', [1]);
    const text = 'SELECT * FROM shape WHERE a = $1';
    assert.deepEqual((await threaded.query(text, [1])).rows, [{ a: 1 }]);
    await threaded.exec('ALTER TABLE shape ADD COLUMN b text DEFAULT $$x$$');
    assert.deepEqual((await threaded.query(text, [1])).rows, [{ a: 1, b: 'x' }]);
    await threaded.query('ALTER TABLE shape ALTER COLUMN a TYPE bigint');
    assert.deepEqual((await threaded.query(text, [1])).fields, [
      { name: 'a', dataTypeID: 20 },
      { name: 'b', dataTypeID: 25 },
    ]);
  });

  test('more distinct statements than it keeps prepared still answer right', async () => {
    // each text twice: the second time it is kept prepared, and the oldest are closed beyond the limit
    for (let i = 0; i < 400; i++) {
      for (const n of [1, 2]) {
        const { rows } = await threaded.query<{ v: number }>(`SELECT $1::int + ${i} AS v`, [n]);
        assert.equal(rows[0].v, i + n);
      }
    }
    assert.equal((await threaded.query<{ v: number }>('SELECT $1::int + 0 AS v', [5])).rows[0].v, 5);
  });

  test('concurrent calls are all answered, each with its own rows', async () => {
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => threaded.query<{ v: number }>('SELECT $1::int * 2 AS v', [i])));
    assert.deepEqual(
      answers.map((a) => a.rows[0].v),
      Array.from({ length: 200 }, (_, i) => i * 2),
    );
  });

  test('concurrent transactions, some rolled back, and statements between them: each answer its own, nothing lost', async () => {
    await threaded.exec('CREATE TABLE busy (flow int, step int)');
    const flow = async (f: number) => {
      let kept = 0;
      for (let step = 0; step < 60; step++) {
        if ((f + step) % 3) {
          const { rows } = await threaded.query<{ v: number }>('SELECT $1::int * 1000 + $2::int AS v', [f, step]);
          assert.equal(rows[0].v, f * 1000 + step);
          continue;
        }
        const rollBack = step % 2 === 1;
        await threaded
          .transaction(async (tx) => {
            await tx.query('INSERT INTO busy VALUES ($1, $2)', [f, step]);
            const { rows } = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM busy WHERE flow = $1', [f]);
            assert.equal(rows[0].n, kept + 1, 'a transaction sees its own row and the committed ones');
            if (rollBack) throw new Error('roll back');
          })
          .then(
            () => kept++,
            (err: Error) => assert.equal(err.message, 'roll back'),
          );
      }
      return kept;
    };
    // a third of the flows are background work, whose transactions wait for their answers as messages
    const kept = await Promise.all(Array.from({ length: 12 }, (_, f) => (f % 3 === 0 ? runAsBackground(() => flow(f)) : flow(f))));
    const { rows } = await threaded.query<{ flow: number; n: number }>(
      'SELECT flow, count(*)::int AS n FROM busy GROUP BY flow ORDER BY flow',
    );
    assert.deepEqual(
      rows.map((r) => r.n),
      kept.filter((k) => k > 0),
    );
  });

  test('a request’s transaction goes before the background work waiting, which is not starved by requests', async () => {
    const done: string[] = [];
    // twenty background statements queued, a second of work, then a request's transaction
    const background = runAsBackground(() =>
      Array.from({ length: 20 }, (_, i) => threaded.query('SELECT pg_sleep(0.05)').then(() => done.push(`background ${i}`))),
    );
    const request = threaded
      .transaction(async (tx) => {
        await tx.query('SELECT 1');
        await tx.query('SELECT 2');
      })
      .then(() => done.push('request'));
    await Promise.all([...background, request]);
    // the background statement running when it came, and at most one more that had waited long enough, go first
    assert.ok(done.indexOf('request') <= 2, `the request's transaction ran after ${done.indexOf('request')} background statements`);

    // requests that keep the database busy: a background statement still gets its turn while they go on
    let answered = false;
    let sent = 0;
    const requests = async () => {
      while (!answered && sent < 3000) {
        sent++;
        await threaded.query('SELECT pg_sleep(0.002)');
      }
    };
    const streams = [requests(), requests(), requests()];
    await new Promise((r) => setTimeout(r, 20));
    await runAsBackground(() => threaded.query('SELECT 1'));
    answered = true;
    await Promise.all(streams);
    assert.ok(sent < 3000, 'the background statement was answered while requests kept coming');
  });

  test('a background transaction leaves the server’s thread free while its statements run; a request’s waits for them', async () => {
    await threaded.exec('CREATE TABLE passes (n int)');
    let ticks = 0;
    const timer = setInterval(() => ticks++, 2);
    try {
      const during = async (tx: { query(text: string, params?: unknown[]): Promise<unknown> }) => {
        const before = ticks;
        await tx.query('SELECT pg_sleep(0.2)');
        return ticks - before;
      };
      const background = await runAsBackground(() =>
        threaded.transaction(async (tx) => {
          await tx.query('INSERT INTO passes VALUES ($1)', [1]);
          return during(tx);
        }),
      );
      assert.ok(background > 0, 'timers ran while the background transaction’s statement did');
      // its first statement goes with BEGIN as a message (it may wait for the database); those after it are
      // waited for on this thread
      const request = await threaded.transaction(async (tx) => {
        await tx.query('SELECT 1');
        return during(tx);
      });
      assert.equal(request, 0, 'a request’s transaction waits for its statements on this thread');
      // a background transaction rolls back on an error, as any
      await assert.rejects(
        runAsBackground(() =>
          threaded.transaction(async (tx) => {
            await tx.query('INSERT INTO passes VALUES ($1)', [2]);
            throw new Error('pass failed');
          }),
        ),
        /pass failed/,
      );
    } finally {
      clearInterval(timer);
    }
    assert.deepEqual((await threaded.query('SELECT n FROM passes')).rows, [{ n: 1 }]);
  });

  test('a dump loads into a new database on its own thread', async () => {
    const dump = await threaded.dumpDataDir('gzip');
    const copy = await openEmbeddedThread({ loadDataDir: dump });
    try {
      assert.deepEqual((await copy.query('SELECT k FROM uniq')).rows, [{ k: 'a' }]);
    } finally {
      await copy.close();
    }
    await assert.rejects(copy.query('SELECT 1'), /closed/);
  });
});

describe('the thread and its process', () => {
  test('an open, idle database does not keep a process alive, and a waiting call does', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-thread-')), 'idle.mjs');
    fs.writeFileSync(
      file,
      `
      import { openEmbeddedThread } from ${JSON.stringify(pathToFileURL(path.join(ROOT, 'src/platform/embedded-thread.ts')).href)};
      const db = await openEmbeddedThread({});
      setTimeout(() => {}, 10);
      const { rows } = await db.query('SELECT pg_sleep(0.2), 42 AS answer');
      console.log('answer', rows[0].answer);
    `,
    );
    // a child process starting tsx and a database thread: slow on a busy machine, so the limit is generous
    const r = spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, encoding: 'utf8', timeout: 180_000 });
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /answer 42/);
  });

  test('a thread that dies fails the calls waiting for it and those after', async () => {
    const db = await openEmbeddedThread({});
    const waiting = db.query('SELECT pg_sleep(0.5)');
    await db.terminate();
    await assert.rejects(waiting, /thread stopped/);
    await assert.rejects(db.query('SELECT 1'), /thread stopped/);
    await db.close();
  });

  for (const how of ['exit', 'throw']) {
    test(`a thread that stops by ${how === 'exit' ? 'process.exit' : 'an uncaught error'} fails the calls waiting and those after`, async () => {
      const db = await openStopping();
      const stopping = db.query(`SELECT 1 -- stop: ${how}`);
      const waiting = [db.query('SELECT 2'), db.transaction(async (tx) => tx.query('SELECT 3'))];
      for (const call of [stopping, ...waiting]) await assert.rejects(call, /thread stopped/);
      await assert.rejects(db.query('SELECT 3'), /thread stopped/);
      await assert.rejects(
        db.transaction(async () => undefined),
        /thread stopped/,
      );
      await assert.rejects(db.dumpDataDir(), /thread stopped/);
      await db.close();
    });
  }

  test('a thread that stops under a transaction (exit, uncaught error, out of memory) fails it, the transaction queued behind it, the calls waiting and those after', () => {
    // run in a process of its own: a wait that never ended would block the test's thread, timers and all
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-thread-')), 'stops.mjs');
    fs.writeFileSync(
      file,
      `
      import { syncBuiltinESMExports } from 'node:module';
      import workerThreads from 'node:worker_threads';
      import { openEmbeddedThread } from ${JSON.stringify(pathToFileURL(path.join(ROOT, 'src/platform/embedded-thread.ts')).href)};
      const Thread = workerThreads.Worker;
      const outcome = (p) => p.then((v) => 'answered ' + JSON.stringify(v), (e) => 'failed: ' + e.message);
      const results = {};
      for (const how of ['exit', 'throw', 'out of memory']) {
        workerThreads.Worker = class extends Thread {
          constructor(script, options) {
            super(${JSON.stringify(STOPPING_THREAD)}, {
              ...options,
              workerData: { ...options.workerData, script: String(script) },
              resourceLimits: how === 'out of memory' ? { maxOldGenerationSizeMb: 64 } : undefined,
            });
          }
        };
        syncBuiltinESMExports();
        const db = await openEmbeddedThread({});
        workerThreads.Worker = Thread;
        syncBuiltinESMExports();
        // this thread waits for the second statement's answer, blocked, when the database's thread stops
        const inside = db.transaction(async (tx) => {
          await tx.query('SELECT 1');
          await tx.query('SELECT 2 -- stop: ' + how);
          return 'committed';
        });
        const queued = db.transaction(async (tx) => (await tx.query('SELECT 3 AS n')).rows);
        const plain = db.query('SELECT 4');
        results[how] = [await outcome(inside), await outcome(queued), await outcome(plain)];
        results[how].push(await outcome(db.query('SELECT 5')), await outcome(db.transaction(async (tx) => tx.query('SELECT 6'))));
      }
      console.log(JSON.stringify(results));
    `,
    );
    const r = spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, encoding: 'utf8', timeout: 180_000 });
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
    assert.equal(r.status, 0, `${r.error?.message ?? ''} ${r.stderr}`);
    const results = JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, string[]>;
    assert.deepEqual(Object.keys(results), ['exit', 'throw', 'out of memory']);
    for (const [how, outcomes] of Object.entries(results)) {
      assert.equal(outcomes.length, 5);
      for (const o of outcomes) assert.match(o, /^failed: The embedded database's thread stopped/, how);
    }
  });
});

/** A database whose thread stops when a statement says so (STOPPING_THREAD). */
async function openStopping(): Promise<EmbeddedClient> {
  const Thread = workerThreads.Worker;
  class Stopping extends Thread {
    constructor(script: string | URL, options: WorkerOptions = {}) {
      super(STOPPING_THREAD, { ...options, workerData: { ...(options.workerData as object), script: String(script) } });
    }
  }
  (workerThreads as { Worker: typeof Thread }).Worker = Stopping;
  syncBuiltinESMExports();
  try {
    return await openEmbeddedThread({});
  } finally {
    (workerThreads as { Worker: typeof Thread }).Worker = Thread;
    syncBuiltinESMExports();
  }
}
