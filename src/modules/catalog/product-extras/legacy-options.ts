/**
 * What the Magento 1 API's custom option resources need of the catalog: options and values named by their own
 * ids (whatever their product), their rows as stored, and Magento's value rows (title, price, price_type, sku,
 * sort_order) as the custom option service's input. Text loses its HTML tags, as Magento strips them; a value of
 * the wrong kind goes to `bad` with what is wrong.
 */
import { asc, eq } from 'drizzle-orm';
import type { Ctx } from '../../../platform/context.js';
import { legacyDecimal, legacyInt } from './legacy.js';
import type { CustomOptionValueInputT } from './custom-options-schemas.js';
import { requireReadableProduct } from '../products/subresource-shared.js';
import { customOptions, customOptionValues } from '../tables.js';

const INT_MAX = 2147483647;

export const stripTags = (s: string) => s.replace(/<[^>]*>/g, '');
export type Bad = (detail: string) => never;

/** Text (or a number as text) of at most `max` characters, without tags; undefined when absent. */
export function textArg(v: unknown, field: string, max: number, bad: Bad): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' && typeof v !== 'number') bad(`${field} must be text.`);
  const s = stripTags(String(v));
  if (s.length > max) bad(`${field} is longer than ${max} characters.`);
  return s;
}

/** A whole number from `min`; undefined when absent. */
export function intArg(v: unknown, field: string, min: number, bad: Bad): number | undefined {
  const n = legacyInt(v, min, INT_MAX);
  if (Number.isNaN(n)) bad(`${field} must be a whole number${min === 0 ? ' of at least 0' : ''}.`);
  return n;
}

/** An amount as the services' JSON number (exact); undefined when absent. */
export function priceArg(v: unknown, field: string, bad: Bad): number | undefined {
  const n = legacyDecimal(v);
  if (n === null) bad(`${field} must be a number.`);
  return n ?? undefined;
}

/** fixed or percent; undefined when absent. */
export function priceTypeArg(v: unknown, bad: Bad): 'fixed' | 'percent' | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (v !== 'fixed' && v !== 'percent') bad('price_type must be fixed or percent.');
  return v;
}

/** A value row (title, price, price_type, sku, sort_order) over `base`, the value it changes. */
export function valueInput(row: ReadonlyMap<string, unknown>, bad: Bad, base?: CustomOptionValueInputT): CustomOptionValueInputT {
  const sku = textArg(row.get('sku'), 'sku', 64, bad);
  return {
    ...base,
    title: textArg(row.get('title'), 'title', 255, bad) ?? base?.title ?? '',
    ...defined({
      price: priceArg(row.get('price'), 'price', bad),
      priceType: priceTypeArg(row.get('price_type'), bad),
      sku: sku === undefined ? undefined : sku || null,
      sortOrder: intArg(row.get('sort_order'), 'sort_order', -INT_MAX, bad),
    }),
  };
}

/** The keys of `o` whose value is not undefined (the keys a client sent). */
export function defined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** A stored value as the service's input, unchanged (its price exact, or a fault rather than a changed price). */
export function storedValue(v: LegacyValueRow, bad: Bad): CustomOptionValueInputT {
  const price = legacyDecimal(v.price);
  if (price === null || price === undefined) return bad(`The price of value ${v.id} has more digits than this API carries.`);
  return { id: v.id, title: v.title, price, priceType: v.priceType as 'fixed' | 'percent', sku: v.sku, sortOrder: v.sortOrder };
}

export type LegacyOptionRow = typeof customOptions.$inferSelect;
export type LegacyValueRow = typeof customOptionValues.$inferSelect;

/** A product's custom options as stored, by sort order (the REST list's order). */
export async function legacyOptionRows(ctx: Ctx, productId: number): Promise<LegacyOptionRow[]> {
  await requireReadableProduct(ctx, productId);
  return ctx.db
    .select()
    .from(customOptions)
    .where(eq(customOptions.productId, productId))
    .orderBy(asc(customOptions.sortOrder), asc(customOptions.id));
}

/** A custom option by its id alone, whatever its product; undefined when there is none. */
export async function legacyOption(ctx: Ctx, optionId: number): Promise<LegacyOptionRow | undefined> {
  const [row] = await ctx.db.select().from(customOptions).where(eq(customOptions.id, optionId));
  return row;
}

/** A custom option value by its id alone, with its option's product and type; undefined when there is none. */
export async function legacyOptionValue(
  ctx: Ctx,
  valueId: number,
): Promise<{ value: LegacyValueRow; productId: number; optionType: string } | undefined> {
  const [row] = await ctx.db
    .select({ value: customOptionValues, productId: customOptions.productId, optionType: customOptions.type })
    .from(customOptionValues)
    .innerJoin(customOptions, eq(customOptions.id, customOptionValues.optionId))
    .where(eq(customOptionValues.id, valueId));
  return row;
}
