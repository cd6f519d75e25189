/**
 * The five routes of a plain back-office resource: a public or granted list and item read, and create, update
 * and delete under the resource's admin grants. Modules whose resource has exactly that shape declare it here
 * instead of spelling out the same route table again.
 */
import type { FastifyInstance, FastifyRequest, FastifySchema, HTTPMethods, RouteHandlerMethod } from 'fastify';
import { Type, type Static, type TObject, type TSchema } from 'typebox';
import { access, type Access } from './auth/access.js';
import type { Ctx } from './context.js';
import type { RestApp } from './module.js';
import { collectionResponse, pageOf, sendCollection, type CollectionResult, type Page } from './pagination.js';

export interface CrudResource<Item extends TSchema, Write extends TSchema, Query extends TObject, Update extends TSchema = Write> {
  /** collection path under the API prefix, e.g. `/cms-pages`; the item path adds `/:id` */
  path: string;
  /** grant resource of the writes (`admin(resource, 'create'|'write'|'delete')`), also the OpenAPI tag */
  resource: string;
  /** operationId prefix: `cmsPages` gives `cmsPages.list`, `cmsPages.get`, ... */
  operation: string;
  /** JSON-LD short name of the items (`CmsPage`) */
  shortName: string;
  item: Item;
  /** body of create, and of update unless `updateBody` is given */
  write: Write;
  updateBody?: Update;
  query: Query;
  /** who may read; public by default (the service decides what each caller sees) */
  read?: Access;
  /** default and largest page size of the list (20, 100) */
  page?: { defaultSize: number; maxSize: number };
  summaries: { list: string; get: string; create: string; update: string; delete: string };
  list(ctx: Ctx, q: Static<Query>, page: Page): Promise<CollectionResult<Static<Item>>>;
  get(ctx: Ctx, id: number): Promise<Static<Item>>;
  create(ctx: Ctx, body: Static<Write>): Promise<Static<Item>>;
  update(ctx: Ctx, id: number, body: Static<Update>): Promise<Static<Item>>;
  /** what it answers is not sent: a delete is a 204 */
  remove(ctx: Ctx, id: number): Promise<unknown>;
}

const INT_MAX = 2_147_483_647;
const IdParams = Type.Object({ id: Type.Integer({ minimum: 0, maximum: INT_MAX }) });
const deleted = { 204: Type.Null({ description: 'Deleted' }) };

export function crudRoutes<Item extends TSchema, Write extends TSchema, Query extends TObject, Update extends TSchema = Write>(
  rest: RestApp,
  r: CrudResource<Item, Write, Query, Update>,
): void {
  // the schemas are generic here, so the routes are registered untyped; the validator still checks every request
  const app = rest as unknown as FastifyInstance;
  const route = (method: HTTPMethods, url: string, name: string, rule: Access, schema: FastifySchema, handler: RouteHandlerMethod) =>
    app.route({ method, url, schema: { operationId: `${r.operation}.${name}`, tags: [r.resource], ...schema }, config: { access: rule }, handler });
  const id = (req: FastifyRequest) => (req.params as Static<typeof IdParams>).id;
  const item = `${r.path}/:id`;
  const read = r.read ?? access.public;
  const s = r.summaries;

  route('GET', r.path, 'list', read, { summary: s.list, querystring: r.query, response: { 200: collectionResponse(r.item) } }, async (req, reply) => {
    const page = pageOf(req.query as { page?: number; itemsPerPage?: number; pageSize?: number }, r.page ?? { defaultSize: 20, maxSize: 100 });
    return sendCollection(req, reply, r.shortName, await r.list(req.ctx, req.query as Static<Query>, page), page);
  });
  route('GET', item, 'get', read, { summary: s.get, params: IdParams, response: { 200: r.item } }, async (req) => r.get(req.ctx, id(req)));
  route('POST', r.path, 'create', access.admin(r.resource, 'create'), { summary: s.create, body: r.write, response: { 201: r.item } }, async (req, reply) =>
    reply.code(201).send(await r.create(req.ctx, req.body as Static<Write>)),
  );
  route('PUT', item, 'update', access.admin(r.resource, 'write'), { summary: s.update, params: IdParams, body: r.updateBody ?? r.write, response: { 200: r.item } }, async (req) =>
    r.update(req.ctx, id(req), req.body as Static<Update>),
  );
  route('DELETE', item, 'delete', access.admin(r.resource, 'delete'), { summary: s.delete, params: IdParams, response: deleted }, async (req, reply) => {
    await r.remove(req.ctx, id(req));
    return reply.code(204).send(null);
  });
}
