/**
 * `catalog_product_tag` (`product_tag`) of the Magento 1 API: a moderation tool's round trip with Python's
 * xmlrpc.client, and every method and fault over JSON-RPC (arguments by position or by name, Magento's statuses and
 * fields), what REST reads back, customers tagging at once, the role's permissions and a store-limited API user.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API, type TestApp } from '../../../test/helpers.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { LegacyClient, runScenario, skipWithout, type Step } from '../../../test/fixtures/legacy-api.js';
import { newApiUser, newCustomer, newWebsite, startSoapApp } from '../../../test/fixtures/soap.js';

let t: TestApp;
let base: string;
let admin: string;
let customerId: number;
let p1: number;
let p2: number;
const api = new LegacyClient(() => base);
const { rpc, sessionOf, ok, fault, faultCodes } = api;

const rest = async (p: string) => {
  const r = await t.req('GET', `${API}${p}`, { token: admin });
  assert.equal(r.status, 200, r.text);
  return r.body;
};
const add = (tag: string, productId = p1, customer = customerId, store: unknown = 'default', s = api.session) =>
  ok('product_tag.add', [{ product_id: productId, tag, customer_id: customer, store }], s);

before(async () => {
  ({ t, base } = await startSoapApp());
  admin = await t.tokens.admin();
  api.session = await sessionOf();
  customerId = (await rest('/customers?email=customer@example.com')).member[0].id;
  p1 = (await createTestProduct(t)).id;
  p2 = (await createTestProduct(t)).id;
});
after(() => t?.close());

describe('a moderation tool with Python xmlrpc.client', { skip: skipWithout('python') }, () => {
  let r: Record<string, Step>;
  let product: number;

  before(async () => {
    product = (await createTestProduct(t)).id;
    r = await runScenario('python', 'tag_scenario.py', base, { RPC_PRODUCT: String(product), RPC_CUSTOMER: String(customerId) });
  });

  test('tags a product, lists, approves with a base popularity, renames and removes, as REST reads it', async () => {
    const ids = r.add.ok;
    assert.deepEqual(Object.keys(ids), ['erp', 'erp two words', 'erp-old']);
    assert.deepEqual(r.addAgain.ok, { ERP: ids.erp });
    assert.deepEqual(r.list.ok, {
      [ids.erp]: { tag_id: ids.erp, name: 'erp' },
      [ids['erp two words']]: { tag_id: ids['erp two words'], name: 'erp two words' },
      [ids['erp-old']]: { tag_id: ids['erp-old'], name: 'erp-old' },
    });
    assert.equal(r.approve.ok, true);
    assert.deepEqual(r.info.ok, { status: '1', name: 'erp', base_popularity: '4', products: { [product]: '1' } });
    assert.equal(r.rename.ok, true);
    assert.deepEqual(r.renamed.ok, { status: '0', name: 'ERP Pair', base_popularity: '0', products: { [product]: '1' } });
    assert.equal(r.remove.ok, true);
    assert.deepEqual(r.removed.fault, [104, 'Requested tag does not exist.']);
    const shown = (await t.req('GET', `${API}/products/${product}/tags`)).body.member;
    assert.deepEqual(shown, [{ id: Number(ids.erp), name: 'erp', status: 'approved', popularity: 5, productCount: 1 }]);
  });
});

describe('product_tag over JSON-RPC', () => {
  test('add: tags by Magento’s rules for a customer in a store view, pending, never doubled', async () => {
    const added = await add("red 'dark blue' red");
    assert.deepEqual(Object.keys(added), ['red', 'dark blue']);
    assert.match(added.red, /^\d+$/);
    const again = await ok('catalog_product_tag.add', {
      data: { product_id: String(p1), tag: 'RED', customer_id: String(customerId), store: 1 },
    });
    assert.deepEqual(again, { RED: added.red });
    const tag = await rest(`/tags/${added.red}`);
    assert.deepEqual([tag.status, tag.customerCount, tag.productCount], ['pending', 1, 1]);
    assert.deepEqual(await add("  ''  "), []);
    const f = (data: unknown) => fault('product_tag.add', [data]);
    const full = { product_id: p1, tag: 'x', customer_id: customerId, store: 'default' };
    for (const k of Object.keys(full)) assert.deepEqual(await f({ ...full, [k]: null }), [105, 'Provided data is invalid.']);
    assert.deepEqual(await f('x'), [105, 'Provided data is invalid.']);
    assert.deepEqual(await f({ ...full, tag: ['x'] }), [105, 'Provided data is invalid.']);
    assert.deepEqual(await f({ ...full, product_id: 999999999 }), [102, 'Requested product does not exist.']);
    assert.deepEqual(await f({ ...full, product_id: 'no-such-sku' }), [102, 'Requested product does not exist.']);
    assert.deepEqual(await f({ ...full, customer_id: 999999999 }), [103, 'Requested customer does not exist.']);
    assert.deepEqual(await f({ ...full, customer_id: 'x' }), [103, 'Requested customer does not exist.']);
    assert.deepEqual(await f({ ...full, store: 'nowhere' }), [101, 'Requested store does not exist.']);
    assert.deepEqual(await f({ ...full, store: 0 }), [101, 'Requested store does not exist.']);
    assert.equal(
      (await rest('/tags?search=x&itemsPerPage=100')).member.filter((x: any) => x.name === 'x').length,
      0,
      'refused adds wrote nothing',
    );
  });

  test('list: the tags used on a product, by tag id, in a store view or all; faults 102 and 101', async () => {
    const added = await add('listed');
    const all = await ok('product_tag.list', [p1]);
    assert.deepEqual(all[added.listed], { tag_id: added.listed, name: 'listed' });
    assert.deepEqual(await ok('catalog_product_tag.list', { productId: p1, store: 'default' }), all);
    assert.deepEqual(await ok('product_tag.list', [p1, 'german']), []);
    assert.deepEqual(await ok('product_tag.list', [p2]), []);
    assert.deepEqual(await fault('product_tag.list', [999999999]), [102, 'Requested product does not exist.']);
    assert.deepEqual(await fault('product_tag.list', [p1, 'nowhere']), [101, 'Requested store does not exist.']);
  });

  test('info: status, name, base popularity and the products’ popularity in a store view; faults 104 and 101', async () => {
    const added = await add('informed');
    await add('informed', p2);
    await add('informed', p2, await newCustomer(t));
    const info = await ok('product_tag.info', [added.informed, 'default']);
    assert.deepEqual(info, { status: '0', name: 'informed', base_popularity: '0', products: { [p1]: '1', [p2]: '2' } });
    assert.deepEqual(await ok('product_tag.info', [added.informed, 'german']), { ...info, products: [] });
    assert.deepEqual((await ok('product_tag.info', { tagId: added.informed })).products, info.products);
    assert.deepEqual(await fault('product_tag.info', [999999999, 'default']), [104, 'Requested tag does not exist.']);
    assert.deepEqual(await fault('product_tag.info', ['x', 'default']), [104, 'Requested tag does not exist.']);
    assert.deepEqual(await fault('product_tag.info', [added.informed, 'nowhere']), [101, 'Requested store does not exist.']);
  });

  test('update: status by Magento’s codes, name, base popularity of a store view; faults 105, 104 and 106', async () => {
    const added = await add('updated other-name');
    const id = added.updated;
    assert.equal(await ok('product_tag.update', [id, { status: '1' }, 'default']), true);
    assert.equal((await rest(`/tags/${id}`)).status, 'approved');
    assert.equal(await ok('product_tag.update', [id, { status: -1 }]), true);
    assert.equal((await rest(`/tags/${id}`)).status, 'disabled');
    assert.equal(await ok('product_tag.update', { tagId: id, data: { name: ' Renamed ', status: 1 } }), true);
    assert.deepEqual(await ok('product_tag.info', [id, 1]), {
      status: '1',
      name: 'Renamed',
      base_popularity: '0',
      products: { [p1]: '1' },
    });
    assert.equal(await ok('product_tag.update', [id, { base_popularity: 6 }, 'default']), true);
    assert.equal((await rest(`/tags/${id}?storeId=1`)).popularity, 7);
    // with no store view (the default values) Magento keeps no base popularity
    assert.equal(await ok('product_tag.update', [id, { base_popularity: 9 }]), true);
    assert.equal((await rest(`/tags/${id}?storeId=1`)).basePopularity, 6);
    const f = (data: unknown, store: unknown = 'default', tagId: unknown = id) => fault('product_tag.update', [tagId, data, store]);
    assert.deepEqual(await f({}), [105, 'Provided data is invalid.']);
    assert.deepEqual(await f('x'), [105, 'Provided data is invalid.']);
    assert.deepEqual(await f({ status: 2 }), [105, 'Provided data is invalid.']);
    assert.deepEqual(await f({ status: 'approved' }), [105, 'Provided data is invalid.']);
    assert.deepEqual(await f({ base_popularity: -1 }), [105, 'Provided data is invalid.']);
    assert.deepEqual(await f({ status: 1 }, 'default', 999999999), [104, 'Requested tag does not exist.']);
    assert.deepEqual(await f({ status: 1 }, 'nowhere'), [101, 'Requested store does not exist.']);
    assert.deepEqual(await f({ name: 'OTHER-NAME' }), [106, 'A tag with this name exists']);
    assert.deepEqual(await f({ name: '   ' }), [106, 'name is required']);
    const after = await rest(`/tags/${id}?storeId=1`);
    assert.deepEqual([after.name, after.status, after.basePopularity], ['Renamed', 'approved', 6]);
  });

  test('remove: the tag and its uses; fault 104', async () => {
    const added = await add('removed');
    assert.equal(await ok('product_tag.remove', [added.removed]), true);
    assert.equal((await t.req('GET', `${API}/tags/${added.removed}`, { token: admin })).status, 404);
    assert.deepEqual(await fault('product_tag.remove', [added.removed]), [104, 'Requested tag does not exist.']);
    assert.deepEqual(await fault('product_tag.remove', ['x']), [104, 'Requested tag does not exist.']);
  });

  test('customers tagging at once with the same new word make one tag', async () => {
    const customers = [customerId, await newCustomer(t), await newCustomer(t), await newCustomer(t)];
    for (let round = 0; round < 3; round++) {
      const word = `together${round}`;
      const answers = await Promise.all(customers.map((c, i) => add(word, i % 2 ? p1 : p2, c)));
      assert.equal(new Set(answers.map((a) => a[word])).size, 1);
      const tag = await rest(`/tags/${answers[0][word]}`);
      assert.deepEqual([tag.customerCount, tag.productCount], [4, 2]);
    }
  });
});

describe('permissions and store views', () => {
  test('a role without the permission gets fault 2; a reader may list and read but not write', async () => {
    const added = await add('guarded');
    const reader = await newApiUser(t, ['tags/read']);
    const s = await sessionOf(reader);
    assert.ok((await ok('product_tag.list', [p1], s))[added.guarded]);
    assert.equal((await ok('product_tag.info', [added.guarded], s)).name, 'guarded');
    assert.deepEqual(await fault('product_tag.add', [{ product_id: p1, tag: 'x', customer_id: customerId, store: 1 }], s), [
      2,
      'Access denied.',
    ]);
    assert.deepEqual(await fault('product_tag.update', [added.guarded, { status: 1 }], s), [2, 'Access denied.']);
    assert.deepEqual(await fault('product_tag.remove', [added.guarded], s), [2, 'Access denied.']);
    const none = await newApiUser(t, ['products/all']);
    const n = await sessionOf(none);
    assert.deepEqual(await fault('product_tag.list', [p1], n), [2, 'Access denied.']);
    assert.deepEqual(await fault('product_tag.info', [added.guarded], n), [2, 'Access denied.']);
    const resources = (await rpc('resources', [s])).result;
    assert.deepEqual(
      resources.filter((r: any) => r.name === 'catalog_product_tag').map((r: any) => [r.aliases, r.methods.map((m: any) => m.name)]),
      [[['product_tag'], ['list', 'info']]],
    );
    assert.deepEqual(await faultCodes('product_tag'), ['101', '102', '103', '104', '105', '106', '107']);
  });

  test('an API user limited to a store view reaches only its own uses and tags', async () => {
    const second = await newWebsite(t, 'tagweb');
    const mine = (await createTestProduct(t, { websiteIds: [1, second.websiteId] })).id;
    const theirs = await add('theirs-only', mine);
    const shared = await add('shared-tag', mine);
    await add('shared-tag', mine, customerId, 'tagweb');
    const s = await sessionOf(await newApiUser(t, ['tags/all'], [second.storeId]), { 'x-store-code': 'tagweb' });
    assert.deepEqual(await ok('product_tag.list', [mine], s), {
      [shared['shared-tag']]: { tag_id: shared['shared-tag'], name: 'shared-tag' },
    });
    assert.deepEqual(await fault('product_tag.list', [mine, 'default'], s), [101, 'Requested store does not exist.']);
    assert.deepEqual(await fault('product_tag.list', [p1], s), [102, 'Requested product does not exist.']);
    assert.deepEqual(await fault('product_tag.info', [theirs['theirs-only']], s), [104, 'Requested tag does not exist.']);
    assert.deepEqual((await ok('product_tag.info', [shared['shared-tag']], s)).products, { [mine]: '1' });
    const local = await t.req('POST', `${API}/customers?store=tagweb`, {
      body: { email: `tagweb-${Date.now()}@example.com`, password: 'Secret123', firstname: 'B', lastname: 'Side' },
    });
    assert.equal(local.status, 201, local.text);
    const data = { product_id: mine, tag: 'b-side', customer_id: local.body.id, store: 'default' };
    assert.deepEqual(await fault('product_tag.add', [data], s), [101, 'Requested store does not exist.']);
    assert.deepEqual(await fault('product_tag.add', [{ ...data, customer_id: customerId }], s), [
      103,
      'Requested customer does not exist.',
    ]);
    assert.deepEqual(await fault('product_tag.add', [{ ...data, product_id: p1 }], s), [102, 'Requested product does not exist.']);
    const own = await add('b-side', mine, local.body.id, 'tagweb', s);
    assert.deepEqual((await ok('product_tag.info', [own['b-side'], 'tagweb'], s)).products, { [mine]: '1' });
    assert.deepEqual(await fault('product_tag.update', [shared['shared-tag'], { name: 'taken' }, 'tagweb'], s), [2, 'Access denied.']);
    assert.deepEqual(await fault('product_tag.remove', [shared['shared-tag']], s), [2, 'Access denied.']);
    assert.deepEqual(await fault('product_tag.remove', [theirs['theirs-only']], s), [104, 'Requested tag does not exist.']);
    assert.equal(await ok('product_tag.update', [shared['shared-tag'], { base_popularity: 3 }, 'tagweb'], s), true);
    assert.equal((await rest(`/tags/${shared['shared-tag']}?storeId=${second.storeId}`)).popularity, 4);
    assert.equal((await rest(`/tags/${shared['shared-tag']}`)).name, 'shared-tag');
  });
});
