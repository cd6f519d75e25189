/**
 * The resolvers of the GraphQL fields derived from the operation declarations (graphql-derive.ts builds the
 * schema): each maps its arguments onto the REST parts, checks them as REST checks a request, enforces the
 * declared access rule and calls the declaration's `run`, as the REST route does.
 */
import type { TObject } from 'typebox';
import { authorize } from './auth/access.js';
import { listConnection, pagedConnection, type ConnectionArgs } from './connection.js';
import type { Ctx } from './context.js';
import { AppError } from './errors.js';
import type { GqlContext } from './graphql.js';
import { rootField } from './graphql-answers.js';
import { checkBody, checkParams } from './http.js';
import { kindOf, restPage, runOperation, type GraphqlAlias, type Operation, type OpInput } from './operations.js';
import type { CollectionResult, Page } from './pagination.js';

type Js = Record<string, any>;

/** What the schema derivation knows of a GraphQL object type that the resolvers need. */
export interface TypeInfo {
  name: string;
  fields: Map<string, string>;
  /** IRI of an item: the item path of its read, or of its collection */
  iriBase?: string;
  hasId: boolean;
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

/** Splits GraphQL arguments onto the REST parts (by the field's own mapping, if it has one) and checks them as REST does. */
function inputOf(o: Operation, t: TypeInfo, args: Js, mapping: GraphqlAlias['input']): Omit<OpInput, 'page'> {
  if (mapping) {
    const mapped = mapping(args);
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

/** How one GraphQL name of a declaration takes its arguments. */
export interface FieldShape {
  /** maps the arguments onto the REST parts (an alias's own, else the declaration's `graphql.input`) */
  input?: GraphqlAlias['input'];
  /** a mutation whose input fields may also be given flat, beside an optional `input` */
  flat?: boolean;
}

function mappingOf(target: Operation, o: Operation, field: FieldShape): GraphqlAlias['input'] {
  if (target === o) return field.input;
  return (target.graphql && target.graphql.input) || undefined;
}

/**
 * Enforces the access rule and runs the declaration the arguments select (this one, or a sibling such as the
 * customer-cart twin of a guest-cart field), through its GraphQL-only `around` where it has one.
 */
function call(
  o: Operation,
  types: Map<string, TypeInfo>,
  field: FieldShape,
  ctx: Ctx,
  args: Js,
): Promise<{ target: Operation; input: Omit<OpInput, 'page'>; result: unknown; wrapped: boolean }> {
  const target = (o.graphql && o.graphql.select?.(args)) || o;
  authorize(ctx.actor, target.access);
  const t = types.get(target.shortName)!;
  let input: Omit<OpInput, 'page'> = { params: {}, query: {}, body: undefined, headers: {} };
  const next = async (a: Js) => {
    input = inputOf(target, t, a, mappingOf(target, o, field));
    return runOperation(target, ctx, { ...input, page: restPage(target, input.query) }, 'graphql');
  };
  const g = target.graphql || o.graphql;
  const wrapped = !!(g && g.around);
  const pending = g && g.around ? g.around(args, next, ctx) : next(args);
  return pending.then((result) => ({ target, input, result, wrapped }));
}

export function itemResolver(o: Operation, types: Map<string, TypeInfo>, field: FieldShape): Resolver {
  return async (_parent, args, { ctx }) => (await call(o, types, field, ctx, args)).result;
}

/**
 * A Relay connection over a collection declaration: a paginated one is read one window at a time (the REST page
 * arguments give the window when no cursor argument does); an unpaginated one is read whole and windowed.
 */
export function connectionResolver(o: Operation, types: Map<string, TypeInfo>, field: FieldShape): Resolver {
  const t = types.get(o.shortName)!;
  const maxSize = o.page?.maxSize ?? 100;
  // it reads its arguments and the request's ctx alone: it may run ahead of the execution (graphql-answers.ts)
  return rootField(async (_parent: unknown, args: Js, context: Js) => {
    const { ctx } = context as GqlContext;
    authorize(ctx.actor, o.access);
    const { first, last, before, after, ...rest } = args as ConnectionArgs & Js;
    const window: ConnectionArgs = { first, last, before, after };
    const input = inputOf(o, t, rest, mappingOf(o, o, field));
    const read = async (page: Page) => (await o.run(ctx, { ...input, page })) as CollectionResult<unknown> | unknown[];
    if (!o.page) {
      const all = await read(restPage(o, input.query));
      return listConnection(Array.isArray(all) ? all : all.items, window);
    }
    const page = restPage(o, input.query);
    return pagedConnection(
      window,
      async (s) => {
        const r = await read({ page: Math.floor(s.offset / Math.max(1, s.size)) + 1, size: s.size, offset: s.offset });
        return Array.isArray(r) ? { items: r, total: r.length } : r;
      },
      { page, maxSize },
    );
  }) as Resolver;
}

/** A mutation: `{ <type>: <answer>, clientMutationId }`, or `{ <list>: [...] }` for a declaration whose payload is a list. */
export function mutationResolver(o: Operation, types: Map<string, TypeInfo>, field: FieldShape, key: string): Resolver {
  const list = (o.graphql && o.graphql.list) || undefined;
  return async (_parent, args, { ctx }) => {
    const raw = field.flat ? flatInput(args) : ((args.input ?? {}) as Js);
    const { target, input, result, wrapped } = await call(o, types, field, ctx, raw);
    if (list) return { [list]: (result as CollectionResult<unknown>).items, clientMutationId: raw.clientMutationId ?? null };
    // a delete answers the IRI of what it removed, unless its GraphQL twin answers more (the cart it changed)
    const node = kindOf(target) === 'none' && !wrapped ? { id: (input.params as Js).id ?? null } : result;
    return { [key]: node, clientMutationId: raw.clientMutationId ?? null };
  };
}

/** The arguments of a field that takes them flat as well as in `input` (those in `input` win). */
function flatInput(args: Js): Js {
  const { input, ...flat } = args;
  return { ...flat, ...((input as Js | null | undefined) ?? {}) };
}
