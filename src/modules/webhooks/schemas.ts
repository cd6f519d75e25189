import { Type, type Static } from 'typebox';
import { PageQuery } from '../../platform/pagination.js';

const Url = Type.String({ minLength: 1, maxLength: 2048, description: 'where events are POSTed; https in production' });
const Events = Type.Array(Type.String({ minLength: 1, maxLength: 100, pattern: '^(\\*|[a-z_]+\\.(\\*|[a-z_]+))$' }), {
  minItems: 1,
  maxItems: 50,
  uniqueItems: true,
  description: 'event names (`order.placed`) or wildcards (`order.*`, `*`)',
});
const StoreCodes = Type.Union(
  [Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 100, uniqueItems: true }), Type.Null()],
  {
    description:
      'only events of these store views (events of no store view, such as product and stock changes, go to subscriptions for every store view only); null or absent: every store view',
  },
);
const Description = Type.Union([Type.String({ maxLength: 1000 }), Type.Null()]);

export const Webhook = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  active: Type.Boolean(),
  description: Type.Union([Type.String(), Type.Null()]),
  storeCodes: Type.Union([Type.Array(Type.String()), Type.Null()]),
  /** shown once: on create and on rotation */
  secret: Type.Optional(Type.String({ description: 'the signing secret (whsec_…), shown only in the answer of a create or a rotation' })),
  previousSecretExpiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'until when the secret before the last rotation still signs',
  }),
  failingSince: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  disabledAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  disabledReason: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

export const WebhookCreate = Type.Object(
  {
    url: Url,
    events: Events,
    active: Type.Optional(Type.Boolean({ default: true })),
    description: Type.Optional(Description),
    storeCodes: Type.Optional(StoreCodes),
  },
  { additionalProperties: false },
);

export const WebhookUpdate = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    active: Type.Optional(Type.Boolean({ description: 'true re-enables a subscription that was disabled after failing' })),
    description: Type.Optional(Description),
    storeCodes: Type.Optional(StoreCodes),
  },
  { additionalProperties: false },
);

export const WebhookListQuery = Type.Object({
  ...PageQuery,
  active: Type.Optional(Type.Boolean()),
  event: Type.Optional(Type.String({ maxLength: 100, description: 'subscriptions that receive this event' })),
});

export const WebhookAttempt = Type.Object({
  attempt: Type.Integer(),
  statusCode: Type.Union([Type.Integer(), Type.Null()]),
  durationMs: Type.Integer(),
  error: Type.Union([Type.String(), Type.Null()]),
  response: Type.Union([Type.String(), Type.Null()], { description: "the first KiB of the receiver's answer" }),
  createdAt: Type.String({ format: 'date-time' }),
});

export const WebhookDelivery = Type.Object({
  id: Type.Integer(),
  subscriptionId: Type.Integer(),
  eventId: Type.String({ description: 'the webhook-id header and the payload id (evt_…)' }),
  event: Type.String({ description: 'the event type' }),
  resourceType: Type.String(),
  resourceId: Type.String(),
  status: Type.String({ description: 'pending, succeeded or failed' }),
  attempts: Type.Integer(),
  lastStatusCode: Type.Union([Type.Integer(), Type.Null()]),
  lastDurationMs: Type.Union([Type.Integer(), Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()]),
  nextAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'when the next attempt is due (pending only)',
  }),
  createdAt: Type.String({ format: 'date-time' }),
  deliveredAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  attemptLog: Type.Optional(Type.Array(WebhookAttempt, { description: 'every attempt, oldest first (item reads)' })),
});

export const WebhookIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
export const DeliveryParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  deliveryId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
});
export const DeliveryListQuery = Type.Object({
  ...PageQuery,
  status: Type.Optional(Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')])),
  event: Type.Optional(Type.String({ maxLength: 100, description: 'event type' })),
});

export const WebhookEventType = Type.Object({
  type: Type.String({ description: 'the event name a subscription names (or covers with a wildcard)' }),
  description: Type.String(),
});

export type WebhookDto = Static<typeof Webhook>;
export type WebhookCreateInput = Static<typeof WebhookCreate>;
export type WebhookUpdateInput = Static<typeof WebhookUpdate>;
export type WebhookDeliveryDto = Static<typeof WebhookDelivery>;
