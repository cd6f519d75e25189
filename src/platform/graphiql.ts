/**
 * The GraphiQL page: a browser asking `GET /api/graphql` for HTML (and sending no query) gets GraphiQL instead of a
 * GraphQL error. Its scripts and styles are served from the installed packages under `/api/graphql/graphiql/`,
 * so the page works without reaching any other host. Served only where introspection is on (GraphiQL's schema
 * explorer and completion need it): outside production by default, in production only when switched on.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { notFound } from './errors.js';
import { GRAPHQL_PATH } from './graphql.js';

const ASSET_PREFIX = `${GRAPHQL_PATH}/graphiql/`;

/** The files the page loads, by the name it asks for: the package and the file inside it. */
const JS = 'text/javascript; charset=utf-8';
const ASSETS: Record<string, { pkg?: string; file: string; type: string }> = {
  'react.js': { pkg: 'react', file: 'umd/react.production.min.js', type: JS },
  'react-dom.js': { pkg: 'react-dom', file: 'umd/react-dom.production.min.js', type: JS },
  'graphiql.js': { pkg: 'graphiql', file: 'graphiql.min.js', type: JS },
  'graphiql.css': { pkg: 'graphiql', file: 'graphiql.min.css', type: 'text/css; charset=utf-8' },
  'start.js': { file: '', type: JS },
};

/** Starts GraphiQL against the endpoint the page was served from; a bearer token goes in its headers tab. */
const START = `(function () {
  var fetcher = GraphiQL.createFetcher({ url: ${JSON.stringify(GRAPHQL_PATH)} });
  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  root.render(React.createElement(GraphiQL, {
    fetcher: fetcher,
    defaultEditorToolsVisibility: true,
    defaultQuery: '# Products of the default store view, as a Relay connection.\\n# To call as a customer or the back office, put {"Authorization": "Bearer <token>"} in the Headers tab.\\n{\\n  products(first: 5) {\\n    totalCount\\n    edges { node { id sku name price } }\\n  }\\n}\\n'
  }));
})();
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>GraphiQL</title>
<link rel="stylesheet" href="${ASSET_PREFIX}graphiql.css">
<style>html, body, #graphiql { height: 100%; margin: 0; }</style>
</head>
<body>
<div id="graphiql">Loading GraphiQL…</div>
<script src="${ASSET_PREFIX}react.js"></script>
<script src="${ASSET_PREFIX}react-dom.js"></script>
<script src="${ASSET_PREFIX}graphiql.js"></script>
<script src="${ASSET_PREFIX}start.js"></script>
</body>
</html>
`;

/** A browser's request for the page: HTML preferred over JSON, and no query to run. */
function wantsPage(accept: string | undefined, query: unknown): boolean {
  if (!accept || !/\btext\/html\b/.test(accept)) return false;
  if (query && typeof query === 'object' && 'query' in query) return false;
  return true;
}

export function installGraphiql(app: FastifyInstance): void {
  const require = createRequire(import.meta.url);
  const cache = new Map<string, Buffer>();

  app.addHook('onRequest', async (req, reply) => {
    if (req.method !== 'GET' || req.routeOptions.url !== GRAPHQL_PATH || !wantsPage(req.headers.accept, req.query)) return;
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(PAGE);
  });

  app.get(`${ASSET_PREFIX}:name`, { schema: { hide: true } }, async (req, reply) => {
    const name = (req.params as { name: string }).name;
    const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (!asset) throw notFound('No such GraphiQL file');
    let body = cache.get(name);
    if (!body) {
      // the UMD builds are not among the packages' exports: they are read from beside each package.json
      body = asset.pkg ? await readFile(join(dirname(require.resolve(`${asset.pkg}/package.json`)), asset.file)) : Buffer.from(START);
      cache.set(name, body);
    }
    return reply.header('cache-control', 'public, max-age=86400').type(asset.type).send(body);
  });
}
