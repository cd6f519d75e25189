/**
 * Bundle options and their selections. Options belong to bundle products only; each selection is a simple or
 * virtual product, at most once per option. An option a shopper picks one selection of (select, radio) has at
 * most one default selection. Selections carry a price only in fixed-price bundles (a percent at most 100);
 * a dynamic-price bundle is priced from its selections' own products. A required option makes the bundle
 * `hasRequiredOptions`. Storefront callers see only selections they could buy in their store view.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import { withTx, type Ctx } from '../../../platform/context.js';
import { badRequest, notFound } from '../../../platform/errors.js';
import { toWire } from '../../../platform/money.js';
import { refreshPriceRanges } from '../products/price.js';
import { type ProductRow } from '../products/shared.js';
import { touchProduct } from '../products/touch.js';
import {
  CHILD_TYPES,
  MONEY_MAX,
  QTY_MAX,
  assertNoDuplicates,
  decimalField,
  invalidField,
  isCatalogReader,
  lockProduct,
  nameIn,
  productRefs,
  requireReadableProduct,
  requireRefs,
  sellableHere,
  syncHasRequiredOptions,
} from '../products/subresource-shared.js';
import type {
  BundleOptionCreateT,
  BundleOptionDto,
  BundleOptionUpdateT,
  BundleSelectionDto,
  BundleSelectionInputT,
} from '../products/subresource-schemas.js';
import { bundleOptions, bundleSelections } from '../tables.js';

type OptionRow = typeof bundleOptions.$inferSelect;
type BundleType = BundleOptionDto['type'];

const BUNDLE: ['bundle'] = ['bundle'];
const SINGLE_CHOICE: readonly string[] = ['select', 'radio'];

async function toDtos(ctx: Ctx, options: OptionRow[]): Promise<BundleOptionDto[]> {
  if (!options.length) return [];
  const selections = await ctx.db
    .select()
    .from(bundleSelections)
    .where(
      inArray(
        bundleSelections.optionId,
        options.map((o) => o.id),
      ),
    )
    .orderBy(asc(bundleSelections.position), asc(bundleSelections.id));
  const refs = await productRefs(
    ctx,
    selections.map((s) => s.productId),
  );
  const backend = isCatalogReader(ctx);
  const byOption = new Map<number, BundleSelectionDto[]>();
  for (const s of selections) {
    const p = refs.get(s.productId);
    if (!p || (!backend && !sellableHere(ctx, p))) continue;
    const dto: BundleSelectionDto = {
      selectionId: s.id,
      productId: s.productId,
      sku: p.sku,
      name: nameIn(ctx, p),
      priceType: s.priceType === 'percent' ? 'percent' : 'fixed',
      qty: toWire(s.qty),
      canChangeQty: s.canChangeQty,
      isDefault: s.isDefault,
      position: s.position,
    };
    if (s.price !== null) dto.price = toWire(s.price);
    const list = byOption.get(s.optionId) ?? [];
    list.push(dto);
    byOption.set(s.optionId, list);
  }
  return options.map((o) => ({
    id: o.id,
    title: o.title,
    type: o.type as BundleType,
    required: o.required,
    position: o.position,
    selections: byOption.get(o.id) ?? [],
  }));
}

async function optionsOf(ctx: Ctx, productId: number): Promise<OptionRow[]> {
  return ctx.db
    .select()
    .from(bundleOptions)
    .where(eq(bundleOptions.productId, productId))
    .orderBy(asc(bundleOptions.position), asc(bundleOptions.id));
}

/** The bundle product's options with their selections, by position. */
export async function listBundleOptions(ctx: Ctx, productId: number): Promise<BundleOptionDto[]> {
  await requireReadableProduct(ctx, productId, BUNDLE);
  return toDtos(ctx, await optionsOf(ctx, productId));
}

type NewSelection = Omit<typeof bundleSelections.$inferInsert, 'optionId'> & { isDefault: boolean };

function cleanTitle(title: unknown): string {
  if (typeof title !== 'string' || !title.trim()) invalidField('title', 'must not be empty', 'minLength');
  if (/[\u0000-\u001f\u007f]/.test(title)) invalidField('title', 'must not contain control characters', 'pattern');
  return title.trim();
}

/** A bundle whose price is fixed (price type 1); any other is priced dynamically from its selections. */
const isFixedPrice = (bundle: ProductRow) => bundle.priceType === 1;

/**
 * The price of a selection. Only a fixed-price bundle prices its selections: sending `price`, or a percent
 * `priceType`, for a dynamic-price bundle is a 400 (the "fixed" priceType that reads report for every
 * selection is accepted as the no-op it is). A percent price is at most 100.
 */
function selectionPrice(
  bundle: ProductRow,
  s: BundleSelectionInputT,
  field: string,
): { price: string | null; priceType: 'fixed' | 'percent' } {
  const priceType = s.priceType ?? 'fixed';
  const hasPrice = s.price !== undefined && s.price !== null;
  if (!isFixedPrice(bundle)) {
    if (hasPrice || priceType === 'percent') {
      throw badRequest(
        `${field}: product ${bundle.id} is a dynamic-price bundle, priced from its selections' products; a selection takes a price or a percent priceType only in a fixed-price bundle (priceType 1)`,
        { reason: 'DYNAMIC_BUNDLE_SELECTION_PRICE', details: { field: hasPrice ? `${field}.price` : `${field}.priceType` } },
      );
    }
    return { price: null, priceType: 'fixed' };
  }
  if (!hasPrice) return { price: null, priceType };
  const price = decimalField(s.price, `${field}.price`, { min: 0, max: MONEY_MAX });
  if (priceType === 'percent' && s.price! > 100) invalidField(`${field}.price`, 'must be at most 100 for a percent price', 'maximum');
  return { price, priceType };
}

