/**
 * The MCP tools of the operation declarations: one tool per operation (unless it says `mcp: false`), named after
 * its id, taking the REST parts of the call (path parameters, declared filters and paging, the body's fields) as
 * one object of arguments, enforcing the same access rule and answering the JSON its REST route answers.
 */
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { Type, type TObject } from 'typebox';
import { authorize } from './auth/access.js';
import type { Actor, Ctx } from './context.js';
import { AppError, errorBody } from './errors.js';
import { checkBody, checkParams, toAppError } from './http.js';
import {
  actorScope,
  claimIdempotencyKey,
  IDEMPOTENCY_KEY_RE,
  settleIdempotencyKey,
  type IdemRecord,
  type StoredReply,
} from './idempotency.js';
import { kindOf, restPage, runOperation, type Operation, type OpInput } from './operations.js';
import { collectionDocument, collectionResponse, type CollectionResult, type Page } from './pagination.js';

type Js = Record<string, any>;

export interface ToolDef {
  name: string;
  op: Operation;
  tool: Tool;
  /** the arguments each REST part takes (an argument a part declares goes to it) */
  params: string[];
  query: string[];
  /** argument → request header (`orderToken` → `x-order-token`) */
  headers: Map<string, string>;
  /** the body's fields; or `items`, an argument carrying a body that is not an object (a list) */
  body: string[] | 'items' | undefined;
  /** list filters only the declaration's GraphQL arguments name, mapped by its `graphql.input` */
  filters: string[];
  /**
   * the schema those filters are checked against, each optional: built once with the tool, as the validator
   * keeps what it compiles by the schema object for the life of the process
   */
  filterSchema?: TObject;
  /** the part arguments nobody declares go to, when its schema lets other keys through (`attr_<code>` filters) */
  open?: 'query' | 'body';
  /** a write, as REST counts them for X-Idempotency-Key: POST, PUT, PATCH */
  write: boolean;
}

/** What a call needs besides the tool and its arguments. */
export interface CallOptions {
  apiPrefix: string;
  /** the largest arguments object, in bytes, where the operation sets no bodyLimit of its own */
  bodyLimit: number;
  /** the X-Idempotency-Key of the HTTP request, used when the arguments carry no idempotencyKey */
  idempotencyKey?: string;
  /** whose records an anonymous caller's keys are: the MCP session's */
  sessionScope: string;
}

const PAGING = new Set(['page', 'itemsPerPage', 'pageSize', 'first', 'last', 'before', 'after']);

const snake = (s: string) =>
  s
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();

function singular(word: string): string {
  if (/ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ss|sh|ch|x|z)es$/.test(word)) return word.slice(0, -2);
  if (/[^s]s$/.test(word)) return word.slice(0, -1);
  return word;
}

/**
 * The tool name of an operation: its id in snake case, the resource singular (`product_get`, `cart_add_item`,
 * `order_hold`) except in the list of the resource itself (`products_list`, `orders_list_mine`).
 */
export function toolName(o: Operation): string {
  if (o.mcp && o.mcp.name) return o.mcp.name;
  const [resource, ...rest] = o.id.split('.');
  const ownList = o.method === 'GET' && kindOf(o) === 'collection' && rest.length === 1;
  return snake([ownList ? resource : singular(resource), ...rest].join('_'));
}

const isWrite = (o: Operation) => o.method === 'POST' || o.method === 'PUT' || o.method === 'PATCH';

/** A schema as advertised: without our own `x-` keywords (property names are kept whatever they are). */
function advertised(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(advertised);
  if (!s || typeof s !== 'object') return s;
  const out: Js = {};
  for (const [k, v] of Object.entries(s)) {
    if (k.startsWith('x-')) continue;
    out[k] =
      k === 'properties' || k === 'patternProperties'
        ? Object.fromEntries(Object.entries(v as Js).map(([n, p]) => [n, advertised(p)]))
        : advertised(v);
  }
  return out;
}

