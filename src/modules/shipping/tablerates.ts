/**
 * Table-rate files in Magento's CSV format: a header row, then
 * `Country, Region/State, Zip/Postal Code, <condition> (and above), Shipping Price` per row. Importing replaces
 * a website's rows for one condition, all or nothing.
 */
import { and, eq } from 'drizzle-orm';
import { withTx, type Ctx } from '../../platform/context.js';
import { badRequest } from '../../platform/errors.js';
import { dec, type Decimal } from '../../platform/money.js';
import { getCountry } from '../directory/service.js';
import { isConditionName, CONDITION_NAMES, type ConditionName } from './service.js';
import { tableRates } from './tables.js';

const MAX_ROWS = 100_000;
/** how many row problems one refusal lists */
const MAX_REPORTED = 20;
const CONDITION_MAX = dec('99999999.9999');
const PRICE_MAX = dec('9999999999999999.9999');
const CONDITION_HEADER: Record<ConditionName, string> = {
  package_weight: 'Weight (and above)',
  package_value: 'Order Subtotal (and above)',
  package_qty: '# of Items (and above)',
};

/** Records of a CSV text (RFC 4180 quoting, `,` separator, CRLF or LF, optional BOM). */
export function parseCsv(text: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let any = false;
  for (; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
      continue;
    }
    if (ch === '"' && field === '') {
      quoted = true;
      any = true;
    } else if (ch === ',') {
      row.push(field);
      field = '';
      any = true;
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      out.push(row);
      row = [];
      field = '';
      any = false;
    } else {
      field += ch;
      any = true;
    }
  }
  if (any || field !== '' || row.length) {
    row.push(field);
    out.push(row);
  }
  return out;
}

const isBlank = (r: string[]) => r.every((f) => f.trim() === '');

function decimalField(raw: string, max: Decimal, what: string): Decimal | string {
  const v = raw.trim();
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(v)) return `${what} must be a number of 0 or more, got "${raw}"`;
  const d = dec(v).toDecimalPlaces(4);
  if (d.gt(max)) return `${what} is too large: ${raw}`;
  return d;
}

interface ParsedRow {
  websiteId: number;
  destCountryId: string;
  destRegionId: number;
  destZip: string;
  conditionName: ConditionName;
  conditionValue: string;
  price: string;
}

function parseRow(ctx: Ctx, fields: string[], websiteId: number, conditionName: ConditionName): ParsedRow | string {
  if (fields.length !== 5) return `expected 5 columns, found ${fields.length}`;
  const [countryRaw, regionRaw, zipRaw, condRaw, priceRaw] = fields.map((f) => f.trim());
  let country = '*';
  if (countryRaw !== '' && countryRaw !== '*') {
    try {
      country = getCountry(ctx, countryRaw).iso2Code;
    } catch {
      return `unknown country "${countryRaw}"`;
    }
  }
  let regionId = 0;
  if (regionRaw !== '' && regionRaw !== '*') {
    if (country === '*') return `a region ("${regionRaw}") needs a country`;
    const key = regionRaw.toUpperCase();
    const region = getCountry(ctx, country).availableRegions.find((r) => r.code.toUpperCase() === key);
    if (!region) return `unknown region "${regionRaw}" for ${country}`;
    regionId = region.id;
  }
  let zip = '*';
  if (zipRaw !== '' && zipRaw !== '*') {
    if (zipRaw.length > 20 || !/^[A-Za-z0-9][A-Za-z0-9 -]*\*?$/.test(zipRaw)) return `invalid zip/postal code "${zipRaw}"`;
    zip = zipRaw.toUpperCase();
  }
  const cond = decimalField(condRaw, CONDITION_MAX, 'the condition value');
  if (typeof cond === 'string') return cond;
  const price = decimalField(priceRaw, PRICE_MAX, 'the shipping price');
  if (typeof price === 'string') return price;
  return {
    websiteId,
    destCountryId: country,
    destRegionId: regionId,
    destZip: zip,
    conditionName,
    conditionValue: cond.toFixed(4),
    price: price.toFixed(4),
  };
}

/**
 * Replaces the website's table rates for one condition with the rows of a CSV file. Every bad row is named
 * in one 400 (with its row number, the header being row 1); nothing changes then.
 */
