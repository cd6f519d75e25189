import { access } from '../../platform/auth/access.js';
import type { RestApp } from '../../platform/module.js';
import { ContactConfig, ContactResult, ContactSubmit, type ContactSubmitInput } from './schemas.js';
import * as contact from './service.js';

const tags = ['contact'];

export function routes(app: RestApp): void {
  app.get(
    '/contact/config',
    {
      schema: {
        operationId: 'contact.config',
        tags,
        summary: 'Contact form settings: enabled, captcha provider and site key, honeypot field name',
        response: { 200: ContactConfig },
      },
      config: { access: access.public },
    },
    async (req) => contact.getContactConfig(req.ctx),
  );
  app.post(
    '/contact',
    {
      schema: {
        operationId: 'contact.submit',
        tags,
        summary:
          'Send the contact form to the store (name, email, comment required; captchaToken when a captcha provider is set). Rate limited per IP and email',
        body: ContactSubmit,
        response: { 201: ContactResult },
      },
      config: { access: access.public },
    },
    async (req, reply) => reply.code(201).send(await contact.submitContact(req.ctx, req.body as ContactSubmitInput)),
  );
}
