/** What blog posts and categories share: back-office readers, scope=all, URL keys, dates, text fields. */
import { sql } from 'drizzle-orm';
import { hasPermission, unauthenticated } from '../../platform/auth/access.js';
import type { Ctx } from '../../platform/context.js';
import { badRequest, forbidden } from '../../platform/errors.js';
import { isValidDate } from '../../platform/format.js';
import { LOCKS } from '../../platform/locks.js';

export type BlogResource = 'blog-posts' | 'blog-categories';
export const MAX_URL_KEY = 100;
const URL_KEY = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** An admin or API principal that may read the resource: sees inactive and unpublished content. */
export function isBackOffice(ctx: Ctx, resource: BlogResource): boolean {
  return ctx.actor.kind === 'admin' && hasPermission(ctx.actor.permissions, resource, 'read');
}

/** `scope=all` needs a back-office reader: 401 anonymous, 403 anyone else. */
export function checkScopeAll(ctx: Ctx, resource: BlogResource, scope: string | undefined): boolean {
  if (scope === undefined || scope === '') return false;
  if (scope !== 'all') throw badRequest('scope must be "all"', { reason: 'INVALID_SCOPE', details: { field: 'scope' } });
  if (ctx.actor.kind === 'anonymous') throw unauthenticated();
  if (!isBackOffice(ctx, resource)) throw forbidden(`Access denied: scope=all requires ${resource}/read`, { reason: 'PERMISSION_DENIED' });
  return true;
}

/** A URL key made from a title: lower case, runs of anything but a-z and 0-9 become one '-'. */
export function slugify(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_URL_KEY)
    .replace(/-+$/g, '');
}

/** The URL key as given (checked) or, when omitted, generated from `from` (the title or name). */
export function urlKeyOf(given: string | undefined, from: string): string {
  if (given === undefined || given.trim() === '') {
    const key = slugify(from);
    if (!key)
      throw badRequest('urlKey could not be generated from the title; give one', {
        reason: 'INVALID_URL_KEY',
        details: { field: 'urlKey' },
      });
    return key;
  }
  const key = given.trim().toLowerCase();
  if (key.length > MAX_URL_KEY) {
    throw badRequest(`urlKey must be at most ${MAX_URL_KEY} characters`, {
      reason: 'INVALID_URL_KEY',
      details: { field: 'urlKey', maxLength: MAX_URL_KEY },
    });
  }
  if (!URL_KEY.test(key)) {
    throw badRequest("urlKey may contain only lowercase letters, digits and '-' (not at either end, not twice in a row)", {
      reason: 'INVALID_URL_KEY',
      details: { field: 'urlKey' },
    });
  }
  return key;
}

export function requiredText(raw: string | undefined, field: string): string {
  const t = (raw ?? '').trim();
  if (!t) throw badRequest(`${field} is required`, { reason: 'REQUIRED', details: { field } });
  return t;
}

export function optText(v: string | null | undefined): string | null {
  if (v === undefined || v === null) return null;
  return v.trim() === '' ? null : v;
}

/** A date or date-time (UTC) input; "" or null: none. */
export function optDateTime(v: string | null | undefined, field: string): Date | null {
  if (v === undefined || v === null || v.trim() === '') return null;
  const s = v.trim();
  if (isValidDate(s)) return new Date(`${s}T00:00:00Z`);
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2})?)(?:\.\d+)?Z?$/.exec(s);
  if (m && isValidDate(m[1])) {
    const d = new Date(`${m[1]}T${m[2].length === 5 ? `${m[2]}:00` : m[2]}Z`);
    if (!Number.isNaN(d.getTime())) return d;
  }
  throw badRequest(`${field} must be a date (YYYY-MM-DD or YYYY-MM-DD HH:MM:SS)`, { reason: 'INVALID_DATE', details: { field } });
}

/** Serializes URL-key checks and tree writes of one kind (held to the end of the transaction). */
export async function lockBlog(tx: Ctx, resource: BlogResource): Promise<void> {
  await tx.db.execute(sql`SELECT pg_advisory_xact_lock(${resource === 'blog-posts' ? LOCKS.blogPostUrlKey : LOCKS.blogCategoryUrlKey})`);
}

/** At most 200 characters of the text without tags, then "..." when cut. */
export function excerptOf(html: string): string {
  const text = html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length <= 200) return text;
  return `${text.slice(0, 200).trimEnd()}...`;
}
