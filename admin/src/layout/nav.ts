/**
 * The back office's menu: each entry is shown only to a role allowed to read what it leads to (the permission the
 * screen's list needs). Labels are message keys.
 */
export interface NavItem {
  to: string;
  label: string;
  resource: string;
}

export interface NavGroup {
  label: string;
  items: NavItem[];
}

export const NAV: NavGroup[] = [
  { label: 'nav.overview', items: [{ to: '/', label: 'nav.dashboard', resource: 'reports' }] },
  {
    label: 'nav.sales',
    items: [
      { to: '/orders', label: 'nav.orders', resource: 'orders' },
      { to: '/invoices', label: 'nav.invoices', resource: 'invoices' },
      { to: '/shipments', label: 'nav.shipments', resource: 'shipments' },
      { to: '/credit-memos', label: 'nav.creditMemos', resource: 'credit-memos' },
    ],
  },
  {
    label: 'nav.catalog',
    items: [
      { to: '/products', label: 'nav.products', resource: 'products' },
      { to: '/categories', label: 'nav.categories', resource: 'categories' },
      { to: '/attributes', label: 'nav.attributes', resource: 'product-attributes' },
      { to: '/attribute-sets', label: 'nav.attributeSets', resource: 'attribute-sets' },
      { to: '/reviews', label: 'nav.reviews', resource: 'reviews' },
    ],
  },
  {
    label: 'nav.customers',
    items: [
      { to: '/customers', label: 'nav.customerList', resource: 'customers' },
      { to: '/customer-groups', label: 'nav.customerGroups', resource: 'customer-groups' },
    ],
  },
  {
    label: 'nav.marketing',
    items: [
      { to: '/coupons', label: 'nav.coupons', resource: 'coupons' },
      { to: '/giftcards', label: 'nav.giftcards', resource: 'giftcards' },
      { to: '/newsletter', label: 'nav.newsletter', resource: 'newsletter' },
    ],
  },
  {
    label: 'nav.content',
    items: [
      { to: '/cms-pages', label: 'nav.cmsPages', resource: 'cms-pages' },
      { to: '/cms-blocks', label: 'nav.cmsBlocks', resource: 'cms-blocks' },
      { to: '/blog-posts', label: 'nav.blogPosts', resource: 'blog-posts' },
      { to: '/blog-categories', label: 'nav.blogCategories', resource: 'blog-categories' },
      { to: '/media', label: 'nav.media', resource: 'media' },
      { to: '/revocation-requests', label: 'nav.revocations', resource: 'revocation-requests' },
    ],
  },
  {
    label: 'nav.system',
    items: [
      { to: '/admin-users', label: 'nav.staffUsers', resource: 'admin-users' },
      { to: '/admin-roles', label: 'nav.staffRoles', resource: 'admin-roles' },
      { to: '/api-users', label: 'nav.apiUsers', resource: 'admin-users' },
      { to: '/webhooks', label: 'nav.webhooks', resource: 'webhooks' },
      { to: '/configuration', label: 'nav.configuration', resource: 'configuration' },
      { to: '/activity-log', label: 'nav.activityLog', resource: 'activity-log' },
      { to: '/stores', label: 'nav.stores', resource: 'stores' },
    ],
  },
];
