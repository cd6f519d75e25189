/**
 * The web back office: the single-page application built from `admin/` (into dist/admin by `npm run build`, which
 * `npm ci` runs), served at ADMIN_PATH. Its files have hashed names and are cached for good; every other path
 * under ADMIN_PATH is a screen of the application and answers its page, which is never cached and carries the
 * path the application lives at (the build does not know it). The page and its files are sent with a strict
 * Content-Security-Policy: scripts and connections only from this origin, no inline script, no framing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

export const ADMIN_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // React and the dialog primitives set element styles, and one of them adds a style element for scroll locking
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'content-security-policy': ADMIN_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

/** dist/admin next to the server bundle (dist/main.js) or, running from source, at the package root. */
export function adminBuildDir(): string | undefined {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return [path.join(here, 'admin'), path.resolve(here, '../../dist/admin')].find((d) => fs.existsSync(path.join(d, 'index.html')));
}

/** The page with the asset paths and the application's base path set to where it is served. */
export function adminPage(dir: string, adminPath: string): string {
  return fs
    .readFileSync(path.join(dir, 'index.html'), 'utf8')
    .replaceAll('"./assets/', `"${adminPath}/assets/`)
    .replace('<meta name="admin-path" content="/admin"', `<meta name="admin-path" content="${adminPath}"`);
}

export async function installAdminApp(app: FastifyInstance, adminPath: string, dir = adminBuildDir()): Promise<void> {
  const headers = (reply: FastifyReply) => {
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) reply.header(k, v);
  };
  if (!dir) {
    // a server installed without its build tools (npm ci --omit=dev) has no back office: say so instead of a bare 404
    const note = (_req: unknown, reply: FastifyReply) => {
      headers(reply);
      return reply
        .code(404)
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'no-store')
        .send('The back office is not built: run npm run build (it needs the development dependencies).');
    };
    app.get(adminPath, { schema: { hide: true } }, note);
    app.get(`${adminPath}/*`, { schema: { hide: true } }, note);
    return;
  }
  const page = adminPage(dir, adminPath);
  const sendPage = (_req: unknown, reply: FastifyReply) => {
    headers(reply);
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page);
  };
  await app.register(fastifyStatic, {
    root: path.join(dir, 'assets'),
    prefix: `${adminPath}/assets/`,
    decorateReply: false,
    index: false,
    immutable: true,
    maxAge: '365d',
    // called with the reply (this version of @fastify/static)
    setHeaders: ((reply: FastifyReply) => headers(reply)) as never,
  });
  app.get(adminPath, { schema: { hide: true } }, sendPage);
  app.get(`${adminPath}/*`, { schema: { hide: true } }, (req, reply) => {
    // a missing file is a 404, not the page: a stale tab asking for an old bundle must not get HTML as script
    if (req.url.startsWith(`${adminPath}/assets/`)) {
      headers(reply);
      return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    }
    return sendPage(req, reply);
  });
}
