/**
 * `cataloginventory_stock_item` (`product_stock`) of the Magento 1 API: an ERP's round trip with Python's
 * xmlrpc.client (the stock of 100 SKUs in one multiUpdate, read back over XML-RPC and REST), and every method and
 * fault over JSON-RPC: products by SKU or id, malformed arguments, all-or-nothing updates in a fixed number of
 * statements, parallel multiUpdates, the role's permissions and store-limited API users.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API, type TestApp } from '../../../test/helpers.js';
import { LegacyClient, runScenario, skipWithout, stockedProducts, type Step } from '../../../test/fixtures/legacy-api.js';
import { newApiUser, newWebsite, startSoapApp } from '../../../test/fixtures/soap.js';

let t: TestApp;
let base: string;
let admin: string;
const api = new LegacyClient(() => base);
const { rpc, sessionOf, call, ok, fault, faultCodes } = api;

const restStock = async (sku: string) => (await t.req('GET', `${API}/inventory/${encodeURIComponent(sku)}`, { token: admin })).body;

before(async () => {
  ({ t, base } = await startSoapApp());
  admin = await t.tokens.admin();
  api.session = await sessionOf();
});
after(() => t?.close());

describe('an ERP with Python xmlrpc.client', { skip: skipWithout('python') }, () => {
  let r: Record<string, Step>;
  let made: { sku: string; id: number }[];

  before(async () => {
    made = await stockedProducts(t, 100);
    r = await runScenario('python', 'stock_scenario.py', base, { RPC_SKUS: made.map((p) => p.sku).join(',') });
  });

  test('one multiUpdate sets the stock of 100 SKUs; list and REST read it back', async () => {
    assert.equal(r.multiUpdate.ok, true, JSON.stringify(r.multiUpdate));
    assert.equal(r.list.ok.length, 100);
    const bySku = new Map(r.list.ok.map((x: any) => [x.sku, x]));
    for (const [i, p] of made.entries()) {
      assert.deepEqual(bySku.get(p.sku), { product_id: String(p.id), sku: p.sku, qty: String(1000 + i), is_in_stock: '1' });
    }
    for (const i of [1, 50, 99]) {
      const rest = await restStock(made[i].sku);
      assert.equal(rest.qty, 1000 + i);
      assert.equal(rest.isInStock, true);
    }
  });

  test('update by product id with Magento-style strings; faults 103 and 101', async () => {
    assert.equal(r.updateById.ok, true);
    const first = made.find((p) => String(p.id) === r.listById.ok[0]?.product_id)!;
    assert.deepEqual(r.listById.ok, [{ product_id: String(first.id), sku: first.sku, qty: '7', is_in_stock: '0' }]);
    assert.deepEqual(r.mismatch.fault, [103, 'Quantity of product IDs and product data should match. Inventory was not updated.']);
    assert.deepEqual(r.missing.fault, [101, 'Product not exists.']);
    const rest = await restStock(first.sku);
    assert.equal(rest.qty, 7);
    assert.equal(rest.isInStock, false);
  });

  test('reads the category tree, creates, moves, assigns a product and deletes', async () => {
    assert.deepEqual([r.tree.ok.category_id, r.tree.ok.name], ['1', 'Root']);
    assert.ok(r.tree.ok.children.some((c: any) => c.category_id === '2'));
    const [parent, child] = [r.createParent.ok, r.createChild.ok];
    assert.match(String(parent), /^\d+$/);
    assert.equal(r.move.ok, true);
    assert.equal(r.assign.ok, true);
    assert.deepEqual(
      r.assigned.ok.map((p: any) => [p.sku, p.position]),
      [[made[0].sku, '5']],
    );
    assert.deepEqual(
      r.subtree.ok.children.map((c: any) => [c.category_id, c.parent_id, c.name]),
      [[String(child), String(parent), 'ERP Moved']],
    );
    assert.equal(r.delete.ok, true);
    assert.deepEqual(r.deleted.fault, [102, 'Category not exists.']);
    assert.equal((await t.req('GET', `${API}/categories/${child}`, { token: admin })).status, 404);
  });
});

describe('product_stock over JSON-RPC', () => {
  test('list: by SKU (any case) or id, one product or many; unknown ones are left out', async () => {
    const [a, b] = await stockedProducts(t, 2);
    assert.deepEqual(await ok('product_stock.list', [[a.sku.toUpperCase(), String(b.id), 'nope', 999999999]]), [
      { product_id: String(a.id), sku: a.sku, qty: '5', is_in_stock: '1' },
      { product_id: String(b.id), sku: b.sku, qty: '5', is_in_stock: '1' },
    ]);
    assert.deepEqual(await ok('cataloginventory_stock_item.list', [a.id]), [
      { product_id: String(a.id), sku: a.sku, qty: '5', is_in_stock: '1' },
    ]);
    assert.deepEqual(await ok('product_stock.list', { products: [b.sku] }), [
      { product_id: String(b.id), sku: b.sku, qty: '5', is_in_stock: '1' },
    ]);
    assert.deepEqual(await ok('product_stock.list', [[]]), []);
    assert.deepEqual(await ok('product_stock.list', [[{ x: 1 }, null, true]]), []);
  });

  test('a product without a stock row reads as out of stock; an update creates its row', async () => {
    const [p] = await stockedProducts(t, 1, { stockData: undefined });
    const [row] = await ok('product_stock.list', [[p.sku]]);
    assert.deepEqual([row.qty, row.is_in_stock], ['0', '0'], 'numbers as strings, as Magento sent what it read');
    assert.equal(await ok('product_stock.update', [p.sku, { qty: 3 }]), true);
    assert.deepEqual((await ok('product_stock.list', [[p.sku]]))[0], { product_id: String(p.id), sku: p.sku, qty: '3', is_in_stock: '1' });
  });

  test('update: arguments by position or by name, every stock key, the service rules as fault 102', async () => {
    const [p] = await stockedProducts(t, 1);
    assert.equal(
      await ok('product_stock.update', {
        product: p.sku,
        data: {
          qty: '12',
          is_in_stock: 1,
          manage_stock: '1',
          backorders: 1,
          min_qty: -2,
          min_sale_qty: 2,
          max_sale_qty: 10,
          notify_stock_qty: 1,
          qty_increments: 2,
          enable_qty_increments: true,
          unknown_key: 'ignored',
          use_config_min_sale_qty: null,
        },
      }),
      true,
    );
    const rest = await restStock(p.sku);
    assert.deepEqual(
      [rest.qty, rest.isInStock, rest.backorders, rest.minQty, rest.minSaleQty, rest.maxSaleQty, rest.notifyStockQty, rest.qtyIncrements],
      [12, true, 1, -2, 2, 10, 1, 2],
    );
    assert.equal(await ok('product_stock.update', [p.id, { use_config_backorders: 1, min_qty: 0, use_config_max_sale_qty: 1 }]), true);
    const after = await restStock(p.sku);
    assert.deepEqual([after.backorders, after.maxSaleQty], [0, undefined]);
    const f = (data: unknown) => fault('product_stock.update', [p.sku, data]);
    assert.deepEqual(await f({ qty: -1 }), [102, 'qty must be an integer from 0 to 99,999,999']);
    assert.equal((await f({ qty: 1.5 }))[0], 102);
    assert.equal((await f({ qty: 'many' }))[0], 102);
    assert.equal((await f({ is_in_stock: 'maybe' }))[0], 102);
    assert.equal((await f({ min_qty: -1 }))[0], 102, 'a negative min_qty needs backorders');
    assert.equal((await f({}))[0], 102, 'no stock key');
    assert.deepEqual(await f('qty'), [102, 'Stock data must be a struct.']);
    assert.deepEqual(await fault('product_stock.update', ['no-such-sku', { qty: 1 }]), [101, 'Product not exists.']);
    assert.deepEqual(await fault('product_stock.update', [999999999, { qty: 1 }]), [101, 'Product not exists.']);
    assert.deepEqual(await fault('product_stock.update', [null, { qty: 1 }]), [101, 'Product not exists.']);
    assert.deepEqual(await fault('product_stock.update', [{ sku: p.sku }, { qty: 1 }]), [101, 'Product not exists.']);
    assert.equal((await restStock(p.sku)).qty, 12, 'refused updates changed nothing');
  });

  test('multiUpdate: all or nothing; 103 when the lists differ in length', async () => {
    const [a, b] = await stockedProducts(t, 2);
    assert.deepEqual(await fault('product_stock.multiUpdate', [[a.sku, b.sku], [{ qty: 1 }]]), [
      103,
      'Quantity of product IDs and product data should match. Inventory was not updated.',
    ]);
    assert.equal((await fault('product_stock.multiUpdate', [[a.sku], 'x']))[0], 103);
    assert.equal(await ok('product_stock.multiUpdate', [[], []]), true);
    assert.deepEqual(
      await fault('product_stock.multiUpdate', [
        [a.sku, 'missing-sku'],
        [{ qty: 1 }, { qty: 2 }],
      ]),
      [101, 'Product not exists.'],
    );
    assert.deepEqual(
      await fault('product_stock.multiUpdate', [
        [a.sku, b.sku],
        [{ qty: 1 }, { qty: -2 }],
      ]),
      [102, 'Item at index 1: qty must be an integer from 0 to 99,999,999'],
    );
    assert.equal((await restStock(a.sku)).qty, 5, 'nothing of a refused multiUpdate stays');
    // a product named twice: the later entry wins
    assert.equal(
      await ok('product_stock.multiUpdate', { productIds: [a.id, b.sku, a.sku], productData: [{ qty: 8 }, { qty: 9 }, { qty: 10 }] }),
      true,
    );
    assert.deepEqual([(await restStock(a.sku)).qty, (await restStock(b.sku)).qty], [10, 9]);
  });

  test('multiUpdate runs the same number of statements for 10 and for 100 products', async () => {
    const made = await stockedProducts(t, 100);
    const count = async (n: number, qty: number) => {
      const { n: used, result } = await api.statementsOf(t, 'product_stock.multiUpdate', [
        made.slice(0, n).map((p) => p.sku),
        made.slice(0, n).map(() => ({ qty })),
      ]);
      assert.equal(result, true);
      return used;
    };
    await count(10, 1);
    const ten = await count(10, 2);
    const hundred = await count(100, 3);
    assert.equal(hundred, ten);
    assert.ok(hundred < 15, `${hundred} statements`);
  });

  test('two parallel multiUpdates of the same products leave one of them whole, never a mix', async () => {
    const made = await stockedProducts(t, 30);
    const skus = made.map((p) => p.sku);
    const reversed = [...skus].reverse();
    for (let round = 0; round < 3; round++) {
      const [x, y] = await Promise.all([
        call('product_stock.multiUpdate', [skus, skus.map(() => ({ qty: 100 + round }))]),
        call('product_stock.multiUpdate', [reversed, reversed.map(() => ({ qty: 200 + round }))]),
      ]);
      assert.equal(x.result, true, JSON.stringify(x.error));
      assert.equal(y.result, true, JSON.stringify(y.error));
      const qtys = new Set((await ok('product_stock.list', [skus])).map((s: any) => Number(s.qty)));
      assert.equal(qtys.size, 1, `one update whole: ${[...qtys]}`);
      assert.ok(qtys.has(100 + round) || qtys.has(200 + round));
    }
  });

  test('the REST API and the Magento API write the same stock rows', async () => {
    const [p] = await stockedProducts(t, 1);
    await ok('product_stock.update', [p.sku, { qty: 50 }]);
    const rest = await t.req('PUT', `${API}/inventory`, { token: admin, body: { sku: p.sku, qty: 40 } });
    assert.equal(rest.status, 200);
    assert.equal((await ok('product_stock.list', [[p.sku]]))[0].qty, '40');
  });
});

describe('permissions and store views', () => {
  test('a role without the permission gets fault 2; a reader may list but not update', async () => {
    const [p] = await stockedProducts(t, 1);
    const reader = await newApiUser(t, ['inventory/read']);
    const s = await sessionOf(reader);
    assert.equal((await ok('product_stock.list', [[p.sku]], s)).length, 1);
    assert.deepEqual(await fault('product_stock.update', [p.sku, { qty: 1 }], s), [2, 'Access denied.']);
    assert.deepEqual(await fault('product_stock.multiUpdate', [[p.sku], [{ qty: 1 }]], s), [2, 'Access denied.']);
    const none = await newApiUser(t, ['customers/read']);
    const n = await sessionOf(none);
    assert.deepEqual(await fault('product_stock.list', [[p.sku]], n), [2, 'Access denied.']);
    const resources = (await rpc('resources', [s])).result;
    assert.deepEqual(
      resources
        .filter((r: any) => r.name === 'cataloginventory_stock_item')
        .map((r: any) => [r.aliases, r.methods.map((m: any) => m.name)]),
      [[['product_stock'], ['list']]],
    );
    assert.deepEqual(await faultCodes('product_stock'), ['101', '102', '103']);
  });

  test("an API user limited to a store view reaches only its website's products", async () => {
    const second = await newWebsite(t, 'stockweb');
    const [mine] = await stockedProducts(t, 1, { websiteIds: [second.websiteId] });
    const [other] = await stockedProducts(t, 1, { websiteIds: [1] });
    const s = await sessionOf(await newApiUser(t, ['inventory/all'], [second.storeId]), { 'x-store-code': 'stockweb' });
    assert.deepEqual(
      (await ok('product_stock.list', [[mine.sku, other.sku]], s)).map((x: any) => x.sku),
      [mine.sku],
    );
    assert.equal(await ok('product_stock.update', [mine.sku, { qty: 4 }], s), true);
    assert.deepEqual(await fault('product_stock.update', [other.sku, { qty: 4 }], s), [101, 'Product not exists.']);
    assert.deepEqual(
      await fault(
        'product_stock.multiUpdate',
        [
          [mine.sku, other.id],
          [{ qty: 1 }, { qty: 1 }],
        ],
        s,
      ),
      [101, 'Product not exists.'],
    );
    assert.deepEqual([(await restStock(mine.sku)).qty, (await restStock(other.sku)).qty], [4, 5]);
  });
});

describe('catalog_category over JSON-RPC', () => {
  test('tree, level and info; a store view by id or code; faults 100 and 102', async () => {
    const tree = await ok('category.tree', []);
    assert.deepEqual([tree.category_id, tree.name, tree.level], ['1', 'Root', '0']);
    assert.ok(tree.children.some((c: any) => c.category_id === '2'));
    const store = await ok('catalog_category.tree', [null, 'default']);
    assert.equal(store.category_id, '2');
    assert.deepEqual(await ok('category.tree', [2, 1]), store);
    assert.deepEqual(await fault('category.tree', [null, 'nowhere']), [100, 'Requested store view not found.']);
    assert.deepEqual(await fault('category.tree', [999999]), [102, 'Category not exists.']);
    const roots = await ok('category.level', []);
    assert.ok(roots.some((c: any) => c.category_id === '2'));
    const level = await ok('category.level', [null, 'default']);
    assert.deepEqual(
      level.map((c: any) => c.category_id),
      store.children.map((c: any) => c.category_id),
    );
    assert.deepEqual(
      await ok('category.level', [1, null]),
      roots.filter((c: any) => c.category_id === '2'),
    );
    assert.deepEqual(await fault('category.level', ['nowebsite']), [101, 'Requested website not found.']);
    const info = await ok('category.info', [2]);
    assert.equal(info.category_id, '2');
    assert.equal(info.parent_id, '1');
    assert.ok(info.all_children.split(',').includes('2'));
    assert.deepEqual(Object.keys(await ok('category.info', [2, null, ['name']])), [
      'category_id',
      'is_active',
      'position',
      'level',
      'name',
      'parent_id',
      'children',
      'all_children',
    ]);
    for (const bad of [999999, 'x', null, { id: 2 }]) assert.deepEqual(await fault('category.info', [bad]), [102, 'Category not exists.']);
    assert.equal(await ok('category.currentStore', ['german']), String(t.services.settings.storeByCode('german')!.id));
    assert.deepEqual(await fault('category.currentStore', ['nowhere']), [100, 'Requested store view not found.']);
    // the session keeps it for the calls that name no store: back to the default values for the tests below
    assert.equal(await ok('category.currentStore', [0]), '0');
  });

  test('create, update (default and store view values), move and delete, seen by REST', async () => {
    const parent = await ok('category.create', [2, { name: 'ERP Parent', is_active: 1, include_in_menu: '1' }]);
    const child = await ok('category.create', { parentId: parent, categoryData: { name: 'ERP Child', url_key: 'erp-child' } });
    const other = await ok('category.create', [2, { name: 'ERP Other' }]);
    assert.deepEqual(await fault('category.create', [2, { description: 'no name' }]), [103, 'Attribute "name" is required.']);
    assert.deepEqual(await fault('category.create', [999999, { name: 'x' }]), [102, 'Category not exists.']);
    assert.equal((await fault('category.create', [2, 'x']))[0], 103);
    assert.equal((await fault('category.create', [parent, { name: 'Dup', url_key: 'erp-child' }]))[0], 103);
    assert.equal(await ok('category.update', [child, { name: 'ERP Kind', meta_title: 'Kind' }, 'german']), true);
    assert.equal(await ok('category.update', [child, { description: 'Default text' }]), true);
    assert.equal((await ok('category.info', [child, 'german'])).name, 'ERP Kind');
    assert.equal((await ok('category.info', [child])).name, 'ERP Child');
    assert.equal((await ok('category.info', [child])).description, 'Default text');
    assert.deepEqual(await fault('category.update', [999999, { name: 'x' }]), [102, 'Category not exists.']);
    assert.equal((await fault('category.update', [child, { display_mode: 'NOPE' }]))[0], 103);
    // move the child under the other category, then back before nothing (first)
    assert.equal(await ok('category.move', [child, other]), true);
    const rest = (await t.req('GET', `${API}/categories/${child}`, { token: admin })).body;
    assert.equal(rest.parentId, Number(other));
    assert.deepEqual(await fault('category.move', [parent, parent]), [
      104,
      'Operation do not allow to move a parent category to any of children category',
    ]);
    assert.deepEqual(await fault('category.move', [other, child]), [
      104,
      'Operation do not allow to move a parent category to any of children category',
    ]);
    assert.equal((await fault('category.move', [2, other]))[0], 104);
    assert.equal(await ok('category.move', [child, parent, 0]), true);
    assert.equal((await ok('category.info', [child])).parent_id, String(parent));
    assert.deepEqual(await fault('category.delete', [1]), [105, 'Cannot remove the system category.']);
    assert.equal((await fault('category.delete', [2]))[0], 105);
    assert.equal(await ok('category.delete', [parent]), true);
    assert.deepEqual(await fault('category.info', [child]), [102, 'Category not exists.']);
    assert.deepEqual(await fault('category.delete', [parent]), [102, 'Category not exists.']);
    assert.equal((await t.req('GET', `${API}/categories/${parent}`, { token: admin })).status, 404);
  });

  test('assignProduct, updateProduct, removeProduct and assignedProducts, by id or SKU', async () => {
    const [a, b] = await stockedProducts(t, 2);
    const c = await ok('category.create', [2, { name: `Assign ${a.sku}` }]);
    assert.equal(await ok('category.assignProduct', [c, a.id, 3]), true);
    assert.equal(await ok('category.assignProduct', { categoryId: c, product: b.sku, position: 1, identifierType: 'sku' }), true);
    assert.deepEqual(await ok('category.assignedProducts', [c]), [
      { product_id: String(b.id), type: 'simple', set: '1', sku: b.sku, position: '1' },
      { product_id: String(a.id), type: 'simple', set: '1', sku: a.sku, position: '3' },
    ]);
    assert.equal(await ok('category.updateProduct', [c, a.sku, 0]), true);
    assert.equal((await ok('category.assignedProducts', [c]))[0].sku, a.sku);
    assert.equal(await ok('category.removeProduct', [c, b.id]), true);
    assert.deepEqual(
      (await ok('category.assignedProducts', [c])).map((p: any) => p.sku),
      [a.sku],
    );
    assert.deepEqual(await fault('category.updateProduct', [c, b.id, 2]), [106, 'Requested product is not assigned to category.']);
    assert.deepEqual(await fault('category.removeProduct', [c, b.sku]), [106, 'Requested product is not assigned to category.']);
    assert.deepEqual(await fault('category.assignProduct', [c, 'no-such-sku']), [102, 'Product not exists.']);
    assert.deepEqual(await fault('category.assignProduct', [c, String(a.id), 1, 'sku']), [102, 'Product not exists.']);
    assert.deepEqual(await fault('category.assignProduct', [999999, a.id]), [102, 'Category not exists.']);
    assert.equal((await fault('category.assignProduct', [c, a.id, 'first']))[0], 103);
    const rest = (await t.req('GET', `${API}/categories/${c}`, { token: admin })).body;
    assert.equal(rest.productCount, 1);
    // two clients assigning at once: both assignments stay
    const more = await stockedProducts(t, 6);
    await Promise.all(more.map((p, i) => ok('category.assignProduct', [c, p.id, i])));
    assert.equal((await ok('category.assignedProducts', [c])).length, 7);
  });

  test('permissions: a reader reads and writes nothing; a store-limited user writes only under its root', async () => {
    const reader = await newApiUser(t, ['categories/read']);
    const s = await sessionOf(reader);
    assert.equal((await ok('category.info', [2], s)).category_id, '2');
    for (const [p, args] of [
      ['category.create', [2, { name: 'x' }]],
      ['category.update', [2, { name: 'x' }]],
      ['category.move', [2, 1]],
      ['category.delete', [3]],
      ['category.assignProduct', [2, 1]],
      ['category.updateProduct', [2, 1]],
      ['category.removeProduct', [2, 1]],
    ] as const) {
      assert.deepEqual(await fault(p, args, s), [2, 'Access denied.'], p);
    }
    const none = await newApiUser(t, ['customers/read']);
    assert.deepEqual(await fault('category.tree', [], await sessionOf(none)), [2, 'Access denied.']);
    const second = await newWebsite(t, 'catweb');
    const limited = await sessionOf(await newApiUser(t, ['categories/all'], [second.storeId]), { 'x-store-code': 'catweb' });
    const mine = await ok('category.tree', [null, 'catweb'], limited);
    // its store group's root category is the limit of its writes: it may not delete or move the root itself
    assert.deepEqual(await fault('category.delete', [mine.category_id], limited), [102, 'Category not exists.']);
    assert.deepEqual(await fault('category.move', [mine.category_id, 1], limited), [102, 'Category not exists.']);
    const own = await ok('category.create', [mine.category_id, { name: 'Mine' }], limited);
    assert.equal(await ok('category.delete', [own], limited), true);
  });
});
