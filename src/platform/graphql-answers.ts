/**
 * GraphQL answers sent again as they were serialized, as REST sends a cached page's members: a query whose root
 * fields answer data a per-process cache shares between requests (a product page read by anonymous shoppers)
 * is executed and serialized once per cached answer, then sent as that text while the cache answers the same
 * objects.
 *
 * What makes it exact: an answer is a function of the document, the variables, and what the root fields'
 * resolvers return, when every field below them is read by a pure resolver (the default property read, the
 * derived `id`/`_id`). So:
 * - a POST body's query text gets a plan once a request has executed it without errors: its root fields, all of
 *   them `rootField`s, with selections of pure fields only (a plan is never made for a mutation, a query with
 *   another kind of root field, an interface or a union);
 * - the arguments its root fields were given with those variables are kept with the plan: the document parsed,
 *   validated, within the limits (depth, aliases, cost with these variables) and executed with them before;
 * - a request with such a query text and variables runs its root resolvers first, with the arguments kept (the
 *   access rule and the cache's version read run as always); when each returns an object answered before
 *   (`answeredBefore`: a connection over the very items a cache keeps) and an answer was serialized for these
 *   objects, that text is the reply. Otherwise the request goes on through the GraphQL endpoint as any other,
 *   whose root resolvers take the values (or errors) already computed instead of running again.
 * A resolver error, a null in a non-null field or any other error is never kept: only answers without errors
 * are, and those come out the same each time from the same objects.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  getNamedType,
  getOperationAST,
  isObjectType,
  Kind,
  parse,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';

type Js = Record<string, any>;

/** A resolver as graphql-js and graphql-jit call it. */
export type FieldResolver = (parent: unknown, args: Js, context: Js, info?: { path?: { key: string | number } }) => unknown;

/** The root fields of one execution: what was computed ahead of it, and what each root field took and answered. */
export class RootCalls {
  /** the root fields' answers computed before the execution, by response key */
  readonly ahead = new Map<string, Promise<unknown>>();
  /** the arguments and answer of each root field executed, by response key */
  readonly calls = new Map<string, { args: Js; value?: unknown; settled: boolean }>();
}

/** The resolvers whose answers are a pure function of the parent value and the arguments (`id`, `_id`). */
const pureResolvers = new WeakSet<object>();

/** Marks a field resolver as pure: it reads its parent value and arguments only. */
export function pure<F extends (...a: any[]) => unknown>(resolve: F): F {
  pureResolvers.add(resolve);
  return resolve;
}

/** The root field resolvers that may answer ahead of an execution: wrapped → the resolver itself. */
const rootFields = new WeakMap<object, FieldResolver>();

/**
 * A root field whose resolver may run before its request's execution (it uses the arguments and `context.ctx`
 * alone) and whose answer, when `answeredBefore` says so, is kept serialized. The wrapper takes the answer
 * computed ahead when there is one and records what the field took and answered.
 */
export function rootField<F extends FieldResolver>(resolve: F): FieldResolver {
  const wrapped: FieldResolver = (parent, args, context, info) => {
    const calls = context?.answers as RootCalls | undefined;
    const key = info?.path?.key;
    if (!calls || typeof key !== 'string') return resolve(parent, args, context, info);
    let pending = calls.ahead.get(key);
    if (pending) calls.ahead.delete(key);
    else pending = Promise.resolve(resolve(parent, args, context, info));
    const call: { args: Js; value?: unknown; settled: boolean } = { args, settled: false };
    calls.calls.set(key, call);
    return pending.then((value) => {
      call.value = value;
      call.settled = true;
      return value;
    });
  };
  rootFields.set(wrapped, resolve);
  return wrapped;
}

interface PlanField {
  key: string;
  resolve: FieldResolver;
}

interface Answer {
  values: unknown[];
  json: string;
}

interface Plan {
  /** names the plan in the keys of its answers */
  id: number;
  fields: PlanField[];
  /** the root fields' arguments by run (the variables) the operation was executed with */
  runs: Map<string, Js[]>;
}

