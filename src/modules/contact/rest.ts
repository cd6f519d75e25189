/** The contact form: its public settings and the submission. */
import { Type } from 'typebox';
import { access } from '../../platform/auth/access.js';
import { op, type Operation } from '../../platform/operations.js';
import { ContactConfig, ContactResult, ContactSubmit, type ContactSubmitInput } from './schemas.js';
import * as contact from './service.js';

const tags = ['contact'];
/** No MCP tools: the contact form is for people (captcha, honeypot), not for agents. */
const mcp = false;

/** submitContact's arguments: the form fields, and `honeypot`, the value of the trap field (its name differs per installation). */
const SubmitArgs = Type.Object({
  ...ContactSubmit.properties,
  honeypot: Type.Optional(Type.String({ description: 'the honeypot field of GET /contact/config: leave it empty' })),
});

export const operations: Operation[] = [
  op({
    id: 'contact.config',
    method: 'GET',
    path: '/contact/config',
    tags,
    summary: 'Contact form settings: enabled, captcha provider and site key, honeypot field name',
    access: access.public,
    shortName: 'ContactConfig',
    response: ContactConfig,
    mcp,
    graphql: { name: 'contactConfig' },
    run: async (ctx) => contact.getContactConfig(ctx),
  }),
  op({
    id: 'contact.submit',
    method: 'POST',
    path: '/contact',
    tags,
    summary:
      'Send the contact form to the store (name, email, comment required; captchaToken when a captcha provider is set). Rate limited per IP and email',
    access: access.public,
    shortName: 'Contact',
    body: ContactSubmit,
    response: ContactResult,
    status: 201,
    mcp,
    graphql: {
      name: 'submitContact',
      args: SubmitArgs,
      // the trap field goes under its installation's name, as the REST form sends it
      around: (args, next, ctx) => {
        const { honeypot, ...rest } = args;
        return next(
          honeypot === undefined || honeypot === null ? rest : { ...rest, [contact.honeypotFieldName(ctx.app.config.jwtSecret)]: honeypot },
        );
      },
      input: ({ clientMutationId: _c, ...body }) => ({ body }),
    },
    run: (ctx, { body }) => contact.submitContact(ctx, body as ContactSubmitInput),
  }),
];
