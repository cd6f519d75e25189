/**
 * The GraphQL endpoint at /api/graphql, serving the schema and resolvers derived from the operation declarations
 * (graphql-derive.ts); each resolver enforces its declaration's access rule and runs it as its REST route does.
 */
import type { FastifyInstance } from 'fastify';
import mercurius, { type IResolvers, type MercuriusContext } from 'mercurius';
import { buildSchema, GraphQLError, GraphQLScalarType, Location, NoSchemaIntrospectionCustomRule, valueFromASTUntyped } from 'graphql';
import { answeredBefore } from './connection.js';
import type { Ctx } from './context.js';
import { freeFormProblem } from './free-form.js';
import { answerMemo, type RootCalls } from './graphql-answers.js';
import { costCheck, GRAPHQL_LIMITS, limitsRule, type GraphqlLimits, type GraphqlPageSizes } from './graphql-limits.js';
import { toAppError } from './http.js';

export interface GraphqlContribution {
  typeDefs: string;
  resolvers: IResolvers;
  /** the page sizes of its list fields, by `Type.field`: a list's items are counted by them in the query cost */
  pageSizes?: GraphqlPageSizes;
}

export interface GqlContext extends MercuriusContext {
  ctx: Ctx;
  /** the root fields this execution ran or took computed ahead (graphql-answers.ts) */
  answers?: RootCalls;
}

const BASE = `
  scalar JSON
  "any JSON value: API Platform's name for array and object fields"
  scalar Iterable
  type Query { apiVersion: String! }
  type Mutation { ping: Boolean! }
`;

export const GRAPHQL_PATH = '/api/graphql';

/** Any JSON value; as an input (variable or literal) it keeps the free-form limits of REST bodies. */
export const jsonScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value',
  serialize: (v) => v,
  parseValue: (v) => freeFormInput(v),
  parseLiteral: (ast, variables) => freeFormInput(valueFromASTUntyped(ast, variables)),
});

/** The same JSON scalar under API Platform's name. */
export const iterableScalar = new GraphQLScalarType({
  ...jsonScalar.toConfig(),
  name: 'Iterable',
  description: 'Any JSON value (an array or object field)',
});

function freeFormInput(v: unknown): unknown {
  const problem = freeFormProblem(v);
  if (problem) throw new GraphQLError(`A JSON value ${problem}`, { extensions: { code: 'BAD_USER_INPUT', status: 400 } });
  return v;
}

/** Deepest nesting of braces and brackets a query document may have; graphql-js parses them recursively. */
export const GRAPHQL_MAX_DEPTH = 64;

/**
 * The nesting of `{` and `[` in a GraphQL document (selection sets, object and list values, list types),
 * outside strings, block strings and comments, read without parsing it and counted only up to `stop`.
 */
export function documentDepth(source: string, stop = GRAPHQL_MAX_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  const n = source.length;
  for (let i = 0; i < n; i++) {
    const c = source.charCodeAt(i);
    if (c === 35) {
      // # comment, to the end of the line
      while (i < n && source.charCodeAt(i) !== 10 && source.charCodeAt(i) !== 13) i++;
    } else if (c === 34) {
      if (source.startsWith('"""', i)) {
        // block string: ends at the next """ that is not escaped as \"""
        i += 3;
        while (i < n && !source.startsWith('"""', i)) i += source.startsWith('\\"""', i) ? 4 : 1;
        i += 2;
      } else {
        i++;
        while (i < n && source.charCodeAt(i) !== 34 && source.charCodeAt(i) !== 10) i += source.charCodeAt(i) === 92 ? 2 : 1;
      }
    } else if (c === 123 || c === 91) {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > stop) return deepest;
      }
    } else if (c === 125 || c === 93) depth--;
  }
  return deepest;
}

/** HTTP statuses a refusal of the whole request keeps (field errors, parse and validation errors stay 200). */
const REQUEST_STATUSES = new Set([401, 413, 415, 429]);

/** Only GraphQL source text is executed: Mercurius would take a query that parses as JSON for a raw AST. */
function assertParsedSource(document: unknown): void {
  if (!document || typeof document !== 'object' || !((document as { loc?: unknown }).loc instanceof Location)) {
    throw new GraphQLError('Syntax Error: the query must be GraphQL source text', {
      extensions: { code: 'GRAPHQL_PARSE_FAILED', status: 400 },
    });
  }
}

const SUGGESTION = /\s*Did you mean [^?]*\?/g;

/**
 * An error without graphql-js's "Did you mean …?" hints: where introspection is off they would spell out the
 * schema one misspelled name at a time.
 */
