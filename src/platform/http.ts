/**
 * The HTTP conventions, implemented once: validation, error rendering, the access hook that builds each
 * request's Ctx, HTTP caching (ETag, Cache-Control, Vary) and body parsing.
 */
import crypto from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifySchemaValidationError, FastifyReply, FastifyRequest } from 'fastify';
import { Ajv, type Options as AjvOptions } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { AppError, errorBody, fromDatabaseError } from './errors.js';
import { BODY_MAX_DEPTH, freeFormKeyword, jsonTooDeep } from './free-form.js';
import { authorize, type Access } from './auth/access.js';
import type { Actor, AppServices, Ctx, StoreContext } from './context.js';
import type { Db } from './db.js';
import type { TokenClaims } from './auth/tokens.js';

declare module 'fastify' {
  interface FastifyRequest {
    ctx: Ctx;
  }
  interface FastifyContextConfig {
    /** who may call the route; required on every API route */
    access?: Access;
    /** anonymous GETs may be cached publicly for an hour */
    publicCache?: boolean;
  }
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function validatorOf(coerceTypes: AjvOptions['coerceTypes']): Ajv {
  const ajv = addFormats(new Ajv({ allErrors: false, useDefaults: true, removeAdditional: true, strict: false, coerceTypes }));
  ajv.addKeyword({ keyword: 'x-wire', schemaType: 'string' });
  ajv.addKeyword(freeFormKeyword);
  return ajv;
}

/** Bodies are validated strictly (no type coercion; unknown keys dropped); query and path strings are coerced. */
const bodyAjv = validatorOf(false);
const paramsAjv = validatorOf('array');

export function installValidators(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }) =>
    lazyValidator(() => (httpPart === 'body' ? bodyAjv.compile(schema) : paramsAjv.compile(schema))),
  );
}

type Validate = ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null };

/**
 * A route's validator, compiled on the route's first request instead of at start: compiling the schemas of
 * every route up front is most of a start-up's time, and most routes of a given process are never called.
 */
function lazyValidator(compile: () => Validate): Validate {
  let compiled: Validate | undefined;
  const validate: Validate = (data) => {
    compiled ??= compile();
    const ok = compiled(data);
    validate.errors = compiled.errors;
    return ok;
  };
  return validate;
}

/**
 * Fastify's response serializer factory (fast-json-stringify), compiling each route's serializer on its first
 * answer, for the same reason as `lazyValidator`. Passed as `schemaController.compilersFactory.buildSerializer`.
 */
export const lazySerializers = (externalSchemas: unknown, options: Parameters<ReturnType<typeof SerializerSelector>>[1]) => {
  const build = SerializerSelector()(externalSchemas, options);
  return (route: Parameters<typeof build>[0]) => {
    let compiled: ((data: unknown) => string) | undefined;
    return (data: unknown) => (compiled ??= build(route))(data);
  };
};

/**
 * Checks a value against a body schema as a REST body is checked (for adapters other than REST); throws the
 * same 400 a REST request gets. Returns the value with unknown keys dropped and defaults applied.
 */
export function checkBody<T>(schema: object, value: unknown): T {
  const validate = bodyAjv.compile(schema);
  const copy = structuredClone(value);
  if (!validate(copy)) {
    throw validationError(
      Object.assign(new Error('body'), { validation: validate.errors ?? [], validationContext: 'body' }) as unknown as FastifyError,
    );
  }
  return copy as T;
}

/** Checks path or query values as REST checks them (strings coerced, defaults applied); throws the same 400. */
export function checkParams<T>(schema: object, value: unknown): T {
  const validate = paramsAjv.compile(schema);
  const copy = structuredClone(value);
  if (!validate(copy)) {
    throw validationError(
      Object.assign(new Error('querystring'), {
        validation: validate.errors ?? [],
        validationContext: 'querystring',
      }) as unknown as FastifyError,
    );
  }
  return copy as T;
}

interface AjvErrorLike {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}

