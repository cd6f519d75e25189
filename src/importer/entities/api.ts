/**
 * API roles and users of Magento's SOAP / XML-RPC API. A role keeps its name and gets the permissions its
 * allowed resources map to; a user keeps its username and its key hash (verified at login as Magento hashed it,
 * then re-hashed). A role or user of ours that no import wrote is never overwritten: the source's one of the same
 * name arrives under a new name, and the report says so.
 */
import { sql } from 'drizzle-orm';
import { rows } from '../../platform/db.js';
import { apiRoles, apiUsers } from '../../modules/auth/tables.js';
import { count, mappedIds, recordIds, upsert, type EntityImporter, type ImportContext } from '../context.js';
import { bool, date, text, trimmed, type SourceRow } from '../source.js';
import { legacyPermissions, type MagentoRule } from '../../modules/soap/legacy-acl.js';

/** Magento ACL resource (first two segments) → our resources. */
const RESOURCE_MAP: [prefix: string, resources: string[]][] = [
  ['customer/address', ['addresses']],
  ['customer', ['customers', 'addresses', 'customer-groups']],
  ['catalog/category', ['categories']],
  ['catalog/product/attribute', ['product-attributes', 'attribute-sets']],
  ['catalog/product/media', ['media']],
  ['catalog/product/tag', ['tags']],
  ['catalog/product', ['products']],
  ['catalog', ['products', 'categories', 'product-attributes', 'attribute-sets', 'media', 'tags']],
  ['cataloginventory', ['inventory']],
  ['sales/order/invoice', ['invoices']],
  ['sales/order/shipment', ['shipments']],
  ['sales/order/creditmemo', ['credit-memos']],
  ['sales/order', ['orders']],
  ['sales', ['orders', 'invoices', 'shipments', 'credit-memos']],
  ['cart', ['carts']],
  ['cms/page', ['cms-pages']],
  ['cms/block', ['cms-blocks']],
  ['cms', ['cms-pages', 'cms-blocks']],
  ['core/store', ['stores']],
  ['giftcard', ['giftcards']],
  ['newsletter', ['newsletter']],
];

/** The operation a Magento resource's last segment names; undefined = the whole resource. */
function operationOf(segment: string | undefined): string | undefined {
  if (!segment) return undefined;
  if (['info', 'list', 'items', 'search', 'currentstore'].includes(segment)) return 'read';
  if (segment === 'create' || segment === 'add') return 'create';
  if (
    segment === 'update' ||
    segment === 'assign' ||
    segment === 'move' ||
    segment === 'addcomment' ||
    segment === 'hold' ||
    segment === 'unhold' ||
    segment === 'cancel'
  )
    return 'write';
  if (segment === 'delete' || segment === 'remove') return 'delete';
  return undefined;
}

/** Our permissions for the resources a Magento role is allowed. */
export function permissionsOf(resources: string[]): string[] {
  if (resources.includes('all')) return ['all'];
  const out = new Set<string>();
  for (const r of resources) {
    const match = RESOURCE_MAP.find(([prefix]) => r === prefix || r.startsWith(`${prefix}/`));
    if (!match) continue;
    const rest = r.slice(match[0].length).split('/').filter(Boolean);
    const op = rest.length ? operationOf(rest[rest.length - 1]) : undefined;
    // a sub-resource that names no operation we know grants nothing more specific than reading
    const grant = rest.length === 0 ? 'all' : (op ?? 'read');
    for (const res of match[1]) out.add(`${res}/${grant}`);
  }
  // `x/all` covers `x/read` and the rest
  return [...out].filter((p) => p.endsWith('/all') || !out.has(`${p.split('/')[0]}/all`)).sort();
}

/**
 * A Magento API role's permissions here: those its allowed resources map to for the REST API, and those of every
 * Magento 1 API method its rules allow (the method's own ACL node, as Magento's ACL inherits and denies), so that
 * the integrations of an imported role call what they called before.
 */
