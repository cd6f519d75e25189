import { access } from '../../platform/auth/access.js';
import { crudOperations } from '../../platform/crud-routes.js';
import { op, type Operation } from '../../platform/operations.js';
import {
  DeliveryListQuery,
  DeliveryParams,
  Webhook,
  WebhookCreate,
  WebhookDelivery,
  WebhookEventType,
  WebhookIdParams,
  WebhookListQuery,
  WebhookUpdate,
} from './schemas.js';
import * as webhooks from './service.js';

const tags = ['webhooks'];

/** Webhook subscriptions and their delivery logs: back-office resources under the `webhooks` grants. */
export const operations: Operation[] = [
  op({
    id: 'webhooks.events',
    method: 'GET',
    path: '/webhooks/events',
    tags,
    summary: 'The events a subscription may name, by name, with what each means (unpaginated)',
    access: access.admin('webhooks', 'read'),
    shortName: 'WebhookEventType',
    kind: 'collection',
    response: WebhookEventType,
    graphql: { name: 'webhookEventTypes' },
    run: async (ctx) => {
      const items = [...ctx.app.events.declared]
        .map(([type, d]) => ({ type, description: d.description }))
        .sort((a, b) => a.type.localeCompare(b.type));
      return { items, total: items.length };
    },
  }),
  ...crudOperations({
    path: '/webhooks',
    resource: 'webhooks',
    operation: 'webhooks',
    shortName: 'Webhook',
    item: Webhook,
    write: WebhookCreate,
    updateBody: WebhookUpdate,
    query: WebhookListQuery,
    read: access.admin('webhooks', 'read'),
    summaries: {
      list: 'Webhook subscriptions (20 a page); filters active, event (subscriptions that receive it)',
      get: 'One webhook subscription (the secret is never shown again)',
      create: 'Subscribe a URL to events; the answer shows the signing secret, once',
      update: 'Change a subscription (only the fields sent); active: true re-enables one disabled after failing',
      delete: 'Delete a subscription with its delivery log',
    },
    list: webhooks.listWebhooks,
    get: webhooks.getWebhook,
    create: webhooks.createWebhook,
    update: webhooks.updateWebhook,
    remove: webhooks.deleteWebhook,
  }),
  op({
    id: 'webhooks.rotateSecret',
    method: 'POST',
    path: '/webhooks/:id/rotate-secret',
    tags,
    summary: 'A new signing secret, shown once; the previous one keeps signing (a second v1 signature) for 24 hours',
    access: access.admin('webhooks', 'write'),
    shortName: 'Webhook',
    params: WebhookIdParams,
    response: Webhook,
    graphql: { name: 'rotateWebhookSecret' },
    run: (ctx, { params }) => webhooks.rotateWebhookSecret(ctx, params.id),
  }),
  op({
    id: 'webhooks.ping',
    method: 'POST',
    path: '/webhooks/:id/ping',
    tags,
    summary: 'Sends a webhook.ping event to this subscription now and answers the delivery with its attempt',
    access: access.admin('webhooks', 'write'),
    shortName: 'WebhookDelivery',
    params: WebhookIdParams,
    response: WebhookDelivery,
    graphql: { name: 'pingWebhook' },
    run: (ctx, { params }) => webhooks.pingWebhook(ctx, params.id),
  }),
  op({
    id: 'webhooks.deliveries',
    method: 'GET',
    path: '/webhooks/:id/deliveries',
    tags,
    summary:
      "A subscription's deliveries, newest first (20 a page): event, attempts, last status code and duration, next retry; filters status, event",
    access: access.admin('webhooks', 'read'),
    shortName: 'WebhookDelivery',
    params: WebhookIdParams,
    query: DeliveryListQuery,
    kind: 'collection',
    response: WebhookDelivery,
    page: { defaultSize: 20, maxSize: 100 },
    graphql: { name: 'webhookDeliveries' },
    run: (ctx, { params, query, page }) => webhooks.listDeliveries(ctx, params.id, query, page),
  }),
  op({
    id: 'webhooks.delivery',
    method: 'GET',
    path: '/webhooks/:id/deliveries/:deliveryId',
    tags,
    summary: 'One delivery with the log of its attempts (status code, duration, error, the start of the answer)',
    access: access.admin('webhooks', 'read'),
    shortName: 'WebhookDelivery',
    params: DeliveryParams,
    response: WebhookDelivery,
    graphql: { name: 'webhookDelivery' },
    run: (ctx, { params }) => webhooks.getDelivery(ctx, params.id, params.deliveryId),
  }),
  op({
    id: 'webhooks.redeliver',
    method: 'POST',
    path: '/webhooks/:id/deliveries/:deliveryId/redeliver',
    tags,
    summary: 'Sends a delivery again now (a new round of attempts if this one fails) and answers it with its log',
    access: access.admin('webhooks', 'write'),
    shortName: 'WebhookDelivery',
    params: DeliveryParams,
    response: WebhookDelivery,
    graphql: { name: 'redeliverWebhookDelivery' },
    run: (ctx, { params }) => webhooks.redeliver(ctx, params.id, params.deliveryId),
  }),
];
