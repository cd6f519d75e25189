import type { AppModule } from '../../platform/module.js';
import { webhookDeliverer } from './background.js';
import { webhookDocs } from './openapi.js';
import { operations } from './rest.js';
import { webhookSubscriber } from './subscriber.js';

export const webhooksModule: AppModule = {
  name: 'webhooks',
  operations,
  subscribers: [webhookSubscriber],
  background: [webhookDeliverer],
  openapiWebhooks: webhookDocs,
};
