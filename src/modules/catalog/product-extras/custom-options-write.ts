/**
 * Writes of product custom options: create, update (values matched by id, else by title) and delete. Select
 * types (drop_down, radio, checkbox, multiple) carry at least one value and are priced on their values; the
 * other types carry their own price and no values. maxCharacters belongs to field and area options,
 * fileExtensions and imageSizeX/Y to file options. Every write keeps the product's has_required_options flag in
 * step, in the same transaction.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterCommit, withTx, type Ctx } from '../../../platform/context.js';
import { notFound } from '../../../platform/errors.js';
import { deleteMediaFile } from '../../../platform/files.js';
import { dec } from '../../../platform/money.js';
import { DECIMAL_PLACES, lockProduct, syncHasRequiredOptions } from '../products/subresource-shared.js';
import {
  SELECT_OPTION_TYPES,
  type CustomOptionCreateInput,
  type CustomOptionDto,
  type CustomOptionUpdateInput,
  type CustomOptionValueInputT,
  type OptionType,
} from './custom-options-schemas.js';
import { PRODUCT_TYPES, type ProductType } from '../products/shared.js';
import { touchProduct } from '../products/touch.js';
import { customOptionFiles, customOptionValues, customOptions } from '../tables.js';
import { invalid, isSelectType, toDto, valuesOf, type OptionRow, type ValueRow } from './custom-options-service.js';

/** Grouped products are sold as their children: they have no options of their own. */
const OPTION_PRODUCT_TYPES: readonly ProductType[] = PRODUCT_TYPES.filter((t) => t !== 'grouped');
const PRICE_MAX = 999_999_999_999;

/** Which type-specific fields each type takes. */
const FIELD_TYPES = {
  price: (t: string) => !isSelectType(t),
  maxCharacters: (t: string) => t === 'field' || t === 'area',
  fileExtensions: (t: string) => t === 'file',
  imageSizeX: (t: string) => t === 'file',
  imageSizeY: (t: string) => t === 'file',
} as const;
type TypedField = keyof typeof FIELD_TYPES;

// ---- validation ----

function cleanText(value: string, field: string, opts: { required: boolean }): string | null {
  if (/[\u0000-\u001f\u007f]/.test(value)) throw invalid(field, 'must not contain control characters', 'pattern');
  const t = value.trim();
  if (!t) {
    if (opts.required) throw invalid(field, 'must not be empty', 'minLength');
    return null;
  }
  return t;
}

function priceOf(value: number, field: string): string {
  if (!Number.isFinite(value) || value < 0) throw invalid(field, 'must be a number of at least 0', 'minimum');
  if (value > PRICE_MAX) throw invalid(field, `must be at most ${PRICE_MAX}`, 'maximum');
  const d = dec(value);
  if (d.decimalPlaces() > DECIMAL_PLACES) throw invalid(field, `must have at most ${DECIMAL_PLACES} decimal places`, 'multipleOf');
  return d.toFixed();
}

/** "jpg, .PNG;pdf" → "jpg, png, pdf"; empty → null. */
function cleanExtensions(value: string): string | null {
  const list = value
    .split(/[\s,;]+/)
    .map((e) => e.replace(/^\.+/, '').toLowerCase())
    .filter(Boolean);
  for (const e of list) {
    if (!/^[a-z0-9]{1,10}$/.test(e)) throw invalid('fileExtensions', `has an invalid extension "${e}"`, 'pattern');
  }
  return list.length ? [...new Set(list)].join(', ') : null;
}

type OptionColumns = Omit<OptionRow, 'id' | 'productId'>;

/**
 * The option's columns after applying `input` (the keys sent) to `existing` (none on create). A type-specific
 * field sent for a type that does not take it is a 400; one left over from a previous type is cleared.
 */