async function cleanSelections(ctx: Ctx, bundle: ProductRow, input: readonly BundleSelectionInputT[]): Promise<NewSelection[]> {
  const field = (i: number) => `selections[${i}]`;
  const prices = input.map((s, i) => selectionPrice(bundle, s, field(i)));
  assertNoDuplicates(
    input.map((s) => s.productId),
    (i) => `${field(i)}.productId`,
  );
  await requireRefs(
    ctx,
    input.map((s, i) => ({ id: s.productId, field: `${field(i)}.productId` })),
    CHILD_TYPES,
  );
  return input.map((s, i) => ({
    productId: s.productId,
    qty: s.qty === undefined ? '1' : decimalField(s.qty, `${field(i)}.qty`, { min: 0, exclusiveMin: true, max: QTY_MAX }),
    canChangeQty: s.canChangeQty ?? false,
    isDefault: s.isDefault ?? false,
    position: s.position ?? 0,
    ...prices[i],
  }));
}

function assertDefaults(type: string, selections: readonly { isDefault: boolean }[]): void {
  if (SINGLE_CHOICE.includes(type) && selections.filter((s) => s.isDefault).length > 1) {
    throw badRequest(`A ${type} option has at most one default selection`, {
      reason: 'TOO_MANY_DEFAULTS',
      details: { field: 'selections' },
    });
  }
}

async function writeSelections(ctx: Ctx, optionId: number, selections: NewSelection[]): Promise<void> {
  await ctx.db.delete(bundleSelections).where(eq(bundleSelections.optionId, optionId));
  if (selections.length) await ctx.db.insert(bundleSelections).values(selections.map((s) => ({ ...s, optionId })));
}

async function afterWrite(ctx: Ctx, productId: number): Promise<void> {
  await syncHasRequiredOptions(ctx, productId);
  await touchProduct(ctx, productId);
  await refreshPriceRanges(ctx, [productId]);
}

async function oneOption(ctx: Ctx, optionId: number): Promise<BundleOptionDto> {
  const [row] = await ctx.db.select().from(bundleOptions).where(eq(bundleOptions.id, optionId));
  const [dto] = await toDtos(ctx, [row]);
  return dto;
}

async function requireOption(ctx: Ctx, productId: number, optionId: number | undefined): Promise<OptionRow> {
  if (optionId === undefined) invalidField('id', 'is required: the bundle option to change', 'required');
  const [row] = await ctx.db
    .select()
    .from(bundleOptions)
    .where(and(eq(bundleOptions.id, optionId), eq(bundleOptions.productId, productId)));
  if (!row) throw notFound(`Bundle option ${optionId} not found on product ${productId}`, { reason: 'BUNDLE_OPTION_NOT_FOUND' });
  return row;
}

/** Adds an option (with its selections) to a bundle product. */
export async function createBundleOption(ctx: Ctx, productId: number, input: BundleOptionCreateT): Promise<BundleOptionDto> {
  const title = cleanTitle(input.title);
  const type = input.type ?? 'select';
  return withTx(ctx, async (tx) => {
    const bundle = await lockProduct(tx, productId, BUNDLE);
    const selections = await cleanSelections(tx, bundle, input.selections ?? []);
    assertDefaults(type, selections);
    const [row] = await tx.db
      .insert(bundleOptions)
      .values({ productId, title, type, required: input.required ?? true, position: input.position ?? 0 })
      .returning();
    await writeSelections(tx, row.id, selections);
    await afterWrite(tx, productId);
    return oneOption(tx, row.id);
  });
}

/** Changes the fields sent; `selections`, when sent, replaces the option's selections. */
export async function updateBundleOption(
  ctx: Ctx,
  productId: number,
  optionId: number | undefined,
  input: BundleOptionUpdateT,
): Promise<BundleOptionDto> {
  const title = input.title === undefined ? undefined : cleanTitle(input.title);
  return withTx(ctx, async (tx) => {
    const bundle = await lockProduct(tx, productId, BUNDLE);
    const row = await requireOption(tx, productId, optionId);
    const type = input.type ?? row.type;
    const selections = input.selections === undefined ? undefined : await cleanSelections(tx, bundle, input.selections);
    const current: readonly { isDefault: boolean }[] =
      selections ??
      (await tx.db.select({ isDefault: bundleSelections.isDefault }).from(bundleSelections).where(eq(bundleSelections.optionId, row.id)));
    assertDefaults(type, current);
    const set: Partial<OptionRow> = {};
    if (title !== undefined) set.title = title;
    if (input.type !== undefined) set.type = input.type;
    if (input.required !== undefined) set.required = input.required;
    if (input.position !== undefined) set.position = input.position;
    if (Object.keys(set).length) await tx.db.update(bundleOptions).set(set).where(eq(bundleOptions.id, row.id));
    if (selections) await writeSelections(tx, row.id, selections);
    await afterWrite(tx, productId);
    return oneOption(tx, row.id);
  });
}

/** Removes an option and its selections. */
export async function deleteBundleOption(ctx: Ctx, productId: number, optionId: number | undefined): Promise<void> {
  await withTx(ctx, async (tx) => {
    await lockProduct(tx, productId, BUNDLE);
    const row = await requireOption(tx, productId, optionId);
    await tx.db.delete(bundleOptions).where(eq(bundleOptions.id, row.id));
    await afterWrite(tx, productId);
  });
}
