/** Wire shapes of the sign-in with another provider's ID token (Maho's SocialAuth). */
import { Type, type Static } from 'typebox';
import { TokenResponse } from './schemas.js';

export const SocialAuthBody = Type.Object(
  {
    provider: Type.String({
      minLength: 1,
      maxLength: 32,
      description: 'google, apple, microsoft or oidc (a configured OpenID Connect issuer)',
    }),
    providerToken: Type.Optional(Type.String({ maxLength: 16384, description: "the provider's ID token (a JWT)" })),
    idToken: Type.Optional(Type.String({ maxLength: 16384, description: 'alias of providerToken' })),
    nonce: Type.Optional(
      Type.String({ maxLength: 512, description: 'the nonce the client passed to the provider; when given, the ID token must carry it' }),
    ),
    firstName: Type.Optional(
      Type.String({ maxLength: 255, description: 'used only when a new account is created and the token has no name' }),
    ),
    lastName: Type.Optional(Type.String({ maxLength: 255, description: 'as firstName' })),
  },
  { additionalProperties: false },
);

export const SocialAuthResponse = Type.Intersect([
  TokenResponse,
  Type.Object({
    provider: Type.String(),
    isNewCustomer: Type.Boolean({ description: 'whether the sign-in created the account' }),
  }),
]);

export type SocialAuthBodyT = Static<typeof SocialAuthBody>;
export type SocialAuthResponseT = Static<typeof SocialAuthResponse>;
