/**
 * `npm run cli -- import magento` as an operator runs it: a child process on an embedded database in a temporary
 * DATA_DIR, reading a generated shop in MariaDB. Refusals exit 1 with one line; an import prints its report.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createSourceDatabase, type SourceDatabase, mariadbAvailable } from '../../test/fixtures/importer/database.js';
import { generateShop } from '../../test/fixtures/importer/generate.js';
import { runCli } from '../../test/fixtures/cli.js';

const available = await mariadbAvailable();

describe('import magento from the command line', { skip: !available }, () => {
  let dataDir: string;
  let source: SourceDatabase;

  const cli = (...args: string[]) => runCli(args, { dataDir, timeoutMs: 180_000 });

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'commerce-import-'));
    source = await createSourceDatabase('magento19');
    await generateShop(source.pool, { variant: 'magento19', products: 40, customers: 10, orders: 6 });
  });
  after(async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await source?.drop();
  });

  test('refusals: no source, a source that is not reachable or not a shop, an unknown group, another import kind', async () => {
    // one at a time: the embedded database is opened by one process at a time
    const none = await cli('import', 'magento');
    const unreachable = await cli('import', 'magento', '--source', 'mysql://root@127.0.0.1:1/nothing');
    const notShop = await cli('import', 'magento', '--source', 'mysql://root@127.0.0.1:3306/information_schema');
    const group = await cli('import', 'magento', '--source', source.url, '--only', 'customers,planets');
    const kind = await cli('import', 'woocommerce', '--source', source.url);
    const zero = await cli('import', 'magento', '--source', source.url, '--batch-size', '0');
    const words = await cli('import', 'magento', '--source', source.url, '--batch-size', 'ten');
    assert.equal(none.code, 1);
    assert.match(none.stderr, /--source is required/);
    assert.equal(unreachable.code, 1);
    assert.match(unreachable.stderr, /Cannot read the source database/);
    assert.equal(notShop.code, 1);
    assert.match(notShop.stderr, /not a Magento 1 \/ OpenMage \/ Maho database/);
    assert.equal(group.code, 1);
    assert.match(group.stderr, /unknown: planets/);
    assert.equal(kind.code, 1);
    assert.match(kind.stderr, /the only import is `import magento`/);
    for (const r of [zero, words]) {
      assert.equal(r.code, 1);
      assert.match(r.stderr, /--batch-size is a whole number of rows from 1 to 100,000/);
    }
    for (const r of [none, unreachable, notShop, group, kind, zero, words]) assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  });

  test('a dry run, then the import, print the report; the JSON report is written', async () => {
    const dry = await cli('import', 'magento', '--source', source.url, '--only', 'stores,customers', '--dry-run');
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /customers\s+10\s+10\s+0\s+0\s+0/);
    assert.match(dry.stdout, /Dry run: nothing was written/);
    // batches of 3 rows: the same report (less the rows per second)
    const small = await cli('import', 'magento', '--source', source.url, '--only', 'stores,customers', '--dry-run', '--batch-size', '3');
    assert.equal(small.code, 0, small.stderr);
    const figures = (stdout: string) => stdout.split('\n').map((line) => line.replace(/\s+(\d+|-)$/, ''));
    assert.deepEqual(figures(small.stdout), figures(dry.stdout));
    const file = path.join(dataDir, 'report.json');
    const run = await cli('import', 'magento', '--source', source.url, '--only', 'stores,customers', '--report', file);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /customers\s+10\s+10\s+0\s+0\s+0/, 'the dry run wrote nothing');
    assert.match(run.stdout, /ok {4}customers/);
    assert.match(run.stdout, /Import complete\./);
    const json = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.equal(json.ok, true);
    assert.equal(json.entities.find((e: { entity: string }) => e.entity === 'customers').imported, 10);
    const again = await cli('import', 'magento', '--source', source.url, '--only', 'stores,customers');
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /customers\s+10\s+0\s+0\s+10\s+0/);
  });
});
