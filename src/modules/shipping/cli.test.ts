/**
 * `tablerates:import` run as an operator would: the CLI in a child process on a temporary DATA_DIR, then the
 * same database opened by the app, where the imported rates price a package.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp } from '../../app.js';
import { testConfig } from '../../../test/helpers.js';
import { dec } from '../../platform/money.js';
import { setConfig } from '../stores/service.js';
import { shippingRates } from './service.js';
import { exportTableRates } from './tablerates.js';
import { runCli } from '../../../test/fixtures/cli.js';

let dir: string;
let dataDir: string;

const cli = (...args: string[]) => runCli(args, { dataDir });

function file(name: string, text: string): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
}

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'commerce-tablerates-'));
  dataDir = path.join(dir, 'data');
  fs.mkdirSync(dataDir);
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('tablerates:import replaces the rates of a website and condition; bad files change nothing', async () => {
  const good = file(
    'rates.csv',
    'Country,Region/State,Zip/Postal Code,Weight (and above),Shipping Price\nUSA,*,*,0,5\nUS,*,*,10,9.5\nUS,CA,*,0,7\n',
  );
  const bad = file(
    'bad.csv',
    'Country,Region/State,Zip/Postal Code,Weight (and above),Shipping Price\nUS,*,*,0,5\nXX,*,*,0,5\nUS,*,*,-2,5\n',
  );

  const help = await cli('help');
  assert.match(help.stdout, /\btablerates:import\b/);

  const ok = await cli('tablerates:import', '--website', '1', '--condition', 'package_weight', good);
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /Imported 3 table rates for website 1 \(package_weight\)/);

  const refused = await cli('tablerates:import', '--website', '1', '--condition', 'package_weight', bad);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /Row 3: unknown country "XX"/);
  assert.match(refused.stderr, /Row 4: the condition value must be a number of 0 or more/);

  // one process at a time: the embedded database is opened by one process only
  const usage = [];
  for (const args of [
    ['--website', '1', '--condition', 'package_volume', good],
    ['--website', '42', '--condition', 'package_weight', good],
    ['--website', '1', '--condition', 'package_weight', path.join(dir, 'missing.csv')],
    ['--website', '1', '--condition', 'package_weight'],
  ]) {
    usage.push(await cli('tablerates:import', ...args));
  }
  assert.deepEqual(
    usage.map((r) => r.code),
    [1, 1, 1, 1],
  );
  assert.match(usage[0].stderr, /--condition is one of package_weight, package_value, package_qty/);
  assert.match(usage[1].stderr, /Unknown website: 42/);
  assert.match(usage[2].stderr, /Cannot read/);
  assert.match(usage[3].stderr, /wrong number of arguments/);

  const built = await buildApp({ config: testConfig({ DATA_DIR: dataDir, DEMO: '0' }), logger: false });
  try {
    const ctx = built.systemCtx();
    const csv = await exportTableRates(ctx, 1, 'package_weight');
    assert.equal(csv.trim().split('\n').length, 4, csv);
    await setConfig(ctx.db, ctx.app.settings, 'carriers/tablerate/active', '1');
    const rates = await shippingRates(ctx, {
      storeId: 1,
      websiteId: 1,
      countryId: 'US',
      regionId: 57,
      postcode: '77001',
      packageValue: dec(20),
      packageValueWithoutDiscount: dec(20),
      packageWeight: dec(12),
      packageQty: dec(1),
      freeShipping: false,
    });
    assert.deepEqual(
      rates.map((r) => [r.code, r.price.toFixed(2)]),
      [
        ['flatrate_flatrate', '5.00'],
        ['tablerate_bestway', '9.50'],
      ],
    );
  } finally {
    await built.app.close();
  }
});