function validationError(err: FastifyError): AppError {
  const first = (err.validation?.[0] ?? {}) as AjvErrorLike;
  const ctx = err.validationContext ?? 'body';
  let field = (first.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  if (first.keyword === 'required' && first.params?.missingProperty) {
    field = [field, String(first.params.missingProperty)].filter(Boolean).join('.');
  }
  const where = field ? `${field}` : ctx;
  let message: string;
  if (first.keyword === 'required') message = `${where} is required`;
  else if (first.keyword === 'type') message = `${where} must be ${String(first.params?.type ?? 'of another type')}`;
  else message = `${where} ${first.message ?? 'is invalid'}`;
  if (ctx === 'body' && !field && first.keyword === 'type') message = 'The request body must be a JSON object';
  return new AppError('bad_request', message, {
    reason: 'VALIDATION_FAILED',
    details: { field: field || ctx, constraint: first.keyword ?? 'invalid', in: ctx },
  });
}

/** Maps anything thrown to an AppError (unknown errors become a logged 500). */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const fe = err as FastifyError;
  if (fe && fe.validation) return validationError(fe);
  const db = fromDatabaseError(err);
  if (db) return db;
  switch (fe?.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('bad_request', 'Invalid JSON in request body', { reason: 'INVALID_JSON' });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large', 'Request body is too large', { reason: 'BODY_TOO_LARGE' });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('unsupported_media_type', 'Unsupported Content-Type; send application/json', {
        reason: 'UNSUPPORTED_MEDIA_TYPE',
      });
  }
  if (err instanceof SyntaxError && fe?.statusCode === 400) {
    return new AppError('bad_request', 'Invalid JSON in request body', { reason: 'INVALID_JSON' });
  }
  if (fe?.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    const kind = fe.statusCode === 404 ? 'not_found' : fe.statusCode === 415 ? 'unsupported_media_type' : 'bad_request';
    return new AppError(kind, fe.message || 'Bad request', { reason: fe.code ?? 'BAD_REQUEST' });
  }
  return new AppError('internal_server_error', 'An internal error occurred', { reason: 'INTERNAL' });
}

/**
 * Errors Fastify raises before routing (a malformed percent-encoding, a path parameter over the length
 * limit) rendered in the error shape. Passed as the `frameworkErrors` server option.
 */
export function frameworkErrorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const appErr =
    err.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new AppError('uri_too_long', 'A path segment is too long', { reason: 'URI_TOO_LONG' })
      : err.code === 'FST_ERR_BAD_URL'
        ? new AppError('bad_request', 'Malformed URL', { reason: 'BAD_URL' })
        : toAppError(err);
  req.log.debug({ err: err.message, code: err.code }, 'request refused before routing');
  reply.code(appErr.status).type('application/json; charset=utf-8').send(errorBody(appErr));
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err, req, reply) => {
    const appErr = toAppError(err);
    if (appErr.status >= 500) req.log.error({ err }, 'unhandled error');
    else req.log.debug({ err: appErr.message, reason: appErr.reason }, 'request refused');
    if (appErr.headers) reply.headers(appErr.headers);
    // a 401 body names no numeric code, as the wire reference records
    const body = errorBody(appErr);
    if (appErr.error === 'unauthorized' || appErr.error === 'authentication_error') delete body.code;
    reply.code(appErr.status).type('application/json; charset=utf-8').send(body);
  });
  // Fastify parses text/plain by default; the API speaks JSON (and forms on /auth/token) only
  app.removeContentTypeParser('text/plain');
  app.setNotFoundHandler((req, reply) => {
    reply.code(404).type('application/json; charset=utf-8').send({ error: 'not_found', message: 'Not Found', code: 404 });
  });
  // JSON, JSON-LD and merge-patch bodies: nested at most BODY_MAX_DEPTH levels, read before parsing
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    ['application/json', 'application/ld+json', 'application/merge-patch+json'],
    { parseAs: 'string' },
    (req, body, done) => {
      const deep = jsonTooDeep(String(body));
      if (deep) {
        const field = deep.field || undefined;
        const message = field
          ? `${field} is nested too deeply (a request body may nest at most ${BODY_MAX_DEPTH} levels)`
          : `The request body is nested too deeply (at most ${BODY_MAX_DEPTH} levels)`;
        const details = { field: field ?? 'body', constraint: 'maxDepth', in: 'body', maxDepth: BODY_MAX_DEPTH };
        return done(new AppError('bad_request', message, { reason: 'NESTED_TOO_DEEPLY', details }), undefined);
      }
      parseJson(req, String(body), done);
    },
  );
  // OAuth 2.0 clients post /auth/token as a form; every value is a string, so typed fields still get a 400
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
}

