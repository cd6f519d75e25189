/**
 * `npm test`: compiles the TypeScript of src/, test/, bench/ and admin/ once, then runs every test file compiled, with
 * Node's test runner (two files at a time) and no loader hook. Loaded through tsx, each of the some 250 test
 * files spent about three seconds resolving and compiling the same thousand modules through the loader's hook
 * thread before its first test; compiled once, a file starts in about half that.
 *
 * The compiled tree is a copy of the repository (under the system's temporary directory, removed at the end) in
 * which src/, test/, bench/ and admin/ hold each TypeScript file next to its JavaScript, and everything else at the top
 * (node_modules, drizzle, docs, dist …) is a link to the repository's own: paths a test or the server
 * finds next to its own file resolve as they do in the repository, and what a test writes outside those four lands there.
 *
 *   node scripts/test.js [files…]   the given test files (paths of .test.ts files), or every one under src/ and test/
 *
 * Arguments starting with `--` go to Node's test runner; NODE_OPTIONS (a reporter, say) applies as usual.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The directories compiled (admin/: tests read the back office's plain TypeScript); the rest of the top level is linked. */
const COMPILED = ['src', 'test', 'bench', 'admin'];
/** Where the test files are. */
const TEST_DIRS = ['src', 'test'];

function walk(dir, out = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

const isTypeScript = (file) => file.endsWith('.ts') && !file.endsWith('.d.ts');

async function compileTree(out) {
  const sources = [];
  for (const dir of COMPILED) {
    for (const file of walk(path.join(ROOT, dir))) {
      const target = path.join(out, path.relative(ROOT, file));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(file, target);
      if (isTypeScript(file)) sources.push(file);
    }
  }
  await build({
    entryPoints: sources,
    outdir: out,
    outbase: ROOT,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // stack traces of a failing test name the TypeScript lines (the runner is started with source maps on)
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  for (const e of fs.readdirSync(ROOT, { withFileTypes: true })) {
    if (COMPILED.includes(e.name) || e.name === '.git') continue;
    fs.symlinkSync(path.join(ROOT, e.name), path.join(out, e.name), e.isDirectory() ? 'dir' : 'file');
  }
}

const args = process.argv.slice(2);
const runnerArgs = args.filter((a) => a.startsWith('--'));
const given = args.filter((a) => !a.startsWith('--'));
const tests = (given.length ? given.map((f) => path.resolve(f)) : TEST_DIRS.flatMap((d) => walk(path.join(ROOT, d))))
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => path.relative(ROOT, f))
  .sort();
if (!tests.length) {
  console.error('No test files given (paths of .test.ts files under src/ or test/).');
  process.exit(2);
}

const out = fs.mkdtempSync(path.join(os.tmpdir(), 'commerce-tests-'));
const removeTree = () => fs.rmSync(out, { recursive: true, force: true });
let status = 1;
try {
  await compileTree(out);
  const child = spawn(
    process.execPath,
    [
      '--enable-source-maps',
      '--test',
      '--test-concurrency=2',
      ...runnerArgs,
      ...tests.map((f) => path.join(out, f.replace(/\.ts$/, '.js'))),
    ],
    { stdio: 'inherit', cwd: ROOT },
  );
  // a stop asked of this script (Ctrl-C, a time limit) stops the run, after which the tree is removed
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  status = await new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
} finally {
  removeTree();
}
process.exit(status);
