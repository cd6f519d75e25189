/**
 * Normalisation and validation of single customer and address fields, shared by the profile, address and
 * password services. Each returns undefined for "not sent" and null for "clear".
 */
import type { Ctx } from '../../platform/context.js';
import { badRequest } from '../../platform/errors.js';
import { isEmailAddress, isValidDate } from '../../platform/format.js';

/** A missing value: not sent, null, blank text or an empty list. */
function isMissing(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (typeof v === 'string') return v.trim() === '';
  if (Array.isArray(v)) return v.every((x) => typeof x !== 'string' || x.trim() === '');
  return false;
}

/** 400 naming every required field that is missing, comma-joined. */
export function requireFields(input: Record<string, unknown>, names: readonly string[]): void {
  const missing = names.filter((n) => isMissing(input[n]));
  if (missing.length) {
    throw badRequest(`Missing required fields: ${missing.join(', ')}`, {
      reason: 'MISSING_FIELDS',
      details: { field: missing[0], fields: missing, constraint: 'required' },
    });
  }
}

/** Trimmed, lower-cased and checked. */
export function normEmail(email: string): string {
  const e = email.trim().toLowerCase();
  if (e.length > 254 || !isEmailAddress(e)) {
    throw badRequest('Invalid email format', { reason: 'INVALID_EMAIL', details: { field: 'email', constraint: 'format' } });
  }
  return e;
}

/** A text field that may not be blank. */
export function normRequired(field: string, v: string | null | undefined): string | undefined {
  if (v === undefined) return undefined;
  requireFields({ [field]: v }, [field]);
  return (v as string).trim();
}

/** An optional text field: blank or null clears it. */
export function normOptional(v: string | null | undefined): string | null | undefined {
  if (v === undefined) return undefined;
  if (v === null) return null;
  const t = v.trim();
  return t === '' ? null : t;
}

/** Gender option id; 0 or null clears. */
export function normGender(v: number | null | undefined): number | null | undefined {
  if (v === undefined) return undefined;
  return v === null || v === 0 ? null : v;
}

/** Date of birth `YYYY-MM-DD`: a real date, not in the future; `""` or null clears. */
export function normDob(ctx: Ctx, v: string | null | undefined): string | null | undefined {
  if (v === undefined) return undefined;
  if (v === null || v.trim() === '') return null;
  const d = v.trim().slice(0, 10);
  // accept `YYYY-MM-DD` and `YYYY-MM-DD 00:00:00` (as Maho writes it back)
  if (!isValidDate(d) || !/^([ T]00:00(:00)?)?$/.test(v.trim().slice(10))) {
    throw badRequest('dob must be a date of the form YYYY-MM-DD', {
      reason: 'INVALID_DOB',
      details: { field: 'dob', constraint: 'format' },
    });
  }
  if (d > ctx.now.toISOString().slice(0, 10)) {
    throw badRequest('dob must not be in the future', { reason: 'INVALID_DOB', details: { field: 'dob', constraint: 'maximum' } });
  }
  if (d < '1900-01-01') {
    throw badRequest('dob must not be before 1900-01-01', { reason: 'INVALID_DOB', details: { field: 'dob', constraint: 'minimum' } });
  }
  return d;
}

export function minPasswordLength(ctx: Ctx): number {
  return Math.max(1, ctx.app.settings.getInt('customer/password/minimum_password_length', ctx.store.storeId));
}

/** 400 when the password is shorter than the configured minimum. */
export function checkPassword(ctx: Ctx, password: string, field = 'password'): void {
  const min = minPasswordLength(ctx);
  if (password.length < min) {
    throw badRequest(`The password must have at least ${min} characters`, {
      reason: 'PASSWORD_TOO_SHORT',
      details: { field, constraint: 'minLength' },
    });
  }
}

/** Street lines: a string (split on new lines) or a list; blank lines dropped; 1 to 4 lines. */
export function normStreet(v: string | string[] | null | undefined): string[] | undefined {
  if (v === undefined) return undefined;
  const raw = v === null ? [] : typeof v === 'string' ? v.split(/\r?\n/) : v;
  const lines = raw.map((l) => l.trim()).filter((l) => l !== '');
  if (!lines.length) requireFields({ street: [] }, ['street']);
  if (lines.length > 4) {
    throw badRequest('street has at most 4 lines', { reason: 'INVALID_STREET', details: { field: 'street', constraint: 'maxItems' } });
  }
  return lines;
}
