/**
 * CMS blocks: snippets of content shown in the store views they list (0: every store view) while active.
 * An identifier is unique per store view among blocks, as for pages.
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { withTx, type Ctx } from '../../platform/context.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import { compact, wireDateTime } from '../../platform/format.js';
import type { CollectionResult, Page } from '../../platform/pagination.js';
import { visibleHere } from './block-content.js';
import { renderContents } from './directives.js';
import type { CmsBlockDto, CmsBlockInput, CmsListQueryT } from './schemas.js';
import {
  ALL_STORES,
  assertRowWritable,
  assignedTo,
  checkIdentifier,
  checkScopeAll,
  checkTitle,
  clashCondition,
  inAdminScope,
  isBackOffice,
  listFilters,
  lockIdentifiers,
  listOrder,
  storesById,
  writableStores,
} from './shared.js';
import { cmsBlocks, cmsBlockStores } from './tables.js';

type BlockRow = typeof cmsBlocks.$inferSelect;
const RESOURCE = 'cms-blocks';

function toDto(r: BlockRow, stores: number[]): CmsBlockDto {
  return compact({
    id: r.id,
    identifier: r.identifier,
    title: r.title,
    content: r.content,
    status: r.isActive ? 'enabled' : 'disabled',
    isActive: r.isActive,
    stores,
    createdAt: wireDateTime(r.createdAt) ?? '',
    updatedAt: wireDateTime(r.updatedAt) ?? '',
  }) as CmsBlockDto;
}

/** The storefront sees content with its directives rendered (as for pages, a list's together); the back office the stored text. */
async function shown(ctx: Ctx, dtos: CmsBlockDto[], backOffice: boolean): Promise<CmsBlockDto[]> {
  const rendered = dtos.filter((d) => !backOffice && d.content);
  const contents = await renderContents(
    ctx,
    rendered.map((d) => ({ content: d.content!, self: [d.identifier, String(d.id)] })),
  );
  rendered.forEach((d, i) => (d.content = contents[i]));
  return dtos;
}

async function storesOf(ctx: Ctx, ids: number[]): Promise<Map<number, number[]>> {
  if (!ids.length) return new Map();
  const rows = await ctx.db
    .select({ ownerId: cmsBlockStores.blockId, storeId: cmsBlockStores.storeId })
    .from(cmsBlockStores)
    .where(inArray(cmsBlockStores.blockId, ids));
  return storesById(rows);
}

/** What a principal limited to some store views may read: the blocks of those and of every store view. */
const readScope = (ctx: Ctx): SQL | undefined =>
  inAdminScope(cmsBlocks.id, cmsBlockStores.blockId, cmsBlockStores.storeId, 'cms_block_stores', ctx);

const blockNotFound = () => notFound('CMS block not found', { reason: 'CMS_BLOCK_NOT_FOUND' });

/** Blocks, alphabetically by title; who sees what as for pages (`listPages`). */
export async function listBlocks(ctx: Ctx, q: CmsListQueryT, page: Page): Promise<CollectionResult<CmsBlockDto>> {
  const all = checkScopeAll(ctx, RESOURCE, q.scope);
  const backOffice = isBackOffice(ctx, RESOURCE);
  const conds = listFilters(q, {
    identifier: cmsBlocks.identifier,
    createdAt: cmsBlocks.createdAt,
    updatedAt: cmsBlocks.updatedAt,
    isActive: cmsBlocks.isActive,
    search: [cmsBlocks.identifier, cmsBlocks.title, cmsBlocks.content],
  });
  if (q.storeId !== undefined)
    conds.push(assignedTo(cmsBlocks.id, cmsBlockStores.blockId, cmsBlockStores.storeId, 'cms_block_stores', q.storeId));
  if (!all) conds.push(visibleHere(ctx));
  if (!backOffice) conds.push(eq(cmsBlocks.isActive, true));
  const scope = readScope(ctx);
  if (scope) conds.push(scope);
  const where = and(...conds);
  const [rows, [{ n }]] = await Promise.all([
    ctx.db
      .select()
      .from(cmsBlocks)
      .where(where)
      .orderBy(...listOrder(cmsBlocks, q.sortBy, q.sortDir, 'title'))
      .limit(page.size)
      .offset(page.offset),
    ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(cmsBlocks)
      .where(where),
  ]);
  const stores = await storesOf(
    ctx,
    rows.map((r) => r.id),
  );
  return {
    items: await shown(
      ctx,
      rows.map((r) => toDto(r, stores.get(r.id) ?? [])),
      backOffice,
    ),
    total: n,
  };
}

/** One block: public callers only an active block of the current store view (else 404); back-office readers any. */
export async function getBlock(ctx: Ctx, id: number): Promise<CmsBlockDto> {
  return readBlock(ctx, id, isBackOffice(ctx, RESOURCE));
}

