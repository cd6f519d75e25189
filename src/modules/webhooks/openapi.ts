/**
 * The events in the OpenAPI document's `webhooks` section: for each, the request a receiver gets, with the
 * envelope and the resource's REST schema as `data`, and the Standard Webhooks headers.
 */
import { Type, type TSchema } from 'typebox';
import { Product } from '../catalog/products/schemas.js';
import { CreditMemo } from '../credit-memos/schemas.js';
import { Customer } from '../customers/schemas.js';
import { Invoice } from '../invoices/schemas.js';
import { NewsletterSubscriber } from '../newsletter/schemas.js';
import { Order } from '../orders/schemas.js';
import { Review } from '../reviews/schemas.js';
import { RevocationRequest } from '../revocation/schemas.js';
import { Shipment } from '../shipments/schemas.js';
import { EVENT_TYPES, PING, type EventType } from './events.js';

const StockChange = Type.Object({
  productId: Type.Integer(),
  sku: Type.String(),
  oldQty: Type.Number({ description: 'the qty before the change' }),
  newQty: Type.Number({ description: 'the qty after it' }),
  isInStock: Type.Boolean(),
});

const DATA: Record<EventType, TSchema> = {
  'order.placed': Order,
  'order.updated': Order,
  'order.canceled': Order,
  'invoice.created': Invoice,
  'shipment.created': Shipment,
  'shipment.tracking_added': Shipment,
  'creditmemo.created': CreditMemo,
  'product.created': Product,
  'product.updated': Product,
  'product.deleted': Product,
  'stock.changed': StockChange,
  'customer.created': Customer,
  'customer.updated': Customer,
  'customer.deleted': Customer,
  'review.submitted': Review,
  'revocation.submitted': RevocationRequest,
  'newsletter.subscribed': NewsletterSubscriber,
  'newsletter.unsubscribed': NewsletterSubscriber,
};

function envelope(type: string, data: TSchema): TSchema {
  return Type.Object({
    id: Type.String({ description: 'the event id (evt_<sequence>), also the webhook-id header; the same on every retry' }),
    type: Type.Literal(type),
    createdAt: Type.String({ format: 'date-time' }),
    storeCode: Type.Union([Type.String(), Type.Null()], { description: 'the store view of the resource; null for what every store view shares (products, stock)' }),
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
        header('webhook-signature', 'v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>" keyed with the subscription secret>; two space-separated entries while a rotated-out secret is still valid'),
      ],
      requestBody: { required: true, content: { 'application/json': { schema: envelope(type, data) } } },
      responses: { '2XX': { description: 'Received' } },
    },
  };
}

/** The document's `webhooks` object. */
export function webhookDocs(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [type, summary] of Object.entries(EVENT_TYPES) as [EventType, string][]) out[type] = entry(type, summary, DATA[type]);
  out[PING] = entry(PING, 'A test event sent by POST /webhooks/{id}/ping', Type.Object({ webhookId: Type.Integer(), url: Type.String(), message: Type.String() }));
  return out;
}