function withoutSuggestions(e: GraphQLError): GraphQLError {
  const message = e.message.replace(SUGGESTION, '');
  if (message === e.message) return e;
  return new GraphQLError(message, { nodes: e.nodes, source: e.source, positions: e.positions, path: e.path, extensions: e.extensions });
}

export interface GraphqlOptions {
  /** schema introspection (`__schema`, `__type`) */
  introspection: boolean;
  limits?: GraphqlLimits;
}

export async function installGraphql(app: FastifyInstance, parts: GraphqlContribution[], opts: GraphqlOptions): Promise<void> {
  const limits = opts.limits ?? GRAPHQL_LIMITS;
  const resolvers: IResolvers = {
    JSON: jsonScalar,
    Iterable: iterableScalar,
    Query: { apiVersion: () => '2' },
    Mutation: { ping: () => true },
  };
  for (const part of parts) {
    for (const [type, fields] of Object.entries(part.resolvers)) {
      resolvers[type] = { ...((resolvers[type] as object) ?? {}), ...(fields as object) };
    }
  }
  // a query answered from a cache shared between requests is serialized once per cached answer
  const answers = answerMemo(() => app.graphql.schema, answeredBefore);
  await app.register(mercurius, {
    // parsed without source locations: the schema's syntax tree is kept for the process's life, and its tokens
    // and locations were most of it
    schema: buildSchema([BASE, ...parts.map((p) => p.typeDefs)].join('\n'), { noLocation: true }),
    resolvers,
    path: GRAPHQL_PATH,
    graphiql: false,
    jit: 1,
    validationRules: [limitsRule(limits), ...(opts.introspection ? [] : [NoSchemaIntrospectionCustomRule])],
    context: (req) => ({ ctx: req.ctx, answers: answers.callsOf(req) }),
    additionalRouteOptions: { preHandler: answers.preHandler, preSerialization: answers.preSerialization },
    errorFormatter: (execution, context) => {
      let statusCode = 200;
      const errors = (execution.errors ?? []).flatMap((e): GraphQLError[] => {
        // refused before execution (a bad token, a body too large): the whole request keeps the HTTP status
        const raw = e instanceof GraphQLError ? e.originalError : e;
        if (raw && !(raw instanceof GraphQLError) && execution.data === undefined) {
          const refusal = toAppError(raw);
          if (REQUEST_STATUSES.has(refusal.status)) statusCode = refusal.status;
        }
        const original = (e as GraphQLError).originalError;
        // a query that does not parse or validate: Mercurius wraps graphql-js's own errors; report those
        const inner = (original as { errors?: unknown } | undefined)?.errors;
        if (Array.isArray(inner) && inner.every((x) => x instanceof GraphQLError)) {
          return inner.map(
            (x: GraphQLError) =>
              new GraphQLError(x.message, {
                nodes: x.nodes,
                source: x.source,
                positions: x.positions,
                extensions: { code: /^Syntax Error/.test(x.message) ? 'GRAPHQL_PARSE_FAILED' : 'GRAPHQL_VALIDATION_FAILED', status: 400 },
              }),
          );
        }
        if (!original || original instanceof GraphQLError) return [e];
        const appErr = toAppError(original);
        if (appErr.status >= 500) context.reply?.log.error({ err: original }, 'graphql resolver failed');
        return [
          new GraphQLError(appErr.message, {
            nodes: e.nodes,
            path: e.path,
            extensions: { code: appErr.reason, status: appErr.status, ...(appErr.details ? { details: appErr.details } : {}) },
          }),
        ];
      });
      return {
        statusCode,
        response: { data: execution.data ?? null, errors: opts.introspection ? errors : errors.map(withoutSuggestions) },
      };
    },
  });
  // a document nested thousands deep would overflow the parser's stack: it is refused before it is parsed
  app.graphql.addHook('preParsing', async (_schema, source) => {
    if (documentDepth(source) > GRAPHQL_MAX_DEPTH) {
      throw new GraphQLError(`The query is nested too deeply (at most ${GRAPHQL_MAX_DEPTH} levels of braces and brackets)`, {
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED', status: 400 },
      });
    }
    if (Buffer.byteLength(source) > limits.documentBytes) {
      throw new GraphQLError(`The query document is larger than ${limits.documentBytes} bytes`, {
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED', status: 400 },
      });
    }
  });
  app.graphql.addHook('preValidation', async (_schema, document) => assertParsedSource(document));
  // the cost weighs each list by the page it asks for, which a variable may give: checked with the variables' values
  app.graphql.addHook('preExecution', costCheck(limits, new Map(parts.flatMap((p) => [...(p.pageSizes ?? [])]))));
}
