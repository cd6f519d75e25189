/**
 * Layered navigation: for a category page (categoryId) or search results (search|q), the filterable
 * attributes with how many products of the listing carry each option, and a price filter in ranges. Counts
 * use the listing's own condition (listingWhere), so they are what the listing shows. Each attribute the
 * query already filters on is counted without its own filter (choosing another option of it shows that
 * option's count), and the price ranges without priceMin/priceMax.
 *
 * A product carries an option when it or one of its children does (a configurable's variants, a grouped or
 * bundle product's items: `attributeSources`, the definition the listing's attr_<code> filter uses), and is
 * counted once per option: so choosing an option lists exactly `count` products.
 *
 * Two statements: one for every select/multiselect attribute, one for the price ranges.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../../platform/context.js';
import { rows } from '../../../platform/db.js';
import { dec, type Decimal } from '../../../platform/money.js';
import { currencySymbol } from '../../stores/service.js';
import { readView } from '../products/read-view.js';
import { attributeSources, attributeValues, listingParams, listingWhere, searchText } from '../products/listing.js';
import type { ProductListQueryT } from '../products/schemas.js';
import { attributeOptions, categories, productAttributes, products } from '../tables.js';

export interface LayeredOption {
  value: string;
  label: string;
  count: number;
  swatch?: { type: string; value: string };
}

export interface LayeredFilter {
  code: string;
  label: string;
  type: 'select' | 'multiselect' | 'price';
  position: number;
  multiple: boolean;
  options: LayeredOption[];
}

/** Automatic price steps go no lower than this unless the highest price is below it (as Magento's "auto" step). */
const MIN_AUTO_STEP = 10;

/** Filtered attributes counted without their own filter; any further ones are counted with it. */
const MAX_SEPARATE_COUNTS = 20;

/** Attribute codes the query filters on: `attr_<code>` parameters and the keys of `attributeFilters`. */
function filteredCodes(q: ProductListQueryT): string[] {
  const codes = new Set<string>();
  for (const [k, v] of Object.entries(q)) if (k.startsWith('attr_') && v !== undefined) codes.add(k.slice(5));
  const parsed = parseFilters(q.attributeFilters);
  if (parsed) for (const k of Object.keys(parsed)) codes.add(k);
  return [...codes];
}

