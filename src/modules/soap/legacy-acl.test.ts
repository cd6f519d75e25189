/**
 * Magento's API ACL over the method table: every method names its node, a role allowed that node (or a parent of
 * it, with no nearer deny) gets the permission the method needs, and a role allowed only a sibling does not.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hasPermission } from '../../platform/auth/access.js';
import { aclAllows, legacyPermissions, MAGENTO_ACL } from './legacy-acl.js';
import { LEGACY_RESOURCES } from './resources/index.js';

const methods = LEGACY_RESOURCES.flatMap((r) =>
  Object.entries(r.methods).map(([name, m]) => ({ path: `${r.name}.${name}`, acl: MAGENTO_ACL[r.name]?.[name], m })),
);
const grants = (perms: string[], m: (typeof methods)[number]['m']) =>
  !m.permission || hasPermission(perms, m.permission[0], m.permission[1]);

test('every method of the table names its node of the ACL tree', () => {
  assert.deepEqual(
    methods.filter((x) => !x.acl).map((x) => x.path),
    [],
  );
});

test("a role allowed a method's node may call the method", () => {
  for (const x of methods) assert.ok(grants(legacyPermissions([{ resource: x.acl!, allow: true }]), x.m), x.path);
});

test('the nearest rule decides: a parent allows its children unless a nearer node is denied; no rule denies', () => {
  const rules = [
    { resource: 'sales/order', allow: true },
    { resource: 'sales/order/change', allow: false },
  ];
  assert.equal(aclAllows(rules, 'sales/order/info'), true);
  assert.equal(aclAllows(rules, 'sales/order/change'), false);
  assert.equal(aclAllows(rules, 'sales/order/invoice/create'), true);
  assert.equal(aclAllows(rules, 'catalog/product/info'), false);
  assert.equal(aclAllows([{ resource: 'all', allow: true }], 'cart/order'), true);
  assert.equal(aclAllows([{ resource: 'sales/order', allow: true }], 'sales/orderx'), false);
  const perms = legacyPermissions([{ resource: 'sales/order/info', allow: true }]);
  const byPath = new Map(methods.map((x) => [x.path, x.m]));
  assert.equal(grants(perms, byPath.get('sales_order.info')!), true);
  assert.equal(grants(perms, byPath.get('sales_order.cancel')!), false, 'change is another node');
  assert.equal(grants(perms, byPath.get('sales_order_invoice.create')!), false);
});
