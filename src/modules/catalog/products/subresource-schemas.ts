/**
 * Wire shapes of the product sub-resources for tier prices, bundle options, configurable and grouped children,
 * product links and downloadable links. Lists are unpaginated (the whole list); bodies drop unknown keys.
 */
import { Type, type Static } from 'typebox';

const INT_MAX = 2147483647;
const Id = (description?: string) => Type.Integer({ minimum: 1, maximum: INT_MAX, description });
const Int = (description?: string) => Type.Integer({ minimum: -INT_MAX, maximum: INT_MAX, description });

export const ProductParams = Type.Object({ productId: Id('product id') });

// ---- tier prices ----

export const TierPrice = Type.Object({
  id: Type.String({ description: '"<productId>_<index>"' }),
  customerGroupId: Type.Union([Type.Integer(), Type.Literal('all')], { description: 'a customer group id, or "all"' }),
  websiteId: Type.Integer({ description: '0: all websites' }),
  qty: Type.Number(),
  price: Type.Number(),
});

export const TierPriceInput = Type.Object(
  {
    customerGroupId: Type.Optional(
      Type.Union([Type.Integer(), Type.Literal('all'), Type.Null()], {
        description: 'an existing customer group id; "all", 32000 or omitted: every group',
      }),
    ),
    websiteId: Type.Optional(Type.Integer({ description: '0 or omitted: all websites; else an existing website' })),
    qty: Type.Number({ description: 'greater than 0' }),
    price: Type.Number({ description: 'at least 0' }),
  },
  { additionalProperties: false },
);

export const TierPricesBody = Type.Union(
  [
    Type.Array(TierPriceInput, { maxItems: 1000 }),
    Type.Object({ tierPrices: Type.Array(TierPriceInput, { maxItems: 1000 }) }, { additionalProperties: false }),
  ],
  { description: 'the new set: an array of tier prices, or {tierPrices: [...]}' },
);

// ---- bundle options ----

export const BundleSelection = Type.Object({
  selectionId: Type.Integer(),
  productId: Type.Integer(),
  sku: Type.String(),
  name: Type.String(),
  price: Type.Optional(Type.Number({ description: 'fixed-price bundles: the selection price (an amount or a percent)' })),
  priceType: Type.Union([Type.Literal('fixed'), Type.Literal('percent')]),
  qty: Type.Number(),
  canChangeQty: Type.Boolean(),
  isDefault: Type.Boolean(),
  position: Type.Integer(),
});

export const BundleOption = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  type: Type.Union([Type.Literal('select'), Type.Literal('radio'), Type.Literal('checkbox'), Type.Literal('multi')]),
  required: Type.Boolean(),
  position: Type.Integer(),
  selections: Type.Array(BundleSelection),
});

const BundleType = Type.Union([Type.Literal('select'), Type.Literal('radio'), Type.Literal('checkbox'), Type.Literal('multi')]);

export const BundleSelectionInput = Type.Object(
  {
    productId: Id('a simple or virtual product'),
    qty: Type.Optional(Type.Number({ description: 'default quantity, greater than 0; default 1' })),
    canChangeQty: Type.Optional(Type.Boolean()),
    isDefault: Type.Optional(Type.Boolean()),
    position: Type.Optional(Int()),
    price: Type.Optional(
      Type.Union([
        Type.Number({ description: 'fixed-price bundles only: at least 0, at most 4 decimal places; a percent at most 100' }),
        Type.Null(),
      ]),
    ),
    priceType: Type.Optional(
      Type.Union([Type.Literal('fixed'), Type.Literal('percent')], { description: 'percent: fixed-price bundles only' }),
    ),
  },
  { additionalProperties: false },
);

const bundleOptionFields = {
  title: Type.Optional(Type.String({ maxLength: 255 })),
  type: Type.Optional(BundleType),
  required: Type.Optional(Type.Boolean()),
  position: Type.Optional(Int()),
  selections: Type.Optional(Type.Array(BundleSelectionInput, { maxItems: 500, description: 'replaces the selections when sent' })),
};

