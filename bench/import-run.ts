/**
 * The measured half of `npm run bench:import` (bench/import.ts bundles it and runs it in a process of its own):
 * imports the source shop into a target database that is already installed, then prints the report, the time the
 * import took and the peak memory of this process.
 *
 * Environment (set by bench/import.ts):
 *   BENCH_IMPORT_SOURCE       the source shop (mysql://…)
 *   BENCH_IMPORT_TARGET       a PostgreSQL URL, or the data directory of an embedded database
 *   BENCH_IMPORT_BATCH_SIZE   rows per batch (the importer's default when unset)
 */
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../src/platform/db.js';
import { importMagento } from '../src/importer/run.js';

async function main(): Promise<void> {
  const source = process.env.BENCH_IMPORT_SOURCE;
  const target = process.env.BENCH_IMPORT_TARGET;
  if (!source || !target) throw new Error('BENCH_IMPORT_SOURCE and BENCH_IMPORT_TARGET are required');
  const batchSize = process.env.BENCH_IMPORT_BATCH_SIZE ? Number(process.env.BENCH_IMPORT_BATCH_SIZE) : undefined;
  const database = await openDatabase(/^postgres(ql)?:/.test(target) ? { databaseUrl: target } : { dataDir: target });
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 250);
  try {
    const started = performance.now();
    const report = await importMagento({
      source,
      db: database.db,
      batchSize,
      progress: (line) => process.stderr.write(line),
      tty: process.stderr.isTTY,
    });
    const seconds = (performance.now() - started) / 1000;
    peak = Math.max(peak, process.memoryUsage().rss);
    process.stdout.write(`\nTarget: ${database.kind === 'postgres' ? 'PostgreSQL' : 'embedded PGlite'}\n`);
    for (const line of report.lines()) process.stdout.write(`${line}\n`);
    process.stdout.write(`\nImported in ${seconds.toFixed(1)} s; peak memory ${(peak / 2 ** 20).toFixed(0)} MB.\n`);
    if (!report.ok) process.exitCode = 1;
  } finally {
    clearInterval(sampler);
    await database.close();
  }
}

await main();
