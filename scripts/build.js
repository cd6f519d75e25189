/**
 * Compiles the server into one file for `npm start`: our TypeScript bundled, the packages left as imports of
 * node_modules. `node scripts/build.js [outfile]` (default dist/main.js); run by `npm ci` through `prepare`.
 */
import { build } from 'esbuild';

await build({
  entryPoints: ['src/main.ts'],
  outfile: process.argv[2] ?? 'dist/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
