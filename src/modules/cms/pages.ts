/**
 * CMS pages. A page is shown in the store views it lists (0: every store view) while it is active; its
 * identifier is its URL path there, registered with the URL resolver in the same transaction as the write.
 * An identifier is unique per store view: no store view sees two pages with the same identifier.
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { withTx, type Ctx } from '../../platform/context.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import { compact, isValidDate, wireDate, wireDateTime } from '../../platform/format.js';
import type { CollectionResult, Page } from '../../platform/pagination.js';
import { renderContents } from './directives.js';
import { removeEntityPaths, replaceEntityPaths } from '../url-resolver/service.js';
import { META_ROBOTS, type CmsListQueryT, type CmsPageDto, type CmsPageInput } from './schemas.js';
import {
  ALL_STORES,
  assertRowWritable,
  assignedTo,
  checkIdentifier,
  checkScopeAll,
  checkTitle,
  clashCondition,
  inAdminScope,
  inStoreView,
  isBackOffice,
  listFilters,
  lockIdentifiers,
  listOrder,
  storesById,
  writableStores,
} from './shared.js';
import { cmsPages, cmsPageStores } from './tables.js';

type PageRow = typeof cmsPages.$inferSelect;
const RESOURCE = 'cms-pages';

function toDto(r: PageRow, stores: number[], backOffice: boolean): CmsPageDto {
  return compact({
    id: r.id,
    identifier: r.identifier,
    title: r.title,
    contentHeading: r.contentHeading,
    content: r.content,
    metaKeywords: r.metaKeywords,
    metaDescription: r.metaDescription,
    metaRobots: r.metaRobots,
    pageLayout: r.pageLayout,
    sortOrder: r.sortOrder,
    layoutUpdateXml: backOffice ? r.layoutUpdateXml : null,
    customTheme: backOffice ? r.customTheme : null,
    customRootTemplate: backOffice ? r.customRootTemplate : null,
    customLayoutUpdateXml: backOffice ? r.customLayoutUpdateXml : null,
    customThemeFrom: backOffice ? wireDate(r.customThemeFrom) : null,
    customThemeTo: backOffice ? wireDate(r.customThemeTo) : null,
    status: r.isActive ? 'enabled' : 'disabled',
    isActive: r.isActive,
    stores,
    createdAt: wireDateTime(r.createdAt) ?? '',
    updatedAt: wireDateTime(r.updatedAt) ?? '',
  }) as CmsPageDto;
}

/** The storefront sees content with its directives rendered (a list's together); the back office the stored text it edits. */
async function shown(ctx: Ctx, dtos: CmsPageDto[], backOffice: boolean): Promise<CmsPageDto[]> {
  const rendered = dtos.filter((d) => !backOffice && d.content);
  const contents = await renderContents(
    ctx,
    rendered.map((d) => ({ content: d.content! })),
  );
  rendered.forEach((d, i) => (d.content = contents[i]));
  return dtos;
}

async function storesOf(ctx: Ctx, ids: number[]): Promise<Map<number, number[]>> {
  if (!ids.length) return new Map();
  const rows = await ctx.db
    .select({ ownerId: cmsPageStores.pageId, storeId: cmsPageStores.storeId })
    .from(cmsPageStores)
    .where(inArray(cmsPageStores.pageId, ids));
  return storesById(rows);
}

const visibleHere = (ctx: Ctx): SQL =>
  inStoreView(cmsPages.id, cmsPageStores.pageId, cmsPageStores.storeId, 'cms_page_stores', ctx.store.storeId);

/** What a principal limited to some store views may read: the pages of those and of every store view. */
const readScope = (ctx: Ctx): SQL | undefined =>
  inAdminScope(cmsPages.id, cmsPageStores.pageId, cmsPageStores.storeId, 'cms_page_stores', ctx);

const pageNotFound = () => notFound('CMS page not found', { reason: 'CMS_PAGE_NOT_FOUND' });

/**
 * Pages, alphabetically by title. Public callers: the active pages of the current store view; back-office
 * readers also see inactive ones; `scope=all` (back office only) every page of every store view.
 */
