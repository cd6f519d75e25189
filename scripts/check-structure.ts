/**
 * The shape of the code, checked: `npm run check:structure` (run by .ci/run) fails when one of these is not zero.
 *
 * - file cycles: source files that import each other, directly or around a loop (type-only imports count, as
 *   they couple the files all the same);
 * - module cycles: modules (src/modules/<name>) that import each other around a loop;
 * - module order: a module importing one listed after it in src/modules/index.ts (dependencies point down that
 *   list, so a cycle cannot start);
 * - table reach: a file importing another module's `tables` outside a table declaration (a foreign key in
 *   `tables.ts` may name another module's table; everything else goes through that module's service). The
 *   importer is a bulk loader that writes every module's tables as a migration does, and is not counted;
 * - platform reach: a file of `src/platform` importing a module (the platform knows no module);
 * - test-only code: a source file no entry point (server, CLI, schema printer) reaches, which only tests use and
 *   belongs under test/;
 * - hand-written GraphQL: SDL in a module (`typeDefs`, `gql`), where every field is derived from an `op()`;
 * - large files: a source file over 500 lines, but for data tables listed below.
 *
 * `--verbose` prints what each count is made of.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');
const SRC = join(ROOT, 'src');
const ENTRIES = ['src/main.ts', 'src/cli.ts', 'src/graphql-schema.ts'];
const MAX_LINES = 500;
/** data tables, long by nature */
const LONG_DATA = new Set(['src/modules/directory/data.ts']);
const verbose = process.argv.includes('--verbose');

