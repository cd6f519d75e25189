/**
 * A Magento 1 / OpenMage / Maho back-office role's ACL (admin_rule: resource_id + allow/deny) as our permissions.
 *
 * Magento saves a row for every resource of its tree when a role is saved (allow for the ticked ones and their
 * ancestors, deny for the rest), or a single `all` row. A resource without a row of its own takes the rule of its
 * nearest ancestor that has one (Zend_Acl's inheritance), and nothing is allowed without a rule. Each resource
 * below grants what the back-office screens behind it let a user do here; resources with no counterpart (cache,
 * index management, URL rewrites, …) grant nothing and are named in the report. Where Magento is finer than us
 * (configuration sections), a role allowed only part of it gets nothing rather than more than it had.
 */

/** Magento admin ACL resource (without its `admin/` root) → our permissions. */
const STAFF_RESOURCES: [resource: string, permissions: string[]][] = [
  ['sales/order', ['orders/read']],
  ['sales/order/actions/view', ['orders/read']],
  ['sales/order/actions/create', ['orders/create', 'carts/all']],
  ['sales/order/actions/reorder', ['orders/create', 'carts/all']],
  ['sales/order/actions/edit', ['orders/write']],
  ['sales/order/actions/cancel', ['orders/write']],
  ['sales/order/actions/hold', ['orders/write']],
  ['sales/order/actions/unhold', ['orders/write']],
  ['sales/order/actions/comment', ['orders/write']],
  ['sales/order/actions/email', ['orders/write']],
  ['sales/order/actions/emails', ['orders/write']],
  ['sales/order/actions/review_payment', ['orders/write']],
  ['sales/order/actions/capture', ['invoices/write']],
  ['sales/order/actions/invoice', ['invoices/create']],
  ['sales/order/actions/ship', ['shipments/create']],
  ['sales/order/actions/creditmemo', ['credit-memos/create']],
  ['sales/invoice', ['invoices/read']],
  ['sales/shipment', ['shipments/read']],
  ['sales/creditmemo', ['credit-memos/read']],
  ['sales/giftcard/manage', ['giftcards/all']],
  ['sales/giftcard/history', ['giftcards/read']],
  ['sales/revocation/view', ['revocation-requests/read']],
  ['sales/revocation/process', ['revocation-requests/read', 'revocation-requests/write']],
  ['sales/tax/classes_customer', ['tax-classes/all']],
  ['sales/tax/classes_product', ['tax-classes/all']],
  ['sales/tax/rates', ['tax-rates/all']],
  ['sales/tax/import_export', ['tax-rates/all']],
  ['sales/tax/rules', ['tax-rules/all']],
  // the product screen edits stock and images too
  ['catalog/products', ['products/all', 'media/all', 'inventory/all']],
  ['catalog/update_attributes', ['products/read', 'products/write']],
  ['catalog/categories', ['categories/all']],
  ['catalog/attributes/attributes', ['product-attributes/all']],
  ['catalog/attributes/sets', ['attribute-sets/all']],
  ['catalog/reviews_ratings/reviews/all', ['reviews/all']],
  ['catalog/reviews_ratings/reviews/pending', ['reviews/all']],
  // All Tags and Pending Tags: the same tag screens, moderation and deletion included
  ['catalog/tag', ['tags/all']],
  // the customer screen shows the addresses and wishlist
  ['customer/manage', ['customers/all', 'addresses/all', 'wishlists/all']],
  ['customer/group', ['customer-groups/all']],
  ['newsletter/subscriber', ['newsletter/all']],
  ['promo/quote', ['coupons/all']],
  ['cms/page', ['cms-pages/read']],
  ['cms/page/save', ['cms-pages/write']],
  ['cms/page/delete', ['cms-pages/delete']],
  ['cms/block', ['cms-blocks/all']],
  ['cms/blog/posts', ['blog-posts/all']],
  ['cms/blog/categories', ['blog-categories/all']],
  ['report', ['reports/read']],
  ['system/acl/users', ['admin-users/all']],
  ['system/acl/roles', ['admin-roles/all']],
  ['system/adminactivitylog', ['activity-log/read']],
  ['system/store', ['stores/all']],
];

const CONFIG = 'system/config';

/** screens every staff user has here, never worth a line in the report */
const EVERYONE = ['dashboard', 'global_search', 'system/myaccount'];

export interface StaffRule {
  /** as admin_rule has it: `all`, `admin`, `admin/sales/order`, … */
  resource: string;
  allow: boolean;
}

export interface StaffPermissions {
  permissions: string[];
  /** allowed Magento resources that grant nothing here (their top two levels) */
  unmapped: string[];
  /** configuration sections: how many the role may edit of those it has rules for, when not all */
  configSections?: { allowed: number; of: number };
}

/** Our permissions for a Magento back-office role's rules. */
export function staffPermissionsOf(rules: StaffRule[]): StaffPermissions {
  const rule = new Map<string, boolean>();
  for (const r of rules) rule.set(r.resource.replace(/^\/+|\/+$/g, ''), r.allow);
  if (rule.get('all') === true) return { permissions: ['all'], unmapped: [] };
  const allowed = (resource: string): boolean => {
    for (let p = `admin/${resource}`; p; p = p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '') {
      const r = rule.get(p);
      if (r !== undefined) return r;
    }
    return false;
  };
  const out = new Set<string>();
  const mapped: string[] = [];
  for (const [resource, grants] of STAFF_RESOURCES) {
    mapped.push(resource);
    if (allowed(resource)) for (const g of grants) out.add(g);
  }
  let configSections: StaffPermissions['configSections'];
  if (allowed(CONFIG)) {
    const sections = [...rule.keys()].filter((r) => r.startsWith(`admin/${CONFIG}/`)).map((r) => r.slice('admin/'.length));
    const open = sections.filter(allowed).length;
    if (open === sections.length) out.add('configuration/all');
    else configSections = { allowed: open, of: sections.length };
  }
  mapped.push(CONFIG, ...EVERYONE);
  // what the role is allowed that none of the above covers (in either direction), by its top two levels
  const unmapped = new Set<string>();
  for (const [resource, allow] of rule) {
    if (!allow || !resource.startsWith('admin/')) continue;
    const r = resource.slice('admin/'.length);
    const covered = mapped.some((m) => r === m || r.startsWith(`${m}/`) || m.startsWith(`${r}/`));
    if (!covered) unmapped.add(r.split('/').slice(0, 2).join('/'));
  }
  return { permissions: normalized(out), unmapped: [...unmapped].sort(), ...(configSections ? { configSections } : {}) };
}

/** `x/all` when read, write and delete are all there (write covers create); nothing that `x/all` covers besides. */
function normalized(grants: Set<string>): string[] {
  const by = new Map<string, Set<string>>();
  for (const g of grants) {
    const [res, op] = g.split('/');
    let ops = by.get(res);
    if (!ops) by.set(res, (ops = new Set()));
    ops.add(op);
  }
  const out: string[] = [];
  for (const [res, ops] of by) {
    if (ops.has('all') || (ops.has('read') && ops.has('write') && ops.has('delete'))) out.push(`${res}/all`);
    else for (const op of ops) if (!(op === 'create' && ops.has('write'))) out.push(`${res}/${op}`);
  }
  return out.sort();
}
