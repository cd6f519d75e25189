/**
 * The Fastify instance REST routes are registered on, typed by their TypeBox schemas. Its own file so that
 * module.ts and operations.ts, which both need it, do not import each other.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';

export type RestApp = FastifyInstance<Server, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;