/** The fields of an object body, or of the one object branch of a union (a list or `{tierPrices: [...]}`); else undefined. */
function objectOf(s: Js): { props: Js; required: string[]; open: boolean } | undefined {
  if (s.type === 'object' && s.properties)
    return { props: s.properties, required: s.required ?? [], open: s.additionalProperties !== false };
  const branches: Js[] | undefined = s.anyOf ?? s.oneOf;
  const objects = branches?.filter((b) => b.type === 'object' && b.properties) ?? [];
  if (objects.length !== 1) return undefined;
  const inner = objectOf(objects[0])!;
  // `{...} | null`: no field is required
  return branches!.some((b) => b.type === 'null') ? { ...inner, required: [] } : inner;
}

/** `x-order-token` → `orderToken` */
const headerArg = (h: string) => h.replace(/^x-/i, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

const isAlias = (s: Js) => typeof s.description === 'string' && /^alias of /.test(s.description);

function descriptionOf(o: Operation, apiPrefix: string): string {
  const lines = [o.summary.replace(/\.?$/, '.')];
  if (o.page)
    lines.push(
      `One page at a time: page (from 1) and itemsPerPage (default ${o.page.defaultSize ?? 20}, at most ${o.page.maxSize ?? 100}); follow view.next.`,
    );
  lines.push(`REST: ${o.method} ${apiPrefix}${o.path}`);
  return lines.join('\n');
}

/** Derives the tool of each operation that has one; names must be unique. */
export function deriveTools(ops: readonly Operation[], apiPrefix: string): Map<string, ToolDef> {
  const tools = new Map<string, ToolDef>();
  for (const o of ops) {
    if (o.mcp === false) continue;
    const def = toolOf(o, apiPrefix);
    const twin = tools.get(def.name);
    if (twin) throw new Error(`MCP tool ${def.name} is derived from ${twin.op.id} and ${o.id}: give one an mcp.name`);
    tools.set(def.name, def);
  }
  return tools;
}

function toolOf(o: Operation, apiPrefix: string): ToolDef {
  const name = toolName(o);
  const props: Js = {};
  const required = new Set<string>();
  const add = (k: string, s: Js, req: boolean) => {
    if (!(k in props)) props[k] = advertised(s);
    if (req) required.add(k);
  };
  const params = Object.keys(o.params?.properties ?? {});
  for (const k of params) add(k, o.params!.properties[k] as Js, true);
  const headers = new Map<string, string>();
  for (const [h, s] of Object.entries((o.headers?.properties ?? {}) as Js)) {
    headers.set(headerArg(h), h);
    add(headerArg(h), s, (o.headers!.required ?? []).includes(h));
  }
  const query = Object.keys(o.query?.properties ?? {});
  for (const k of query) {
    const s = o.query!.properties[k] as Js;
    // an alias is taken, not advertised: one name per filter
    if (!isAlias(s)) add(k, s, (o.query!.required ?? []).includes(k));
  }
  const filters: string[] = [];
  const g = o.graphql || undefined;
  if (o.method === 'GET' && kindOf(o) === 'collection' && g?.args && g.input) {
    for (const [k, s] of Object.entries(g.args.properties as Js)) {
      if (k in props || query.includes(k) || PAGING.has(k)) continue;
      filters.push(k);
      add(k, s, false);
    }
  }
  const filterSchema = filters.length && g?.args ? Type.Partial(Type.Object(pick(g.args.properties, filters))) : undefined;
  let body: ToolDef['body'];
  let open: ToolDef['open'] = (o.query as Js | undefined)?.additionalProperties === true ? 'query' : undefined;
  if (o.body) {
    const fields = objectOf(o.body as Js);
    if (fields) {
      body = Object.keys(fields.props);
      for (const k of body) if (!isAlias(fields.props[k])) add(k, fields.props[k], fields.required.includes(k));
      if (fields.open) open = 'body';
    } else if ((o.body as Js).type) {
      body = 'items';
      add('items', o.body as Js, true);
    }
  }
  const write = isWrite(o);
  if (write) {
    add(
      'idempotencyKey',
      {
        type: 'string',
        pattern: IDEMPOTENCY_KEY_RE.source,
        description:
          'makes a retry safe: the same key with this tool on the same record answers the first success without doing the work again (24 hours)',
      },
      false,
    );
  }
  const inputSchema: Tool['inputSchema'] = { type: 'object' };
  if (Object.keys(props).length) inputSchema.properties = props;
  if (required.size) inputSchema.required = [...required];
  const tool: Tool = {
    name,
    description: descriptionOf(o, apiPrefix),
    inputSchema,
    annotations: {
      readOnlyHint: o.method === 'GET',
      // only a delete takes away what an agent cannot put back, so that clients do not ask before every write
      destructiveHint: o.method === 'DELETE',
      idempotentHint: o.method !== 'POST',
      openWorldHint: false,
    },
  };
  return { name, op: o, tool, params, query, headers, body, filters, ...(filterSchema ? { filterSchema } : {}), open, write };
}

/** True when the actor passes the operation's access rule (ownership is the service's to check, at the call). */
export function mayCall(actor: Actor, o: Operation): boolean {
  try {
    authorize(actor, o.access);
    return true;
  } catch {
    return false;
  }
}

function pick(args: Js, keys: readonly string[]): Js {
  const out: Js = {};
  for (const k of keys) if (args[k] !== undefined) out[k] = args[k];
  return out;
}

/** Splits the arguments onto the REST parts and checks each as REST checks it (a 400 with the field). */
function inputOf(t: ToolDef, args: Js): Omit<OpInput, 'page'> {
  const o = t.op;
  const known = new Set([
    ...t.params,
    ...t.query,
    ...t.headers.keys(),
    ...t.filters,
    ...(Array.isArray(t.body) ? t.body : t.body ? ['items'] : []),
    ...(t.write ? ['idempotencyKey'] : []),
  ]);
  const extra = Object.keys(args).filter((k) => !known.has(k));
  if (extra.length && !t.open) {
    throw new AppError('bad_request', `${extra[0]} is not an argument of ${t.name}`, {
      reason: 'VALIDATION_FAILED',
      details: { field: extra[0], constraint: 'additionalProperties', in: 'arguments' },
    });
  }
  let query: Js = { ...pick(args, t.query), ...(t.open === 'query' ? pick(args, extra) : {}) };
  let graphql: Js | undefined;
  const filters = pick(args, t.filters);
  if (Object.keys(filters).length && t.filterSchema && o.graphql && o.graphql.input) {
    const mapped = o.graphql.input(checkParams(t.filterSchema, filters));
    query = { ...query, ...(mapped.query ?? {}) };
    graphql = mapped.graphql;
  }
  let body: unknown;
  if (t.body === 'items') body = checkBody(o.body!, args.items);
  else if (t.body) {
    const fields = { ...pick(args, t.body), ...(t.open === 'body' ? pick(args, extra) : {}) };
    // a body that may be null (a DELETE's optional one) is left out when no field is given
    const optional = !Object.keys(fields).length && (o.body as Js).anyOf?.some((b: Js) => b.type === 'null');
    body = optional ? undefined : checkBody(o.body!, fields);
  }
  const headers: Js = {};
  for (const [arg, header] of t.headers) if (args[arg] !== undefined) headers[header] = args[arg];
  return {
    params: o.params ? checkParams(o.params, pick(args, t.params)) : {},
    query: o.query ? checkParams(o.query as TObject, query) : {},
    body,
    headers: o.headers ? checkParams(o.headers, headers) : {},
    ...(graphql ? { graphql } : {}),
  };
}

/** The REST path of a call: the item the call is on, the idempotency record's and the collection's `@id`. */
function restPath(t: ToolDef, params: Js, apiPrefix: string): string {
  return apiPrefix + t.op.path.replace(/:([A-Za-z0-9_]+)/g, (_, k: string) => encodeURIComponent(String(params[k])));
}

/** The query string of the REST request a list call stands for: `page` first, then the arguments as given. */
function searchOf(t: ToolDef, args: Js, page: number): string {
  const q = new URLSearchParams({ page: String(page) });
  const listed = new Set([...t.query, ...t.filters]);
  const elsewhere = new Set([...t.params, ...t.headers.keys()]);
  for (const [k, v] of Object.entries(args)) {
    if (v === undefined || k === 'page' || !(listed.has(k) || (t.open === 'query' && !elsewhere.has(k)))) continue;
    q.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  return q.toString();
}

/** REST's response serializer of an operation (Fastify's own compiler): unknown keys dropped, values as REST writes them. */
const compile = SerializerSelector()({}, {});
const serializers = new WeakMap<Operation, (v: unknown) => string>();
export function restJson(o: Operation, value: unknown): string {
  let s = serializers.get(o);
  if (!s) {
    const schema =
      kindOf(o) === 'collection'
        ? collectionResponse(o.response ?? Type.Unknown()).content['application/ld+json'].schema
        : (o.response ?? {});
    s = compile({ schema, method: o.method, url: o.path, httpStatus: String(o.status ?? 200) });
    serializers.set(o, s);
  }
  return s(value);
}

const textResult = (text: string): CallToolResult => ({ content: text ? [{ type: 'text', text }] : [] });

/** A refusal as a tool error: the REST error body (`error`, `message`, `code` the HTTP status, `details`) and `reason`. */
export function toolError(err: AppError): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ ...errorBody(err), reason: err.reason }) }] };
}