/** query texts with a plan (null: none can be made), and the longest query text given one */
const MAX_PLANS = 512;
const MAX_QUERY_LENGTH = 16 * 1024;
/** runs kept per plan (and operations per query text), and the longest run key (the variables' JSON) kept */
const MAX_RUNS = 32;
const MAX_RUN_KEY_LENGTH = 1024;
/** answers kept per object a root field answered, and the text kept before all are dropped to start again */
const MAX_ANSWERS_PER_OBJECT = 8;
const MAX_KEPT_CHARS = 32 * 1024 * 1024;

/** Keeps `value` under `key` in a map bounded to `max` entries, dropping the oldest. */
function keep<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  if (!map.has(key) && map.size >= max) map.delete(map.keys().next().value as K);
  map.set(key, value);
}

/** Whether a field of `type` selected by `set` (with its fragments) reads only through pure resolvers. */
function pureSelection(
  set: SelectionSetNode,
  type: GraphQLNamedType,
  fragments: Map<string, FragmentDefinitionNode>,
  schema: GraphQLSchema,
  seen = new Set<string>(),
): boolean {
  if (!isObjectType(type)) return false;
  const fields = type.getFields();
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      const name = sel.name.value;
      if (name === '__typename') continue;
      const def = fields[name];
      if (!def || (def.resolve && !pureResolvers.has(def.resolve))) return false;
      const named = getNamedType(def.type);
      if (sel.selectionSet) {
        if (!pureSelection(sel.selectionSet, named, fragments, schema, seen)) return false;
      } else if (isObjectType(named)) return false;
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      const on: GraphQLNamedType | null | undefined = sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : type;
      if (on !== type || !pureSelection(sel.selectionSet, type, fragments, schema, seen)) return false;
    } else {
      const name = sel.name.value;
      const fragment = fragments.get(name);
      if (!fragment || schema.getType(fragment.typeCondition.name.value) !== type) return false;
      if (seen.has(name)) continue;
      seen.add(name);
      if (!pureSelection(fragment.selectionSet, type, fragments, schema, seen)) return false;
    }
  }
  return true;
}

let plansMade = 0;

/** The plan of a document's operation, or null when its answers cannot be kept (see the file's comment). */
function planOf(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined): Plan | null {
  const op = getOperationAST(document, operationName);
  const query = schema.getQueryType();
  if (!op || op.operation !== 'query' || !query) return null;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const fields: PlanField[] = [];
  const keys = new Set<string>();
  for (const sel of op.selectionSet.selections) {
    if (sel.kind !== Kind.FIELD || sel.directives?.length) return null;
    const key = sel.alias?.value ?? sel.name.value;
    const def = query.getFields()[sel.name.value];
    const resolve = def?.resolve && rootFields.get(def.resolve);
    if (!resolve || keys.has(key) || !sel.selectionSet) return null;
    if (!pureSelection(sel.selectionSet, getNamedType(def.type), fragments, schema)) return null;
    keys.add(key);
    fields.push({ key, resolve });
  }
  return fields.length ? { id: ++plansMade, fields, runs: new Map() } : null;
}

interface GraphqlBody {
  query: string;
  operationName?: string | null;
  variables?: unknown;
}

/** The POST body of a query the endpoint executes as it is (a batch or anything but source text is not). */
function bodyOf(req: FastifyRequest): GraphqlBody | undefined {
  if (req.method !== 'POST' || req.validationError) return undefined;
  const body = req.body as Js | null | undefined;
  if (!body || typeof body !== 'object' || Array.isArray(body) || typeof body.query !== 'string') return undefined;
  return body as GraphqlBody;
}

/** The variables, as a key (in the order the client wrote them). */
function runKeyOf(body: GraphqlBody): string {
  return body.variables === undefined ? '' : JSON.stringify(body.variables);
}

/** Calls a resolver, a throw becoming a rejected promise, as an execution would take it. */
function invoke(resolve: FieldResolver, args: Js, context: Js): Promise<unknown> {
  try {
    return Promise.resolve(resolve(undefined, args, context));
  } catch (err) {
    return Promise.reject(err);
  }
}

