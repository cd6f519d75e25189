/** Wire shapes of the store configuration API: declarations with their values per scope, writes and their history. */
import { Type, type Static } from 'typebox';
import { FreeForm } from '../../platform/free-form.js';
import { PageQuery } from '../../platform/pagination.js';

const Scope = Type.Union([Type.Literal('default'), Type.Literal('websites'), Type.Literal('stores')], {
  description: 'default, websites or stores',
});

export const ConfigurationQuery = Type.Object({
  scope: Type.Optional(Scope),
  scopeId: Type.Optional(Type.Integer({ minimum: 0, description: 'the website or store view id; 0 (or omitted) at the default scope' })),
  section: Type.Optional(Type.String({ maxLength: 64, description: 'only this section (payment, carriers, ...)' })),
});

const Option = Type.Object({ value: Type.String(), label: Type.String() });

export const ConfigField = Type.Object({
  path: Type.String(),
  label: Type.String(),
  type: Type.String({ description: 'string, text, boolean, integer, decimal, select, multiselect, email, url, secret or json' }),
  comment: Type.Optional(Type.String()),
  options: Type.Optional(Type.Array(Option)),
  default: Type.Optional(Type.String({ description: 'the declared default (never given for a secret)' })),
  scopes: Type.Array(Type.String(), { description: 'the scopes a value may be set at' }),
  min: Type.Optional(Type.Number()),
  max: Type.Optional(Type.Number()),
  value: Type.Optional(Type.String({ description: 'the value in effect at the scope asked (never given for a secret)' })),
  source: Type.String({ description: 'where the value in effect comes from: stores, websites, default (a stored value) or declared' }),
  inherited: Type.Boolean({ description: 'whether the value in effect comes from another scope than the one asked' }),
  isSet: Type.Boolean({
    description: 'whether a value is stored at the scope asked or one it inherits from (else the declared default applies)',
  }),
});
export type ConfigFieldDto = Static<typeof ConfigField>;

const ConfigGroup = Type.Object({ id: Type.String(), label: Type.String(), fields: Type.Array(ConfigField) });

export const ConfigSection = Type.Object({ id: Type.String(), label: Type.String(), groups: Type.Array(ConfigGroup) });
export type ConfigSectionDto = Static<typeof ConfigSection>;

export const Configuration = Type.Object({
  scope: Type.String(),
  scopeId: Type.Integer(),
  sections: Type.Array(ConfigSection),
});
export type ConfigurationDto = Static<typeof Configuration>;

export const ConfigSectionSummary = Type.Object({
  id: Type.String(),
  label: Type.String(),
  groups: Type.Array(Type.Object({ id: Type.String(), label: Type.String() })),
  fieldCount: Type.Integer(),
});
export type ConfigSectionSummaryDto = Static<typeof ConfigSectionSummary>;

export const ConfigurationWrite = Type.Object(
  {
    scope: Scope,
    scopeId: Type.Optional(Type.Integer({ minimum: 0 })),
    values: FreeForm(
      Type.Record(Type.String({ maxLength: 255 }), Type.Unknown(), {
        minProperties: 1,
        maxProperties: 500,
        description: 'path → value (string, number, boolean, a list for a multiselect); null removes the value set at this scope',
      }),
      { maxDepth: 2, maxBytes: 512 * 1024 },
    ),
  },
  { additionalProperties: false },
);
export type ConfigurationWriteInput = Static<typeof ConfigurationWrite>;

export const ConfigurationWriteResult = Type.Object({
  scope: Type.String(),
  scopeId: Type.Integer(),
  changed: Type.Array(Type.String(), {
    description: 'the paths whose stored value changed (a value equal to the stored one changes nothing)',
  }),
  fields: Type.Array(ConfigField, { description: 'the paths written, as they read now' }),
});
export type ConfigurationWriteResultDto = Static<typeof ConfigurationWriteResult>;

export const ConfigHistoryQuery = Type.Object({
  path: Type.Optional(Type.String({ maxLength: 255 })),
  from: Type.Optional(
    Type.String({ maxLength: 40, description: 'changes at or after this time: YYYY-MM-DD[ HH:MM:SS] (UTC) or ISO 8601' }),
  ),
  to: Type.Optional(Type.String({ maxLength: 40, description: 'changes before this time: YYYY-MM-DD[ HH:MM:SS] (UTC) or ISO 8601' })),
  ...PageQuery,
});
export type ConfigHistoryQueryInput = Static<typeof ConfigHistoryQuery>;

export const ConfigChange = Type.Object({
  id: Type.Integer(),
  changedAt: Type.String(),
  actorKind: Type.String({ description: 'api_user, oauth_client, admin_user or cli' }),
  actorId: Type.Optional(Type.Integer()),
  actorUsername: Type.Optional(Type.String()),
  scope: Type.String(),
  scopeId: Type.Integer(),
  path: Type.String(),
  oldValue: Type.Optional(Type.String({ description: 'omitted when no value was set at that scope; [secret] for a secret' })),
  newValue: Type.Optional(Type.String({ description: 'omitted when the value was removed; [secret changed] for a secret' })),
});
export type ConfigChangeDto = Static<typeof ConfigChange>;
