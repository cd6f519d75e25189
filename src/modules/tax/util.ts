/** Input checks shared by the tax services (GraphQL input reaches them unvalidated, so they check types too). */
import { sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import { badRequest } from '../../platform/errors.js';
import { LOCKS } from '../../platform/locks.js';

export const INT_MAX = 2147483647;
/** serializes code changes of rates and rules, so that two requests cannot both pass the uniqueness check */

export function invalid(field: string, message: string, constraint?: string) {
  return badRequest(message, { reason: 'VALIDATION_FAILED', details: constraint ? { field, constraint } : { field } });
}

export function isId(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= INT_MAX;
}

/** A required one-line text: trimmed, 1 to `max` characters, no control characters. */
export function cleanText(field: string, v: unknown, max = 255): string {
  if (typeof v !== 'string') throw invalid(field, `${field} is required`, 'required');
  const s = v.trim();
  if (!s) throw invalid(field, `${field} must not be empty`, 'minLength');
  if (s.length > max) throw invalid(field, `${field} has at most ${max} characters`, 'maxLength');
  if (/[\u0000-\u001f\u007f]/.test(s)) throw invalid(field, `${field} must not contain control characters`, 'pattern');
  return s;
}

export function checkInt(field: string, v: unknown, min = 0, max = INT_MAX): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw invalid(field, `${field} must be an integer from ${min} to ${max}`, 'range');
  }
  return v;
}

export function checkBool(field: string, v: unknown): boolean {
  if (typeof v !== 'boolean') throw invalid(field, `${field} must be true or false`, 'type');
  return v;
}

export async function lockTaxCodes(ctx: Ctx): Promise<void> {
  await ctx.db.execute(sql`SELECT pg_advisory_xact_lock(${LOCKS.taxCode})`);
}

/** GraphQL nulls read as "not sent". */
export function dropNulls<T extends Record<string, unknown>>(o: T, keep: string[] = []): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== null || keep.includes(k)) out[k] = v;
  return out as Partial<T>;
}
