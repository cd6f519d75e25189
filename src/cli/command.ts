/** What every command shares: its shape, the environment it runs in, option checks and output. */
import type { AppConfig } from '../platform/config.js';
import type { Ctx } from '../platform/context.js';
import type { Db } from '../platform/db.js';
import type { ConfigScope } from '../platform/settings.js';
import type { StoreRegistry } from '../modules/stores/registry.js';

export type OptionSpec = Record<string, { type: 'string' | 'boolean' }>;

export interface Env {
  config: AppConfig;
  /** migrations applied and modules installed by this start */
  migrated: string[];
  installed: string[];
  db: Db;
  registry: StoreRegistry;
  ctx(): Ctx;
}

export interface Command {
  usage: string;
  summary: string;
  options?: OptionSpec;
  /** positional arguments after the command: exactly this many */
  positionals?: number;
  run(env: Env, opts: Record<string, string | boolean | undefined>, args: string[]): Promise<void>;
}

/** A refusal the operator can fix: printed without a stack trace, exit code 1. */
export class UsageError extends Error {}

export const out = (line = '') => process.stdout.write(`${line}\n`);

export function required(opts: Record<string, string | boolean | undefined>, name: string): string {
  const v = opts[name];
  if (typeof v !== 'string' || !v.trim()) throw new UsageError(`--${name} is required`);
  return v.trim();
}

export function list(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** `--stores 1,german`: store view ids or codes, each of which must exist. */
export function storeIds(registry: StoreRegistry, value: string | undefined): number[] | undefined {
  if (value === undefined) return undefined;
  const items = list(value);
  if (!items.length) throw new UsageError('--stores names at least one store view id or code');
  return items.map((item) => {
    const store = /^\d+$/.test(item) ? registry.store(Number(item)) : registry.storeByCode(item);
    if (!store) throw new UsageError(`Unknown store view: ${item}`);
    return store.id;
  });
}

export function scopeOf(
  registry: StoreRegistry,
  opts: Record<string, string | boolean | undefined>,
): { scope: ConfigScope; scopeId: number } {
  const scope = (opts.scope as string | undefined) ?? 'default';
  if (scope !== 'default' && scope !== 'websites' && scope !== 'stores') throw new UsageError('--scope is default, websites or stores');
  const raw = opts['scope-id'] as string | undefined;
  if (raw === undefined) {
    if (scope !== 'default') throw new UsageError(`--scope ${scope} needs --scope-id`);
    return { scope, scopeId: 0 };
  }
  if (/^\d+$/.test(raw)) return { scope, scopeId: Number(raw) };
  const store = scope === 'stores' ? registry.storeByCode(raw) : undefined;
  if (!store) throw new UsageError(`--scope-id is a number${scope === 'stores' ? ' or a store code' : ''}, got "${raw}"`);
  return { scope, scopeId: store.id };
}

/** Rows as aligned columns. */
function table(rows: Record<string, unknown>[], columns: string[]): void {
  if (!rows.length) {
    out('(none)');
    return;
  }
  const cell = (v: unknown) => (v === null || v === undefined ? '-' : Array.isArray(v) ? v.join(',') || '-' : String(v));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  out(line(columns));
  for (const r of rows) out(line(columns.map((c) => cell(r[c]))));
}

export function print(rows: Record<string, unknown>[], columns: string[], json: boolean | string | undefined): void {
  if (json) out(JSON.stringify(rows, null, 2));
  else table(rows, columns);
}

export const JSON_OPT: OptionSpec = { json: { type: 'boolean' } };