export function rolePermissions(rules: MagentoRule[]): string[] {
  const rest = permissionsOf(rules.filter((r) => r.allow).map((r) => r.resource));
  if (rest.includes('all')) return rest;
  const all = new Set([...rest, ...legacyPermissions(rules)]);
  return [...all].filter((p) => p.endsWith('/all') || !all.has(`${p.split('/')[0]}/all`)).sort();
}

/**
 * Names for source rows, keyed by our name column: a row an earlier run of this import wrote (the id map knows
 * it) keeps its id and takes the source's name when that is free; any other row of ours with that name is never
 * overwritten, and the source's row arrives under a new name instead (`Administrators (imported)`, then
 * `(imported 2)` …).
 */
export async function placeByName(
  ctx: ImportContext,
  entity: string,
  table: 'api_roles' | 'api_users' | 'admin_roles' | 'admin_users',
  column: 'name' | 'username',
  wanted: { sourceId: unknown; name: string }[],
): Promise<{ id?: number; name: string; renamedFrom?: string }[]> {
  const mapped = await mappedIds(
    ctx.db,
    entity,
    wanted.map((w) => w.sourceId),
  );
  const ours = await rows<{ id: number; name: string }>(
    ctx.db,
    sql`SELECT id, ${sql.identifier(column)} AS name FROM ${sql.identifier(table)}`,
  );
  const nameOf = new Map(ours.map((r) => [r.id, r.name]));
  const taken = new Set(ours.map((r) => r.name));
  const out: { id?: number; name: string; renamedFrom?: string }[] = [];
  const fresh: number[] = [];
  // rows already imported first, so they keep their names before new ones pick theirs
  wanted.forEach((w, i) => {
    const id = mapped.get(String(w.sourceId));
    if (id === undefined || !nameOf.has(id)) return void fresh.push(i);
    const current = nameOf.get(id)!;
    // renamed in the source: followed when the new name is free here
    const name = current === w.name || taken.has(w.name) ? current : w.name;
    taken.delete(current);
    taken.add(name);
    out[i] = { id, name };
  });
  for (const i of fresh) {
    const wish = wanted[i].name;
    let name = wish;
    for (let n = 1; taken.has(name); n++) name = `${wish} (imported${n > 1 ? ` ${n}` : ''})`;
    taken.add(name);
    out[i] = name === wish ? { name } : { name, renamedFrom: wish };
  }
  return out;
}

export const apiRolesImporter: EntityImporter = {
  name: 'api roles',
  group: 'api',
  count: (ctx) => (ctx.source.hasTable('api_role') ? ctx.source.count('api_role', "role_type = 'G'") : Promise.resolve(0)),
  async run(ctx, stats, tick) {
    if (!ctx.source.hasTable('api_role')) return;
    const roles = await ctx.source.query("SELECT * FROM api_role WHERE role_type = 'G' ORDER BY role_id");
    const rules = await ctx.source.query('SELECT role_id, resource_id, api_permission FROM api_rule ORDER BY rule_id');
    stats.found = roles.length;
    const places = await placeByName(
      ctx,
      'api roles',
      'api_roles',
      'name',
      roles.map((r) => ({ sourceId: r.role_id, name: text(r.role_name) ?? `role-${r.role_id}` })),
    );
    const values = roles.map((r, i) => ({
      ...(places[i].id !== undefined ? { id: places[i].id } : {}),
      name: places[i].name,
      permissions: rolePermissions(
        rules
          .filter((x) => Number(x.role_id) === Number(r.role_id))
          .map((x) => ({ resource: String(x.resource_id), allow: text(x.api_permission) === 'allow' })),
      ),
    }));
    roles.forEach((r, i) => {
      const from = places[i].renamedFrom;
      if (from)
        ctx.report.note(
          stats,
          r.role_id,
          `"${from}" is already the name of another role here, which keeps its permissions: this one is imported as "${places[i].name}"`,
        );
    });
    // rows of an earlier run are updated by id, new ones inserted under their free names
    count(
      stats,
      await upsert(
        ctx.db,
        apiRoles,
        values.filter((v) => v.id !== undefined),
        [apiRoles.id],
      ),
    );
    count(
      stats,
      await upsert(
        ctx.db,
        apiRoles,
        values.filter((v) => v.id === undefined),
        [apiRoles.name],
      ),
    );
    const ids = new Map((await rows<{ id: number; name: string }>(ctx.db, sql`SELECT id, name FROM api_roles`)).map((r) => [r.name, r.id]));
    await recordIds(
      ctx.db,
      'api roles',
      roles.map((r, i) => [r.role_id, ids.get(values[i].name)!]),
    );
    tick(roles.length);
  },
};

