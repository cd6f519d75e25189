import { Type, type Static } from 'typebox';

export const Region = Type.Object({
  id: Type.Integer({ description: 'stable region id (stored in addresses)' }),
  code: Type.String(),
  name: Type.String(),
});

export const Country = Type.Object({
  id: Type.String({ description: 'ISO 3166-1 alpha-2 code' }),
  name: Type.String(),
  iso2Code: Type.String(),
  iso3Code: Type.String(),
  availableRegions: Type.Array(Region, { description: 'empty where the region is free text' }),
});

export const CountryParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64, description: 'ISO-2 or ISO-3 code, any case' }),
});

export type RegionDto = Static<typeof Region>;
export type CountryDto = Static<typeof Country>;
