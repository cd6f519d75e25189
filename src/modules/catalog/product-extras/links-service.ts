/**
 * Product links: related products, cross-sells and up-sells. A product links to any other product, once per
 * kind, never to itself. Storefront callers see only linked products that are enabled in their store view, on
 * their website and visible in the catalog; backend readers see every link.
 */
import { and, asc, eq } from 'drizzle-orm';
import { withTx, type Ctx } from '../../../platform/context.js';
import { badRequest, conflict, notFound } from '../../../platform/errors.js';
import { touchProduct } from '../products/touch.js';
import {
  assertNoDuplicates,
  isCatalogReader,
  lockProduct,
  nameIn,
  productRefs,
  requireReadableProduct,
  requireRefs,
  sellableHere,
  visibleInCatalog,
} from '../products/subresource-shared.js';
import type { ProductLinkDto, ProductLinkInputT } from '../products/subresource-schemas.js';
import { productLinks } from '../tables.js';

/** The path segment of each kind of link and the kind as stored. */
export const LINK_KINDS = { related: 'related', 'cross-sell': 'cross_sell', 'up-sell': 'up_sell' } as const;
export type LinkKind = keyof typeof LINK_KINDS;

async function links(ctx: Ctx, productId: number, kind: LinkKind, onlyLinkedId?: number): Promise<ProductLinkDto[]> {
  const type = LINK_KINDS[kind];
  const base = and(eq(productLinks.productId, productId), eq(productLinks.type, type));
  const rows = await ctx.db
    .select()
    .from(productLinks)
    .where(onlyLinkedId === undefined ? base : and(base, eq(productLinks.linkedProductId, onlyLinkedId)))
    .orderBy(asc(productLinks.position), asc(productLinks.linkedProductId));
  const refs = await productRefs(
    ctx,
    rows.map((r) => r.linkedProductId),
  );
  const backend = isCatalogReader(ctx);
  const out: ProductLinkDto[] = [];
  for (const r of rows) {
    const p = refs.get(r.linkedProductId);
    if (!p || (!backend && !(sellableHere(ctx, p) && visibleInCatalog(p)))) continue;
    out.push({
      id: `${productId}_${p.id}`,
      linkedProductId: p.id,
      linkedProductSku: p.sku,
      linkedProductName: nameIn(ctx, p),
      position: r.position,
    });
  }
  return out;
}

/** The product's links of one kind, by position. */
export async function listProductLinks(ctx: Ctx, productId: number, kind: LinkKind): Promise<ProductLinkDto[]> {
  await requireReadableProduct(ctx, productId);
  return links(ctx, productId, kind);
}

function assertNotSelf(productId: number, linkedId: number, field: string): void {
  if (productId === linkedId) {
    throw badRequest(`${field}: a product cannot link to itself`, { reason: 'SELF_LINK', details: { field } });
  }
}

/** Adds one link (409 when the product is already linked this way). */
export async function addProductLink(ctx: Ctx, productId: number, kind: LinkKind, input: ProductLinkInputT): Promise<ProductLinkDto> {
  assertNotSelf(productId, input.linkedProductId, 'linkedProductId');
  return withTx(ctx, async (tx) => {
    await lockProduct(tx, productId);
    await requireRefs(tx, [{ id: input.linkedProductId, field: 'linkedProductId' }]);
    const [inserted] = await tx.db
      .insert(productLinks)
      .values({ productId, type: LINK_KINDS[kind], linkedProductId: input.linkedProductId, position: input.position ?? 0 })
      .onConflictDoNothing()
      .returning({ id: productLinks.linkedProductId });
    if (!inserted) {
      throw conflict(`Product ${input.linkedProductId} is already a ${kind} product of product ${productId}`, {
        reason: 'ALREADY_LINKED',
        details: { field: 'linkedProductId' },
      });
    }
    await touchProduct(tx, productId);
    const [dto] = await links(tx, productId, kind, input.linkedProductId);
    return dto;
  });
}

/** Replaces the product's links of one kind with the given list (an empty list removes them all). */
export async function replaceProductLinks(
  ctx: Ctx,
  productId: number,
  kind: LinkKind,
  items: readonly ProductLinkInputT[],
): Promise<ProductLinkDto[]> {
  items.forEach((item, i) => assertNotSelf(productId, item.linkedProductId, `[${i}].linkedProductId`));
  assertNoDuplicates(
    items.map((item) => item.linkedProductId),
    (i) => `[${i}].linkedProductId`,
  );
  return withTx(ctx, async (tx) => {
    await lockProduct(tx, productId);
    await requireRefs(
      tx,
      items.map((item, i) => ({ id: item.linkedProductId, field: `[${i}].linkedProductId` })),
    );
    const type = LINK_KINDS[kind];
    await tx.db.delete(productLinks).where(and(eq(productLinks.productId, productId), eq(productLinks.type, type)));
    if (items.length) {
      await tx.db
        .insert(productLinks)
        .values(items.map((item) => ({ productId, type, linkedProductId: item.linkedProductId, position: item.position ?? 0 })));
    }
    await touchProduct(tx, productId);
    return links(tx, productId, kind);
  });
}

/** Removes one link (404 when there is none). */
export async function removeProductLink(ctx: Ctx, productId: number, kind: LinkKind, linkedProductId: number): Promise<void> {
  await withTx(ctx, async (tx) => {
    await lockProduct(tx, productId);
    const gone = await tx.db
      .delete(productLinks)
      .where(
        and(
          eq(productLinks.productId, productId),
          eq(productLinks.type, LINK_KINDS[kind]),
          eq(productLinks.linkedProductId, linkedProductId),
        ),
      )
      .returning({ id: productLinks.linkedProductId });
    if (!gone.length) {
      throw notFound(`Product ${linkedProductId} is not a ${kind} product of product ${productId}`, { reason: 'LINK_NOT_FOUND' });
    }
    await touchProduct(tx, productId);
  });
}
