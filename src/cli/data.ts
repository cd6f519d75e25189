/** Bulk data: generated products for load tests, shipping table rates from a CSV file. */
import { readFileSync } from 'node:fs';
import { generateProducts } from '../modules/catalog/generate.js';
import { CONDITION_NAMES, isConditionName } from '../modules/shipping/service.js';
import { importTableRates } from '../modules/shipping/tablerates.js';
import { out, required, UsageError, type Command } from './command.js';

/** catalog:generate and tablerates:import. */
export const DATA_COMMANDS: Record<string, Command> = {
  'catalog:generate': {
    usage: 'catalog:generate --count <n>',
    summary: 'add <n> generated simple products (skus GEN-000001, ...) with prices, stock and categories, for load tests',
    options: { count: { type: 'string' } },
    async run(env, opts) {
      const count = Number(required(opts, 'count'));
      if (!Number.isInteger(count) || count < 1 || count > 1_000_000)
        throw new UsageError('--count must be a whole number from 1 to 1000000');
      const started = Date.now();
      await generateProducts(env.ctx(), count, ({ done, total }) => {
        process.stderr.write(`\r  ${done} / ${total} products (${Math.round((done / total) * 100)} %)`);
      });
      process.stderr.write('\n');
      out(`Added ${count} products in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    },
  },
  'tablerates:import': {
    usage: 'tablerates:import --website <id> --condition <package_weight|package_value|package_qty> <file>',
    summary:
      "replace a website's table rates for one condition with a CSV file (Country, Region/State, Zip/Postal Code, condition, Shipping Price)",
    options: { website: { type: 'string' }, condition: { type: 'string' } },
    positionals: 1,
    async run(env, opts, [file]) {
      const website = required(opts, 'website');
      if (!/^\d+$/.test(website) || !env.registry.website(Number(website))) throw new UsageError(`Unknown website: ${website}`);
      const condition = required(opts, 'condition');
      if (!isConditionName(condition)) throw new UsageError(`--condition is one of ${CONDITION_NAMES.join(', ')}`);
      let csv: string;
      try {
        csv = readFileSync(file, 'utf8');
      } catch (err) {
        throw new UsageError(`Cannot read ${file}: ${(err as Error).message}`);
      }
      const { imported } = await importTableRates(env.ctx(), Number(website), condition, csv);
      out(`Imported ${imported} table rates for website ${website} (${condition}).`);
    },
  },
};
