/**
 * The linter guards the shape of the code (`npm run lint`, run by .ci/run):
 * - no import cycles between files (`import-x/no-cycle`);
 * - a module reads and writes only its own tables: outside table declarations (`tables.ts`, where a foreign key may
 *   name another module's table) no file imports another module's `tables` (`structure/own-tables`); the importer,
 *   a bulk loader that writes every module's tables as a migration does, and tests, which arrange their data, are
 *   the exceptions;
 * - `src/platform` imports no module (`structure/platform-imports-no-module`).
 * Module cycles, test-only code in src, hand-written GraphQL and file sizes are counted by
 * `npm run check:structure`. Formatting is Prettier's (`npm run format`).
 */
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import tsParser from '@typescript-eslint/parser';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

const ROOT = dirname(fileURLToPath(import.meta.url));

/** the module a path belongs to (src/modules/<name>/...), if any */
function moduleOf(path) {
  return /^src\/modules\/([^/]+)\//.exec(relative(ROOT, path).split('\\').join('/'))?.[1];
}

/** Reports each relative import of `node` that `forbidden(fromFile, targetPath)` names, with its message. */
function importRule(description, forbidden) {
  return {
    meta: { type: 'problem', docs: { description }, schema: [] },
    create(context) {
      const file = context.filename;
      const check = (node, source) => {
        if (!source || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
        const target = resolve(dirname(file), source.value);
        const message = forbidden(file, target);
        if (message) context.report({ node, message });
      };
      return {
        ImportDeclaration: (node) => check(node, node.source),
        ExportNamedDeclaration: (node) => check(node, node.source),
        ExportAllDeclaration: (node) => check(node, node.source),
        ImportExpression: (node) => check(node, node.source),
      };
    },
  };
}

const structure = {
  rules: {
    'own-tables': importRule("a module uses another module's tables only through that module's service", (file, target) => {
      const rel = relative(ROOT, file).split('\\').join('/');
      if (/(^|\/)tables\.ts$/.test(rel) || rel.startsWith('src/importer/') || !rel.startsWith('src/') || rel.endsWith('.test.ts'))
        return undefined;
      const from = moduleOf(file);
      const to = moduleOf(target);
      if (!to || to === from || !/(^|\/)tables(\.js|\.ts)?$/.test(target)) return undefined;
      return `Import of the ${to} module's tables: call a service function of ${to} instead (only tables.ts may name another module's table, for a foreign key)`;
    }),
    'platform-imports-no-module': importRule('the platform knows no module', (file, target) => {
      const rel = relative(ROOT, file).split('\\').join('/');
      if (!rel.startsWith('src/platform/') || rel.endsWith('.test.ts') || !moduleOf(target)) return undefined;
      return `src/platform imports no module (${moduleOf(target)}): let the module contribute through its AppModule instead`;
    }),
  },
};

export default [
  { ignores: ['dist/**', 'node_modules/**', 'admin/src/api/openapi.d.ts', 'admin/src/routeTree.gen.ts', 'admin/dist/**'] },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mts'],
    languageOptions: { parser: tsParser, ecmaVersion: 'latest', sourceType: 'module', parserOptions: { ecmaFeatures: { jsx: true } } },
    plugins: { 'import-x': importX, structure },
    settings: {
      // the modules an import reaches are parsed to follow their imports: TypeScript too
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx', '.mts'] },
      'import-x/extensions': ['.ts', '.tsx', '.mts', '.js', '.mjs'],
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.json'],
          extensionAlias: { '.js': ['.ts', '.tsx', '.js'], '.mjs': ['.mts', '.mjs'] },
        }),
      ],
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'structure/own-tables': 'error',
      'structure/platform-imports-no-module': 'error',
    },
  },
];