function optionColumns(input: CustomOptionUpdateInput, existing?: OptionRow): OptionColumns {
  const type = (input.type ?? existing?.type) as OptionType | undefined;
  if (!type) throw invalid('type', 'is required', 'required');
  const titleRaw = input.title ?? existing?.title;
  if (titleRaw === undefined) throw invalid('title', 'is required', 'required');
  const title = cleanText(titleRaw, 'title', { required: true })!;
  for (const field of Object.keys(FIELD_TYPES) as TypedField[]) {
    const v = input[field];
    if (v !== undefined && v !== null && !FIELD_TYPES[field](type)) {
      throw invalid(field, `is not used by ${type} options`, 'type');
    }
  }
  const keep = <K extends TypedField>(field: K): OptionRow[K] | null =>
    FIELD_TYPES[field](type) && existing && FIELD_TYPES[field](existing.type) ? existing[field] : null;
  const select = isSelectType(type);
  let price: string | null = null;
  if (!select) {
    if (input.price !== undefined && input.price !== null) price = priceOf(input.price, 'price');
    else if (input.price === undefined) price = keep('price');
    price ??= '0';
  }
  const sku =
    input.sku !== undefined ? (input.sku === null ? null : cleanText(input.sku, 'sku', { required: false })) : (existing?.sku ?? null);
  const fileExtensions =
    input.fileExtensions !== undefined
      ? input.fileExtensions === null
        ? null
        : cleanExtensions(input.fileExtensions)
      : keep('fileExtensions');
  return {
    title,
    type,
    required: input.required ?? existing?.required ?? false,
    sortOrder: input.sortOrder ?? existing?.sortOrder ?? 0,
    price,
    priceType: select ? 'fixed' : (input.priceType ?? (existing && !isSelectType(existing.type) ? existing.priceType : 'fixed')),
    sku,
    maxCharacters: input.maxCharacters !== undefined ? input.maxCharacters : keep('maxCharacters'),
    fileExtensions,
    imageSizeX: input.imageSizeX !== undefined ? input.imageSizeX : keep('imageSizeX'),
    imageSizeY: input.imageSizeY !== undefined ? input.imageSizeY : keep('imageSizeY'),
  };
}

type ValueColumns = Omit<ValueRow, 'id' | 'optionId'> & { id?: number };

/** Titles compare without regard to case: a shopper cannot tell "Red" from "red" apart in a list. */
const titleKey = (title: string) => title.normalize('NFC').toLowerCase();

/** The values' columns; ids must be values of the option, and no two values of an option share a title (400). */
function valueColumns(values: CustomOptionValueInputT[], existingIds: Set<number>): ValueColumns[] {
  const seen = new Set<number>();
  const titles = new Map<string, number>();
  return values.map((v, i) => {
    const field = `values.${i}`;
    if (v.id !== undefined) {
      if (!existingIds.has(v.id)) throw invalid(`${field}.id`, `${v.id} is not a value of this option`, 'reference');
      if (seen.has(v.id)) throw invalid(`${field}.id`, `${v.id} is listed twice`, 'uniqueItems');
      seen.add(v.id);
    }
    const title = cleanText(v.title, `${field}.title`, { required: true })!;
    const prior = titles.get(titleKey(title));
    if (prior !== undefined) throw invalid(`${field}.title`, `"${title}" is already the title of values.${prior}`, 'uniqueItems');
    titles.set(titleKey(title), i);
    return {
      id: v.id,
      title,
      price: priceOf(v.price ?? 0, `${field}.price`),
      priceType: v.priceType ?? 'fixed',
      sku: v.sku === undefined || v.sku === null ? null : cleanText(v.sku, `${field}.sku`, { required: false }),
      sortOrder: v.sortOrder ?? i,
    };
  });
}

/** The values an option of `type` ends up with: undefined keeps the current ones. */
function checkValues(type: string, input: CustomOptionValueInputT[] | undefined, hadSelectValues: boolean): void {
  if (isSelectType(type)) {
    if (input === undefined && !hadSelectValues) throw invalid('values', `needs at least one value for ${type} options`, 'required');
    if (input !== undefined && input.length === 0) throw invalid('values', `needs at least one value for ${type} options`, 'minItems');
  } else if (input !== undefined && input.length > 0) {
    throw invalid('values', `are only for ${SELECT_OPTION_TYPES.join(', ')} options`, 'type');
  }
}

// ---- writes ----

async function requireOption(ctx: Ctx, productId: number, id: number): Promise<OptionRow> {
  const [row] = await ctx.db
    .select()
    .from(customOptions)
    .where(and(eq(customOptions.id, id), eq(customOptions.productId, productId)))
    .for('update');
  if (!row) throw notFound(`Custom option ${id} not found on this product`, { reason: 'OPTION_NOT_FOUND', details: { id } });
  return row;
}

async function afterWrite(ctx: Ctx, productId: number, optionId: number): Promise<CustomOptionDto> {
  await syncHasRequiredOptions(ctx, productId);
  await touchProduct(ctx, productId);
  const [row] = await ctx.db.select().from(customOptions).where(eq(customOptions.id, optionId));
  const values = await valuesOf(ctx, [optionId]);
  return toDto(row, values.get(optionId) ?? []);
}

/** POST /products/{id}/custom-options. */
export async function createCustomOption(ctx: Ctx, productId: number, input: CustomOptionCreateInput): Promise<CustomOptionDto> {
  const cols = optionColumns(input);
  checkValues(cols.type, input.values, false);
  const values = isSelectType(cols.type)
    ? valueColumns(
        (input.values ?? []).map((v) => ({ ...v, id: undefined })),
        new Set(),
      )
    : [];
  return withTx(ctx, async (tx) => {
    await lockProduct(tx, productId, OPTION_PRODUCT_TYPES);
    const [row] = await tx.db
      .insert(customOptions)
      .values({ ...cols, productId })
      .returning({ id: customOptions.id });
    if (values.length) await tx.db.insert(customOptionValues).values(values.map(({ id: _id, ...v }) => ({ ...v, optionId: row.id })));
    return afterWrite(tx, productId, row.id);
  });
}