function parseFilters(raw: string | undefined): Record<string, unknown> | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  try {
    const v: unknown = JSON.parse(raw);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The query without its filter on `code`. */
function withoutAttribute(q: ProductListQueryT, code: string): ProductListQueryT {
  const out: ProductListQueryT = { ...q };
  delete out[`attr_${code}`];
  const parsed = parseFilters(q.attributeFilters);
  if (parsed && code in parsed) {
    const rest = { ...parsed };
    delete rest[code];
    out.attributeFilters = Object.keys(rest).length ? JSON.stringify(rest) : undefined;
  }
  return out;
}

interface OptionRow {
  code: string;
  label: string;
  input: string;
  position: number;
  filterable: number;
  option_id: number;
  option_label: string;
  swatch_type: string | null;
  swatch_value: string | null;
  n: number | string;
}

interface PriceRow {
  label: string;
  position: number;
  step: string;
  bucket: number;
  n: number | string;
}

async function attributeFilters(ctx: Ctx, q: ProductListQueryT, inSearch: boolean, storeKey: string): Promise<LayeredFilter[]> {
  const codes = filteredCodes(q).slice(0, MAX_SEPARATE_COUNTS);
  const filterable = inSearch ? sql`a.is_filterable_in_search` : sql`a.is_filterable > 0`;
  // the whole query first, so that a bad filter is a 400 before anything else; then one product set for the
  // unfiltered attributes, one per attribute the query filters on (without that filter)
  const bases: { name: string; where: SQL; codes?: string }[] = [{ name: 'b0', where: await listingWhere(ctx, q) }];
  for (const [i, code] of codes.entries()) {
    bases.push({ name: `b${i + 1}`, where: await listingWhere(ctx, withoutAttribute(q, code)), codes: code });
  }
  const baseCtes = bases.map(
    (b) =>
      sql`${sql.identifier(b.name)} AS (SELECT ${products.id} AS id, ${products.type} AS type, ${products.attributes} AS attributes
        FROM ${products} WHERE ${b.where})`,
  );
  const p = listingParams(ctx);
  const sources = attributeSources(p, { id: sql`b.id`, type: sql`b.type`, attributes: sql`b.attributes` });
  const counts = bases.map((b) => {
    const which =
      b.codes === undefined
        ? codes.length
          ? sql`fa.code NOT IN (${sql.join(
              codes.map((c) => sql`${c}::text`),
              sql`, `,
            )})`
          : sql`true`
        : sql`fa.code = ${b.codes}::text`;
    // each product once per value it carries itself or through a child
    return sql`SELECT fa.id AS attribute_id, v.value, count(DISTINCT b.id) AS n
      FROM ${sql.identifier(b.name)} b CROSS JOIN LATERAL ${sources} AS src
      JOIN fa ON ${which}
      CROSS JOIN LATERAL unnest(${attributeValues(sql`src.attrs`, sql`fa.code`)}) AS v(value)
      GROUP BY fa.id, v.value`;
  });
  const result = await rows<OptionRow>(
    ctx.db,
    sql`WITH fa AS (SELECT a.id, a.code FROM ${productAttributes} a
        WHERE ${filterable} AND a.frontend_input IN ('select', 'multiselect')),
      ${sql.join(baseCtes, sql`, `)},
      vals AS (${sql.join(counts, sql` UNION ALL `)})
    SELECT a.code, a.label, a.frontend_input AS input, a.position, a.is_filterable AS filterable,
      o.id AS option_id, coalesce(nullif(o.store_labels ->> ${storeKey}::text, ''), o.label) AS option_label,
      o.swatch_type, o.swatch_value, coalesce(vals.n, 0) AS n
    FROM fa JOIN ${productAttributes} a ON a.id = fa.id
    JOIN ${attributeOptions} o ON o.attribute_id = a.id
    LEFT JOIN vals ON vals.attribute_id = a.id AND vals.value = o.id::text
    ORDER BY a.position, a.code, o.sort_order, o.id`,
  );
  const out: LayeredFilter[] = [];
  for (const r of result) {
    const count = Number(r.n);
    // "filterable (with results)" and search results show only options that lead somewhere
    if (count === 0 && (inSearch || r.filterable === 1)) continue;
    let filter = out[out.length - 1];
    if (!filter || filter.code !== r.code) {
      const multiple = r.input === 'multiselect';
      filter = { code: r.code, label: r.label, type: multiple ? 'multiselect' : 'select', position: r.position, multiple, options: [] };
      out.push(filter);
    }
    const option: LayeredOption = { value: String(r.option_id), label: r.option_label, count };
    if (r.swatch_type && r.swatch_value) option.swatch = { type: r.swatch_type, value: r.swatch_value };
    filter.options.push(option);
  }
  return out;
}

async function priceFilter(ctx: Ctx, q: ProductListQueryT, inSearch: boolean): Promise<LayeredFilter | undefined> {
  const view = readView(ctx);
  const where = await listingWhere(ctx, { ...q, priceMin: undefined, priceMax: undefined });
  const filterable = inSearch ? sql`a.is_filterable_in_search` : sql`a.is_filterable > 0`;
  // the amount shoppers see, as the listing's priceMin/priceMax compare it
  const shown = view.rate ? sql`round(${products.minPrice} * ${view.rate.toString()}::numeric, 2)` : sql`${products.minPrice}`;
  const fixed =
    q.categoryId === undefined
      ? sql`SELECT NULL::numeric AS step WHERE false`
      : sql`SELECT c.filter_price_range AS step FROM ${categories} c WHERE c.id = ${q.categoryId}::int AND c.filter_price_range > 0`;
  const result = await rows<PriceRow>(
    ctx.db,
    sql`WITH pa AS (SELECT a.label, a.position FROM ${productAttributes} a WHERE a.code = 'price' AND ${filterable}),
      s AS (SELECT ${shown} AS p FROM ${products} WHERE ${where} AND ${products.minPrice} IS NOT NULL),
      fixed AS (${fixed}),
      e AS (SELECT length(floor(max(s.p))::bigint::text) - 1 AS e0 FROM s),
      steps AS (
        SELECT step FROM fixed
        UNION ALL
        SELECT power(10::numeric, g) AS step FROM e, generate_series(e.e0, least(e.e0, 1), -1) AS g
        WHERE e.e0 IS NOT NULL AND NOT EXISTS (SELECT 1 FROM fixed)
      )
    SELECT pa.label, pa.position, steps.step::text AS step, floor(s.p / steps.step)::bigint AS bucket, count(*) AS n
    FROM s CROSS JOIN steps CROSS JOIN pa
    GROUP BY pa.label, pa.position, steps.step, floor(s.p / steps.step)
    ORDER BY steps.step DESC, bucket`,
  );
  if (!result.length) return undefined;
  // the largest step that splits the products into at least two ranges, going down to MIN_AUTO_STEP
  const bySteps = new Map<string, PriceRow[]>();
  for (const r of result) {
    const list = bySteps.get(r.step);
    if (list) list.push(r);
    else bySteps.set(r.step, [r]);
  }
  let chosen: { step: Decimal; rows: PriceRow[] } | undefined;
  for (const [step, list] of bySteps) {
    chosen = { step: dec(step), rows: list };
    if (list.length >= 2 || chosen.step.lte(MIN_AUTO_STEP)) break;
  }
  const symbol = currencySymbol(view.currency);
  const options = chosen!.rows.map((r): LayeredOption => {
    const from = chosen!.step.times(Number(r.bucket));
    const to = from.plus(chosen!.step);
    return {
      value: `${from.toFixed()}-${to.toFixed()}`,
      label: `${symbol}${from.toFixed(2)} - ${symbol}${to.minus('0.01').toFixed(2)}`,
      count: Number(r.n),
    };
  });
  return { code: 'price', label: result[0].label, type: 'price', position: result[0].position, multiple: false, options };
}

/**
 * The layered filters of a category page or of search results; nothing without categoryId and search.
 * A price range's value is `from-to`: from its lower bound up to, not including, its upper bound.
 */
export async function layeredFilters(ctx: Ctx, q: ProductListQueryT): Promise<{ items: LayeredFilter[]; total: number }> {
  const search = searchText(q);
  if (q.categoryId === undefined && !search) return { items: [], total: 0 };
  const inSearch = search !== undefined;
  const storeKey = String(ctx.store.storeId);
  const [attrs, price] = [await attributeFilters(ctx, q, inSearch, storeKey), await priceFilter(ctx, q, inSearch)];
  const items = price ? [...attrs, price] : attrs;
  items.sort((a, b) => a.position - b.position || a.code.localeCompare(b.code));
  return { items, total: items.length };
}
