/** ISO 3166-1 countries and the regions we know of. Region ids are stable: addresses store them. */
export interface CountryRow {
  iso2: string;
  iso3: string;
  name: string;
}
export interface RegionRow {
  id: number;
  countryId: string;
  code: string;
  name: string;
}

export const COUNTRIES: CountryRow[] = [
  { iso2: 'DE', iso3: 'DEU', name: 'Germany' },
  { iso2: 'US', iso3: 'USA', name: 'United States' },
];

export const REGIONS: RegionRow[] = [
  { id: 12, countryId: 'US', code: 'CA', name: 'California' },
  { id: 43, countryId: 'US', code: 'NY', name: 'New York' },
];
