/**
 * Compiles the server into one file for `npm start`: our TypeScript and the packages it imports, bundled, so
 * that a start reads one file instead of resolving and loading some two thousand modules (a warm start takes
 * about 0.7 s instead of 1.1 s). `node scripts/build.js [outfile]` (default dist/main.js); run by `npm ci`
 * through `prepare`. The embedded database's thread script (src/platform/pglite-thread.mjs), plain JavaScript
 * that a worker thread loads by its own path, is copied next to the bundle. The bundle is written without comments
 * and in ASCII alone: the server keeps its source in memory, at one byte a character only when every one is ASCII.
 */
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const outfile = process.argv[2] ?? 'dist/main.js';

await build({
  entryPoints: ['src/main.ts'],
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

fs.copyFileSync('src/platform/pglite-thread.mjs', path.join(path.dirname(outfile), 'pglite-thread.mjs'));

// The web back office (admin/), built by Vite into dist/admin. Its build tools are development dependencies: an
// install without them (npm ci --omit=dev) leaves the server without a back office, and says so.
if (outfile === 'dist/main.js' || process.env.BUILD_ADMIN === '1') {
  let vite;
  try {
    vite = await import('vite');
  } catch {
    console.warn('The back office is not built: its build tools (development dependencies) are not installed.');
  }
  if (vite) await vite.build({ configFile: 'admin/vite.config.ts', logLevel: 'warn' });
}
