import { Type, type Static } from 'typebox';

export const StoreConfig = Type.Object({
  id: Type.String(),
  storeCode: Type.String(),
  storeName: Type.String(),
  baseCurrencyCode: Type.String(),
  defaultDisplayCurrencyCode: Type.String(),
  locale: Type.String(),
  timezone: Type.String(),
  weightUnit: Type.String({ description: 'lbs or kgs' }),
  baseUrl: Type.String(),
  baseMediaUrl: Type.String(),
  allowedCountries: Type.Array(Type.String()),
  isGuestCheckoutAllowed: Type.Boolean(),
  newsletterEnabled: Type.Boolean(),
  wishlistEnabled: Type.Boolean(),
  reviewsEnabled: Type.Boolean(),
  logoUrl: Type.Optional(Type.String()),
  logoAlt: Type.Optional(Type.String()),
  defaultTitle: Type.Optional(Type.String()),
  defaultDescription: Type.Optional(Type.String()),
  cmsHomePage: Type.String(),
});

export const Store = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  name: Type.String(),
  websiteId: Type.Integer(),
  websiteCode: Type.String(),
  websiteName: Type.String(),
  groupId: Type.Integer(),
  groupName: Type.String(),
  rootCategoryId: Type.Integer(),
  isActive: Type.Boolean(),
  isDefault: Type.Boolean(),
  baseUrl: Type.String(),
  baseLinkUrl: Type.String(),
  baseMediaUrl: Type.String(),
  locale: Type.String(),
  currency: Type.Object({ base: Type.String(), default: Type.String() }),
});

export const StoreSwitch = Type.Intersect([Store, Type.Object({ success: Type.Boolean() })]);

export const Currency = Type.Object({
  code: Type.String(),
  symbol: Type.String(),
  exchangeRate: Type.Number({ description: 'units of this currency per one unit of the base currency' }),
  isBase: Type.Boolean(),
  isDefault: Type.Boolean(),
});

export const StoreCodeParams = Type.Object({ storeCode: Type.String({ minLength: 1, maxLength: 64 }) });

export type StoreConfigDto = Static<typeof StoreConfig>;
export type StoreDto = Static<typeof Store>;
export type CurrencyDto = Static<typeof Currency>;
