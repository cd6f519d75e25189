/** Wire formats shared by every module: dates as the wire reference writes them, null-free objects. */

/** `YYYY-MM-DD HH:MM:SS` in UTC. */
export function wireDateTime(d: Date | string | null | undefined): string | undefined {
  if (d === null || d === undefined) return undefined;
  const date = typeof d === 'string' ? new Date(d) : d;
  if (Number.isNaN(date.getTime())) return undefined;
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

/** `YYYY-MM-DD`. */
export function wireDate(d: Date | string | null | undefined): string | undefined {
  if (d === null || d === undefined || d === '') return undefined;
  if (typeof d === 'string') return d.slice(0, 10);
  return d.toISOString().slice(0, 10);
}

/** A calendar date `YYYY-MM-DD` that exists. */
export function isValidDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
}

/** Drops keys whose value is null or undefined (the wire omits them). */
export function compact<T extends Record<string, unknown>>(obj: T): { [K in keyof T]: Exclude<T[K], null> } {
  const out: Record<string, unknown> = {};
  for (const k in obj) {
    const v = obj[k];
    if (v !== null && v !== undefined) out[k] = v;
  }
  return out as { [K in keyof T]: Exclude<T[K], null> };
}

/** Escapes LIKE wildcards in user input. */
export function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The shape every email address the service accepts must have: something@domain.tld, no spaces. */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmailAddress(s: string): boolean {
  return EMAIL_SHAPE.test(s);
}