export const BundleOptionCreate = Type.Object(
  { ...bundleOptionFields, title: Type.String({ maxLength: 255, description: 'required' }) },
  { additionalProperties: false },
);
export const BundleOptionUpdate = Type.Object(bundleOptionFields, { additionalProperties: false });
export const BundleOptionUpdateWithId = Type.Object(
  { ...bundleOptionFields, id: Type.Optional(Id('the option to update')), optionId: Type.Optional(Id('alias of id')) },
  { additionalProperties: false },
);
export const BundleOptionParams = Type.Object({ productId: Id('product id'), id: Id('bundle option id') });
export const OptionalIdQuery = Type.Object({ id: Type.Optional(Id()) });
export const OptionalIdBody = Type.Union([Type.Object({ id: Type.Optional(Id()), optionId: Type.Optional(Id()) }), Type.Null()]);

// ---- configurable ----

export const Configurable = Type.Object({
  id: Type.Integer({ description: 'the configurable product id' }),
  superAttributes: Type.Array(Type.String(), { description: 'attribute codes, in position order' }),
  childProductIds: Type.Array(Type.Integer()),
});

export const ConfigurableUpdate = Type.Object(
  {
    superAttributes: Type.Optional(
      Type.Array(Type.Union([Type.String({ maxLength: 255 }), Id()]), {
        maxItems: 20,
        description: 'attribute codes (or ids): global select attributes that may be configurable',
      }),
    ),
    childProductIds: Type.Optional(Type.Array(Id(), { maxItems: 5000, description: 'simple or virtual products' })),
  },
  { additionalProperties: false },
);

export const ConfigurableChildBody = Type.Object(
  {
    childId: Type.Optional(Id('the child product')),
    childProductId: Type.Optional(Id('alias of childId')),
    child_product_id: Type.Optional(Id('alias of childId')),
  },
  { additionalProperties: false },
);

export const ConfigurableChildParams = Type.Object({ productId: Id('product id'), childId: Id('child product id') });

// ---- grouped ----

export const GroupedChild = Type.Object({
  id: Type.String({ description: '"<productId>_<childProductId>"' }),
  childProductId: Type.Integer(),
  childProductSku: Type.String(),
  childProductName: Type.String(),
  qty: Type.Number({ description: 'default quantity offered' }),
  position: Type.Integer(),
});

export const GroupedChildInput = Type.Object(
  {
    childProductId: Id('a simple or virtual product'),
    qty: Type.Optional(Type.Number({ description: 'default quantity offered, at least 0; default 0' })),
    position: Type.Optional(Int()),
  },
  { additionalProperties: false },
);
export const GroupedChildrenBody = Type.Array(GroupedChildInput, { maxItems: 1000 });
export const GroupedChildParams = Type.Object({ productId: Id('product id'), childProductId: Id('child product id') });

// ---- product links ----

export const ProductLink = Type.Object({
  id: Type.String({ description: '"<productId>_<linkedProductId>"' }),
  linkedProductId: Type.Integer(),
  linkedProductSku: Type.String(),
  linkedProductName: Type.String(),
  position: Type.Integer(),
});

export const ProductLinkInput = Type.Object(
  { linkedProductId: Id('another product'), position: Type.Optional(Int()) },
  { additionalProperties: false },
);
export const ProductLinksBody = Type.Array(ProductLinkInput, { maxItems: 1000 });
export const ProductLinkParams = Type.Object({ productId: Id('product id'), linkedProductId: Id('linked product id') });

// ---- downloadable links ----

const Url = (description: string) => Type.String({ maxLength: 2048, description });
const Base64 = (description: string) => Type.String({ description });
const FileName = (description: string) => Type.String({ maxLength: 255, description });

