/**
 * Operation declarations: each API operation is declared once, as plain data (path, schemas, access rule, the
 * service call), and served from that declaration by every adapter: REST routes with their OpenAPI entries
 * (`restOperations` below), the GraphQL schema and resolvers (`graphql-derive.ts`) and the MCP tools (`mcp-tools.ts`).
 */
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, HTTPMethods } from 'fastify';
import { Type, type Static, type TObject, type TSchema } from 'typebox';
import { operationActivity, recordActivity, recordsActivity, type ActivityProtocol } from './activity-log.js';
import type { Access } from './auth/access.js';
import type { Ctx } from './context.js';
import type { RestApp } from './rest-app.js';
import { collectionResponse, pageOf, sendCollection, type CollectionResult, type Page, type PageOptions } from './pagination.js';

/** What an operation receives: the REST request's parts, already validated (GraphQL arguments are mapped onto them). */
export interface OpInput<P = unknown, Q = unknown, B = unknown, H = unknown> {
  params: P;
  query: Q;
  body: B;
  headers: H;
  /** the page asked for, on a paginated collection */
  page: Page;
  /**
   * GraphQL-only arguments a declaration's `graphql.input` hands on (a filter Maho's GraphQL has and its REST has
   * not); undefined on every REST call, so a REST request can never set them.
   */
  graphql?: Record<string, unknown>;
}

export type OpKind = 'item' | 'collection' | 'none';

/** Another name of a declaration's GraphQL field, which may take its arguments differently. */
export interface GraphqlAlias {
  name: string;
  /** its arguments, where they are not the field's (Maho's `urlResolveResult(id:)` beside `(path:)`); needs `input` */
  args?: TObject;
  /** maps its arguments onto the REST parts */
  input?: GraphqlOp['input'];
  /** a mutation whose input fields may also be given flat, beside an optional `input` (the spec's form) */
  flat?: boolean;
}

export interface GraphqlOp {
  /** the field name; derived from the short name for the standard item, collection, create, update and delete */
  name?: string;
  /** more names for the same field (the spec's name where Maho's differs) */
  aliases?: (string | GraphqlAlias)[];
  /** the GraphQL arguments (a mutation's `input` fields) where they are not the REST parts' (Maho's names); needs `input` */
  args?: TObject;
  /** served by the GraphQL field of another declaration (that field's `select` picks this one) */
  via?: string;
  /** the declaration a call of this field runs, when the arguments name another (a customer cart's id, not a masked id) */
  select?: (args: Record<string, any>) => Operation | undefined;
  /** GraphQL-only behaviour around the call (Maho's GraphQL answers null where its REST refuses) */
  around?: (args: Record<string, any>, next: (args: Record<string, any>) => Promise<unknown>, ctx: Ctx) => Promise<unknown>;
  /** maps GraphQL arguments (a mutation's `input`) onto the REST parts */
  input?: (args: Record<string, any>) => Partial<Pick<OpInput, 'params' | 'query' | 'body' | 'headers' | 'graphql'>>;
  /**
   * a mutation that replaces a list: its body (an array) is the argument of this name and its payload answers the
   * collection's items under the same name (`{ <list>: [Type!]!, clientMutationId }`)
   */
  list?: string;
  /** the answer holds only some of its type's fields (a public balance check): it leaves the type's fields as they are */
  partial?: boolean;
}

export interface McpOp {
  /** the tool name, where the one derived from the id reads badly (see `toolName` in mcp-tools.ts) */
  name?: string;
}

export interface Operation<P = any, Q = any, B = any, H = any, R = any> {
  /** the OpenAPI operationId, `<module>.<action>` */
  id: string;
  method: Exclude<
    HTTPMethods,
    'HEAD' | 'OPTIONS' | 'SEARCH' | 'PROPFIND' | 'PROPPATCH' | 'MKCOL' | 'COPY' | 'MOVE' | 'LOCK' | 'UNLOCK' | 'TRACE'
  >;
  /** REST path under the API prefix, with `:param` segments */
  path: string;
  tags: string[];
  summary: string;
  access: Access;
  /** JSON-LD short name of what it answers, and its GraphQL type */
  shortName: string;
  params?: TObject;
  query?: TObject;
  body?: TSchema;
  headers?: TObject;
  /** the item answered, or the item of the collection */
  response?: TSchema;
  /** item (the default), collection, or none (a 204) */
  kind?: OpKind;
  /** REST status of a success: 200 by default, 201 for a create, 204 when nothing is answered */
  status?: 200 | 201 | 202 | 204;
  /** a paginated collection: default and largest page size; unpaginated collections answer the whole list */
  page?: PageOptions;
  /** anonymous GETs may be cached publicly */
  publicCache?: boolean;
  /** extra headers of the REST answer (a one-time read is `cache-control: no-store`) */
  restHeaders?: Record<string, string>;
  /** hidden from the OpenAPI document */
  hide?: boolean;
  /** largest REST body in bytes, where the operation takes more than the server's BODY_LIMIT (a file as base64) */
  bodyLimit?: number;
  /** GraphQL field; `false` only where the operation has no meaning outside HTTP */
  graphql?: GraphqlOp | false;
  /** MCP tool; `false` for what an agent has no business calling (issuing tokens, the contact form) */
  mcp?: McpOp | false;
  /**
   * `false`: an admin principal's call is not recorded in the activity log, though a write under a back-office or
   * `authenticated` rule (see `recordsActivity`): session housekeeping such as a token refresh or a logout
   */
  activity?: false;
  run(ctx: Ctx, input: OpInput<P, Q, B, H>): Promise<R>;
}

