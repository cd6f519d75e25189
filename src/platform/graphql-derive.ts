/**
 * The GraphQL adapter of the operation declarations, in API Platform's shape: each short name is a type whose
 * fields are those of the REST item schema (`id` the IRI, `_id` the number, objects and arrays the `Iterable`
 * JSON scalar); an item read is a query taking the IRI, a collection a Relay connection, every other operation a
 * mutation taking `input: {..., clientMutationId}` and answering `{ <type> clientMutationId }`. The resolvers
 * enforce the declared access rule and call the declaration's `run`, as the REST route does.
 */
import type { IResolvers } from 'mercurius';
import { Type, type TObject, type TSchema } from 'typebox';
import { authorize } from './auth/access.js';
import type { Ctx } from './context.js';
import { AppError } from './errors.js';
import type { GqlContext, GraphqlContribution } from './graphql.js';
import { checkBody, checkParams } from './http.js';
import { kindOf, restPage, type Operation, type OpInput } from './operations.js';
import type { CollectionResult, Page } from './pagination.js';

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
/** the schema keyword that names a GraphQL scalar other than the JSON type's (see GraphqlId) */
const GRAPHQL_TYPE = 'x-graphql-type';

/**
 * A GraphQL argument of type ID (an IRI, or a bare number): for `graphql.args` only, which are never handed to
 * the REST validator (its unknown keyword would be refused there); `graphql.input` maps it to the REST id.
 */
export function GraphqlId(options: { description?: string } = {}): TSchema {
  return Type.String({ ...options, [GRAPHQL_TYPE]: 'ID' });
}

/**
 * Names the GraphQL object type of an object schema nested in a response (a cart's or an order's address is an
 * `Address`, as in Maho): the field gets that type instead of `Iterable`, and the type gains the object's fields
 * (those not every use has are nullable). OpenAPI shows the name as the extension `x-graphql-type`.
 */
export function GraphqlType<T extends TObject>(name: string, schema: T): T {
  return { ...schema, [GRAPHQL_TYPE]: name };
}
const INT_MAX = 2_147_483_647;

type Js = Record<string, any>;