export const DownloadableLink = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  price: Type.Number(),
  sortOrder: Type.Integer(),
  numberOfDownloads: Type.Integer({ description: '0: unlimited' }),
  isShareable: Type.Optional(Type.Integer({ description: 'backend view: 0 no, 1 yes, 2 store config' })),
  linkType: Type.Optional(Type.String({ description: 'backend view: url or file' })),
  linkUrl: Type.Optional(Type.String({ description: 'backend view' })),
  linkFile: Type.Optional(Type.String({ description: 'backend view: stored file, under media/downloadable' })),
  sampleType: Type.Optional(Type.String({ description: 'backend view: url or file' })),
  sampleUrl: Type.Optional(Type.String({ description: 'where the sample is: its URL, or the full media URL of a sample file' })),
  sampleFile: Type.Optional(Type.String({ description: 'backend view: stored sample file, under media/catalog/downloadable_samples' })),
});

const downloadableFields = {
  title: Type.Optional(Type.String({ maxLength: 255 })),
  price: Type.Optional(Type.Number({ description: 'at least 0; default 0' })),
  sortOrder: Type.Optional(Int()),
  numberOfDownloads: Type.Optional(Type.Integer({ minimum: 0, maximum: INT_MAX, description: '0: unlimited (default)' })),
  isShareable: Type.Optional(
    Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2)], { description: '0 no, 1 yes, 2 store config (default)' }),
  ),
  linkType: Type.Optional(
    Type.Union([Type.Literal('url'), Type.Literal('file')], { description: 'default: file when fileBase64 is sent, else url' }),
  ),
  linkUrl: Type.Optional(Url('http or https; required for url links')),
  fileBase64: Type.Optional(Base64('file links: the file content, base64')),
  fileName: Type.Optional(FileName('file links: the file name (its extension is kept)')),
  sampleType: Type.Optional(
    Type.Union([Type.Literal('url'), Type.Literal('file'), Type.Null()], { description: 'null removes the sample' }),
  ),
  sampleUrl: Type.Optional(Url('http or https; required for url samples')),
  sampleFileBase64: Type.Optional(Base64('file samples: the file content, base64')),
  sampleFileName: Type.Optional(FileName('file samples: the file name')),
};

export const DownloadableLinkCreate = Type.Object(
  { ...downloadableFields, title: Type.String({ maxLength: 255, description: 'required' }) },
  { additionalProperties: false },
);
export const DownloadableLinkUpdate = Type.Object(downloadableFields, { additionalProperties: false });
export const DownloadableLinkUpdateWithId = Type.Object(
  { ...downloadableFields, linkId: Type.Optional(Id('the link to update')), id: Type.Optional(Id('alias of linkId')) },
  { additionalProperties: false },
);
export const DownloadableLinkParams = Type.Object({ productId: Id('product id'), id: Id('downloadable link id') });
export const LinkIdQuery = Type.Object({ linkId: Type.Optional(Id()), id: Type.Optional(Id('alias of linkId')) });
export const LinkIdBody = Type.Union([Type.Object({ linkId: Type.Optional(Id()), id: Type.Optional(Id()) }), Type.Null()]);

export const NoContent = Type.Null({ description: 'Done' });

export type TierPriceDto = Static<typeof TierPrice>;
export type TierPriceInputT = Static<typeof TierPriceInput>;
export type TierPricesBodyT = Static<typeof TierPricesBody>;
export type BundleOptionDto = Static<typeof BundleOption>;
export type BundleSelectionDto = Static<typeof BundleSelection>;
export type BundleSelectionInputT = Static<typeof BundleSelectionInput>;
export type BundleOptionCreateT = Static<typeof BundleOptionCreate>;
export type BundleOptionUpdateT = Static<typeof BundleOptionUpdate>;
export type ConfigurableDto = Static<typeof Configurable>;
export type ConfigurableUpdateT = Static<typeof ConfigurableUpdate>;
export type ConfigurableChildBodyT = Static<typeof ConfigurableChildBody>;
export type GroupedChildDto = Static<typeof GroupedChild>;
export type GroupedChildInputT = Static<typeof GroupedChildInput>;
export type ProductLinkDto = Static<typeof ProductLink>;
export type ProductLinkInputT = Static<typeof ProductLinkInput>;
export type DownloadableLinkDto = Static<typeof DownloadableLink>;
export type DownloadableLinkCreateT = Static<typeof DownloadableLinkCreate>;
export type DownloadableLinkUpdateT = Static<typeof DownloadableLinkUpdate>;
