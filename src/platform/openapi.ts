/**
 * The OpenAPI document of the REST API, built by @fastify/swagger from the routes' own schemas. This module holds
 * what the route schemas do not say by themselves: the document's header, who may call each operation (from the
 * route's access rule), the error answer every operation shares, and how routes the document cannot express as
 * they are (a trailing wildcard) or that are not REST (HTML pages, the GraphQL endpoint) appear in it.
 * The document is checked by swagger-parser and the Redocly recommended rules (test/platform/openapi-valid.test.ts).
 */
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifySchema } from 'fastify';
import type { Access } from './auth/access.js';

/**
 * OpenAPI 3.1, not 3.0: the route schemas are TypeBox, i.e. JSON Schema 2020-12, which a 3.1 document takes as it
 * is (numeric `exclusiveMinimum`, `type: 'null'`, `const`, `patternProperties`). A 3.0 document needs every one of
 * them rewritten, and each rewrite missed is an invalid document and a schema that says something else than the
 * validator the server runs. @fastify/swagger writes its 3.1 forms (type arrays, no `nullable`) when told the
 * version, Swagger UI (5.x) renders 3.1, and openapi-typescript reads it.
 */
export const OPENAPI_VERSION = '3.1.0';

/** The name a trailing wildcard (`/media/*`) takes in the document, where a path parameter needs a name. */
export const WILDCARD_PARAM = 'path';

/** The body of every error answer (see errorBody in errors.ts). */
const ErrorBody = {
  type: 'object',
  required: ['error', 'message'],
  properties: {
    error: {
      type: 'string',
      description: 'machine-readable: the kind (bad_request, not_found, conflict, …) or a more specific code (invalid_credentials)',
    },
    message: { type: 'string', description: 'for people' },
    code: { type: 'integer', description: 'the HTTP status; absent on a 401' },
    details: {
      type: 'object',
      additionalProperties: true,
      description: 'what was refused, where the error says (a validation error names the field and constraint)',
    },
  },
};

const BEARER = [{ bearerAuth: [] }];

/**
 * An operation's security requirement from its access rule. An order-token route is public at the door: the
 * one-time X-Order-Token it takes is not a credential a client holds (it belongs to one order and is spent by the
 * first read), so it is a documented header parameter of that operation, not a security scheme Swagger UI would
 * send with every call.
 */
export function securityOf(rule: Access | undefined): Array<Record<string, string[]>> {
  if (!rule || rule.level === 'public' || rule.level === 'orderToken') return [];
  return BEARER;
}

type Params = { properties?: Record<string, unknown>; required?: string[] };

/** `/media/*` → `/media/:path` with the wildcard's schema under that name, so the document has a named parameter. */
function nameWildcard(url: string, schema: Record<string, unknown>): string {
  if (!url.endsWith('/*')) return url;
  const params = schema.params as Params | undefined;
  const wildcard = params?.properties?.['*'];
  if (!params || !wildcard || params.properties?.[WILDCARD_PARAM]) throw new Error(`${url}: the wildcard needs a '*' parameter schema`);
  const { '*': _, ...rest } = params.properties ?? {};
  schema.params = {
    ...params,
    properties: { ...rest, [WILDCARD_PARAM]: wildcard },
    required: [...(params.required ?? []).filter((n) => n !== '*'), WILDCARD_PARAM],
  };
  return `${url.slice(0, -1)}:${WILDCARD_PARAM}`;
}

const isOperation = (method: string) => ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'].includes(method);

/** `webhooks`: the document's webhooks object (the outbound events), which the platform does not know itself. */
export function openapiOptions(apiPrefix: string, extra: { webhooks?: Record<string, unknown> } = {}): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: OPENAPI_VERSION,
      info: { title: 'Commerce REST API', version: '2.0.0', description: 'REST API v2: catalog, carts, checkout, orders and back office.' },
      servers: [{ url: '/' }],
      ...(extra.webhooks ? { webhooks: extra.webhooks as never } : {}),
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
        schemas: { Error: ErrorBody as never },
        responses: {
          Error: {
            description: 'Refused: the body says why',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
        },
      },
    },
    hideUntagged: false,
    transform: ({ schema, url, route }) => {
      const s = { ...(schema ?? {}) } as Record<string, unknown>;
      // the document describes the REST API; the GraphQL endpoint describes itself and the revocation form is a page
      if (!url.startsWith(apiPrefix)) return { schema: { ...s, hide: true } as FastifySchema, url };
      s.security = securityOf(route.config?.access);
      return { schema: s as FastifySchema, url: nameWildcard(url, s) };
    },
    transformObject: (documentObject) => {
      const doc = ('openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject) as {
        paths?: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
      };
      // every operation may be refused (validation, a missing token, a missing resource, a rate limit), always in
      // the one error shape; routes that declare their own 4xx answers keep them
      for (const item of Object.values(doc.paths ?? {})) {
        for (const [method, op] of Object.entries(item)) {
          if (!isOperation(method)) continue;
          op.responses ??= {};
          if (!Object.keys(op.responses).some((code) => /^4(\d\d|XX)$/i.test(code)))
            op.responses['4XX'] = { $ref: '#/components/responses/Error' };
        }
      }
      return doc as never;
    },
  };
}