export const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
export const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** English plural of a short name, as API Platform's inflector makes it (Category → Categories, Address → Addresses). */
export function plural(name: string): string {
  if (/[^aeiou]y$/i.test(name)) return `${name.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(name)) return `${name}es`;
  return `${name}s`;
}

function nullableInner(s: Js): Js | undefined {
  const branches: Js[] | undefined = s.anyOf ?? s.oneOf;
  if (branches) {
    const rest = branches.filter((b) => b.type !== 'null');
    if (rest.length === 1 && rest.length < branches.length) return rest[0];
  }
  if (Array.isArray(s.type) && s.type.includes('null')) {
    const rest = s.type.filter((t: string) => t !== 'null');
    if (rest.length === 1) return { ...s, type: rest[0] };
  }
  return undefined;
}

function isNullable(s: Js): boolean {
  return nullableInner(s) !== undefined || s.type === 'null';
}

/** A scalar GraphQL type name of a JSON schema, or undefined when it is an object, an array or a mix. */
function scalarOf(s: Js): string | undefined {
  const inner = nullableInner(s) ?? s;
  if (inner[GRAPHQL_TYPE]) return inner[GRAPHQL_TYPE];
  const branches: Js[] | undefined = inner.anyOf ?? inner.oneOf;
  if (branches) {
    const types = new Set(branches.map((b) => scalarOf(b)));
    return types.size === 1 ? [...types][0] : undefined;
  }
  switch (inner.type) {
    case 'integer':
      // GraphQL's Int is 32-bit: a wider integer is a Float
      return inner.maximum !== undefined && inner.maximum > INT_MAX ? 'Float' : 'Int';
    case 'number':
      return 'Float';
    case 'string':
      return 'String';
    case 'boolean':
      return 'Boolean';
    default:
      return undefined;
  }
}

/** The GraphQL type of a property: a scalar, a list of scalars (inputs only), or Iterable. */
function typeOf(s: Js, required: boolean, input: boolean): string {
  const nonNull = required && !isNullable(s);
  const inner = nullableInner(s) ?? s;
  let t = scalarOf(inner);
  if (!t && input && inner.type === 'array' && inner.items) {
    const item = scalarOf(inner.items);
    if (item) t = `[${item}!]`;
  }
  return `${t ?? 'Iterable'}${nonNull ? '!' : ''}`;
}

function propertiesOf(schema: Js | undefined): { props: Record<string, Js>; required: Set<string> } {
  if (!schema) return { props: {}, required: new Set() };
  if (schema.properties) return { props: schema.properties, required: new Set(schema.required ?? []) };
  const branches: Js[] | undefined = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (branches) {
    // a union of objects: every property of any branch, required only where every branch requires it
    const props: Record<string, Js> = {};
    const all = branches.map((b) => propertiesOf(b));
    for (const b of all) Object.assign(props, b.props);
    const required = new Set(Object.keys(props).filter((k) => (schema.allOf ? all.some((b) => b.required.has(k)) : all.every((b) => b.required.has(k)))));
    return { props, required };
  }
  return { props: {}, required: new Set() };
}

export interface DeriveOptions {
  /** the REST prefix the IRIs start with */
  apiPrefix: string;
}

interface TypeInfo {
  name: string;
  fields: Map<string, string>;
  /** IRI of an item: the item path of its read, or of its collection */
  iriBase?: string;
  hasId: boolean;
}

/** The GraphQL field name of an operation. */
export function fieldName(o: Operation): string {
  if (o.graphql && o.graphql.name) return o.graphql.name;
  if (o.graphql && o.graphql.via) return o.graphql.via;
  const kind = kindOf(o);
  const params = Object.keys(o.params?.properties ?? {});
  const onItem = /\/:id$/.test(o.path) && params.length === 1;
  const T = o.shortName;
  if (o.method === 'GET' && kind === 'collection' && params.length === 0) return lowerFirst(plural(T));
  if (o.method === 'GET' && kind === 'item' && onItem) return lowerFirst(T);
  if (o.method === 'POST' && params.length === 0 && o.status === 201) return `create${T}`;
  if ((o.method === 'PUT' || o.method === 'PATCH') && onItem) return `update${T}`;
  if (o.method === 'DELETE' && onItem) return `delete${T}`;
  throw new Error(`operation ${o.id} (${o.method} ${o.path}) needs a GraphQL name`);
}

export function isQuery(o: Operation): boolean {
  return o.method === 'GET';
}

const cursorOf = (offset: number) => Buffer.from(String(offset)).toString('base64');
function offsetOf(cursor: unknown): number {
  const text = Buffer.from(String(cursor), 'base64').toString();
  const n = /^\d{1,9}$/.test(text) ? Number(text) : -1;
  if (n < 0) throw new AppError('bad_request', 'The cursor is not one this API gave', { reason: 'BAD_CURSOR' });
  return n;
}

/** The numeric id of an IRI (`/api/rest/v2/products/42`), a number or a numeric string; undefined for another resource's IRI. */
export function idOfIri(value: unknown, iriBase?: string): number | undefined {
  if (typeof value === 'number') return value;
  const s = String(value ?? '');
  if (/^\d+$/.test(s)) return Number(s);
  const m = /^(.*\/)(\d+)$/.exec(s);
  if (m && (!iriBase || m[1] === iriBase)) return Number(m[2]);
  return undefined;
}

/** Builds the SDL and resolvers of every operation that has a GraphQL field. */
export function deriveGraphql(ops: readonly Operation[], opts: DeriveOptions): GraphqlContribution & { fields: Map<string, Operation> } {
  const types = new Map<string, TypeInfo>();
  const fields = new Map<string, Operation>();
  const answered = ops.filter((o) => o.graphql !== false);
  const exposed = answered.filter((o) => !(o.graphql && o.graphql.via));

  // the IRI of each type: its item read's path, else its collection's path with the id appended
  for (const o of exposed) {
    const t = typeInfo(types, o.shortName);
    if (o.method === 'GET' && kindOf(o) === 'item' && /\/:id$/.test(o.path) && !t.iriBase) t.iriBase = `${opts.apiPrefix}${o.path.slice(0, -3)}`;
  }
  for (const o of answered) {
    const t = typeInfo(types, o.shortName);
    if (!t.iriBase && o.method === 'GET' && kindOf(o) === 'collection' && !o.path.includes(':')) t.iriBase = `${opts.apiPrefix}${o.path}/`;
    // a declaration served by another's field (a guest cart's bare totals) answers that field's type, not its own
    if (!(o.graphql && o.graphql.via)) addFields(types, t, o.response as Js | undefined);
  }

  const queries: string[] = [];
  const mutations: string[] = [];
  const inputs: string[] = [];
  const queryResolvers: Record<string, unknown> = {};
  const mutationResolvers: Record<string, unknown> = {};
  const connections = new Set<string>();

  for (const o of exposed) {
    const name = fieldName(o);
    const t = types.get(o.shortName)!;
    const names = [name, ...((o.graphql && o.graphql.aliases) || [])];
    for (const n of names) {
      if (fields.has(n)) throw new Error(`GraphQL field ${n} is declared by ${fields.get(n)!.id} and ${o.id}`);
      fields.set(n, o);
    }
    if (isQuery(o)) {
      const args = queryArgs(o, t);
      const collection = kindOf(o) === 'collection';
      if (collection) connections.add(t.name);
      const returns = collection ? `${t.name}Connection` : t.name;
      const resolve = collection ? connectionResolver(o, t) : itemResolver(o, types);
      for (const n of names) {
        queries.push(`  ${n}${args ? `(${args})` : ''}: ${returns}`);
        queryResolvers[n] = resolve;
      }
    } else {
      const inputFields = mutationInput(o, t);
      const resolve = mutationResolver(o, t, types);
      for (const n of names) {
        inputs.push(`input ${n}Input {\n${inputFields}\n  clientMutationId: String\n}`);
        inputs.push(`type ${n}Payload {\n  ${lowerFirst(t.name)}: ${t.name}\n  clientMutationId: String\n}`);
        mutations.push(`  ${n}(input: ${n}Input!): ${n}Payload`);
        mutationResolvers[n] = resolve;
      }
    }
  }

  const typeDefs: string[] = ['type PageInfo {\n  endCursor: String\n  startCursor: String\n  hasNextPage: Boolean!\n  hasPreviousPage: Boolean!\n}'];
  const resolvers: IResolvers = {};
  for (const t of types.values()) {
    const lines = [...t.fields.entries()].map(([k, v]) => `  ${k}: ${v}`);
    if (!lines.length) lines.push('  _empty: Boolean');
    typeDefs.push(`type ${t.name} {\n${lines.join('\n')}\n}`);
    if (t.hasId) {
      const base = t.iriBase;
      resolvers[t.name] = {
        id: (parent: Js) => (typeof parent.id === 'number' && base ? `${base}${parent.id}` : parent.id),
        // a node whose id is not its number's IRI (a URL resolution) carries its number as `_id`
        _id: (parent: Js) => (parent._id !== undefined ? parent._id : typeof parent.id === 'number' ? parent.id : idOfIri(parent.id, base)),
      };
    }
  }
  for (const name of connections) {
    typeDefs.push(`type ${name}Connection {\n  edges: [${name}Edge!]!\n  pageInfo: PageInfo!\n  totalCount: Int!\n}`);
    typeDefs.push(`type ${name}Edge {\n  node: ${name}\n  cursor: String!\n}`);
  }
  typeDefs.push(...inputs);
  if (queries.length) typeDefs.push(`extend type Query {\n${queries.join('\n')}\n}`);
  if (mutations.length) typeDefs.push(`extend type Mutation {\n${mutations.join('\n')}\n}`);
  if (queries.length) resolvers.Query = queryResolvers as IResolvers['Query'];
  if (mutations.length) resolvers.Mutation = mutationResolvers as IResolvers['Mutation'];
  return { typeDefs: typeDefs.join('\n'), resolvers, fields };
}

function typeInfo(types: Map<string, TypeInfo>, name: string): TypeInfo {
  let t = types.get(name);
  if (!t) {
    t = { name, fields: new Map(), hasId: false };
    types.set(name, t);
  }
  return t;
}

function addFields(types: Map<string, TypeInfo>, t: TypeInfo, schema: Js | undefined): void {
  // a declaration that answers nothing (a delete) says nothing of the type's fields
  if (!schema) return;
  const { props, required } = propertiesOf(schema);
  const fresh = t.fields.size === 0;
  for (const [k, s] of Object.entries(props)) {
    if (!NAME.test(k) || k === '_id') continue;
    let type: string;
    const isId = k === 'id' && scalarOf(s) === 'Int';
    if (isId) {
      t.hasId = true;
      type = 'ID!';
    } else {
      type = typeOf(s, required.has(k), false);
      // an object field that names its type (an address of a cart or an order) adds its fields to that type
      const named = nestedType(s);
      if (named) addFields(types, typeInfo(types, named.name), named.schema);
    }
    const had = t.fields.get(k);
    // a field only some declarations of the type answer is nullable
    if (had === undefined) t.fields.set(k, fresh ? type : type.replace(/!$/, ''));
    else if (had !== type) t.fields.set(k, had.replace(/!$/, '') === type.replace(/!$/, '') ? had.replace(/!$/, '') : 'Iterable');
    if (isId && !t.fields.has('_id')) t.fields.set('_id', 'Int');
  }
  if (!fresh) for (const [k, v] of t.fields) if (!(k in props) && k !== '_id') t.fields.set(k, v.replace(/!$/, ''));
}

/** The object type a property names with `x-graphql-type` (see GraphqlType), with the object's schema. */
function nestedType(s: Js): { name: string; schema: Js } | undefined {
  const inner = nullableInner(s) ?? s;
  const name = inner[GRAPHQL_TYPE];
  return name && inner.properties ? { name, schema: inner } : undefined;
}

function queryArgs(o: Operation, t: TypeInfo): string {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (k: string, type: string) => {
    if (!NAME.test(k) || seen.has(k)) return;
    seen.add(k);
    out.push(`${k}: ${type}`);
  };
  const custom = o.graphql && o.graphql.args;
  const p = propertiesOf((custom ? undefined : o.params) as Js | undefined);
  for (const [k, s] of Object.entries(p.props)) add(k, k === 'id' && t.hasId ? 'ID!' : typeOf(s, true, true));
  if (kindOf(o) === 'collection') {
    add('first', 'Int');
    add('last', 'Int');
    add('before', 'String');
    add('after', 'String');
  }
  const q = propertiesOf((custom || o.query) as Js | undefined);
  for (const [k, s] of Object.entries(q.props)) add(k, typeOf(s, q.required.has(k), true));
  return out.join(', ');
}

function mutationInput(o: Operation, t: TypeInfo): string {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (k: string, type: string) => {
    if (!NAME.test(k) || seen.has(k) || k === 'clientMutationId') return;
    seen.add(k);
    out.push(`  ${k}: ${type}`);
  };
  const custom = o.graphql && o.graphql.args;
  const p = propertiesOf((custom ? undefined : o.params) as Js | undefined);
  for (const [k, s] of Object.entries(p.props)) add(k, k === 'id' && t.hasId ? 'ID!' : typeOf(s, true, true));
  for (const part of custom ? [custom] : [o.query, o.body]) {
    const b = propertiesOf(part as Js | undefined);
    for (const [k, s] of Object.entries(b.props)) add(k, typeOf(s, b.required.has(k), true));
  }
  if (!out.length) out.push('  _empty: Boolean');
  return out.join('\n');
}

/** Splits GraphQL arguments onto the REST parts and checks them as REST checks a request. */
function inputOf(o: Operation, t: TypeInfo, args: Js): Omit<OpInput, 'page'> {
  if (o.graphql && o.graphql.input) {
    const mapped = o.graphql.input(args);
    return {
      params: mapped.params ? checkParams(o.params as object, mapped.params) : {},
      query: mapped.query ? checkParams((o.query ?? { type: 'object' }) as object, mapped.query) : {},
      body: o.body ? checkBody(o.body, mapped.body ?? {}) : undefined,
      headers: mapped.headers ?? {},
      ...(mapped.graphql ? { graphql: mapped.graphql } : {}),
    };
  }
  const pKeys = Object.keys((o.params as TObject | undefined)?.properties ?? {});
  const qKeys = new Set(Object.keys((o.query as TObject | undefined)?.properties ?? {}));
  const params: Js = {};
  const query: Js = {};
  const body: Js = {};
  for (const [k, v] of Object.entries(args)) {
    if (v === undefined || k === 'clientMutationId') continue;
    if (pKeys.includes(k)) {
      if (k === 'id' && t.hasId) {
        const id = idOfIri(v, t.iriBase);
        if (id === undefined) throw new AppError('not_found', `${t.name} not found`);
        params[k] = id;
      } else params[k] = v;
    } else if (qKeys.has(k) && !o.body) query[k] = v;
    else body[k] = v;
  }
  return {
    params: o.params ? checkParams(o.params, params) : {},
    query: o.query ? checkParams(o.query, query) : {},
    body: o.body ? checkBody(o.body, body) : undefined,
    headers: {},
  };
}

type Resolver = (parent: unknown, args: Js, context: GqlContext) => Promise<unknown>;

function run(o: Operation, ctx: Ctx, input: Omit<OpInput, 'page'>, page: Page): Promise<unknown> {
  return o.run(ctx, { ...input, page });
}

/**
 * Enforces the access rule and runs the declaration the arguments select (this one, or a sibling such as the
 * customer-cart twin of a guest-cart field), through its GraphQL-only `around` where it has one.
 */
function call(
  o: Operation,
  types: Map<string, TypeInfo>,
  ctx: Ctx,
  args: Js,
): Promise<{ target: Operation; input: Omit<OpInput, 'page'>; result: unknown; wrapped: boolean }> {
  const target = (o.graphql && o.graphql.select?.(args)) || o;
  authorize(ctx.actor, target.access);
  const t = types.get(target.shortName)!;
  let input: Omit<OpInput, 'page'> = { params: {}, query: {}, body: undefined, headers: {} };
  const next = async (a: Js) => {
    input = inputOf(target, t, a);
    return run(target, ctx, input, restPage(target, input.query));
  };
  const g = target.graphql || o.graphql;
  const wrapped = !!(g && g.around);
  const pending = g && g.around ? g.around(args, next, ctx) : next(args);
  return pending.then((result) => ({ target, input, result, wrapped }));
}

function itemResolver(o: Operation, types: Map<string, TypeInfo>): Resolver {
  return async (_parent, args, { ctx }) => (await call(o, types, ctx, args)).result;
}

function connectionResolver(o: Operation, t: TypeInfo): Resolver {
  const max = o.page?.maxSize ?? 100;
  return async (_parent, args, { ctx }) => {
    authorize(ctx.actor, o.access);
    const { first, last, before, after, ...rest } = args;
    const input = inputOf(o, t, rest);
    let page = restPage(o, input.query);
    const cursorPaging = first != null || last != null || before != null || after != null;
    if (o.page && cursorPaging) {
      for (const n of [first, last]) if (n != null && (!Number.isInteger(n) || n < 0)) throw new AppError('bad_request', 'first and last must be zero or more', { reason: 'VALIDATION_FAILED' });
      let offset = after != null ? offsetOf(after) + 1 : 0;
      let end = before != null ? offsetOf(before) : Number.POSITIVE_INFINITY;
      let size = Math.min(max, first ?? page.size);
      if (last != null) {
        if (!Number.isFinite(end)) {
          const probe = (await run(o, ctx, input, { page: 1, size: 1, offset: 0 })) as CollectionResult<unknown>;
          end = probe.total;
        }
        const from = Math.max(offset, end - Math.min(max, last));
        size = Math.min(size, end - from);
        offset = from;
      } else if (Number.isFinite(end)) size = Math.min(size, Math.max(0, end - offset));
      page = { page: Math.floor(offset / Math.max(1, size)) + 1, size: Math.max(0, size), offset };
      if (page.size === 0) {
        const probe = (await run(o, ctx, input, { page: 1, size: 1, offset: 0 })) as CollectionResult<unknown>;
        return connection([], probe.total, offset);
      }
    }
    const result = (await run(o, ctx, input, page)) as CollectionResult<unknown> | unknown[];
    if (Array.isArray(result)) return connection(result, result.length, 0);
    return connection(result.items, result.total, o.page ? page.offset : 0);
  };
}

function connection(items: unknown[], total: number, offset: number) {
  return {
    edges: items.map((node, i) => ({ node, cursor: cursorOf(offset + i) })),
    totalCount: total,
    pageInfo: {
      startCursor: items.length ? cursorOf(offset) : null,
      endCursor: items.length ? cursorOf(offset + items.length - 1) : null,
      hasNextPage: offset + items.length < total,
      hasPreviousPage: offset > 0,
    },
  };
}

function mutationResolver(o: Operation, t: TypeInfo, types: Map<string, TypeInfo>): Resolver {
  const key = lowerFirst(t.name);
  return async (_parent, args, { ctx }) => {
    const raw = (args.input ?? {}) as Js;
    const { target, input, result, wrapped } = await call(o, types, ctx, raw);
    // a delete answers the IRI of what it removed, unless its GraphQL twin answers more (the cart it changed)
    const node = kindOf(target) === 'none' && !wrapped ? { id: (input.params as Js).id ?? null } : result;
    return { [key]: node, clientMutationId: raw.clientMutationId ?? null };
  };
}
