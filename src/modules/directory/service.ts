/**
 * Countries and regions (static ISO 3166 data), the store's allowed countries, and the validation of an
 * address's country and region used by every module that stores addresses.
 */
import type { Ctx } from '../../platform/context.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { declareDefaults, type Settings } from '../../platform/settings.js';
import { COUNTRIES, REGIONS, type CountryRow, type RegionRow } from './data.js';

declareDefaults({
  'general/country/allow': COUNTRIES.map((c) => c.iso2).join(','),
  'general/country/default': 'US',
  /** countries where a region must be chosen from the list */
  'general/region/state_required': 'US,CA,AU,AT,CH,DE,ES,FR,IT',
});

const byIso2 = new Map(COUNTRIES.map((c) => [c.iso2, c]));
const byIso3 = new Map(COUNTRIES.map((c) => [c.iso3, c]));
const regionsByCountry = new Map<string, RegionRow[]>();
for (const r of REGIONS) {
  const list = regionsByCountry.get(r.countryId) ?? [];
  list.push(r);
  regionsByCountry.set(r.countryId, list);
}
for (const list of regionsByCountry.values()) list.sort((a, b) => a.name.localeCompare(b.name));
const regionsById = new Map(REGIONS.map((r) => [r.id, r]));

export interface RegionDto {
  id: number;
  code: string;
  name: string;
}

export interface CountryDto {
  id: string;
  name: string;
  iso2Code: string;
  iso3Code: string;
  availableRegions: RegionDto[];
}

function countryDto(c: CountryRow): CountryDto {
  return {
    id: c.iso2,
    name: c.name,
    iso2Code: c.iso2,
    iso3Code: c.iso3,
    availableRegions: (regionsByCountry.get(c.iso2) ?? []).map((r) => ({ id: r.id, code: r.code, name: r.name })),
  };
}

const dtoCache = new Map<string, CountryDto>();
function cachedDto(c: CountryRow): CountryDto {
  let d = dtoCache.get(c.iso2);
  if (!d) dtoCache.set(c.iso2, (d = countryDto(c)));
  return d;
}

export function allowedCountryIds(settings: Settings, storeId: number): string[] {
  return settings
    .getList('general/country/allow', storeId)
    .map((c) => c.toUpperCase())
    .filter((c) => byIso2.has(c))
    .sort((a, b) => byIso2.get(a)!.name.localeCompare(byIso2.get(b)!.name));
}

/** The store's allowed countries, by name. */
export function listCountries(ctx: Ctx): CountryDto[] {
  return allowedCountryIds(ctx.app.settings, ctx.store.storeId).map((id) => cachedDto(byIso2.get(id)!));
}

/** Any country by ISO-2 or ISO-3 code, case-insensitive. */
export function getCountry(_ctx: Ctx, id: string): CountryDto {
  const code = id.trim().toUpperCase();
  const c = byIso2.get(code) ?? byIso3.get(code);
  if (!c) throw notFound('Country not found');
  return cachedDto(c);
}

export function countryExists(code: string): boolean {
  return byIso2.has(code.toUpperCase());
}

export function regionById(id: number): RegionRow | undefined {
  return regionsById.get(id);
}

export interface AddressLocation {
  countryId: string;
  regionId?: number | null;
  region?: string | null;
}

/**
 * Checks an address's country (must be allowed in the store) and region. A region may be given by id, by
 * code or by name; where the country has a region list, the region must come from it and is stored with
 * both id and name. Elsewhere the region is free text.
 */
export function resolveAddressLocation(ctx: Ctx, input: AddressLocation): { countryId: string; regionId: number | null; region: string | null } {
  const countryId = input.countryId.trim().toUpperCase();
  if (!byIso2.has(countryId)) throw badRequest(`Unknown country: ${input.countryId}`, { reason: 'INVALID_COUNTRY', details: { field: 'countryId' } });
  if (!allowedCountryIds(ctx.app.settings, ctx.store.storeId).includes(countryId)) {
    throw badRequest(`Country ${countryId} is not allowed in this store`, { reason: 'COUNTRY_NOT_ALLOWED', details: { field: 'countryId' } });
  }
  const list = regionsByCountry.get(countryId);
  if (!list) {
    if (input.regionId !== undefined && input.regionId !== null) {
      throw badRequest(`Country ${countryId} has no region list; send region as text`, { reason: 'INVALID_REGION', details: { field: 'regionId' } });
    }
    const region = input.region?.trim() || null;
    return { countryId, regionId: null, region };
  }
  let found: RegionRow | undefined;
  if (input.regionId !== undefined && input.regionId !== null) {
    found = regionsById.get(input.regionId);
    if (!found || found.countryId !== countryId) {
      throw badRequest(`Region ${input.regionId} does not belong to ${countryId}`, { reason: 'INVALID_REGION', details: { field: 'regionId' } });
    }
  } else if (input.region?.trim()) {
    const r = input.region.trim().toLowerCase();
    found = list.find((x) => x.code.toLowerCase() === r || x.name.toLowerCase() === r);
    if (!found) throw badRequest(`Unknown region for ${countryId}: ${input.region}`, { reason: 'INVALID_REGION', details: { field: 'region' } });
  } else if (ctx.app.settings.getList('general/region/state_required', ctx.store.storeId).includes(countryId)) {
    throw badRequest(`A region is required for ${countryId}`, { reason: 'REGION_REQUIRED', details: { field: 'regionId' } });
  }
  return { countryId, regionId: found?.id ?? null, region: found?.name ?? null };
}
