/**
 * Operator commands: `npm run cli -- <command> [options]`. Reads the same environment as the server
 * (DATABASE_URL, or DATA_DIR for the embedded database), applies migrations and install data, runs one
 * command against the database and exits: 0 on success, 1 on bad input or a refused change.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type AppConfig } from './platform/config.js';
import { AppError, fromDatabaseError } from './platform/errors.js';
import { ACCESS_COMMANDS } from './cli/access.js';
import { out, UsageError, type Command } from './cli/command.js';
import { CONFIG_COMMANDS } from './cli/config.js';
import { DATA_COMMANDS } from './cli/data.js';
import { openEnv } from './cli/env.js';
import { IMPORT_COMMANDS } from './cli/import.js';
import { demoSeedCommand, migrateCommand } from './cli/setup.js';
import { USER_COMMANDS } from './cli/users.js';

/** Every command, in the order help lists them (one file per group under cli/). */
const commands: Record<string, Command> = {
  migrate: migrateCommand,
  ...ACCESS_COMMANDS,
  ...USER_COMMANDS,
  ...CONFIG_COMMANDS,
  ...DATA_COMMANDS,
  ...IMPORT_COMMANDS,
  'demo:seed': demoSeedCommand,
};

function help(): void {
  out('Usage: npm run cli -- <command> [options]');
  out();
  out('Commands:');
  const width = Math.max(...Object.keys(commands).map((k) => k.length), 4);
  for (const [name, c] of Object.entries(commands)) out(`  ${name.padEnd(width)}  ${c.summary}`);
  out(`  ${'help'.padEnd(width)}  this text; help <command> shows its options`);
  out();
  out('Environment: DATABASE_URL (PostgreSQL) or DATA_DIR (embedded database in DATA_DIR/db, default ./var;');
  out('stop the server first: the embedded database is opened by one process at a time).');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    const c = rest[0] ? commands[rest[0]] : undefined;
    if (c) out(`Usage: npm run cli -- ${c.usage}\n\n${c.summary}`);
    else help();
    return 0;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`error: unknown command "${name}"; \`npm run cli -- help\` lists them\n`);
    return 1;
  }
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args: rest, options: command.options ?? {}, allowPositionals: true, strict: true });
  } catch (err) {
    process.stderr.write(`error: ${(err as Error).message}\nusage: npm run cli -- ${command.usage}\n`);
    return 1;
  }
  if (parsed.positionals.length !== (command.positionals ?? 0)) {
    process.stderr.write(`error: wrong number of arguments\nusage: npm run cli -- ${command.usage}\n`);
    return 1;
  }
  let config: AppConfig;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      return 1;
    }
    throw err;
  }
  const opened = await openEnv(config);
  try {
    await command.run(opened.env, parsed.values, parsed.positionals);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`error: ${err.message}\nusage: npm run cli -- ${command.usage}\n`);
      return 1;
    }
    const refused = err instanceof AppError ? err : fromDatabaseError(err);
    if (refused && refused.status < 500) {
      process.stderr.write(`error: ${refused.message}\n`);
      return 1;
    }
    throw err;
  } finally {
    await opened.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
