/**
 * The children of grouped products: simple or virtual products, each with the quantity offered by default and
 * a position. Storefront callers see only the children they could buy in their store view.
 */
import { and, asc, eq } from 'drizzle-orm';
import { withTx, type Ctx } from '../../../platform/context.js';
import { conflict, notFound } from '../../../platform/errors.js';
import { toWire } from '../../../platform/money.js';
import { refreshPriceRanges } from '../products/price.js';
import { touchProduct } from '../products/touch.js';
import {
  CHILD_TYPES,
  QTY_MAX,
  assertNoDuplicates,
  decimalField,
  isCatalogReader,
  lockProduct,
  nameIn,
  productRefs,
  requireReadableProduct,
  requireRefs,
  sellableHere,
} from '../products/subresource-shared.js';
import type { GroupedChildDto, GroupedChildInputT } from '../products/subresource-schemas.js';
import { groupedChildren } from '../tables.js';

const GROUPED: ['grouped'] = ['grouped'];

async function children(ctx: Ctx, productId: number, onlyChildId?: number): Promise<GroupedChildDto[]> {
  const where =
    onlyChildId === undefined
      ? eq(groupedChildren.parentId, productId)
      : and(eq(groupedChildren.parentId, productId), eq(groupedChildren.childId, onlyChildId));
  const rows = await ctx.db
    .select()
    .from(groupedChildren)
    .where(where)
    .orderBy(asc(groupedChildren.position), asc(groupedChildren.childId));
  const refs = await productRefs(
    ctx,
    rows.map((r) => r.childId),
  );
  const backend = isCatalogReader(ctx);
  const out: GroupedChildDto[] = [];
  for (const r of rows) {
    const p = refs.get(r.childId);
    if (!p || (!backend && !sellableHere(ctx, p))) continue;
    out.push({
      id: `${productId}_${r.childId}`,
      childProductId: r.childId,
      childProductSku: p.sku,
      childProductName: nameIn(ctx, p),
      qty: toWire(r.qty),
      position: r.position,
    });
  }
  return out;
}

/** The grouped product's children, by position. */
export async function listGroupedChildren(ctx: Ctx, productId: number): Promise<GroupedChildDto[]> {
  await requireReadableProduct(ctx, productId, GROUPED);
  return children(ctx, productId);
}

function clean(item: GroupedChildInputT, prefix = '') {
  return {
    childId: item.childProductId,
    qty: item.qty === undefined ? '0' : decimalField(item.qty, `${prefix}qty`, { min: 0, max: QTY_MAX }),
    position: item.position ?? 0,
  };
}

async function afterWrite(ctx: Ctx, productId: number): Promise<void> {
  await touchProduct(ctx, productId);
  await refreshPriceRanges(ctx, [productId]);
}

/** Adds one child (409 when it is already a child). */
export async function addGroupedChild(ctx: Ctx, productId: number, input: GroupedChildInputT): Promise<GroupedChildDto> {
  const row = clean(input);
  return withTx(ctx, async (tx) => {
    await lockProduct(tx, productId, GROUPED);
    await requireRefs(tx, [{ id: row.childId, field: 'childProductId' }], CHILD_TYPES);
    const [inserted] = await tx.db
      .insert(groupedChildren)
      .values({ parentId: productId, ...row })
      .onConflictDoNothing()
      .returning({ childId: groupedChildren.childId });
    if (!inserted) {
      throw conflict(`Product ${row.childId} is already a child of product ${productId}`, {
        reason: 'ALREADY_A_CHILD',
        details: { field: 'childProductId' },
      });
    }
    await afterWrite(tx, productId);
    const [dto] = await children(tx, productId, row.childId);
    return dto;
  });
}

/** Replaces all children with the given list (an empty list removes them all). */
export async function replaceGroupedChildren(
  ctx: Ctx,
  productId: number,
  items: readonly GroupedChildInputT[],
): Promise<GroupedChildDto[]> {
  const rows = items.map((item, i) => clean(item, `[${i}].`));
  assertNoDuplicates(
    rows.map((r) => r.childId),
    (i) => `[${i}].childProductId`,
  );
  return withTx(ctx, async (tx) => {
    await lockProduct(tx, productId, GROUPED);
    await requireRefs(
      tx,
      rows.map((r, i) => ({ id: r.childId, field: `[${i}].childProductId` })),
      CHILD_TYPES,
    );
    await tx.db.delete(groupedChildren).where(eq(groupedChildren.parentId, productId));
    if (rows.length) await tx.db.insert(groupedChildren).values(rows.map((r) => ({ parentId: productId, ...r })));
    await afterWrite(tx, productId);
    return children(tx, productId);
  });
}

/** Removes one child (404 when it is not a child). */
export async function removeGroupedChild(ctx: Ctx, productId: number, childId: number): Promise<void> {
  await withTx(ctx, async (tx) => {
    await lockProduct(tx, productId, GROUPED);
    const gone = await tx.db
      .delete(groupedChildren)
      .where(and(eq(groupedChildren.parentId, productId), eq(groupedChildren.childId, childId)))
      .returning({ childId: groupedChildren.childId });
    if (!gone.length) throw notFound(`Product ${childId} is not a child of product ${productId}`, { reason: 'CHILD_NOT_FOUND' });
    await afterWrite(tx, productId);
  });
}
