/**
 * API roles and users of Magento's SOAP / XML-RPC API. A role keeps its name and gets the permissions its
 * allowed resources map to; a user keeps its username (an existing user of that name is updated) and its key
 * hash (verified at login as Magento hashed it, then re-hashed).
 */
import { sql } from 'drizzle-orm';
import { rows } from '../../platform/db.js';
import { apiRoles, apiUsers } from '../../modules/auth/tables.js';
import { count, mappedIds, recordIds, upsert, type EntityImporter } from '../context.js';
import { bool, date, text } from '../source.js';

/** Magento ACL resource (first two segments) → our resources. */
const RESOURCE_MAP: [prefix: string, resources: string[]][] = [
  ['customer/address', ['addresses']],
  ['customer', ['customers', 'addresses', 'customer-groups']],
  ['catalog/category', ['categories']],
  ['catalog/product/attribute', ['product-attributes', 'attribute-sets']],
  ['catalog/product/media', ['media']],
  ['catalog/product', ['products']],
  ['catalog', ['products', 'categories', 'product-attributes', 'attribute-sets', 'media']],
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
  if (segment === 'update' || segment === 'assign' || segment === 'move' || segment === 'addcomment' || segment === 'hold' || segment === 'unhold' || segment === 'cancel') return 'write';
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

export const apiRolesImporter: EntityImporter = {
  name: 'api roles',
  group: 'api',
  count: (ctx) => (ctx.source.hasTable('api_role') ? ctx.source.count('api_role', "role_type = 'G'") : Promise.resolve(0)),
  async run(ctx, stats, tick) {
    if (!ctx.source.hasTable('api_role')) return;
    const roles = await ctx.source.query("SELECT * FROM api_role WHERE role_type = 'G' ORDER BY role_id");
    const rules = await ctx.source.query("SELECT role_id, resource_id FROM api_rule WHERE api_permission = 'allow' ORDER BY rule_id");
    stats.found = roles.length;
    const values = roles.map((r) => ({
      name: text(r.role_name) ?? `role-${r.role_id}`,
      permissions: permissionsOf(rules.filter((x) => Number(x.role_id) === Number(r.role_id)).map((x) => String(x.resource_id))),
    }));
    const names = new Set<string>();
    for (let i = 0; i < values.length; i++) {
      while (names.has(values[i].name)) values[i].name = `${values[i].name} (${roles[i].role_id})`;
      names.add(values[i].name);
    }
    count(stats, await upsert(ctx.db, apiRoles, values, [apiRoles.name]));
    const ids = new Map((await rows<{ id: number; name: string }>(ctx.db, sql`SELECT id, name FROM api_roles`)).map((r) => [r.name, r.id]));
    await recordIds(ctx.db, 'api roles', roles.map((r, i) => [r.role_id, ids.get(values[i].name)!]));
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
    const values = [];
    for (const u of users) {
      const id = Number(u.user_id);
      const roleId = roleOf.get(id);
      const key = text(u.api_key);
      if (!roleId) ctx.report.skip(stats, id, 'no role');
      else if (!key) ctx.report.skip(stats, id, 'no API key');
      else {
        values.push({
          username: String(u.username),
          email: text(u.email),
          apiKeyHash: key,
          roleId,
          isActive: u.is_active === undefined ? true : bool(u.is_active),
          createdAt: date(u.created) ?? new Date(0),
          updatedAt: date(u.modified) ?? date(u.created) ?? new Date(0),
        });
      }
    }
    // a key re-hashed at a login since the last run is kept unless the user changed in the source since
    const keep = `CASE WHEN t.api_key_hash LIKE 'scrypt$%' AND excluded.updated_at <= t.updated_at THEN t.api_key_hash ELSE excluded.api_key_hash END`;
    count(stats, await upsert(ctx.db, apiUsers, values, [apiUsers.username], { apiKeyHash: keep }));
    const ours = new Map((await ctx.db.select({ id: apiUsers.id, username: apiUsers.username }).from(apiUsers)).map((u) => [u.username, u.id]));
    await recordIds(ctx.db, 'api users', users.filter((u) => ours.has(String(u.username))).map((u) => [u.user_id, ours.get(String(u.username))!]));
    tick(users.length);
  },
};