type St<T> = T extends TSchema ? Static<T> : undefined;

/** Declares an operation with its inputs typed from its schemas. */
export function op<
  PS extends TObject | undefined = undefined,
  QS extends TObject | undefined = undefined,
  BS extends TSchema | undefined = undefined,
  HS extends TObject | undefined = undefined,
>(
  o: Omit<Operation, 'params' | 'query' | 'body' | 'headers' | 'run'> & {
    params?: PS;
    query?: QS;
    body?: BS;
    headers?: HS;
    run(ctx: Ctx, input: OpInput<St<PS>, St<QS>, St<BS>, St<HS>>): Promise<unknown>;
  },
): Operation {
  return o as unknown as Operation;
}

export function kindOf(o: Operation): OpKind {
  return o.kind ?? (o.status === 204 ? 'none' : 'item');
}

/**
 * Runs a declaration's service call for an adapter: the one place every REST, GraphQL and MCP call passes, where
 * a back-office write is recorded in the activity log (in its transaction when it opens one).
 */
export function runOperation(o: Operation, ctx: Ctx, input: OpInput, protocol: ActivityProtocol): Promise<unknown> {
  if (!recordsActivity(ctx, o.method, o.access, o.activity)) return o.run(ctx, input);
  return recordActivity(ctx, operationActivity(o, input, protocol), (recorded) => o.run(recorded, input));
}

const noContent = Type.Null({ description: 'No content' });

/** The OpenAPI schema of the route of an operation. */
function routeSchema(o: Operation): FastifySchema {
  const kind = kindOf(o);
  const status = o.status ?? (kind === 'none' ? 204 : 200);
  const response =
    kind === 'collection' ? collectionResponse(o.response ?? Type.Unknown()) : kind === 'none' ? noContent : (o.response ?? Type.Unknown());
  return {
    operationId: o.id,
    tags: o.tags,
    summary: o.summary,
    ...(o.hide ? { hide: true } : {}),
    ...(o.params ? { params: o.params } : {}),
    ...(o.query ? { querystring: o.query } : {}),
    ...(o.body ? { body: o.body } : {}),
    ...(o.headers ? { headers: o.headers } : {}),
    response: { [status]: response },
  };
}

const DEFAULT_PAGE: PageOptions = { defaultSize: 20, maxSize: 100 };

/** The page a REST query asks for (`page`, `itemsPerPage`/`pageSize`). */
export function restPage(o: Operation, query: unknown): Page {
  return pageOf((query ?? {}) as { page?: number; itemsPerPage?: number; pageSize?: number }, o.page ?? DEFAULT_PAGE);
}

const compileSerializer = SerializerSelector()({}, {});

/**
 * The REST serializer of a collection's items (compiled on first use), remembering what it made by the list's
 * identity: a page a cache answers again and again is serialized once.
 */
function membersSerializer(o: Operation): (items: unknown[]) => string {
  const serializedMembers = new WeakMap<object, string>();
  let compiled: ((data: unknown) => string) | undefined;
  return (items) => {
    let json = serializedMembers.get(items);
    if (json === undefined) {
      compiled ??= compileSerializer({
        schema: Type.Array(o.response ?? Type.Unknown()),
        method: o.method,
        url: o.path,
        httpStatus: '200',
      });
      json = compiled(items);
      serializedMembers.set(items, json);
    }
    return json;
  };
}

async function emptyBody(req: FastifyRequest): Promise<void> {
  req.body ??= {};
}

/** Registers the REST route of each operation. */
export function restOperations(rest: RestApp, ops: readonly Operation[]): void {
  // the schemas are generic here, so the routes are registered untyped; the validator still checks every request
  const app = rest as unknown as FastifyInstance;
  for (const o of ops) {
    const kind = kindOf(o);
    const status = o.status ?? (kind === 'none' ? 204 : 200);
    const members = kind === 'collection' ? membersSerializer(o) : undefined;
    app.route({
      method: o.method,
      url: o.path,
      schema: routeSchema(o),
      ...(o.bodyLimit ? { bodyLimit: o.bodyLimit } : {}),
      // a DELETE's body is optional: none reads as an empty one
      ...(o.method === 'DELETE' && o.body ? { preValidation: emptyBody } : {}),
      config: { access: o.access, operation: o.id, ...(o.publicCache ? { publicCache: true } : {}) },
      handler: async (req, reply: FastifyReply) => {
        const page = restPage(o, req.query);
        const input = { params: req.params, query: req.query ?? {}, body: req.body, headers: req.headers, page };
        const result = await runOperation(o, req.ctx, input, 'rest');
        if (o.restHeaders) reply.headers(o.restHeaders);
        if (kind === 'collection') {
          if (status !== 200) reply.code(status);
          const list = result as CollectionResult<unknown>;
          return sendCollection(req, reply, o.shortName, list, o.page ? page : undefined, members!(list.items));
        }
        if (kind === 'none') return reply.code(204).send(null);
        return status === 200 ? result : reply.code(status).send(result);
      },
    });
  }
}