export interface AuthDeps {
  db: Db;
  services: AppServices;
  /** Turns verified claims into an actor, or throws 401 (revoked, inactive). */
  resolvePrincipal(db: Db, claims: TokenClaims): Promise<Actor>;
  /** Resolves ?store=/X-Store-Code and X-Currency-Code; throws 400 for unknown values. */
  resolveStore(storeCode: string | undefined, currencyCode: string | undefined): StoreContext;
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Builds request.ctx for every API request: the actor from the bearer token, the store context, and
 * the access rule of the route, enforced here and nowhere else.
 */
export function installContext(app: FastifyInstance, deps: AuthDeps): void {
  const anonymous: Actor = { kind: 'anonymous' };
  app.decorateRequest('ctx', null as unknown as Ctx);
  app.addHook('onRequest', async (req: FastifyRequest) => {
    const rule = req.routeOptions.config.access;
    if (!rule) return; // health, docs and other non-API routes
    let actor: Actor = anonymous;
    const auth = req.headers.authorization;
    if (auth !== undefined) {
      const isBearer = /^Bearer(?:\s|$)/i.test(auth);
      const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
      // other schemes (Basic client credentials on /auth/token) are not ours to judge here
      if (isBearer && !m) {
        throw new AppError('authentication_error', 'Malformed token', {
          reason: 'INVALID_TOKEN',
          headers: { 'www-authenticate': 'Bearer' },
        });
      }
      if (m) {
        const claims = await deps.services.tokens.verify(m[1]);
        actor = await deps.resolvePrincipal(deps.db, claims);
      }
    }
    const query = req.query as Record<string, unknown> | undefined;
    const storeParam = typeof query?.store === 'string' ? query.store : headerValue(req.headers['x-store-code']);
    const store = deps.resolveStore(storeParam, headerValue(req.headers['x-currency-code']));
    if (actor.kind === 'admin' && actor.allowedStoreIds && !actor.allowedStoreIds.includes(store.storeId)) {
      throw new AppError('forbidden', 'This token is not allowed in this store', { reason: 'STORE_NOT_ALLOWED' });
    }
    req.ctx = {
      db: deps.db,
      actor,
      store,
      now: new Date(),
      ip: req.ip,
      userAgent: headerValue(req.headers['user-agent']),
      log: req.log,
      app: deps.services,
    };
    authorize(actor, rule);
  });
}

/** A JSON body serialized and tagged once, for replies that are the same for every caller until their data changes. */
export interface PreparedJson {
  body: string;
  etag: string;
}

export function prepareJson(value: unknown): PreparedJson {
  const body = JSON.stringify(value);
  return { body, etag: etagOf(body) };
}

/** Sends a prepared body; the caching hook uses its ETag instead of hashing the body again. */
export function sendPrepared(reply: FastifyReply, prepared: PreparedJson): FastifyReply {
  return reply.header('etag', prepared.etag).type('application/json; charset=utf-8').send(prepared.body);
}

function etagOf(body: string | Buffer): string {
  return `"${crypto.createHash('md5').update(body).digest('hex')}"`;
}

const VARY = 'Authorization, Accept, X-Store-Code, X-Currency-Code';

/** ETag on 200 GET replies (304 on a matching If-None-Match) and the Cache-Control rules of the wire reference. */
export function installHttpCache(app: FastifyInstance): void {
  app.addHook('onSend', async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (!req.routeOptions.config.access) return payload;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      return payload;
    }
    const prior = reply.getHeader('vary');
    reply.header('vary', prior ? `${String(prior)}, ${VARY}` : VARY);
    const actor = req.ctx?.actor.kind ?? 'anonymous';
    if (!reply.hasHeader('cache-control')) {
      let cc: string;
      if (reply.statusCode >= 400) cc = 'no-store';
      else if (actor === 'admin') cc = 'no-store';
      else if (actor === 'customer') cc = 'private, no-cache';
      else if (req.routeOptions.config.publicCache) cc = req.ctx?.store.explicit ? 'private, max-age=3600' : 'public, max-age=3600';
      else cc = 'no-cache';
      reply.header('cache-control', cc);
    }
    if (reply.statusCode !== 200 || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) return payload;
    const given = reply.getHeader('etag');
    const etag = typeof given === 'string' ? given : etagOf(payload);
    if (given === undefined) reply.header('etag', etag);
    const inm = req.headers['if-none-match'];
    if (inm && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag || t.trim() === '*')) {
      reply.code(304);
      reply.removeHeader('content-length');
      return '';
    }
    return payload;
  });
}