const isTest = (file: string) => file.endsWith('.test.ts');

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...walk(path));
    else if (/\.(ts|tsx|mts)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

interface Edge {
  to: string;
  typeOnly: boolean;
}

/** The project files a file imports (static, re-exports and dynamic `import()`), resolved to paths. */
function importsOf(file: string, text: string): Edge[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const edges: Edge[] = [];
  const add = (specifier: string, typeOnly: boolean) => {
    if (!specifier.startsWith('.')) return;
    const base = resolve(dirname(file), specifier);
    for (const candidate of [base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), base, `${base}.ts`, join(base, 'index.ts')]) {
      try {
        if (statSync(candidate).isFile()) return void edges.push({ to: candidate, typeOnly });
      } catch {
        // try the next form
      }
    }
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        !!clause &&
        (clause.isTypeOnly ||
          (!clause.name &&
            !!clause.namedBindings &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      add(node.moduleSpecifier.text, typeOnly);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, node.isTypeOnly);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      add(node.arguments[0].text, false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

/** Strongly connected components of more than one node (or a node importing itself): Tarjan's algorithm. */
function cycles(nodes: string[], next: (n: string) => Iterable<string>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const connect = (v: string) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of next(v)) {
      if (!idx.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || [...next(v)].includes(v)) out.push(component.sort());
    }
  };
  for (const n of nodes) if (!idx.has(n)) connect(n);
  return out;
}

const rel = (path: string) => relative(ROOT, path);
const moduleOf = (path: string) => /^src\/modules\/([^/]+)\//.exec(rel(path))?.[1];

const files = walk(SRC);
const sources = files.filter((f) => !isTest(f));
const texts = new Map(files.map((f) => [f, readFileSync(f, 'utf8')]));
const graph = new Map(files.map((f) => [f, importsOf(f, texts.get(f)!)]));

// file cycles, among the files that ship
const sourceSet = new Set(sources);
const fileCycles = cycles(sources, (f) =>
  graph
    .get(f)!
    .filter((e) => sourceSet.has(e.to))
    .map((e) => e.to),
);

// module cycles
const moduleEdges = new Map<string, Set<string>>();
const moduleEdgeWitness = new Map<string, string>();
for (const f of sources) {
  const from = moduleOf(f);
  if (!from) continue;
  for (const e of graph.get(f)!) {
    const to = moduleOf(e.to);
    if (!to || to === from || !sourceSet.has(e.to)) continue;
    if (!moduleEdges.has(from)) moduleEdges.set(from, new Set());
    moduleEdges.get(from)!.add(to);
    if (!moduleEdgeWitness.has(`${from}>${to}`)) moduleEdgeWitness.set(`${from}>${to}`, `${rel(f)} → ${rel(e.to)}`);
  }
}
const moduleNames = [...new Set(sources.map(moduleOf).filter((m): m is string => !!m))];
const moduleCycles = cycles(moduleNames, (m) => moduleEdges.get(m) ?? []);

// module order: the list of src/modules/index.ts, each module's name from its import
const indexText = readFileSync(join(SRC, 'modules/index.ts'), 'utf8');
const dirOf = new Map([...indexText.matchAll(/import \{ (\w+) \} from '\.\/([^/]+)\/index\.js'/g)].map((m) => [m[1], m[2]]));
const listed = [...(/export const modules[^=]*=\s*\[([^\]]*)\]/.exec(indexText)?.[1] ?? '').matchAll(/\w+/g)].map(
  (m) => dirOf.get(m[0]) ?? m[0],
);
const rank = new Map(listed.map((m, i) => [m, i]));
const orderBreaks: string[] = [];
for (const [from, tos] of moduleEdges) {
  for (const to of tos) {
    if (!rank.has(from) || !rank.has(to)) orderBreaks.push(`${from} → ${to}: not listed in src/modules/index.ts`);
    else if (rank.get(to)! > rank.get(from)!) orderBreaks.push(`${from} → ${to} (${moduleEdgeWitness.get(`${from}>${to}`)})`);
  }
}

// table reach
const tableReach: string[] = [];
for (const f of sources) {
  if (/(^|\/)tables\.ts$/.test(f) || rel(f).startsWith('src/importer/')) continue;
  const from = moduleOf(f);
  for (const e of graph.get(f)!) {
    const to = moduleOf(e.to);
    if (to && to !== from && /(^|\/)tables\.ts$/.test(e.to)) tableReach.push(`${rel(f)} → ${rel(e.to)}`);
  }
}

// platform reach
const platformReach = sources
  .filter((f) => rel(f).startsWith('src/platform/'))
  .flatMap((f) =>
    graph
      .get(f)!
      .filter((e) => moduleOf(e.to))
      .map((e) => `${rel(f)} → ${rel(e.to)}`),
  );

// test-only code: what no entry point reaches
const reached = new Set<string>();
const pending = ENTRIES.map((e) => join(ROOT, e));
while (pending.length) {
  const f = pending.pop()!;
  if (reached.has(f) || !graph.has(f)) continue;
  reached.add(f);
  for (const e of graph.get(f)!) pending.push(e.to);
}
const testOnly = sources.filter((f) => !reached.has(f)).map(rel);

// hand-written GraphQL
const handSdl = sources
  .filter((f) => rel(f).startsWith('src/modules/'))
  .filter((f) => /\btypeDefs\s*[:=]|\bgql`|\bparse\(\s*`\s*(type|extend|input)\b/.test(texts.get(f)!))
  .map(rel);

// large files
const large = sources
  .map((f) => ({ f: rel(f), lines: texts.get(f)!.split('\n').length - (texts.get(f)!.endsWith('\n') ? 1 : 0) }))
  .filter(({ f, lines }) => lines > MAX_LINES && !LONG_DATA.has(f))
  .map(({ f, lines }) => `${f} (${lines} lines)`);

const report: [string, string[]][] = [
  ['file cycles', fileCycles.map((c) => c.map(rel).join(' ↔ '))],
  [
    'module cycles',
    moduleCycles.map(
      (c) =>
        `${c.join(' ↔ ')}\n      ${c.flatMap((a) => c.filter((b) => moduleEdges.get(a)?.has(b)).map((b) => moduleEdgeWitness.get(`${a}>${b}`))).join('\n      ')}`,
    ),
  ],
  ['imports of a module listed later', orderBreaks],
  ['cross-module table imports', tableReach],
  ['platform imports of modules', platformReach],
  ['test-only source files', testOnly],
  ['hand-written GraphQL SDL', handSdl],
  [`source files over ${MAX_LINES} lines`, large],
];

let failed = false;
for (const [name, items] of report) {
  console.log(`${String(items.length).padStart(4)}  ${name}`);
  if (items.length) failed = true;
  if (verbose || process.argv.includes(`--show=${name.split(' ')[0]}`)) for (const item of items) console.log(`      ${item}`);
}
if (failed) {
  console.log('\nThe structure check failed; --verbose lists each finding.');
  process.exit(1);
}
