/** `import magento`: a Magento 1 / OpenMage / Maho database read into this one (see src/importer). */
import { existsSync, writeFileSync } from 'node:fs';
import { mediaRoot } from '../platform/files.js';
import { GROUPS, type Group } from '../importer/context.js';
import { ImportRefused } from '../importer/refused.js';
import type { Report } from '../importer/report.js';
import { importMagento, parseGroups } from '../importer/run.js';
import { out, required, UsageError, type Command } from './command.js';

/** Largest batch: a batch's rows, their children and their values are held in memory together. */
export const MAX_BATCH_SIZE = 100_000;

/** `--batch-size`: a whole number of rows from 1 to MAX_BATCH_SIZE. */
export function parseBatchSize(value: string): number {
  const n = /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_BATCH_SIZE)
    throw new UsageError(
      `--batch-size is a whole number of rows from 1 to ${MAX_BATCH_SIZE.toLocaleString('en-US')} (got ${JSON.stringify(value)})`,
    );
  return n;
}

/** import magento. */
export const IMPORT_COMMANDS: Record<string, Command> = {
  import: {
    usage:
      'import magento --source mysql://user:password@host:3306/database [--media-dir DIR] [--crypt-key KEY] [--only GROUPS] [--since TIME] [--batch-size ROWS] [--dry-run] [--report FILE]',
    summary: 'import a Magento 1 / OpenMage / Maho database (again: updates what changed); --only takes groups among ' + GROUPS.join(','),
    options: {
      source: { type: 'string' },
      'media-dir': { type: 'string' },
      /** Maho's app/etc/local.xml <crypt><key>: opens the staff users' 2FA secrets */
      'crypt-key': { type: 'string' },
      only: { type: 'string' },
      since: { type: 'string' },
      /** source rows read and target rows written per batch (default 1000) */
      'batch-size': { type: 'string' },
      'dry-run': { type: 'boolean' },
      report: { type: 'string' },
    },
    positionals: 1,
    async run(env, opts, [kind]) {
      if (kind !== 'magento') throw new UsageError('the only import is `import magento`');
      const source = required(opts, 'source');
      let only: Group[] | undefined;
      let since: Date | undefined;
      try {
        only = typeof opts.only === 'string' ? parseGroups(opts.only) : undefined;
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
      if (typeof opts.since === 'string') {
        since = new Date(opts.since.includes('T') || opts.since.length <= 10 ? opts.since : opts.since.replace(' ', 'T'));
        if (Number.isNaN(since.getTime())) throw new UsageError('--since is a time such as 2026-11-20T18:00:00Z');
      }
      const batchSize = typeof opts['batch-size'] === 'string' ? parseBatchSize(opts['batch-size']) : undefined;
      const mediaDir = typeof opts['media-dir'] === 'string' ? opts['media-dir'] : undefined;
      if (mediaDir && !existsSync(mediaDir)) throw new UsageError(`--media-dir ${mediaDir} does not exist`);
      let report: Report;
      try {
        report = await importMagento({
          source,
          db: env.db,
          only,
          since,
          dryRun: opts['dry-run'] === true,
          batchSize,
          mediaDir,
          mediaTarget: mediaRoot(env.config),
          cryptKey: typeof opts['crypt-key'] === 'string' ? opts['crypt-key'] : undefined,
          config: env.config,
          progress: (line) => process.stderr.write(line),
          tty: process.stderr.isTTY,
        });
      } catch (err) {
        if (err instanceof ImportRefused) throw new UsageError(err.message);
        throw err;
      }
      for (const line of report.lines()) out(line);
      if (typeof opts.report === 'string') writeFileSync(opts.report, JSON.stringify(report, null, 2));
      out(
        opts['dry-run'] ? 'Dry run: nothing was written.' : report.ok ? 'Import complete.' : 'Import complete, with differences (above).',
      );
    },
  },
};
