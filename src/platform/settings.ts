/**
 * Scoped store configuration (default / website / store), as paths like `newsletter/subscription/confirm`.
 * Each module declares the paths it reads next to its code with `declareConfig`: type, default, label, the
 * section and group the back office shows it under (by default the path's first two parts), allowed values
 * and scopes. Rows in the config table override the default per scope; the stores module implements the
 * reader and the API that lists and writes them. `validateConfigValue` is the one check of a value against
 * its declaration, used by the API and by `config:set`.
 */
import { dec } from './money.js';

export type ConfigScope = 'default' | 'websites' | 'stores';

export const CONFIG_SCOPES: readonly ConfigScope[] = ['default', 'websites', 'stores'];

export type ConfigType =
  | 'string'
  | 'text'
  | 'boolean'
  | 'integer'
  | 'decimal'
  | 'select'
  | 'multiselect'
  | 'email'
  | 'url'
  /** write-only: never read back through the API */
  | 'secret'
  | 'json';

export interface ConfigOption {
  value: string;
  label: string;
}

/** What a module says about one path. */
export interface ConfigSpec {
  type: ConfigType;
  default: string | number | boolean;
  label: string;
  /** defaults to the path's first part */
  section?: string;
  /** defaults to the path's second part */
  group?: string;
  /** a note shown under the field */
  comment?: string;
  /** allowed values of select and multiselect (a bare string is its own label) */
  options?: readonly (string | ConfigOption)[];
  /** where a value may be set; all three when omitted */
  scopes?: readonly ConfigScope[];
  /** integer and decimal bounds */
  min?: number;
  max?: number;
  /** string, text, secret: a pattern the whole value must match; multiselect: each item */
  pattern?: RegExp;
  /** email and url: whether an empty value is refused (it is allowed, meaning "none", unless this is set) */
  required?: boolean;
}

/** A declaration as kept: defaults filled in, the default as stored text. */
export interface ConfigDeclaration {
  path: string;
  type: ConfigType;
  default: string;
  label: string;
  section: string;
  group: string;
  comment?: string;
  options?: ConfigOption[];
  scopes: ConfigScope[];
  min?: number;
  max?: number;
  pattern?: RegExp;
  required?: boolean;
}

const declared = new Map<string, ConfigDeclaration>();
const sectionLabels = new Map<string, string>();
const groupLabels = new Map<string, string>();

export const CONFIG_PATH = /^[a-z0-9_]+\/[a-z0-9_]+\/[a-z0-9_]+$/;

/** Longest value accepted (a text block, a JSON document). */
export const CONFIG_VALUE_MAX = 65_536;

function asText(value: string | number | boolean): string {
  return typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
}

/** Called at module load: the declarations of the paths a module reads. */
export function declareConfig(specs: Record<string, ConfigSpec>): void {
  for (const [path, spec] of Object.entries(specs)) {
    if (!CONFIG_PATH.test(path)) throw new Error(`Invalid config path: ${path}`);
    const [section, group] = path.split('/');
    declared.set(path, {
      path,
      type: spec.type,
      default: asText(spec.default),
      label: spec.label,
      section: spec.section ?? section,
      group: spec.group ?? group,
      ...(spec.comment ? { comment: spec.comment } : {}),
      ...(spec.options ? { options: spec.options.map((o) => (typeof o === 'string' ? { value: o, label: o } : o)) } : {}),
      scopes: [...(spec.scopes ?? CONFIG_SCOPES)],
      ...(spec.min !== undefined ? { min: spec.min } : {}),
      ...(spec.max !== undefined ? { max: spec.max } : {}),
      ...(spec.pattern ? { pattern: spec.pattern } : {}),
      ...(spec.required ? { required: true } : {}),
    });
  }
}

/** Labels of sections (`payment`) and groups (`payment/checkmo`) for the back office. */
export function declareConfigLabels(labels: Record<string, string>): void {
  for (const [key, label] of Object.entries(labels)) (key.includes('/') ? groupLabels : sectionLabels).set(key, label);
}

/** A path's type inferred from its default: for paths declared with defaults only. */
function inferredType(value: string | number | boolean): ConfigType {
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'decimal';
  return 'string';
}

/**
 * A default without the rest of a declaration: the type is inferred from the value, the label from the path.
 * Prefer `declareConfig`.
 */
export function declareDefaults(defaults: Record<string, string | number | boolean>): void {
  declareConfig(
    Object.fromEntries(
      Object.entries(defaults).map(([path, value]) => [
        path,
        { type: inferredType(value), default: value, label: titleOf(path.split('/')[2]) },
      ]),
    ),
  );
}