export async function listPages(ctx: Ctx, q: CmsListQueryT, page: Page): Promise<CollectionResult<CmsPageDto>> {
  const all = checkScopeAll(ctx, RESOURCE, q.scope);
  const backOffice = isBackOffice(ctx, RESOURCE);
  const conds = listFilters(q, {
    identifier: cmsPages.identifier,
    createdAt: cmsPages.createdAt,
    updatedAt: cmsPages.updatedAt,
    isActive: cmsPages.isActive,
    search: [cmsPages.identifier, cmsPages.title, cmsPages.contentHeading, cmsPages.content],
  });
  if (q.storeId !== undefined)
    conds.push(assignedTo(cmsPages.id, cmsPageStores.pageId, cmsPageStores.storeId, 'cms_page_stores', q.storeId));
  if (!all) conds.push(visibleHere(ctx));
  if (!backOffice) conds.push(eq(cmsPages.isActive, true));
  const scope = readScope(ctx);
  if (scope) conds.push(scope);
  const where = and(...conds);
  const [rows, [{ n }]] = await Promise.all([
    ctx.db
      .select()
      .from(cmsPages)
      .where(where)
      .orderBy(...listOrder(cmsPages, q.sortBy, q.sortDir, 'title'))
      .limit(page.size)
      .offset(page.offset),
    ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(cmsPages)
      .where(where),
  ]);
  const stores = await storesOf(
    ctx,
    rows.map((r) => r.id),
  );
  return {
    items: await shown(
      ctx,
      rows.map((r) => toDto(r, stores.get(r.id) ?? [], backOffice)),
      backOffice,
    ),
    total: n,
  };
}

/** One page: public callers only an active page of the current store view (else 404); back-office readers any. */
export async function getPage(ctx: Ctx, id: number): Promise<CmsPageDto> {
  return readPage(ctx, id, isBackOffice(ctx, RESOURCE));
}

async function readPage(ctx: Ctx, id: number, backOffice: boolean): Promise<CmsPageDto> {
  const conds: SQL[] = [eq(cmsPages.id, id)];
  if (!backOffice) conds.push(eq(cmsPages.isActive, true), visibleHere(ctx));
  const scope = readScope(ctx);
  if (scope) conds.push(scope);
  const [row] = await ctx.db
    .select()
    .from(cmsPages)
    .where(and(...conds));
  if (!row) throw pageNotFound();
  return (await shown(ctx, [toDto(row, (await storesOf(ctx, [id])).get(id) ?? [], backOffice)], backOffice))[0];
}

/**
 * Whether the URL resolver may show the page in the caller's store view (an unknown page is left to its path):
 * the CMS's `urlResolverChecks`.
 */
export async function cmsPageResolvable(ctx: Ctx, id: number): Promise<boolean> {
  const [row] = await ctx.db.select({ isActive: cmsPages.isActive }).from(cmsPages).where(eq(cmsPages.id, id));
  if (!row) return true;
  if (!row.isActive) return false;
  const [seen] = await ctx.db
    .select({ id: cmsPages.id })
    .from(cmsPages)
    .where(and(eq(cmsPages.id, id), visibleHere(ctx)));
  return !!seen;
}

function optText(v: string | null | undefined): string | null {
  if (v === undefined || v === null) return null;
  const t = v.trim();
  return t === '' ? null : v;
}

function optDate(v: string | null | undefined, field: string): string | null {
  if (v === undefined || v === null || v.trim() === '') return null;
  const s = v.trim();
  if (!isValidDate(s)) throw badRequest(`${field} must be a date (YYYY-MM-DD)`, { reason: 'INVALID_DATE', details: { field } });
  return s;
}

function checkRobots(v: string | null | undefined): string | null {
  if (v === undefined || v === null || v.trim() === '') return null;
  const s = v.trim().toUpperCase().replace(/\s+/g, '');
  if (!(META_ROBOTS as readonly string[]).includes(s)) {
    throw badRequest(`metaRobots must be one of ${META_ROBOTS.join(' | ')}`, {
      reason: 'INVALID_META_ROBOTS',
      details: { field: 'metaRobots', allowed: [...META_ROBOTS] },
    });
  }
  return s;
}

/** The column values of the fields that were sent (identifier, title and stores are handled by the caller). */
function columnsOf(body: CmsPageInput): Partial<typeof cmsPages.$inferInsert> {
  const out: Partial<typeof cmsPages.$inferInsert> = {};
  if ('contentHeading' in body) out.contentHeading = optText(body.contentHeading);
  if ('content' in body) out.content = body.content ?? '';
  if ('metaKeywords' in body) out.metaKeywords = optText(body.metaKeywords);
  if ('metaDescription' in body) out.metaDescription = optText(body.metaDescription);
  if ('metaRobots' in body) out.metaRobots = checkRobots(body.metaRobots);
  if ('pageLayout' in body) out.pageLayout = optText(body.pageLayout);
  if ('sortOrder' in body) out.sortOrder = body.sortOrder ?? null;
  if ('layoutUpdateXml' in body) out.layoutUpdateXml = optText(body.layoutUpdateXml);
  if ('customTheme' in body) out.customTheme = optText(body.customTheme);
  if ('customRootTemplate' in body) out.customRootTemplate = optText(body.customRootTemplate);
  if ('customLayoutUpdateXml' in body) out.customLayoutUpdateXml = optText(body.customLayoutUpdateXml);
  if ('customThemeFrom' in body) out.customThemeFrom = optDate(body.customThemeFrom, 'customThemeFrom');
  if ('customThemeTo' in body) out.customThemeTo = optDate(body.customThemeTo, 'customThemeTo');
  if (body.isActive !== undefined) out.isActive = body.isActive;
  return out;
}

