/** Wire shapes of a product's image gallery (/products/{productId}/media). */
import { Type, type Static } from 'typebox';

const INT_MAX = 2147483647;

export const MEDIA_ROLES = ['image', 'small_image', 'thumbnail'] as const;
export type MediaRole = (typeof MEDIA_ROLES)[number];

const Roles = Type.Array(Type.Enum(MEDIA_ROLES), {
  uniqueItems: true,
  maxItems: 3,
  description: 'roles of the image: image, small_image, thumbnail; a role given here moves from any other image of the product',
});

export const ProductMedia = Type.Object({
  id: Type.Integer({ description: 'value id' }),
  file: Type.String({ description: 'path under media/catalog/product, e.g. /s/h/shirt.webp' }),
  url: Type.String({ description: 'full URL of the image' }),
  label: Type.Optional(Type.String()),
  position: Type.Integer(),
  disabled: Type.Boolean({ description: 'hidden on the storefront' }),
  types: Type.Array(Type.String()),
});

const Label = Type.Union([Type.String({ maxLength: 255 }), Type.Null()], { description: 'alt text; null or "" clears it' });
const Position = Type.Integer({ minimum: 0, maximum: INT_MAX });

export const ProductMediaCreate = Type.Object(
  {
    base64: Type.Optional(Type.String({ description: 'the image, base64-encoded (a data: URL is accepted)' })),
    imageData: Type.Optional(Type.String({ description: 'alias of base64' })),
    imageUrl: Type.Optional(Type.String({ maxLength: 2048, description: 'an http or https URL the image is fetched from' })),
    filename: Type.Optional(
      Type.String({ minLength: 1, maxLength: 255, description: 'name the stored file is derived from; default upload.jpg' }),
    ),
    types: Type.Optional(Roles),
    label: Type.Optional(Label),
    position: Type.Optional(Position),
    disabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const ProductMediaUpdate = Type.Object(
  {
    valueId: Type.Integer({ minimum: 1, maximum: INT_MAX, description: 'id of the image to change' }),
    label: Type.Optional(Label),
    position: Type.Optional(Position),
    disabled: Type.Optional(Type.Boolean()),
    types: Type.Optional(Roles),
  },
  { additionalProperties: false },
);

const ValueId = Type.Integer({ minimum: 1, maximum: INT_MAX, description: 'id of the image to remove' });

export const ProductMediaDeleteQuery = Type.Object({ valueId: Type.Optional(ValueId) });
export const ProductMediaDeleteBody = Type.Object({ valueId: Type.Optional(ValueId) }, { additionalProperties: false });

export const ProductIdParams = Type.Object({ productId: Type.Integer({ minimum: 0, maximum: INT_MAX }) });

export type ProductMediaDto = Static<typeof ProductMedia>;
export type ProductMediaCreateInput = Static<typeof ProductMediaCreate>;
export type ProductMediaUpdateInput = Static<typeof ProductMediaUpdate>;
