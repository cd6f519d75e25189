/**
 * Countries and regions (static ISO 3166 data), the store's allowed countries, and the validation of an
 * address's country and region used by every module that stores addresses.
 *
 * Everything a request reads is built once: one frozen DTO per country, and per distinct value of
 * `general/country/allow` the sorted list of allowed countries. Names are compared and sorted by their
 * letters without accents, in code-point order, so the order does not depend on the ICU version.
 */
import type { Ctx } from '../../platform/context.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { declareConfig, parseList, type Settings } from '../../platform/settings.js';
import { COUNTRIES, REGIONS, type CountryRow, type RegionRow } from './data.js';
import type { CountryDto, RegionDto } from './schemas.js';

export type { CountryDto, RegionDto } from './schemas.js';

declareConfig({
  'general/country/allow': {
    type: 'multiselect',
    default: COUNTRIES.map((c) => c.iso2).join(','),
    label: 'Allow Countries',
    options: COUNTRIES.map((c) => ({ value: c.iso2, label: c.name })),
  },
  'general/country/default': {
    type: 'select',
    default: 'US',
    label: 'Default Country',
    options: COUNTRIES.map((c) => ({ value: c.iso2, label: c.name })),
  },
  'general/region/state_required': {
    type: 'multiselect',
    default: 'US,CA,AU,AT,CH,DE,ES,FR,IT',
    label: 'State is Required for',
    comment: 'countries where a region must be chosen from the list',
    options: COUNTRIES.map((c) => ({ value: c.iso2, label: c.name })),
  },
});

const MAX_REGION_TEXT = 255;