export async function importTableRates(
  ctx: Ctx,
  websiteId: number,
  conditionName: ConditionName,
  csv: string,
): Promise<{ imported: number }> {
  if (!Number.isInteger(websiteId) || !ctx.app.settings.website(websiteId)) throw badRequest(`Unknown website: ${websiteId}`);
  if (!isConditionName(conditionName)) throw badRequest(`The condition is one of ${CONDITION_NAMES.join(', ')}`);
  if (typeof csv !== 'string') throw badRequest('The table rates file is empty');
  const records = parseCsv(csv);
  if (!records.length || isBlank(records[0])) throw badRequest('The table rates file is empty: it needs a header row');
  if (records[0].length !== 5)
    throw badRequest(
      `Row 1: the header has ${records[0].length} columns, expected 5 (Country, Region/State, Zip/Postal Code, condition, Shipping Price)`,
    );
  if (records.length - 1 > MAX_ROWS) throw badRequest(`The file has more than ${MAX_ROWS} rows`);

  const problems: string[] = [];
  const rows: ParsedRow[] = [];
  const seen = new Map<string, number>();
  for (let i = 1; i < records.length; i++) {
    if (isBlank(records[i])) continue;
    const rowNo = i + 1;
    const parsed = parseRow(ctx, records[i], websiteId, conditionName);
    if (typeof parsed === 'string') {
      problems.push(`Row ${rowNo}: ${parsed}`);
      continue;
    }
    const key = `${parsed.destCountryId}|${parsed.destRegionId}|${parsed.destZip}|${parsed.conditionValue}`;
    const first = seen.get(key);
    if (first !== undefined) {
      problems.push(`Row ${rowNo}: duplicate of row ${first} (same country, region, zip and condition value)`);
      continue;
    }
    seen.set(key, rowNo);
    rows.push(parsed);
  }
  if (problems.length) {
    const shown = problems.slice(0, MAX_REPORTED);
    const more = problems.length > shown.length ? `; and ${problems.length - shown.length} more` : '';
    throw badRequest(`Invalid table rates: ${shown.join('; ')}${more}`, { reason: 'INVALID_TABLE_RATES', details: { errors: shown } });
  }
  await withTx(ctx, async (tx) => {
    await tx.db.delete(tableRates).where(and(eq(tableRates.websiteId, websiteId), eq(tableRates.conditionName, conditionName)));
    for (let i = 0; i < rows.length; i += 1000) await tx.db.insert(tableRates).values(rows.slice(i, i + 1000));
  });
  return { imported: rows.length };
}

const csvField = (v: string) => `"${v.replace(/"/g, '""')}"`;

/** The website's table rates for one condition as a CSV file that `importTableRates` reads back. */
export async function exportTableRates(ctx: Ctx, websiteId: number, conditionName: ConditionName): Promise<string> {
  if (!isConditionName(conditionName)) throw badRequest(`The condition is one of ${CONDITION_NAMES.join(', ')}`);
  const found = await ctx.db
    .select()
    .from(tableRates)
    .where(and(eq(tableRates.websiteId, websiteId), eq(tableRates.conditionName, conditionName)));
  // in code-point order, whatever the database's collation
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  found.sort(
    (a, b) =>
      cmp(a.destCountryId, b.destCountryId) ||
      a.destRegionId - b.destRegionId ||
      cmp(a.destZip, b.destZip) ||
      dec(a.conditionValue).comparedTo(dec(b.conditionValue)),
  );
  const lines = [['Country', 'Region/State', 'Zip/Postal Code', CONDITION_HEADER[conditionName], 'Shipping Price'].map(csvField).join(',')];
  for (const r of found) {
    const country = r.destCountryId === '*' ? '*' : getCountry(ctx, r.destCountryId).iso3Code;
    const region =
      r.destRegionId === 0 ? '*' : (getCountry(ctx, r.destCountryId).availableRegions.find((x) => x.id === r.destRegionId)?.code ?? '*');
    lines.push([country, region, r.destZip, r.conditionValue, r.price].map(csvField).join(','));
  }
  return `${lines.join('\n')}\n`;
}