const sameValue = (row: ValueRow, v: Omit<ValueColumns, 'id'>) =>
  row.title === v.title &&
  dec(row.price).eq(v.price) &&
  row.priceType === v.priceType &&
  row.sku === v.sku &&
  row.sortOrder === v.sortOrder;

/** Changes existing values of an option in one statement (UPDATE ... FROM VALUES). */
async function updateValues(ctx: Ctx, optionId: number, changed: (Omit<ValueColumns, 'id'> & { id: number })[]): Promise<void> {
  if (!changed.length) return;
  const c = customOptionValues;
  const rows = sql.join(
    changed.map(
      (v) => sql`(${v.id}::integer, ${v.title}::text, ${v.price}::numeric, ${v.priceType}::text, ${v.sku}::text, ${v.sortOrder}::integer)`,
    ),
    sql`, `,
  );
  const col = (column: { name: string }) => sql.identifier(column.name);
  await ctx.db.execute(sql`
    UPDATE ${c} SET ${col(c.title)} = d.title, ${col(c.price)} = d.price, ${col(c.priceType)} = d.price_type,
      ${col(c.sku)} = d.sku, ${col(c.sortOrder)} = d.sort_order
    FROM (VALUES ${rows}) AS d(id, title, price, price_type, sku, sort_order)
    WHERE ${c.id} = d.id AND ${c.optionId} = ${optionId}`);
}

/**
 * Replaces an option's values with `values` in at most three statements, however many there are: one delete
 * of the values no longer listed, one insert of the new ones, one update of the kept ones that changed.
 */
async function replaceValues(ctx: Ctx, optionId: number, current: ValueRow[], values: ValueColumns[]): Promise<void> {
  const byId = new Map(current.map((r) => [r.id, r]));
  const kept = new Set(values.flatMap((v) => (v.id === undefined ? [] : [v.id])));
  const gone = current.map((r) => r.id).filter((cid) => !kept.has(cid));
  if (gone.length) await ctx.db.delete(customOptionValues).where(inArray(customOptionValues.id, gone));
  const fresh = values.filter((v) => v.id === undefined).map(({ id: _id, ...v }) => ({ ...v, optionId }));
  if (fresh.length) await ctx.db.insert(customOptionValues).values(fresh);
  const changed = values.filter((v): v is ValueColumns & { id: number } => v.id !== undefined && !sameValue(byId.get(v.id)!, v));
  await updateValues(ctx, optionId, changed);
}

/** PUT /products/{id}/custom-options/{optionId}: the keys sent; `values`, when sent, replaces the values. */
export async function updateCustomOption(
  ctx: Ctx,
  productId: number,
  id: number,
  input: CustomOptionUpdateInput,
): Promise<CustomOptionDto> {
  return withTx(ctx, async (tx) => {
    await lockProduct(tx, productId);
    const existing = await requireOption(tx, productId, id);
    const cols = optionColumns(input, existing);
    const wasSelect = isSelectType(existing.type);
    checkValues(cols.type, input.values, wasSelect);
    const current = await tx.db.select().from(customOptionValues).where(eq(customOptionValues.optionId, id));
    await tx.db.update(customOptions).set(cols).where(eq(customOptions.id, id));
    if (!isSelectType(cols.type)) {
      if (current.length) await tx.db.delete(customOptionValues).where(eq(customOptionValues.optionId, id));
    } else if (input.values !== undefined) {
      await replaceValues(tx, id, current, valueColumns(input.values, new Set(current.map((c) => c.id))));
    }
    return afterWrite(tx, productId, id);
  });
}

/** DELETE /products/{id}/custom-options/{optionId}: the option, its values and the files shoppers uploaded for it. */
export async function deleteCustomOption(ctx: Ctx, productId: number, id: number): Promise<void> {
  await withTx(ctx, async (tx) => {
    await lockProduct(tx, productId);
    await requireOption(tx, productId, id);
    const stored = await tx.db.select({ path: customOptionFiles.path }).from(customOptionFiles).where(eq(customOptionFiles.optionId, id));
    await tx.db.delete(customOptions).where(eq(customOptions.id, id));
    await syncHasRequiredOptions(tx, productId);
    await touchProduct(tx, productId);
    const config = tx.app.config;
    const log = tx.log;
    afterCommit(tx, () => {
      for (const f of stored)
        deleteMediaFile(config, f.path).catch((err) => log.warn({ err, path: f.path }, 'could not delete an option file'));
    });
  });
}
