/**
 * `import magento`: reads a Magento 1 / OpenMage / Maho database and writes ours, entity by entity in
 * dependency order, each in its own transaction (a dry run does everything in one transaction and rolls it
 * back, so its report is exactly what a real run would do). A second run updates what changed and adds what is
 * new (see context.ts); `since` limits the entities that keep an updated_at to rows changed after it.
 */
import v8 from 'node:v8';
import type { AppConfig } from '../platform/config.js';
import type { Db } from '../platform/db.js';
import { bulkLoad } from './bulk-load.js';
import { analyzeWritten, fixSequences, GROUPS, type EntityImporter, type Group, type ImportContext } from './context.js';
import { apiRolesImporter, apiUsersImporter } from './entities/api.js';
import { CATALOG_IMPORTERS } from './entities/catalog.js';
import { ImportRefused } from './refused.js';
import { addressesImporter, customerGroupsImporter, customersImporter } from './entities/customers.js';
import { configImporter, storeGroupsImporter, storeViewsImporter, websitesImporter } from './entities/stores.js';
import { CONTENT_IMPORTERS } from './entities/content.js';
import { SALES_IMPORTERS } from './entities/sales.js';
import { staffPasskeysImporter, staffRolesImporter, staffUsersImporter } from './entities/staff.js';
import { parseCryptKey } from './entities/staff-credentials.js';
import { taxClassesImporter, taxRatesImporter, taxRulesImporter } from './entities/tax.js';
import { Progress, Report } from './report.js';
import { Source } from './source.js';

/** Every entity, in the order they depend on each other. */
export const IMPORTERS: EntityImporter[] = [
  websitesImporter,
  storeGroupsImporter,
  storeViewsImporter,
  configImporter,
  taxClassesImporter,
  taxRatesImporter,
  taxRulesImporter,
  customerGroupsImporter,
  customersImporter,
  addressesImporter,
  apiRolesImporter,
  apiUsersImporter,
  staffRolesImporter,
  staffUsersImporter,
  staffPasskeysImporter,
  ...CATALOG_IMPORTERS,
  ...CONTENT_IMPORTERS,
  ...SALES_IMPORTERS,
];

export interface ImportOptions {
  /** mysql://user:password@host:3306/database */
  source: string;
  db: Db;
  only?: Group[];
  since?: Date;
  dryRun?: boolean;
  mediaDir?: string;
  mediaTarget?: string;
  /** the source shop's key (Maho's app/etc/local.xml <crypt><key>, hex), to read the staff users' 2FA secrets */
  cryptKey?: string;
  /** this server's configuration (required with cryptKey: the 2FA secrets are sealed again with its key) */
  config?: AppConfig;
  /** source rows read (and target rows written) per batch; default DEFAULT_BATCH_SIZE (source.ts) */
  batchSize?: number;
  /** progress lines (stderr in the CLI); none when omitted */
  progress?: (line: string) => void;
  tty?: boolean;
}

class DryRunDone extends Error {}

export function parseGroups(value: string): Group[] {
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = items.filter((i) => !(GROUPS as string[]).includes(i));
  if (!items.length || unknown.length)
    throw new ImportRefused(`--only names groups among ${GROUPS.join(', ')}${unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''}`);
  return items as Group[];
}

/**
 * How far V8 lets the heap grow past what survived its last full collection, while an import runs. V8 chooses up to
 * four times; an import allocates fast and keeps little (about 40 MB, half of it the program, at 100,000 orders), so
 * the heap grew to about 240 MB of mostly garbage between collections. Three times held the importer benchmark's
 * peak at under 290 MB instead of about 340 MB, for 2-4 % more CPU and no longer a run. The setting is V8's
 * (`--heap-growing-percent`), which it reads at each collection; it is given back (0: V8's own choice) afterwards.
 */
const IMPORT_HEAP_GROWING_PERCENT = 200;

export async function importMagento(opts: ImportOptions): Promise<Report> {
  const cryptKey = opts.cryptKey === undefined ? undefined : parseCryptKey(opts.cryptKey);
  if (cryptKey && !opts.config) throw new Error('importMagento: a crypt key needs the configuration to seal what it opens');
  const source = await Source.open(opts.source, opts.batchSize);
  const report = new Report();
  const progress = new Progress(opts.progress, opts.tty);
  const selected = IMPORTERS.filter((i) => !opts.only || opts.only.includes(i.group));
  const run = async (db: Db) => {
    const ctx: ImportContext = {
      source,
      db,
      since: opts.since,
      mediaDir: opts.mediaDir,
      mediaTarget: opts.mediaTarget,
      dryRun: opts.dryRun,
      report,
      progress,
      sequences: new Set(),
      memo: new Map(),
      cryptKey,
      config: opts.config,
    };
    for (const importer of selected) await importer.check?.(ctx);
    for (const importer of selected) {
      const stats = report.entity(importer.name);
      const total = await importer.count(ctx);
      const started = Date.now();
      const tick = (done: number) => progress.update(importer.name, done, total, started);
      // sequences move past the ids kept so far before the next entity, which may take new ids from them
      if (opts.dryRun) {
        await bulkLoad(db, importer.fills, () => importer.run(ctx, stats, tick));
        await analyzeWritten(db);
        await fixSequences(db, ctx.sequences);
      } else {
        await db.transaction(async (tx) => {
          await bulkLoad(tx as unknown as Db, importer.fills, () => importer.run({ ...ctx, db: tx as unknown as Db }, stats, tick));
          // what the entity wrote is read by the entities after it: plans from "empty table" statistics would crawl
          await analyzeWritten(tx as unknown as Db);
          await fixSequences(tx as unknown as Db, ctx.sequences);
        });
      }
      stats.ms = Date.now() - started;
      progress.update(importer.name, stats.found, total, started, true);
    }
    for (const importer of selected) await importer.verify?.(ctx);
  };
  v8.setFlagsFromString(`--heap-growing-percent=${IMPORT_HEAP_GROWING_PERCENT}`);
  try {
    if (opts.dryRun) {
      await opts.db
        .transaction(async (tx) => {
          await run(tx as unknown as Db);
          throw new DryRunDone();
        })
        .catch((err: unknown) => {
          if (!(err instanceof DryRunDone)) throw err;
        });
    } else {
      await run(opts.db);
    }
  } finally {
    v8.setFlagsFromString('--heap-growing-percent=0');
    await source.close();
  }
  return report;
}
