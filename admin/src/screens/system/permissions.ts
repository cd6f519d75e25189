/**
 * The permission (ACL) tree of roles: every resource a role may name (the API's list), grouped as the menu groups
 * the screens, and the permission strings of a set of checked boxes and back. `write` covers create and `all`
 * covers the four, as the API decides it.
 */
export const PERMISSION_OPS = ['read', 'write', 'create', 'delete'] as const;
export type PermissionOp = (typeof PERMISSION_OPS)[number];

export const PERMISSION_TREE: { group: string; resources: string[] }[] = [
  { group: 'sales', resources: ['orders', 'invoices', 'shipments', 'credit-memos', 'carts', 'revocation-requests'] },
  { group: 'catalog', resources: ['products', 'categories', 'product-attributes', 'attribute-sets', 'inventory', 'reviews', 'tags'] },
  { group: 'customers', resources: ['customers', 'addresses', 'customer-groups', 'wishlists'] },
  { group: 'marketing', resources: ['coupons', 'giftcards', 'newsletter'] },
  { group: 'content', resources: ['cms-pages', 'cms-blocks', 'blog-posts', 'blog-categories', 'media'] },
  { group: 'tax', resources: ['tax-classes', 'tax-rates', 'tax-rules'] },
  { group: 'reports', resources: ['reports'] },
  { group: 'system', resources: ['stores', 'configuration', 'webhooks', 'admin-users', 'admin-roles', 'activity-log'] },
];

/** Checked operations per resource; `all` stands for every permission. */
export interface Grants {
  all: boolean;
  byResource: Record<string, PermissionOp[]>;
}

/** The boxes of a role's permission strings (`all`, `<resource>/all`, `<resource>/<op>`). */
export function grantsOf(permissions: readonly string[]): Grants {
  const byResource: Record<string, PermissionOp[]> = {};
  let all = false;
  for (const p of permissions) {
    if (p === 'all') {
      all = true;
      continue;
    }
    const [resource, op] = p.split('/');
    const ops = op === 'all' ? [...PERMISSION_OPS] : (PERMISSION_OPS as readonly string[]).includes(op) ? [op as PermissionOp] : [];
    byResource[resource] = [...new Set([...(byResource[resource] ?? []), ...ops])];
  }
  return { all, byResource };
}

/** Whether a resource's operation is granted: checked, or implied (create by write). */
export function granted(g: Grants, resource: string, op: PermissionOp): boolean {
  if (g.all) return true;
  const ops = g.byResource[resource] ?? [];
  return ops.includes(op) || (op === 'create' && ops.includes('write'));
}

/** The permission strings of the boxes, shortest form: `all`, `<resource>/all` when all four hold, else each one. */
export function permissionsOf(g: Grants): string[] {
  if (g.all) return ['all'];
  const out: string[] = [];
  for (const { resources } of PERMISSION_TREE) {
    for (const r of resources) {
      const ops = PERMISSION_OPS.filter((op) => granted(g, r, op));
      if (ops.length === PERMISSION_OPS.length) out.push(`${r}/all`);
      else for (const op of ops) if (!(op === 'create' && ops.includes('write'))) out.push(`${r}/${op}`);
    }
  }
  return out;
}
