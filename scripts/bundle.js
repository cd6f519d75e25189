/**
 * Bundles one of the server's entry points (src/main.ts, src/cli.ts) into one file with esbuild: our TypeScript
 * and the packages it imports, so that a start reads one file instead of resolving and loading some two thousand
 * modules. The embedded database's thread script (src/platform/pglite-thread.mjs), plain JavaScript that a worker
 * thread loads by its own path, is copied next to the bundle. The bundle is written without comments and in ASCII
 * alone: the server keeps its source in memory, at one byte a character only when every one is ASCII.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Writes the bundle of `entry` (relative to the repository) to `outfile`. */
export async function bundle(entry, outfile) {
  await build({
    entryPoints: [path.join(ROOT, entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // loaded from node_modules as they are: packages that read files next to their own code (wasm, fonts, static
    // assets, native binaries), those loaded only when asked for (tracing), and the PostgreSQL client, which
    // tracing instruments where it is loaded from
    external: [
      'pg',
      'pg-pool',
      '@electric-sql/pglite',
      'drizzle-orm/pglite',
      'sharp',
      'pdfkit',
      '@fastify/swagger-ui',
      '@fastify/static',
      'graphiql',
      'react',
      'react-dom',
      '@opentelemetry/*',
      'pg-native',
    ],
    // bundled CommonJS packages call require() for Node's own modules
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    // without comments and indentation the source V8 keeps in memory for the process's life is a third smaller;
    // names stay, so stack traces still name their functions
    minifyWhitespace: true,
    legalComments: 'none',
    logLevel: 'warning',
  });

  // V8 keeps the source as one byte a character only while every character fits; a single other one (a regular
  // expression folding 'ẞ', say, which esbuild leaves as it is) doubles it. Escaped, it means the same.
  const source = fs.readFileSync(outfile, 'utf8');
  if (/[^\x00-\x7f]/.test(source)) {
    fs.writeFileSync(
      outfile,
      source.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    );
  }

  fs.copyFileSync(path.join(ROOT, 'src/platform/pglite-thread.mjs'), path.join(path.dirname(outfile), 'pglite-thread.mjs'));
}