/**
 * Calls a tool: the access rule, the arguments checked as REST checks a request, the idempotency key claimed for
 * a write, then the declaration's `run`, answering REST's JSON. Whatever is thrown comes back as a tool error.
 */
export async function callTool(t: ToolDef, ctx: Ctx, args: Js, opts: CallOptions): Promise<CallToolResult> {
  try {
    authorize(ctx.actor, t.op.access);
    const size = Buffer.byteLength(JSON.stringify(args));
    if (size > (t.op.bodyLimit ?? opts.bodyLimit))
      throw new AppError('payload_too_large', 'The arguments are too large', { reason: 'BODY_TOO_LARGE' });
    const input = inputOf(t, args);
    const page = restPage(t.op, input.query);
    const path = restPath(t, input.params as Js, opts.apiPrefix);
    let rec: IdemRecord | undefined;
    const key = t.write ? (args.idempotencyKey ?? opts.idempotencyKey) : undefined;
    if (key !== undefined) {
      if (typeof key !== 'string' || !IDEMPOTENCY_KEY_RE.test(key)) {
        throw new AppError('bad_request', 'idempotencyKey must be 1 to 255 characters of A-Z, a-z, 0-9, _ and -', {
          reason: 'INVALID_IDEMPOTENCY_KEY',
        });
      }
      // scoped to the caller, the tool and the record: one key may serve two tools, or two records of one tool
      rec = { scope: actorScope(ctx.actor) ?? opts.sessionScope, key, method: 'MCP', path: `${t.name} ${path}` };
      const stored = await claimIdempotencyKey(ctx.db, rec);
      if (stored) return { ...textResult(stored.body), _meta: { idempotencyReplayed: true } };
    }
    let text: string;
    try {
      const result = await runOperation(t.op, ctx, { ...input, page }, 'mcp');
      text = resultText(t, result, path, args, page);
    } catch (err) {
      // only a success is kept: the retry that fixes a refused call runs
      if (rec) await settle(ctx, rec, undefined);
      throw err;
    }
    if (rec) await settle(ctx, rec, { status: 200, body: text, contentType: 'application/json' });
    return textResult(text);
  } catch (err) {
    const appErr = toAppError(err);
    if (appErr.status >= 500) ctx.log.error({ err, tool: t.name }, 'MCP tool call failed');
    return toolError(appErr);
  }
}

/** Records the outcome of a keyed call; a failure to record it does not undo the call (as on REST). */
function settle(ctx: Ctx, rec: IdemRecord, reply: StoredReply | undefined): Promise<void> {
  return settleIdempotencyKey(ctx.db, rec, reply).catch((err: unknown) => ctx.log.error({ err }, 'could not record idempotency result'));
}

function resultText(t: ToolDef, result: unknown, path: string, args: Js, page: Page): string {
  const o = t.op;
  const kind = kindOf(o);
  if (kind === 'none') return '';
  if (kind !== 'collection') return restJson(o, result);
  const list = (Array.isArray(result) ? { items: result, total: result.length } : result) as CollectionResult<unknown>;
  return restJson(o, collectionDocument(o.shortName, path, o.page ? searchOf(t, args, page.page) : '', list, o.page ? page : undefined));
}