async function assertFree(tx: Ctx, identifier: string, stores: number[], exceptId?: number): Promise<void> {
  const [clash] = await tx.db
    .select({ id: cmsPages.id })
    .from(cmsPages)
    .where(
      clashCondition(
        cmsPages.id,
        cmsPages.identifier,
        cmsPageStores.pageId,
        cmsPageStores.storeId,
        'cms_page_stores',
        identifier,
        stores,
        exceptId,
      ),
    )
    .limit(1);
  if (clash) {
    throw conflict(`A CMS page with identifier "${identifier}" already exists in one of these store views`, {
      reason: 'CMS_PAGE_IDENTIFIER_TAKEN',
      details: { field: 'identifier', identifier, pageId: clash.id },
    });
  }
}

async function writeStoresAndPaths(tx: Ctx, id: number, identifier: string, stores: number[]): Promise<void> {
  await tx.db.delete(cmsPageStores).where(eq(cmsPageStores.pageId, id));
  await tx.db.insert(cmsPageStores).values(stores.map((storeId) => ({ pageId: id, storeId })));
  await replaceEntityPaths(
    tx,
    'cms_page',
    id,
    stores.map((storeId) => ({ storeId, requestPath: identifier })),
  );
}

/** Creates a page: identifier and title required; active and in every store view unless told otherwise. */
export async function createPage(ctx: Ctx, body: CmsPageInput): Promise<CmsPageDto> {
  if (body.identifier === undefined) throw badRequest('identifier is required', { reason: 'REQUIRED', details: { field: 'identifier' } });
  if (body.title === undefined) throw badRequest('title is required', { reason: 'REQUIRED', details: { field: 'title' } });
  const identifier = checkIdentifier(body.identifier);
  const title = checkTitle(body.title);
  const stores = writableStores(ctx, body.stores);
  const cols = columnsOf(body);
  const id = await withTx(ctx, async (tx) => {
    await lockIdentifiers(tx, RESOURCE);
    await assertFree(tx, identifier, stores);
    const [row] = await tx.db
      .insert(cmsPages)
      .values({ ...cols, identifier, title, createdAt: tx.now, updatedAt: tx.now })
      .returning({ id: cmsPages.id });
    await writeStoresAndPaths(tx, row.id, identifier, stores);
    return row.id;
  });
  return readPage(ctx, id, true);
}

/** Updates the fields sent; a new identifier or store list is checked for clashes and re-registers the URL paths. */
export async function updatePage(ctx: Ctx, id: number, body: CmsPageInput): Promise<CmsPageDto> {
  const identifier = body.identifier === undefined ? undefined : checkIdentifier(body.identifier);
  const title = body.title === undefined ? undefined : checkTitle(body.title);
  const stores = body.stores === undefined ? undefined : writableStores(ctx, body.stores);
  const cols = columnsOf(body);
  await withTx(ctx, async (tx) => {
    await lockIdentifiers(tx, RESOURCE);
    const [row] = await tx.db.select().from(cmsPages).where(eq(cmsPages.id, id)).for('update');
    if (!row) throw pageNotFound();
    const current = (await storesOf(tx, [id])).get(id) ?? [ALL_STORES];
    assertRowWritable(tx, current, pageNotFound);
    const nextIdentifier = identifier ?? row.identifier;
    const nextStores = stores ?? current;
    const moved = (identifier !== undefined && identifier !== row.identifier) || stores !== undefined;
    if (moved) await assertFree(tx, nextIdentifier, nextStores, id);
    await tx.db
      .update(cmsPages)
      .set({ ...cols, ...(identifier !== undefined ? { identifier } : {}), ...(title !== undefined ? { title } : {}), updatedAt: tx.now })
      .where(eq(cmsPages.id, id));
    if (moved) await writeStoresAndPaths(tx, id, nextIdentifier, nextStores);
  });
  return readPage(ctx, id, true);
}

/** Deletes a page, its store links and its URL paths. */
export async function deletePage(ctx: Ctx, id: number): Promise<void> {
  await withTx(ctx, async (tx) => {
    assertRowWritable(tx, (await storesOf(tx, [id])).get(id) ?? [], pageNotFound);
    const [row] = await tx.db.delete(cmsPages).where(eq(cmsPages.id, id)).returning({ id: cmsPages.id });
    if (!row) throw pageNotFound();
    await removeEntityPaths(tx, 'cms_page', id);
  });
}
