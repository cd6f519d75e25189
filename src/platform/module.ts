/** What a domain module contributes to the application. src/modules/index.ts lists them in order. */
import type { FastifyInstance } from 'fastify';
import type { Ctx } from './context.js';
import type { Db } from './db.js';
import type { GraphqlContribution } from './graphql.js';
import type { Operation } from './operations.js';
import type { RestApp } from './rest-app.js';

export type { RestApp } from './rest-app.js';

export interface AppModule {
  name: string;
  /** operations declared once and served by REST (under /api/rest/v2) and GraphQL */
  operations?: Operation[];
  /** REST routes with no meaning outside HTTP (files, HTML, headers), registered under /api/rest/v2 */
  routes?: (app: RestApp) => void;
  /** routes outside /api/rest/v2 (HTML pages, the SOAP endpoints), registered at the server root */
  rootRoutes?: (app: FastifyInstance) => void;
  graphql?: GraphqlContribution | GraphqlContribution[];
  /** Install data every database needs (default store, groups); runs once per version. */
  install?: { version: number; run(db: Db): Promise<void> };
  /** Demo data, seeded on the first start of an empty database in demo mode. */
  demo?: (ctx: Ctx) => Promise<void>;
}
