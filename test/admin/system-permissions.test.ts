/**
 * The back office's permission tree of roles: it offers every resource the API knows (src/platform/auth/access.ts)
 * once and no other, and the boxes it shows read and write the API's permission strings faithfully.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RESOURCES, hasPermission, isValidPermission, OPERATIONS } from '../../src/platform/auth/access.js';
import { PERMISSION_TREE, grantsOf, granted, permissionsOf } from '../../admin/src/screens/system/permissions.js';

describe('the permission tree of roles', () => {
  test('offers every resource of the API once, and no other', () => {
    const offered = PERMISSION_TREE.flatMap((g) => g.resources);
    assert.deepEqual([...offered].sort(), [...RESOURCES].sort());
    assert.equal(new Set(offered).size, offered.length, 'a resource in two groups');
  });

  test('reads permission strings as the API grants them, and writes them back in their shortest form', () => {
    const cases: [string[], string[]][] = [
      [['all'], ['all']],
      [['orders/read', 'orders/write', 'orders/delete'], ['orders/all']],
      [['orders/read', 'orders/write', 'orders/create', 'orders/delete'], ['orders/all']],
      [['products/all'], ['products/all']],
      [['customers/write'], ['customers/write']],
      [['customers/create'], ['customers/create']],
      [['customers/write', 'customers/create'], ['customers/write']],
      [
        ['reports/read', 'webhooks/read', 'webhooks/delete'],
        ['reports/read', 'webhooks/read', 'webhooks/delete'],
      ],
      [[], []],
    ];
    for (const [given, written] of cases) {
      const g = grantsOf(given);
      const out = permissionsOf(g);
      assert.deepEqual([...out].sort(), [...written].sort(), given.join(' '));
      assert.ok(out.every(isValidPermission), out.join(' '));
      for (const r of RESOURCES) {
        for (const op of OPERATIONS) {
          assert.equal(granted(g, r, op), hasPermission(given, r, op), `${given.join(' ')}: ${r}/${op}`);
          assert.equal(hasPermission(out, r, op), hasPermission(given, r, op), `written ${out.join(' ')}: ${r}/${op}`);
        }
      }
    }
  });
});
