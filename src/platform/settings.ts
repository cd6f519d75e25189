/**
 * Scoped store configuration (default / website / store), as paths like `newsletter/subscription/confirm`.
 * Each module declares its defaults next to its code with `declareDefaults`; rows in the config table
 * override them per scope. The stores module implements the reader.
 */

export type ConfigScope = 'default' | 'websites' | 'stores';

const declared = new Map<string, string>();

/** Called at module load: the value a path has when no scope sets it. */
export function declareDefaults(defaults: Record<string, string | number | boolean>): void {
  for (const [path, value] of Object.entries(defaults)) {
    declared.set(path, typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
  }
}

export function declaredDefault(path: string): string | undefined {
  return declared.get(path);
}

export function declaredPaths(): string[] {
  return [...declared.keys()].sort();
}

export interface Settings {
  /** The effective value for a store view (store → its website → default → declared default). */
  get(path: string, storeId?: number): string | undefined;
  getBool(path: string, storeId?: number): boolean;
  getInt(path: string, storeId?: number): number;
  /** A comma-separated value as a list. */
  getList(path: string, storeId?: number): string[];
}

export function parseBool(v: string | undefined): boolean {
  return v !== undefined && /^(1|true|yes|on)$/i.test(v.trim());
}

export function parseList(v: string | undefined): string[] {
  return (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
