/** What a domain module contributes to the application. src/modules/index.ts lists them in order. */
import type { FastifyInstance } from 'fastify';
import type { BackgroundSpec } from './background.js';
import type { CatalogParts, Ctx, CustomerSubscriptions, DiscountPreview, OrderParts, UrlResolverCheck } from './context.js';
import type { Db } from './db.js';
import type { EventDeclaration, EventDeclarations, EventSubscriber } from './events.js';
import type { Operation } from './operations.js';
import type { RestApp } from './rest-app.js';

export type { RestApp } from './rest-app.js';

export interface AppModule {
  name: string;
  /** operations declared once and served by REST (under /api/rest/v2), GraphQL and MCP */
  operations?: Operation[];
  /** REST routes with no meaning outside HTTP (files, HTML, headers), registered under /api/rest/v2 */
  routes?: (app: RestApp) => void;
  /** routes outside /api/rest/v2 (HTML pages, the SOAP endpoints), registered at the server root */
  rootRoutes?: (app: FastifyInstance) => void;
  /** Install data every database needs (default store, groups); runs once per version. */
  install?: { version: number; run(db: Db): Promise<void> };
  /** Demo data, seeded on the first start of an empty database in demo mode. */
  demo?: (ctx: Ctx) => Promise<void>;
  /** the events this module emits (`defineEvents(...).declarations`), on the bus as `ctx.app.events` */
  events?: EventDeclarations;
  /** who in this module listens to the events of the bus */
  subscribers?: EventSubscriber[];
  /** background work the module runs in every server process, started with the app and stopped with it (`ctx.app.background`) */
  background?: BackgroundSpec[];
  /** the OpenAPI document's `webhooks` entries (requests the API sends out), from every declared event */
  openapiWebhooks?: (events: ReadonlyMap<string, EventDeclaration>) => Record<string, unknown>;
  /** what this module lends the catalog's products (stock, review summary), handed on as `ctx.app.catalogParts` */
  catalogParts?: Partial<CatalogParts>;
  /** whether an entity of this module a URL path leads to may be shown, by entity type (`ctx.app.urlResolverChecks`) */
  urlResolverChecks?: Readonly<Record<string, UrlResolverCheck>>;
  /** whether customers are subscribed, and linking a new account's subscriptions (one module, the newsletter) */
  customerSubscriptions?: CustomerSubscriptions;
  /** what this module lends the orders module (an order's shipments, what invoices took), handed on as `ctx.app.orderParts` */
  orderParts?: Partial<OrderParts>;
  /** the coupon preview on a cart (one module, the one owning carts), handed to services as `ctx.app.discountPreview` */
  discountPreview?: DiscountPreview;
}
