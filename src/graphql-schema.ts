/**
 * `npm run graphql:schema`: prints the GraphQL schema the server serves (derived from the operation declarations
 * plus the modules' GraphQL-only fields) to `docs/schema.graphql`, which is committed so that a change of the
 * schema shows in review. `-- --check` exits 1 when the committed file is not current. No database is needed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Fastify from 'fastify';
import { printSchema } from 'graphql';
import { API_PREFIX } from './app.js';
import { graphqlParts } from './modules/index.js';
import { installGraphql } from './platform/graphql.js';

export const SCHEMA_FILE = fileURLToPath(new URL('../docs/schema.graphql', import.meta.url));

/** The schema as SDL, in declaration order. */
export async function printedSchema(): Promise<string> {
  const app = Fastify({ logger: false });
  try {
    await installGraphql(app, graphqlParts(API_PREFIX), { introspection: true });
    await app.ready();
    return `${printSchema(app.graphql.schema)}\n`;
  } finally {
    await app.close();
  }
}

async function main(): Promise<void> {
  const text = await printedSchema();
  if (process.argv.includes('--check')) {
    let committed = '';
    try {
      committed = readFileSync(SCHEMA_FILE, 'utf8');
    } catch {
      // missing: not current
    }
    if (committed !== text) {
      process.stderr.write('docs/schema.graphql is not current: run npm run graphql:schema\n');
      process.exitCode = 1;
    }
    return;
  }
  writeFileSync(SCHEMA_FILE, text);
  process.stdout.write(`wrote docs/schema.graphql (${text.split('\n').length} lines)\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exitCode = 1;
  });
}
