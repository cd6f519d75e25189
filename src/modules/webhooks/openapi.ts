/**
 * The events in the OpenAPI document's `webhooks` section: for each event the modules declare, the request a
 * receiver gets, with the envelope and the declared payload schema (the resource as REST shows it) as `data`,
 * and the Standard Webhooks headers.
 */
import { Type, type TSchema } from 'typebox';
import type { EventDeclaration } from '../../platform/events.js';
import { PING } from './patterns.js';

function envelope(type: string, data: TSchema): TSchema {
  return Type.Object({
    id: Type.String({ description: 'the event id (evt_<sequence>), also the webhook-id header; the same on every retry' }),
    type: Type.Literal(type),
    createdAt: Type.String({ format: 'date-time' }),
    storeCode: Type.Union([Type.String(), Type.Null()], {
      description: 'the store view of the resource; null for what every store view shares (products, stock)',
    }),
    sequence: Type.Integer({ description: 'grows with every event: of two events of one resource, the higher is the later change' }),
    data,
  });
}

const header = (name: string, description: string) => ({ name, in: 'header', required: true, schema: { type: 'string' }, description });

function entry(type: string, summary: string, data: TSchema) {
  return {
    post: {
      operationId: `webhook.${type}`,
      summary,
      // the receiver authenticates the sender by the signature, not by a bearer token
      security: [],
      description: `Sent to subscriptions whose events name \`${type}\` (or a wildcard covering it). Any 2xx answer acknowledges it; anything else, or no answer within the timeout, is retried with exponential backoff for 24 hours.`,
      tags: ['webhooks'],
      parameters: [
        header('webhook-id', 'the event id'),
        header('webhook-timestamp', 'seconds since the epoch when this attempt was signed'),
        header(
          'webhook-signature',
          'v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>" keyed with the subscription secret>; two space-separated entries while a rotated-out secret is still valid',
        ),
      ],
      requestBody: { required: true, content: { 'application/json': { schema: envelope(type, data) } } },
      responses: { '2XX': { description: 'Received' } },
    },
  };
}

/** The document's `webhooks` object: every declared event, with its payload schema, and the ping. */
export function webhookDocs(events: ReadonlyMap<string, EventDeclaration>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [type, declared] of events) out[type] = entry(type, declared.description, declared.payload);
  out[PING] = entry(
    PING,
    'A test event sent by POST /webhooks/{id}/ping',
    Type.Object({ webhookId: Type.Integer(), url: Type.String(), message: Type.String() }),
  );
  return out;
}
