/**
 * A test-only write route for the idempotency tests, added to a built app before its first request (Fastify
 * accepts routes until the app is ready). It counts how often its handler really ran, answers with a fresh
 * random id (so a replay is recognisable byte for byte), fails on request, and can be held open by a gate
 * to keep a first request "in flight".
 */
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { access } from '../../src/platform/auth/access.js';
import { badRequest } from '../../src/platform/errors.js';

export const PROBE_PATH = '/api/rest/v2/test-probe';

export interface Probe {
  /** handler runs that completed */
  applied: number;
  /** holds the next handler run until release() is called; resolves once that run has started */
  hold(): { started: Promise<void>; release(): void };
}

export function addProbeRoute(app: FastifyInstance): Probe {
  let gate: { start: () => void; wait: Promise<void> } | undefined;
  const probe: Probe = {
    applied: 0,
    hold() {
      let start!: () => void;
      let release!: () => void;
      const started = new Promise<void>((r) => (start = r));
      const wait = new Promise<void>((r) => (release = r));
      gate = { start, wait };
      return { started, release };
    },
  };
  app.post(
    `${PROBE_PATH}/:name`,
    {
      schema: {
        operationId: 'test.probe',
        params: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        body: {
          type: 'object',
          properties: { fail: { type: 'string', enum: ['client', 'server'] } },
          additionalProperties: false,
        },
        response: {
          201: {
            type: 'object',
            properties: { name: { type: 'string' }, applied: { type: 'integer' }, nonce: { type: 'string' } },
          },
        },
      },
      config: { access: access.authenticated },
    },
    async (req, reply) => {
      const { name } = req.params as { name: string };
      const { fail } = req.body as { fail?: 'client' | 'server' };
      const g = gate;
      gate = undefined;
      if (g) {
        g.start();
        await g.wait;
      }
      if (fail === 'client') throw badRequest('The probe was asked to fail', { reason: 'PROBE_FAILED' });
      if (fail === 'server') throw new Error('probe crashed on purpose');
      probe.applied += 1;
      return reply.code(201).send({ name, applied: probe.applied, nonce: crypto.randomUUID() });
    },
  );
  return probe;
}