/** Lower case without diacritics: `Åland` → `aland`, `Málaga` → `malaga`. */
function fold(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

function byFoldedName<T extends { name: string }>(a: T, b: T): number {
  const fa = fold(a.name);
  const fb = fold(b.name);
  if (fa !== fb) return fa < fb ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** A region code or name as typed: folded, and numeric codes without leading zeros (`1` is `01`). */
function regionKey(s: string): string {
  return fold(s.trim()).replace(/^0+(?=\d)/, '');
}

const byIso2 = new Map<string, CountryRow>(COUNTRIES.map((c) => [c.iso2, c]));
/** ISO-2 and ISO-3 codes, as given and lower-cased, so that common lookups allocate nothing */
const byCode = new Map<string, CountryRow>();
for (const c of COUNTRIES) {
  for (const code of [c.iso2, c.iso3]) {
    byCode.set(code, c);
    byCode.set(code.toLowerCase(), c);
  }
}
/** position of each country in name order */
const rank = new Map<string, number>([...COUNTRIES].sort(byFoldedName).map((c, i) => [c.iso2, i]));

const regionsByCountry = new Map<string, RegionRow[]>();
for (const r of REGIONS) {
  const list = regionsByCountry.get(r.countryId) ?? [];
  list.push(r);
  regionsByCountry.set(r.countryId, list);
}
for (const list of regionsByCountry.values()) list.sort(byFoldedName);
const regionsById = new Map<number, RegionRow>(REGIONS.map((r) => [r.id, r]));
/** per country: region code and folded name → region */
const regionLookup = new Map<string, Map<string, RegionRow>>();
for (const [country, list] of regionsByCountry) {
  const m = new Map<string, RegionRow>();
  // names first, so that a code equal to another region's name still finds its own region
  for (const r of list) m.set(regionKey(r.name), r);
  for (const r of list) m.set(regionKey(r.code), r);
  regionLookup.set(country, m);
}

const dtos = new Map<string, CountryDto>();
for (const c of COUNTRIES) {
  const regions: RegionDto[] = (regionsByCountry.get(c.iso2) ?? []).map((r) => Object.freeze({ id: r.id, code: r.code, name: r.name }));
  const availableRegions = Object.freeze(regions) as RegionDto[];
  dtos.set(c.iso2, Object.freeze({ id: c.iso2, name: c.name, iso2Code: c.iso2, iso3Code: c.iso3, availableRegions }));
}

interface AllowedSet {
  ids: readonly string[];
  set: ReadonlySet<string>;
  dtos: CountryDto[];
}

/** keyed by the raw config value; a handful of distinct values exist at any time */
const allowedCache = new Map<string, AllowedSet>();
const ALLOWED_CACHE_MAX = 64;

function allowed(settings: Settings, storeId: number): AllowedSet {
  const raw = settings.get('general/country/allow', storeId) ?? '';
  let a = allowedCache.get(raw);
  if (!a) {
    const set = new Set(
      parseList(raw)
        .map((c) => c.toUpperCase())
        .filter((c) => byIso2.has(c)),
    );
    const ids = Object.freeze([...set].sort((x, y) => rank.get(x)! - rank.get(y)!));
    a = { ids, set, dtos: Object.freeze(ids.map((id) => dtos.get(id)!)) as CountryDto[] };
    if (allowedCache.size >= ALLOWED_CACHE_MAX) allowedCache.clear();
    allowedCache.set(raw, a);
  }
  return a;
}

/** ISO-2 codes of the store's allowed countries, by country name. */
export function allowedCountryIds(settings: Settings, storeId: number): string[] {
  return [...allowed(settings, storeId).ids];
}

/** The store's allowed countries, by name. The array and its objects are shared and frozen: do not modify. */
export function listCountries(ctx: Ctx): CountryDto[] {
  return allowed(ctx.app.settings, ctx.store.storeId).dtos;
}

function findCountry(code: string): CountryRow | undefined {
  return byCode.get(code) ?? byCode.get(code.trim().toUpperCase());
}

/** Any country (allowed in the store or not) by ISO-2 or ISO-3 code, case-insensitive. Shared and frozen. */
export function getCountry(_ctx: Ctx, id: string): CountryDto {
  const c = findCountry(id);
  if (!c) throw notFound(`Country not found: ${id}`);
  return dtos.get(c.iso2)!;
}

export function countryExists(code: string): boolean {
  return findCountry(code) !== undefined;
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
 * Checks an address's country and region. The country (ISO-2, or ISO-3 which is stored as ISO-2; any case)
 * must be allowed in the store. Where the country has a region list, the region must come from it, given by
 * id, or by code or name (any case, accents optional); it is returned with both id and name, and it is
 * required where `general/region/state_required` lists the country. Elsewhere the region is free text and a
 * region id is refused. A region id of 0 means none, as Magento clients send it.
 */
export function resolveAddressLocation(
  ctx: Ctx,
  input: AddressLocation,
): { countryId: string; regionId: number | null; region: string | null } {
  const country = typeof input.countryId === 'string' ? findCountry(input.countryId) : undefined;
  if (!country) throw badRequest(`Unknown country: ${input.countryId}`, { reason: 'INVALID_COUNTRY', details: { field: 'countryId' } });
  const countryId = country.iso2;
  if (!allowed(ctx.app.settings, ctx.store.storeId).set.has(countryId)) {
    throw badRequest(`Country ${countryId} is not allowed in this store`, {
      reason: 'COUNTRY_NOT_ALLOWED',
      details: { field: 'countryId' },
    });
  }
  const regionId = input.regionId === 0 ? null : (input.regionId ?? null);
  const text = input.region?.trim() || null;
  if (text && text.length > MAX_REGION_TEXT) {
    throw badRequest(`The region has at most ${MAX_REGION_TEXT} characters`, { reason: 'INVALID_REGION', details: { field: 'region' } });
  }
  const lookup = regionLookup.get(countryId);
  if (!lookup) {
    if (regionId !== null) {
      throw badRequest(`Country ${countryId} has no region list; send region as text`, {
        reason: 'INVALID_REGION',
        details: { field: 'regionId' },
      });
    }
    return { countryId, regionId: null, region: text };
  }
  let found: RegionRow | undefined;
  if (regionId !== null) {
    found = regionsById.get(regionId);
    if (!found || found.countryId !== countryId) {
      throw badRequest(`Region ${regionId} does not belong to ${countryId}`, { reason: 'INVALID_REGION', details: { field: 'regionId' } });
    }
  } else if (text) {
    found = lookup.get(regionKey(text));
    if (!found) throw badRequest(`Unknown region for ${countryId}: ${text}`, { reason: 'INVALID_REGION', details: { field: 'region' } });
  } else if (ctx.app.settings.getList('general/region/state_required', ctx.store.storeId).some((c) => c.toUpperCase() === countryId)) {
    throw badRequest(`A region is required for ${countryId}`, { reason: 'REGION_REQUIRED', details: { field: 'regionId' } });
  }
  return { countryId, regionId: found?.id ?? null, region: found?.name ?? null };
}