export interface AnswerMemo {
  /** the `answers` entry of a request's GraphQL context */
  callsOf(req: FastifyRequest): RootCalls;
  /** the route's preHandler: answers a known query from a kept answer, or computes its root fields ahead */
  preHandler(req: FastifyRequest, reply: FastifyReply): Promise<unknown>;
  /** the route's preSerialization hook: makes the plan of a query that answered without errors, keeps its answer */
  preSerialization(req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown>;
}

/**
 * The answers of the endpoint of `schema()`. `answeredBefore(value)` says whether a root field's answer is an
 * object answered before and kept unchanged (a connection over a cached page's items): only answers made of
 * those are kept.
 */
export function answerMemo(schema: () => GraphQLSchema, answeredBefore: (value: unknown) => boolean): AnswerMemo {
  /** by query text, then operation name */
  const plans = new Map<string, Map<string, Plan | null>>();
  const requests = new WeakMap<FastifyRequest, RootCalls>();
  /**
   * The answers kept, by the first root field's answer, then by plan and run. They go with the object (a page the
   * cache drops), at most MAX_ANSWERS_PER_OBJECT each; past MAX_KEPT_CHARS kept since the last start, all go.
   */
  let answers = new WeakMap<object, Map<string, Answer>>();
  let keptChars = 0;

  const callsOf = (req: FastifyRequest): RootCalls => {
    let calls = requests.get(req);
    if (!calls) {
      calls = new RootCalls();
      requests.set(req, calls);
    }
    return calls;
  };

  return {
    callsOf,

    async preHandler(req, reply) {
      const body = bodyOf(req);
      const plan = body && plans.get(body.query)?.get(body.operationName ?? '');
      if (!body || !plan) return undefined;
      const runKey = runKeyOf(body);
      const args = plan.runs.get(runKey);
      if (!args) return undefined;
      const calls = callsOf(req);
      const context = { ctx: req.ctx };
      const pending = plan.fields.map((f, i) => {
        const p = invoke(f.resolve, structuredClone(args[i]), context);
        calls.ahead.set(f.key, p);
        return p;
      });
      let values: unknown[];
      try {
        values = await Promise.all(pending);
      } catch {
        // the execution answers the error, from the same rejected promises
        return undefined;
      }
      const first = values[0];
      const answer = first !== null && typeof first === 'object' ? answers.get(first)?.get(`${plan.id}:${runKey}`) : undefined;
      if (!answer || answer.values.some((v, i) => v !== values[i])) return undefined;
      return reply.type('application/json; charset=utf-8').send(answer.json);
    },

    async preSerialization(req, reply, payload) {
      const calls = requests.get(req);
      if (!calls?.calls.size || reply.statusCode !== 200) return payload;
      const result = payload as { data?: unknown; errors?: unknown; extensions?: unknown } | null;
      if (!result || result.errors !== undefined || result.extensions !== undefined || !result.data) return payload;
      const body = bodyOf(req);
      if (!body) return payload;
      if (body.query.length > MAX_QUERY_LENGTH) return payload;
      let ofQuery = plans.get(body.query);
      if (!ofQuery) {
        ofQuery = new Map();
        keep(plans, body.query, ofQuery, MAX_PLANS);
      }
      const operationName = body.operationName ?? '';
      let plan = ofQuery.get(operationName);
      if (plan === undefined) {
        try {
          plan = planOf(schema(), parse(body.query, { noLocation: true }), operationName || undefined);
        } catch {
          plan = null;
        }
        keep(ofQuery, operationName, plan, MAX_RUNS);
      }
      if (!plan || plan.fields.length !== calls.calls.size) return payload;
      const recorded = plan.fields.map((f) => calls.calls.get(f.key));
      if (recorded.some((c) => !c?.settled)) return payload;
      const runKey = runKeyOf(body);
      if (runKey.length > MAX_RUN_KEY_LENGTH) return payload;
      if (!plan.runs.has(runKey)) {
        keep(
          plan.runs,
          runKey,
          recorded.map((c) => structuredClone(c!.args)),
          MAX_RUNS,
        );
      }
      const values = recorded.map((c) => c!.value);
      const first = values[0];
      if (first === null || typeof first !== 'object' || !values.every(answeredBefore)) return payload;
      const json = reply.serialize(payload) as string;
      keptChars += json.length;
      if (keptChars > MAX_KEPT_CHARS) {
        answers = new WeakMap();
        keptChars = json.length;
      }
      let kept = answers.get(first);
      if (!kept) {
        kept = new Map();
        answers.set(first, kept);
      }
      keep(kept, `${plan.id}:${runKey}`, { values, json }, MAX_ANSWERS_PER_OBJECT);
      return payload;
    },
  };
}
