/** Wire shapes of product custom options (/products/{productId}/custom-options) and their file downloads. */
import { Type, type Static } from 'typebox';

const INT_MAX = 2147483647;
/** Highest price accepted (NUMERIC(20,4) holds more; no real price comes near). */
const PRICE_MAX = 999_999_999_999;

export const SELECT_OPTION_TYPES = ['drop_down', 'radio', 'checkbox', 'multiple'] as const;
export const OPTION_TYPES = ['field', 'area', 'file', ...SELECT_OPTION_TYPES, 'date', 'date_time', 'time'] as const;
export type OptionType = (typeof OPTION_TYPES)[number];
export const PRICE_TYPES = ['fixed', 'percent'] as const;

const Literals = <const T extends readonly string[]>(values: T, description: string) => Type.Enum(values, { description });

export const CustomOptionValue = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  price: Type.Number(),
  priceType: Type.String({ description: 'fixed or percent (of the product price)' }),
  sku: Type.Optional(Type.String()),
  sortOrder: Type.Integer(),
});

export const CustomOption = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  type: Type.String({ description: OPTION_TYPES.join(', ') }),
  required: Type.Boolean(),
  sortOrder: Type.Integer(),
  price: Type.Optional(Type.Number({ description: 'options without values only' })),
  priceType: Type.String({ description: 'fixed or percent (options without values)' }),
  sku: Type.Optional(Type.String()),
  maxCharacters: Type.Optional(Type.Integer({ description: 'field and area; 0 = no limit' })),
  fileExtensions: Type.Optional(Type.String({ description: 'file: allowed extensions, comma-separated' })),
  imageSizeX: Type.Optional(Type.Integer({ description: 'file: largest image width in pixels' })),
  imageSizeY: Type.Optional(Type.Integer({ description: 'file: largest image height in pixels' })),
  values: Type.Array(CustomOptionValue, { description: 'drop_down, radio, checkbox and multiple options' }),
});

const Title = Type.String({ minLength: 1, maxLength: 255 });
const Price = Type.Number({ minimum: 0, maximum: PRICE_MAX });
const PriceType = Literals(PRICE_TYPES, 'fixed or percent (of the product price); default fixed');
const Sku = Type.Union([Type.String({ maxLength: 64 }), Type.Null()]);
const SortOrder = Type.Integer({ minimum: -INT_MAX, maximum: INT_MAX });
const NonNegative = (description: string) => Type.Union([Type.Integer({ minimum: 0, maximum: INT_MAX }), Type.Null()], { description });

export const CustomOptionValueInput = Type.Object(
  {
    id: Type.Optional(
      Type.Integer({ minimum: 1, maximum: INT_MAX, description: 'on update: an existing value of the option, changed in place' }),
    ),
    title: Title,
    price: Type.Optional(Price),
    priceType: Type.Optional(PriceType),
    sku: Type.Optional(Sku),
    sortOrder: Type.Optional(SortOrder),
  },
  { additionalProperties: false },
);

const optionFields = {
  title: Title,
  type: Literals(OPTION_TYPES, OPTION_TYPES.join(', ')),
  required: Type.Optional(Type.Boolean()),
  sortOrder: Type.Optional(SortOrder),
  price: Type.Optional(Type.Union([Price, Type.Null()], { description: 'options without values only' })),
  priceType: Type.Optional(PriceType),
  sku: Type.Optional(Sku),
  maxCharacters: Type.Optional(NonNegative('field and area; 0 = no limit')),
  fileExtensions: Type.Optional(
    Type.Union([Type.String({ maxLength: 255 }), Type.Null()], { description: 'file: e.g. "jpg, png, pdf"; empty = any' }),
  ),
  imageSizeX: Type.Optional(NonNegative('file: largest image width in pixels; 0 = no limit')),
  imageSizeY: Type.Optional(NonNegative('file: largest image height in pixels; 0 = no limit')),
  values: Type.Optional(
    Type.Array(CustomOptionValueInput, { maxItems: 500, description: 'select types: at least one; replaces the values on update' }),
  ),
};

export const CustomOptionCreate = Type.Object(optionFields, { additionalProperties: false });

export const CustomOptionUpdate = Type.Object(
  {
    ...optionFields,
    title: Type.Optional(Title),
    type: Type.Optional(optionFields.type),
  },
  { additionalProperties: false },
);

export const ProductParams = Type.Object({ productId: Type.Integer({ minimum: 0, maximum: INT_MAX }) });

export const ProductOptionParams = Type.Object({
  productId: Type.Integer({ minimum: 0, maximum: INT_MAX }),
  id: Type.Integer({ minimum: 0, maximum: INT_MAX }),
});

export const OptionFileParams = Type.Object({
  optionId: Type.Integer({ minimum: 0, maximum: INT_MAX }),
  key: Type.String({ maxLength: 64 }),
});

export const OptionFileResponse = {
  description: 'the uploaded file, as an attachment',
  content: { 'application/octet-stream': { schema: Type.Unsafe<NodeJS.ReadableStream>({ type: 'string', format: 'binary' }) } },
};

export type CustomOptionDto = Static<typeof CustomOption>;
export type CustomOptionValueDto = Static<typeof CustomOptionValue>;
export type CustomOptionCreateInput = Static<typeof CustomOptionCreate>;
export type CustomOptionUpdateInput = Static<typeof CustomOptionUpdate>;
export type CustomOptionValueInputT = Static<typeof CustomOptionValueInput>;
