import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { ConfirmBody, NewsletterSubscription, SubscribeBody, UnsubscribeBody } from './schemas.js';
import * as newsletter from './service.js';

const tags = ['newsletter'];

export function routes(app: RestApp): void {
  app.post(
    '/newsletter/subscribe',
    {
      schema: {
        operationId: 'newsletter.subscribe',
        tags,
        summary:
          'Subscribe: a customer their account email, a guest the `email` sent (when guest subscription is allowed); with double opt-in a confirmation mail is sent. Rate limited per IP and email',
        body: SubscribeBody,
        response: { 201: NewsletterSubscription },
      },
      config: { access: access.public },
    },
    async (req, reply) => reply.code(201).send(await newsletter.subscribe(req.ctx, req.body)),
  );
  app.post(
    '/newsletter/confirm',
    {
      schema: {
        operationId: 'newsletter.confirm',
        tags,
        summary: 'Confirm a subscription with the code from the confirmation mail (double opt-in)',
        body: ConfirmBody,
        response: { 201: NewsletterSubscription },
      },
      config: { access: access.public },
    },
    async (req, reply) => reply.code(201).send(await newsletter.confirmSubscription(req.ctx, req.body)),
  );
  app.post(
    '/newsletter/unsubscribe',
    {
      schema: {
        operationId: 'newsletter.unsubscribe',
        tags,
        summary: 'Unsubscribe an email (a customer token: the account email); the same reply whether or not it was subscribed. Rate limited per IP',
        body: UnsubscribeBody,
        response: { 201: NewsletterSubscription },
      },
      config: { access: access.public },
    },
    async (req, reply) => reply.code(201).send(await newsletter.unsubscribe(req.ctx, req.body)),
  );
  app.get(
    '/newsletter/status',
    {
      schema: {
        operationId: 'newsletter.status',
        tags,
        summary: "The calling customer's newsletter subscription",
        response: { 200: NewsletterSubscription },
      },
      config: { access: access.customer },
    },
    async (req) => newsletter.status(req.ctx),
  );
}
