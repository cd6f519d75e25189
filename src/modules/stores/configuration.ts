/**
 * Store configuration through the API: the declared paths grouped by section and group with the value each has
 * at a scope and where it comes from, all-or-nothing writes with an audit row per changed path, and the audit
 * history. The CLI's config:set and config:unset write through `applyConfigChanges` too.
 */
import { and, count, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import type { Db } from '../../platform/db.js';
import { badRequest, forbidden, notFound } from '../../platform/errors.js';
import { compact, wireDateTime } from '../../platform/format.js';
import type { CollectionResult, Page } from '../../platform/pagination.js';
import {
  CONFIG_PATH,
  configDeclaration,
  configDeclarations,
  groupLabel,
  sectionLabel,
  validateConfigValue,
  type ConfigDeclaration,
  type ConfigScope,
} from '../../platform/settings.js';
import type { StoreRegistry } from './registry.js';
import type {
  ConfigChangeDto,
  ConfigFieldDto,
  ConfigHistoryQueryInput,
  ConfigSectionDto,
  ConfigSectionSummaryDto,
  ConfigurationDto,
  ConfigurationWriteResultDto,
} from './configuration-schemas.js';
import { configChanges, configValues } from './tables.js';

/** Who changed configuration, as the audit rows record it. */
export interface ConfigActor {
  kind: string;
  id?: number;
  username?: string;
}

const SECRET_OLD = '[secret]';
const SECRET_NEW = '[secret changed]';

/** A scope and id that exist (the default scope is id 0). */
export function checkScope(registry: StoreRegistry, scope: ConfigScope, scopeId: number): void {
  if (scope === 'default' && scopeId !== 0) throw badRequest('The default scope has scope id 0', { reason: 'INVALID_SCOPE' });
  if (scope === 'websites' && !registry.website(scopeId)) throw badRequest(`Unknown website: ${scopeId}`, { reason: 'UNKNOWN_SCOPE' });
  if (scope === 'stores' && !registry.store(scopeId)) throw badRequest(`Unknown store view: ${scopeId}`, { reason: 'UNKNOWN_SCOPE' });
}

/** The scopes a value at `scope` falls back to, nearest first. */
function chainOf(registry: StoreRegistry, scope: ConfigScope, scopeId: number): [ConfigScope, number][] {
  if (scope === 'stores') {
    const store = registry.store(scopeId)!;
    return [
      ['stores', scopeId],
      ['websites', store.websiteId],
      ['default', 0],
    ];
  }
  if (scope === 'websites')
    return [
      ['websites', scopeId],
      ['default', 0],
    ];
  return [['default', 0]];
}

function fieldDto(registry: StoreRegistry, d: ConfigDeclaration, scope: ConfigScope, chain: [ConfigScope, number][]): ConfigFieldDto {
  let value: string | undefined;
  let source: string = 'declared';
  for (const [s, id] of chain) {
    const v = registry.getAtScope(d.path, s, id);
    if (v !== undefined && v !== null) {
      value = v;
      source = s;
      break;
    }
  }
  const secret = d.type === 'secret';
  return compact({
    path: d.path,
    label: d.label,
    type: d.type,
    comment: d.comment,
    options: d.options,
    default: secret ? undefined : d.default,
    scopes: d.scopes,
    min: d.min,
    max: d.max,
    value: secret ? undefined : (value ?? d.default),
    source,
    inherited: source !== scope,
    isSet: source !== 'declared',
  }) as ConfigFieldDto;
}

/** The sections the back office shows, with their groups. */
export function configSections(): ConfigSectionSummaryDto[] {
  const sections = new Map<string, ConfigSectionSummaryDto>();
  for (const d of configDeclarations()) {
    let s = sections.get(d.section);
    if (!s) sections.set(d.section, (s = { id: d.section, label: sectionLabel(d.section), groups: [], fieldCount: 0 }));
    if (!s.groups.some((g) => g.id === d.group)) s.groups.push({ id: d.group, label: groupLabel(d.section, d.group) });
    s.fieldCount++;
  }
  return [...sections.values()].sort((a, b) => a.id.localeCompare(b.id));
}

/** The declarations (of one section, or all) with the value each has at a scope and where it comes from. */
export function readConfiguration(ctx: Ctx, q: { scope?: ConfigScope; scopeId?: number; section?: string }): ConfigurationDto {
  const registry = ctx.app.settings;
  const scope = q.scope ?? 'default';
  const scopeId = q.scopeId ?? 0;
  checkScope(registry, scope, scopeId);
  checkStoreAccess(ctx, scope, scopeId);
  const chain = chainOf(registry, scope, scopeId);
  const sections = new Map<string, ConfigSectionDto>();
  for (const d of configDeclarations()) {
    if (q.section !== undefined && d.section !== q.section) continue;
    let s = sections.get(d.section);
    if (!s) sections.set(d.section, (s = { id: d.section, label: sectionLabel(d.section), groups: [] }));
    let g = s.groups.find((x) => x.id === d.group);
    if (!g) s.groups.push((g = { id: d.group, label: groupLabel(d.section, d.group), fields: [] }));
    g.fields.push(fieldDto(registry, d, scope, chain));
  }
  if (q.section !== undefined && !sections.size) throw notFound(`Unknown configuration section: ${q.section}`);
  return { scope, scopeId, sections: [...sections.values()].sort((a, b) => a.id.localeCompare(b.id)) };
}

/**
 * A token limited to some store views reads and writes only those views' scope: the default and website scopes
 * reach store views it may not touch.
 */
function checkStoreAccess(ctx: Ctx, scope: ConfigScope, scopeId: number): void {
  const allowed = ctx.actor.kind === 'admin' ? ctx.actor.allowedStoreIds : undefined;
  if (!allowed) return;
  if (scope !== 'stores' || !allowed.includes(scopeId)) {
    throw forbidden('This token is limited to some store views: only their store scope is available', { reason: 'STORE_SCOPE' });
  }
}

export interface ConfigProblem {
  path: string;
  reason: string;
}

/**
 * Checks every value first (one invalid value: a 400 naming each problem, nothing written), then writes the
 * changed ones and their audit rows in one transaction and reloads the registry. `allowUndeclared` (the CLI)
 * stores a path no module declares as given.
 */
export async function applyConfigChanges(
  db: Db,
  registry: StoreRegistry,
  actor: ConfigActor,
  scope: ConfigScope,
  scopeId: number,
  values: Record<string, unknown>,
  opts: { allowUndeclared?: boolean } = {},
): Promise<string[]> {
  checkScope(registry, scope, scopeId);
  const problems: ConfigProblem[] = [];
  const wanted = new Map<string, string | null>();
  for (const [path, value] of Object.entries(values)) {
    if (!CONFIG_PATH.test(path)) problems.push({ path, reason: 'is not a configuration path (section/group/field)' });
    else if (!configDeclaration(path)) {
      if (opts.allowUndeclared && (value === null || typeof value === 'string')) wanted.set(path, value);
      else problems.push({ path, reason: 'is not a known configuration path' });
    } else if (value === null) {
      // removing a value is allowed at any scope: it may have been stored before the path was scoped
      wanted.set(path, null);
    } else {
      const check = validateConfigValue(path, value, scope);
      if (check.ok) wanted.set(path, check.value);
      else problems.push({ path, reason: check.reason });
    }
  }
  if (problems.length) {
    const [first] = problems;
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
    throw badRequest(`${first.path} ${first.reason}${more}`, { reason: 'INVALID_CONFIG_VALUE', details: { errors: problems } });
  }
  const paths = [...wanted.keys()];
  const changed = await db.transaction(async (tx) => {
    const stored = await tx
      .select({ path: configValues.path, value: configValues.value })
      .from(configValues)
      .where(and(eq(configValues.scope, scope), eq(configValues.scopeId, scopeId), inArray(configValues.path, paths)))
      .for('update');
    const before = new Map(stored.map((r) => [r.path, r.value]));
    const changes = paths.map((path) => ({ path, old: before.get(path) ?? null, new: wanted.get(path)! })).filter((c) => c.old !== c.new);
    if (!changes.length) return [];
    const sets = changes.filter((c) => c.new !== null);
    const removals = changes.filter((c) => c.new === null).map((c) => c.path);
    if (sets.length) {
      await tx
        .insert(configValues)
        .values(sets.map((c) => ({ scope, scopeId, path: c.path, value: c.new })))
        .onConflictDoUpdate({
          target: [configValues.scope, configValues.scopeId, configValues.path],
          set: { value: sql`excluded.value`, updatedAt: sql`now()` },
        });
    }
    if (removals.length) {
      await tx
        .delete(configValues)
        .where(and(eq(configValues.scope, scope), eq(configValues.scopeId, scopeId), inArray(configValues.path, removals)));
    }
    await tx.insert(configChanges).values(
      changes.map((c) => {
        const secret = configDeclaration(c.path)?.type === 'secret';
        return {
          actorKind: actor.kind,
          actorId: actor.id ?? null,
          actorUsername: actor.username ?? null,
          scope,
          scopeId,
          path: c.path,
          oldValue: secret && c.old !== null ? SECRET_OLD : c.old,
          newValue: secret && c.new !== null ? SECRET_NEW : c.new,
        };
      }),
    );
    return changes.map((c) => c.path);
  });
  if (changed.length) await registry.reload();
  return changed;
}

function actorOf(ctx: Ctx): ConfigActor {
  const a = ctx.actor;
  if (a.kind === 'admin') return { kind: a.principal, id: a.id, username: a.username };
  return { kind: a.kind, id: a.kind === 'customer' ? a.customerId : undefined };
}

/** PUT /configuration: validated all-or-nothing, audited, applied at once here and within a second elsewhere. */
export async function writeConfiguration(
  ctx: Ctx,
  input: { scope: ConfigScope; scopeId?: number; values: Record<string, unknown> },
): Promise<ConfigurationWriteResultDto> {
  const registry = ctx.app.settings;
  const scopeId = input.scopeId ?? 0;
  checkScope(registry, input.scope, scopeId);
  checkStoreAccess(ctx, input.scope, scopeId);
  const changed = await applyConfigChanges(ctx.db, registry, actorOf(ctx), input.scope, scopeId, input.values);
  const chain = chainOf(registry, input.scope, scopeId);
  const fields = Object.keys(input.values).map((path) => fieldDto(registry, configDeclaration(path)!, input.scope, chain));
  return { scope: input.scope, scopeId, changed, fields };
}

const DATE = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

function timeOf(name: string, text: string): Date {
  const t = text.trim();
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(t);
  const d = DATE.test(t) ? new Date(t.length === 10 ? `${t}T00:00:00Z` : `${t.replace(' ', 'T')}${zoned ? '' : 'Z'}`) : new Date(NaN);
  if (Number.isNaN(d.getTime())) throw badRequest(`${name} must be a date and time (YYYY-MM-DD HH:MM:SS, UTC)`, { reason: 'INVALID_DATE' });
  return d;
}

/** The audit rows, newest first; filters path, from (inclusive) and to (exclusive). */
export async function configHistory(ctx: Ctx, q: ConfigHistoryQueryInput, page: Page): Promise<CollectionResult<ConfigChangeDto>> {
  const conds: SQL[] = [];
  if (q.path) conds.push(eq(configChanges.path, q.path));
  if (q.from) conds.push(gte(configChanges.changedAt, timeOf('from', q.from)));
  if (q.to) conds.push(lt(configChanges.changedAt, timeOf('to', q.to)));
  const allowed = ctx.actor.kind === 'admin' ? ctx.actor.allowedStoreIds : undefined;
  if (allowed) conds.push(eq(configChanges.scope, 'stores'), inArray(configChanges.scopeId, allowed.length ? allowed : [-1]));
  const where = conds.length ? and(...conds) : undefined;
  const [rows, [{ n }]] = await Promise.all([
    ctx.db.select().from(configChanges).where(where).orderBy(desc(configChanges.id)).limit(page.size).offset(page.offset),
    ctx.db.select({ n: count() }).from(configChanges).where(where),
  ]);
  return {
    items: rows.map(
      (r) =>
        compact({
          id: r.id,
          changedAt: wireDateTime(r.changedAt)!,
          actorKind: r.actorKind,
          actorId: r.actorId,
          actorUsername: r.actorUsername,
          scope: r.scope,
          scopeId: r.scopeId,
          path: r.path,
          oldValue: r.oldValue,
          newValue: r.newValue,
        }) as ConfigChangeDto,
    ),
    total: Number(n),
  };
}
