import { Type, type Static } from 'typebox';
import { FreeForm } from '../../platform/free-form.js';

export const ContactConfig = Type.Object({
  id: Type.String({ description: 'always "contact"' }),
  enabled: Type.Boolean(),
  captchaProvider: Type.String({ description: 'none, turnstile, recaptcha_v3 or a provider id registered by a module' }),
  captchaSiteKey: Type.Union([Type.String(), Type.Null()], {
    description: "the provider's public site key; null when captchaProvider is none",
  }),
  honeypotField: Type.Union([Type.String(), Type.Null()], {
    description: 'name of the field to leave empty; null when the honeypot is disabled',
  }),
});
export type ContactConfigDto = Static<typeof ContactConfig>;

/** Extra keys are kept (not dropped) so that the per-installation honeypot field reaches the service. */
export const ContactSubmit = Type.Object(
  {
    name: Type.Optional(Type.String()),
    email: Type.Optional(Type.String()),
    comment: Type.Optional(Type.String()),
    message: Type.Optional(Type.String({ description: 'alias of comment' })),
    telephone: Type.Optional(Type.String()),
    phone: Type.Optional(Type.String({ description: 'alias of telephone' })),
    captchaToken: Type.Optional(Type.String()),
  },
  {
    additionalProperties: FreeForm(Type.Unknown()),
    maxProperties: 50,
    description: 'plus the honeypot field named by GET /contact/config, which must be left empty',
  },
);
export type ContactSubmitInput = Static<typeof ContactSubmit> & Record<string, unknown>;

export const ContactResult = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
});
export type ContactResultDto = Static<typeof ContactResult>;