function titleOf(id: string): string {
  const words = id.replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function declaredDefault(path: string): string | undefined {
  return declared.get(path)?.default;
}

export function declaredPaths(): string[] {
  return [...declared.keys()].sort();
}

export function configDeclaration(path: string): ConfigDeclaration | undefined {
  return declared.get(path);
}

export function configDeclarations(): ConfigDeclaration[] {
  return declaredPaths().map((p) => declared.get(p)!);
}

export function sectionLabel(section: string): string {
  return sectionLabels.get(section) ?? titleOf(section);
}

export function groupLabel(section: string, group: string): string {
  return groupLabels.get(`${section}/${group}`) ?? titleOf(group);
}

export type ConfigCheck = { ok: true; value: string } | { ok: false; reason: string };

const TRUE = /^(1|true|yes|on)$/i;
const FALSE = /^(0|false|no|off)$/i;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const INTEGER = /^-?\d{1,15}$/;
const DECIMAL = /^-?\d{1,15}(\.\d{1,12})?$/;

const NOUNS: Record<ConfigType, string> = {
  string: 'a string',
  text: 'a string',
  boolean: 'a boolean (true, false, 1 or 0)',
  integer: 'a whole number',
  decimal: 'a decimal number',
  select: 'one of its options',
  multiselect: 'a list of values (an array or a comma-separated string)',
  email: 'an email address',
  url: 'an http or https URL',
  secret: 'a string',
  json: 'a JSON document',
};

function bounds(d: ConfigDeclaration, text: string): ConfigCheck {
  const n = dec(text);
  if (d.min !== undefined && n.lt(d.min)) return { ok: false, reason: `must be at least ${d.min}` };
  if (d.max !== undefined && n.gt(d.max)) return { ok: false, reason: `must be at most ${d.max}` };
  return { ok: true, value: text };
}

/** A JSON value given for a path as the text to store (`true` → `1`, a list → `a,b`). */
function textOf(d: ConfigDeclaration, value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return d.type === 'boolean' ? (value ? '1' : '0') : undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (Array.isArray(value) && d.type === 'multiselect' && value.every((v) => typeof v === 'string')) return value.join(',');
  if (d.type === 'json' && value !== null && typeof value === 'object') return JSON.stringify(value);
  return undefined;
}

/**
 * Checks a value against its path's declaration at a scope, and answers the text to store or why not.
 * An undeclared path is refused here; a caller that may store it anyway (the CLI) checks `configDeclaration`.
 */
export function validateConfigValue(path: string, value: unknown, scope: ConfigScope = 'default'): ConfigCheck {
  const d = declared.get(path);
  if (!d) return { ok: false, reason: 'is not a known configuration path' };
  if (!d.scopes.includes(scope)) return { ok: false, reason: `cannot be set at the ${scope} scope (only ${d.scopes.join(', ')})` };
  const raw = textOf(d, value);
  if (raw === undefined) return { ok: false, reason: `must be ${NOUNS[d.type]}` };
  if (raw.length > CONFIG_VALUE_MAX) return { ok: false, reason: `is longer than ${CONFIG_VALUE_MAX} characters` };
  const text = d.type === 'text' || d.type === 'json' || d.type === 'secret' ? raw : raw.trim();
  switch (d.type) {
    case 'boolean':
      if (TRUE.test(text)) return { ok: true, value: '1' };
      if (FALSE.test(text)) return { ok: true, value: '0' };
      return { ok: false, reason: 'must be a boolean (true, false, 1 or 0)' };
    case 'integer':
      // a path whose default is empty (no limit, say) may be set empty again
      if (text === '' && d.default === '') return { ok: true, value: '' };
      if (!INTEGER.test(text)) return { ok: false, reason: 'must be a whole number' };
      return bounds(d, String(parseInt(text, 10)));
    case 'decimal':
      if (text === '' && d.default === '') return { ok: true, value: '' };
      if (!DECIMAL.test(text)) return { ok: false, reason: 'must be a decimal number' };
      return bounds(d, text);
    case 'select':
      if (!d.options?.some((o) => o.value === text)) return { ok: false, reason: `must be one of: ${optionList(d)}` };
      return { ok: true, value: text };
    case 'multiselect': {
      const items = text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const bad = d.options ? items.find((i) => !d.options!.some((o) => o.value === i)) : undefined;
      if (bad !== undefined) return { ok: false, reason: `holds ${bad}, which is not one of: ${optionList(d)}` };
      const unlike = d.pattern ? items.find((i) => !d.pattern!.test(i)) : undefined;
      if (unlike !== undefined) return { ok: false, reason: `holds ${unlike}, which does not match the pattern ${d.pattern!.source}` };
      return { ok: true, value: [...new Set(items)].join(',') };
    }
    case 'email':
      if (text === '' && !d.required) return { ok: true, value: '' };
      return EMAIL.test(text) ? { ok: true, value: text } : { ok: false, reason: 'must be an email address' };
    case 'url':
      if (text === '' && !d.required) return { ok: true, value: '' };
      return isHttpUrl(text) ? { ok: true, value: text } : { ok: false, reason: 'must be an http or https URL' };
    case 'json':
      try {
        JSON.parse(text);
        return { ok: true, value: text };
      } catch {
        return { ok: false, reason: 'must be a JSON document' };
      }
    default:
      if (d.pattern && !d.pattern.test(text)) return { ok: false, reason: `does not match the pattern ${d.pattern.source}` };
      return { ok: true, value: text };
  }
}

function optionList(d: ConfigDeclaration): string {
  const values = (d.options ?? []).map((o) => o.value);
  return values.length > 12 ? `${values.slice(0, 12).join(', ')}, ...` : values.join(', ');
}

function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
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
