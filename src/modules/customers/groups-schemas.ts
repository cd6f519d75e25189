import { Type, type Static } from 'typebox';
import { PageQuery } from '../../platform/pagination.js';

const INT_MAX = 2147483647;

export const CustomerGroup = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  taxClassId: Type.Integer({ description: 'a CUSTOMER tax class' }),
  taxClassName: Type.Optional(Type.String({ description: 'read-only' })),
});

const Code = Type.String({ minLength: 1, maxLength: 32, description: 'unique, case-insensitively; 1 to 32 characters' });
const TaxClassId = Type.Integer({ minimum: 1, maximum: INT_MAX, description: 'an existing CUSTOMER tax class' });

export const CustomerGroupCreate = Type.Object(
  {
    code: Code,
    taxClassId: Type.Optional(
      Type.Integer({ minimum: 1, maximum: INT_MAX, description: 'an existing CUSTOMER tax class; default 3 (Retail Customer)' }),
    ),
  },
  { additionalProperties: false },
);

export const CustomerGroupUpdate = Type.Object(
  { code: Type.Optional(Code), taxClassId: Type.Optional(TaxClassId) },
  { additionalProperties: false },
);

export const CustomerGroupListQuery = Type.Object({
  ...PageQuery,
  search: Type.Optional(Type.String({ maxLength: 255, description: 'the code contains it, case-insensitively' })),
  sortBy: Type.Optional(
    Type.Union([Type.Literal('id'), Type.Literal('code'), Type.Literal('taxClassId')], { description: 'default code' }),
  ),
  sortDir: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: 'default asc' })),
});

export type CustomerGroupDto = Static<typeof CustomerGroup>;
export type CustomerGroupCreateInput = Static<typeof CustomerGroupCreate>;
export type CustomerGroupUpdateInput = Static<typeof CustomerGroupUpdate>;
