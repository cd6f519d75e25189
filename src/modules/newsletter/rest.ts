/** Newsletter: subscribe, confirm and unsubscribe (public), a customer's own status, and the admin subscriber reads. */
import { access } from '../../platform/auth/access.js';
import { op, type Operation } from '../../platform/operations.js';
import {
  ConfirmBody,
  NewsletterSubscriber,
  NewsletterSubscription,
  SubscribeBody,
  SubscriberListQuery,
  SubscriberParams,
  UnsubscribeBody,
} from './schemas.js';
import * as newsletter from './service.js';

const tags = ['newsletter'];
const shortName = 'Newsletter';

export const operations: Operation[] = [
  op({
    id: 'newsletter.subscribe',
    method: 'POST',
    path: '/newsletter/subscribe',
    tags,
    summary:
      'Subscribe: a customer their account email, a guest the `email` sent (when guest subscription is allowed); with double opt-in a confirmation mail is sent. Rate limited per IP and email',
    access: access.public,
    shortName,
    body: SubscribeBody,
    response: NewsletterSubscription,
    status: 201,
    graphql: { name: 'subscribeNewsletter' },
    run: (ctx, { body }) => newsletter.subscribe(ctx, body),
  }),
  op({
    id: 'newsletter.confirm',
    method: 'POST',
    path: '/newsletter/confirm',
    tags,
    summary: 'Confirm a subscription with the code from the confirmation mail (double opt-in)',
    access: access.public,
    shortName,
    body: ConfirmBody,
    response: NewsletterSubscription,
    status: 201,
    graphql: { name: 'confirmNewsletter' },
    run: (ctx, { body }) => newsletter.confirmSubscription(ctx, body),
  }),
  op({
    id: 'newsletter.unsubscribe',
    method: 'POST',
    path: '/newsletter/unsubscribe',
    tags,
    summary:
      'Unsubscribe an email (a customer token: the account email); the same reply whether or not it was subscribed. Rate limited per IP',
    access: access.public,
    shortName,
    body: UnsubscribeBody,
    response: NewsletterSubscription,
    status: 201,
    graphql: { name: 'unsubscribeNewsletter' },
    run: (ctx, { body }) => newsletter.unsubscribe(ctx, body),
  }),
  op({
    id: 'newsletter.status',
    method: 'GET',
    path: '/newsletter/status',
    tags,
    summary: "The calling customer's newsletter subscription",
    access: access.customer,
    shortName,
    response: NewsletterSubscription,
    graphql: { name: 'statusNewsletter' },
    run: (ctx) => newsletter.status(ctx),
  }),
  op({
    id: 'newsletter.subscribers.list',
    method: 'GET',
    path: '/newsletter/subscribers',
    tags,
    summary:
      'Newsletter subscribers by id (20 a page); filters email (exact), status, createdFrom, createdTo, updatedSince (status changed)',
    access: access.admin('newsletter', 'read'),
    shortName,
    query: SubscriberListQuery,
    kind: 'collection',
    page: { defaultSize: 20, maxSize: 100 },
    response: NewsletterSubscriber,
    run: (ctx, { query, page }) => newsletter.listSubscribers(ctx, query, page),
  }),
  op({
    id: 'newsletter.subscribers.get',
    method: 'GET',
    path: '/newsletter/subscribers/:id',
    tags,
    summary: 'One newsletter subscriber',
    access: access.admin('newsletter', 'read'),
    shortName,
    params: SubscriberParams,
    response: NewsletterSubscriber,
    run: (ctx, { params }) => newsletter.getSubscriber(ctx, params.id),
  }),
];
