/**
 * The five operations of a plain back-office resource: a public or granted list and item read, and create,
 * update and delete under the resource's admin grants. Modules whose resource has exactly that shape declare it
 * here instead of spelling out the same table again.
 */
import { Type, type Static, type TObject, type TSchema } from 'typebox';
import { access, type Access } from './auth/access.js';
import type { Ctx } from './context.js';
import type { RestApp } from './module.js';
import { op, restOperations, type Operation } from './operations.js';
import type { CollectionResult, Page } from './pagination.js';

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

/** The five operation declarations of a plain resource. */
export function crudOperations<Item extends TSchema, Write extends TSchema, Query extends TObject, Update extends TSchema = Write>(
  r: CrudResource<Item, Write, Query, Update>,
): Operation[] {
  const read = r.read ?? access.public;
  const s = r.summaries;
  const common = { tags: [r.resource], shortName: r.shortName };
  const item = `${r.path}/:id`;
  return [
    op({
      ...common,
      id: `${r.operation}.list`,
      method: 'GET',
      path: r.path,
      summary: s.list,
      access: read,
      query: r.query,
      kind: 'collection',
      response: r.item,
      page: r.page ?? { defaultSize: 20, maxSize: 100 },
      run: (ctx, { query, page }) => r.list(ctx, query as Static<Query>, page),
    }),
    op({
      ...common,
      id: `${r.operation}.get`,
      method: 'GET',
      path: item,
      summary: s.get,
      access: read,
      params: IdParams,
      response: r.item,
      run: (ctx, { params }) => r.get(ctx, params.id),
    }),
    op({
      ...common,
      id: `${r.operation}.create`,
      method: 'POST',
      path: r.path,
      summary: s.create,
      access: access.admin(r.resource, 'create'),
      body: r.write,
      response: r.item,
      status: 201,
      run: (ctx, { body }) => r.create(ctx, body as Static<Write>),
    }),
    op({
      ...common,
      id: `${r.operation}.update`,
      method: 'PUT',
      path: item,
      summary: s.update,
      access: access.admin(r.resource, 'write'),
      params: IdParams,
      body: r.updateBody ?? r.write,
      response: r.item,
      run: (ctx, { params, body }) => r.update(ctx, params.id, body as Static<Update>),
    }),
    op({
      ...common,
      id: `${r.operation}.delete`,
      method: 'DELETE',
      path: item,
      summary: s.delete,
      access: access.admin(r.resource, 'delete'),
      params: IdParams,
      status: 204,
      run: (ctx, { params }) => r.remove(ctx, params.id),
    }),
  ];
}

/** Registers the five routes directly (modules whose operations are not yet declared as data). */
export function crudRoutes<Item extends TSchema, Write extends TSchema, Query extends TObject, Update extends TSchema = Write>(
  rest: RestApp,
  r: CrudResource<Item, Write, Query, Update>,
): void {
  restOperations(rest, crudOperations(r));
}