async function readBlock(ctx: Ctx, id: number, backOffice: boolean): Promise<CmsBlockDto> {
  const conds: SQL[] = [eq(cmsBlocks.id, id)];
  if (!backOffice) conds.push(eq(cmsBlocks.isActive, true), visibleHere(ctx));
  const scope = readScope(ctx);
  if (scope) conds.push(scope);
  const [row] = await ctx.db
    .select()
    .from(cmsBlocks)
    .where(and(...conds));
  if (!row) throw blockNotFound();
  return (await shown(ctx, [toDto(row, (await storesOf(ctx, [id])).get(id) ?? [])], backOffice))[0];
}

async function assertFree(tx: Ctx, identifier: string, stores: number[], exceptId?: number): Promise<void> {
  const [clash] = await tx.db
    .select({ id: cmsBlocks.id })
    .from(cmsBlocks)
    .where(
      clashCondition(
        cmsBlocks.id,
        cmsBlocks.identifier,
        cmsBlockStores.blockId,
        cmsBlockStores.storeId,
        'cms_block_stores',
        identifier,
        stores,
        exceptId,
      ),
    )
    .limit(1);
  if (clash) {
    throw conflict(`A CMS block with identifier "${identifier}" already exists in one of these store views`, {
      reason: 'CMS_BLOCK_IDENTIFIER_TAKEN',
      details: { field: 'identifier', identifier, blockId: clash.id },
    });
  }
}

async function writeStores(tx: Ctx, id: number, stores: number[]): Promise<void> {
  await tx.db.delete(cmsBlockStores).where(eq(cmsBlockStores.blockId, id));
  await tx.db.insert(cmsBlockStores).values(stores.map((storeId) => ({ blockId: id, storeId })));
}

/** Creates a block: identifier and title required; active and in every store view unless told otherwise. */
export async function createBlock(ctx: Ctx, body: CmsBlockInput): Promise<CmsBlockDto> {
  if (body.identifier === undefined) throw badRequest('identifier is required', { reason: 'REQUIRED', details: { field: 'identifier' } });
  if (body.title === undefined) throw badRequest('title is required', { reason: 'REQUIRED', details: { field: 'title' } });
  const identifier = checkIdentifier(body.identifier);
  const title = checkTitle(body.title);
  const stores = writableStores(ctx, body.stores);
  const id = await withTx(ctx, async (tx) => {
    await lockIdentifiers(tx, RESOURCE);
    await assertFree(tx, identifier, stores);
    const [row] = await tx.db
      .insert(cmsBlocks)
      .values({ identifier, title, content: body.content ?? '', isActive: body.isActive ?? true, createdAt: tx.now, updatedAt: tx.now })
      .returning({ id: cmsBlocks.id });
    await writeStores(tx, row.id, stores);
    return row.id;
  });
  return readBlock(ctx, id, true);
}

/** Updates the fields sent; a new identifier or store list is checked for clashes. */
export async function updateBlock(ctx: Ctx, id: number, body: CmsBlockInput): Promise<CmsBlockDto> {
  const identifier = body.identifier === undefined ? undefined : checkIdentifier(body.identifier);
  const title = body.title === undefined ? undefined : checkTitle(body.title);
  const stores = body.stores === undefined ? undefined : writableStores(ctx, body.stores);
  await withTx(ctx, async (tx) => {
    await lockIdentifiers(tx, RESOURCE);
    const [row] = await tx.db.select().from(cmsBlocks).where(eq(cmsBlocks.id, id)).for('update');
    if (!row) throw blockNotFound();
    const current = (await storesOf(tx, [id])).get(id) ?? [ALL_STORES];
    assertRowWritable(tx, current, blockNotFound);
    const nextStores = stores ?? current;
    const moved = (identifier !== undefined && identifier !== row.identifier) || stores !== undefined;
    if (moved) await assertFree(tx, identifier ?? row.identifier, nextStores, id);
    const set: Partial<typeof cmsBlocks.$inferInsert> = { updatedAt: tx.now };
    if (identifier !== undefined) set.identifier = identifier;
    if (title !== undefined) set.title = title;
    if ('content' in body) set.content = body.content ?? '';
    if (body.isActive !== undefined) set.isActive = body.isActive;
    await tx.db.update(cmsBlocks).set(set).where(eq(cmsBlocks.id, id));
    if (stores !== undefined) await writeStores(tx, id, stores);
  });
  return readBlock(ctx, id, true);
}

/** Deletes a block and its store links. */
export async function deleteBlock(ctx: Ctx, id: number): Promise<void> {
  await withTx(ctx, async (tx) => {
    assertRowWritable(tx, (await storesOf(tx, [id])).get(id) ?? [], blockNotFound);
    const [row] = await tx.db.delete(cmsBlocks).where(eq(cmsBlocks.id, id)).returning({ id: cmsBlocks.id });
    if (!row) throw blockNotFound();
  });
}
