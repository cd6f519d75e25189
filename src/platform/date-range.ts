/**
 * Date filters of lists (`createdFrom`, `createdTo`, `updatedSince`): a date `YYYY-MM-DD` or a date and time
 * `YYYY-MM-DD HH:MM[:SS]`, in UTC. A bare date as an upper bound covers its whole day.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { Type } from 'typebox';
import { badRequest } from './errors.js';
import { isValidDate } from './format.js';

/** The query parameter of one date filter. */
export const DateFilter = (description: string) =>
  Type.Optional(Type.String({ maxLength: 32, description: `${description}; YYYY-MM-DD or YYYY-MM-DD HH:MM:SS (UTC)` }));

/** createdFrom, createdTo and updatedSince, for the query schema of a list whose rows have those timestamps. */
export const DateRangeQuery = {
  createdFrom: DateFilter('created at or after'),
  createdTo: DateFilter('created at or before (a bare date covers the whole day)'),
};
export const UpdatedSinceQuery = { updatedSince: DateFilter('updated at or after') };

/** A bound of a date filter: its instant, and whether the range stops just before it (a bare date as an upper bound). */
function dateBound(field: string, raw: string, end: boolean): { at: string; exclusive: boolean } {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(raw.trim());
  if (!m || !isValidDate(m[1]) || (m[2] !== undefined && (+m[2] > 23 || +m[3] > 59 || +(m[4] ?? 0) > 59))) {
    throw badRequest(`${field} must be a date YYYY-MM-DD or a date and time YYYY-MM-DD HH:MM:SS (UTC)`, {
      reason: 'VALIDATION_FAILED',
      details: { field, constraint: 'format' },
    });
  }
  if (m[2] === undefined) {
    if (!end) return { at: `${m[1]}T00:00:00Z`, exclusive: false };
    const next = new Date(`${m[1]}T00:00:00Z`);
    next.setUTCDate(next.getUTCDate() + 1);
    return { at: next.toISOString(), exclusive: true };
  }
  return { at: `${m[1]}T${m[2]}:${m[3]}:${m[4] ?? '00'}Z`, exclusive: false };
}

const given = (v: string | undefined): v is string => v !== undefined && v.trim() !== '';

/** The conditions of the date filters sent, on the columns the list has (blank filters are ignored). */
export function dateRangeConditions(
  cols: { created: AnyPgColumn | SQL; updated?: AnyPgColumn | SQL },
  q: { createdFrom?: string; createdTo?: string; updatedSince?: string },
  updatedField = 'updatedSince',
): SQL[] {
  const out: SQL[] = [];
  if (given(q.createdFrom)) out.push(sql`${cols.created} >= ${dateBound('createdFrom', q.createdFrom, false).at}::timestamptz`);
  if (given(q.createdTo)) {
    const b = dateBound('createdTo', q.createdTo, true);
    out.push(b.exclusive ? sql`${cols.created} < ${b.at}::timestamptz` : sql`${cols.created} <= ${b.at}::timestamptz`);
  }
  if (cols.updated && given(q.updatedSince))
    out.push(sql`${cols.updated} >= ${dateBound(updatedField, q.updatedSince, false).at}::timestamptz`);
  return out;
}
