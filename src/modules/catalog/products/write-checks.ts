/**
 * The field rules of a product write: each value of the body checked and normalized (texts, type, visibility,
 * dates, money), and the references it makes checked (attribute set, tax class, websites, categories, a free SKU).
 */
import { and, inArray, ne, sql } from 'drizzle-orm';
import { adminWebsiteScope, type Ctx } from '../../../platform/context.js';
import { badRequest, conflict, forbidden, fromDatabaseError } from '../../../platform/errors.js';
import { isValidDate } from '../../../platform/format.js';
import { dec } from '../../../platform/money.js';
import { getTaxClass } from '../../tax/service.js';
import { attributeSetExists } from '../attributes/service.js';
import { PRODUCT_TYPES, type ProductType } from './shared.js';
import { type ProductWriteBody } from './write-schemas.js';
import { categories, products } from '../tables.js';

export const VISIBILITIES = ['not_visible', 'catalog', 'search', 'catalog_search'] as const;

export const field = (name: string, extra: Record<string, unknown> = {}) => ({ details: { field: name, ...extra } });

// ---- field rules ----

export function requiredText(value: string | null | undefined, message: string, name: string): string {
  const v = typeof value === 'string' ? value.trim() : '';
  if (!v) throw badRequest(message, { reason: 'REQUIRED', ...field(name) });
  return v;
}

/** Optional text: trimmed; "" and null clear it. */
export function optText(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const v = value.trim();
  return v === '' ? null : value;
}

export function productType(value: string): ProductType {
  const t = value.trim().toLowerCase();
  if (!(PRODUCT_TYPES as readonly string[]).includes(t)) {
    throw badRequest(`Invalid product type "${value}": use one of ${PRODUCT_TYPES.join(', ')}`, {
      reason: 'INVALID_TYPE',
      ...field('type'),
    });
  }
  return t as ProductType;
}

export function activeFrom(body: ProductWriteBody): boolean | undefined {
  if (body.isActive !== undefined) return body.isActive;
  const s = body.status;
  if (s === undefined) return undefined;
  if (s === 1 || (typeof s === 'string' && ['enabled', '1'].includes(s.trim().toLowerCase()))) return true;
  if (s === 2 || (typeof s === 'string' && ['disabled', '2', '0'].includes(s.trim().toLowerCase()))) return false;
  throw badRequest('status must be enabled or disabled', { reason: 'INVALID_STATUS', ...field('status') });
}

export function visibilityOf(v: string | number): string {
  if (typeof v === 'number') return VISIBILITIES[v - 1];
  const s = v.trim().toLowerCase();
  if (!(VISIBILITIES as readonly string[]).includes(s)) {
    throw badRequest(`visibility must be one of ${VISIBILITIES.join(', ')}`, { reason: 'INVALID_VISIBILITY', ...field('visibility') });
  }
  return s;
}

/** A calendar date from `YYYY-MM-DD` (a time part is ignored); "" and null clear it. */
export function dateOf(value: string | null | undefined, name: string): string | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  const v = value.trim();
  const day = v.slice(0, 10);
  const rest = v.slice(10);
  if (!isValidDate(day) || !/^([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(rest)) {
    throw badRequest(`${name} is not a valid date (YYYY-MM-DD)`, { reason: 'INVALID_DATE', ...field(name) });
  }
  return day;
}

export function money(v: number | null | undefined): string | null {
  return v === null || v === undefined ? null : dec(v).toFixed(4);
}

export function checkDateOrder(from: string | null, to: string | null, fromName: string, toName: string): void {
  if (from && to && from > to) {
    throw badRequest(`${fromName} must not be after ${toName}`, { reason: 'INVALID_DATE_RANGE', ...field(fromName) });
  }
}

// ---- references ----

export async function checkAttributeSet(ctx: Ctx, id: number): Promise<void> {
  if (!(await attributeSetExists(ctx, id))) {
    throw badRequest(`Unknown attribute set: ${id}`, { reason: 'INVALID_ATTRIBUTE_SET', ...field('attributeSetId') });
  }
}

export async function checkTaxClass(ctx: Ctx, id: number): Promise<void> {
  if (id === 0) return;
  const c = await getTaxClass(ctx, id);
  if (!c || c.classType !== 'PRODUCT') {
    throw badRequest(`Unknown product tax class: ${id}`, { reason: 'INVALID_TAX_CLASS', ...field('taxClassId') });
  }
}

/**
 * The website ids of a body, checked. A store-restricted admin principal may add or remove only the websites of
 * its store views, the product's other websites (`current`, on updates) must be sent back unchanged, and the
 * product must keep one of its websites.
 */
export function checkWebsites(ctx: Ctx, ids: number[], current: readonly number[] = []): number[] {
  const unique = [...new Set(ids)];
  for (const id of unique) {
    if (!ctx.app.settings.website(id)) throw badRequest(`Unknown website: ${id}`, { reason: 'INVALID_WEBSITE', ...field('websiteIds') });
  }
  const scope = adminWebsiteScope(ctx);
  if (scope) {
    const added = unique.find((id) => !scope.includes(id) && !current.includes(id));
    if (added !== undefined)
      throw forbidden(`This token may not assign website ${added}`, { reason: 'WEBSITE_NOT_ALLOWED', ...field('websiteIds') });
    const removed = current.find((id) => !scope.includes(id) && !unique.includes(id));
    if (removed !== undefined)
      throw forbidden(`This token may not unassign website ${removed}`, { reason: 'WEBSITE_NOT_ALLOWED', ...field('websiteIds') });
    // else the product would leave the token's reach with its write
    if (!unique.some((id) => scope.includes(id))) {
      throw forbidden('The product must stay assigned to a website this token may act in', {
        reason: 'WEBSITE_NOT_ALLOWED',
        ...field('websiteIds'),
      });
    }
  }
  return unique.sort((a, b) => a - b);
}

export async function checkCategories(ctx: Ctx, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (!unique.length) return unique;
  const found = await ctx.db.select({ id: categories.id }).from(categories).where(inArray(categories.id, unique));
  const have = new Set(found.map((r) => r.id));
  const missing = unique.filter((id) => !have.has(id));
  if (missing.length) {
    throw badRequest(`Unknown categor${missing.length > 1 ? 'ies' : 'y'}: ${missing.join(', ')}`, {
      reason: 'INVALID_CATEGORY',
      ...field('categoryIds', { ids: missing }),
    });
  }
  return unique;
}

export const skuTaken = (sku: string) =>
  conflict(`A product with SKU "${sku}" already exists`, { reason: 'SKU_TAKEN', ...field('sku', { sku }) });

export async function checkSkuFree(ctx: Ctx, sku: string, exceptId?: number): Promise<void> {
  const conds = [sql`lower(${products.sku}) = lower(${sku})`];
  if (exceptId !== undefined) conds.push(ne(products.id, exceptId));
  const [row] = await ctx.db
    .select({ id: products.id })
    .from(products)
    .where(and(...conds))
    .limit(1);
  if (row) throw skuTaken(sku);
}

/** A unique violation on the sku that a concurrent request won becomes the named 409. */
export function mapSkuRace(sku: string) {
  return (err: unknown): never => {
    const db = fromDatabaseError(err);
    if (db?.reason === 'DUPLICATE') throw skuTaken(sku);
    throw err;
  };
}