export const apiUsersImporter: EntityImporter = {
  name: 'api users',
  group: 'api',
  count: (ctx) => (ctx.source.hasTable('api_user') ? ctx.source.count('api_user') : Promise.resolve(0)),
  async run(ctx, stats, tick) {
    if (!ctx.source.hasTable('api_user')) return;
    const users = await ctx.source.query('SELECT * FROM api_user ORDER BY user_id');
    // a user's role: the `U` row under its group role
    const memberships = await ctx.source.query("SELECT user_id, parent_id FROM api_role WHERE role_type = 'U'");
    const roleIds = await mappedIds(ctx.db, 'api roles', [...new Set(memberships.map((m) => m.parent_id))]);
    const roleOf = new Map(memberships.map((m) => [Number(m.user_id), roleIds.get(String(m.parent_id))]));
    stats.found = users.length;
    const kept: { source: SourceRow; roleId: number; key: string }[] = [];
    for (const u of users) {
      const id = Number(u.user_id);
      const roleId = roleOf.get(id);
      const key = trimmed(u.api_key);
      if (!roleId) ctx.report.skip(stats, id, 'no role');
      else if (!key) ctx.report.skip(stats, id, 'no API key');
      else kept.push({ source: u, roleId, key });
    }
    const places = await placeByName(
      ctx,
      'api users',
      'api_users',
      'username',
      kept.map((k) => ({ sourceId: k.source.user_id, name: String(k.source.username) })),
    );
    const values = kept.map(({ source: u, roleId, key }, i) => ({
      ...(places[i].id !== undefined ? { id: places[i].id } : {}),
      username: places[i].name,
      email: trimmed(u.email),
      apiKeyHash: key,
      roleId,
      isActive: u.is_active === undefined ? true : bool(u.is_active),
      createdAt: date(u.created) ?? new Date(0),
      updatedAt: date(u.modified) ?? date(u.created) ?? new Date(0),
    }));
    kept.forEach((k, i) => {
      const from = places[i].renamedFrom;
      if (from)
        ctx.report.note(
          stats,
          k.source.user_id,
          `"${from}" is already the name of another API user here, which is left as it is: this one is imported as "${places[i].name}"`,
        );
    });
    // a key re-hashed at a login since the last run is kept unless the user changed in the source since
    const keep = `CASE WHEN t.api_key_hash LIKE 'scrypt$%' AND excluded.updated_at <= t.updated_at THEN t.api_key_hash ELSE excluded.api_key_hash END`;
    count(
      stats,
      await upsert(
        ctx.db,
        apiUsers,
        values.filter((v) => v.id !== undefined),
        [apiUsers.id],
        { apiKeyHash: keep },
      ),
    );
    count(
      stats,
      await upsert(
        ctx.db,
        apiUsers,
        values.filter((v) => v.id === undefined),
        [apiUsers.username],
        { apiKeyHash: keep },
      ),
    );
    const ours = new Map(
      (await ctx.db.select({ id: apiUsers.id, username: apiUsers.username }).from(apiUsers)).map((u) => [u.username, u.id]),
    );
    await recordIds(
      ctx.db,
      'api users',
      kept.map((k, i) => [k.source.user_id, ours.get(values[i].username)!]),
    );
    tick(users.length);
  },
};
