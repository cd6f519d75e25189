/**
 * `catalog_product_attribute_set` and `catalog_category_attribute` of the Magento 1 API over JSON-RPC: every
 * method and fault, groups by id (empty ones kept, copied with their set, dropped when REST replaces the groups),
 * sets removed with their products only when told to, parallel clients, and the role's permissions.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { and, eq } from 'drizzle-orm';
import { API, type TestApp } from '../../../test/helpers.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { LegacyClient } from '../../../test/fixtures/legacy-api.js';
import { newApiUser, startSoapApp } from '../../../test/fixtures/soap.js';
import { attributeGroups } from '../catalog/tables.js';

let t: TestApp;
let base: string;
let admin: string;
let defaultSet: string;
const api = new LegacyClient(() => base);
const { rpc, sessionOf, ok, fault, faultCode: code } = api;

const rest = async (url: string) => (await t.req('GET', `${API}${url}`, { token: admin })).body;
const label = (label: string, store: unknown = 0) => ({ frontend_label: [{ store_id: store, label }] });
const groupId = async (setId: string, name: string) =>
  String(
    (
      await t.database.db
        .select({ id: attributeGroups.id })
        .from(attributeGroups)
        .where(and(eq(attributeGroups.setId, Number(setId)), eq(attributeGroups.name, name)))
    )[0]?.id,
  );
let seq = 0;
const newCode = () => `set_attr_${Date.now().toString(36)}_${++seq}`;

before(async () => {
  ({ t, base } = await startSoapApp());
  admin = await t.tokens.admin();
  api.session = await sessionOf();
  defaultSet = (await ok('product_attribute_set.list', [])).find((s: any) => s.name === 'Default').set_id;
});
after(() => t?.close());

describe('catalog_product_attribute_set over JSON-RPC', () => {
  test('list, create from a skeleton, groups by id (empty ones kept), attributes added and taken out', async () => {
    const sets = await ok('product_attribute_set.list', []);
    assert.deepEqual(Object.keys(sets[0]), ['set_id', 'name']);
    assert.ok(['Default', 'Clothing', 'Shoes'].every((n) => sets.some((s: any) => s.name === n)));
    const setId = await ok('product_attribute_set.create', ['Outdoor', defaultSet]);
    assert.deepEqual(
      (await rest(`/attribute-sets/${setId}`)).groups.map((g: any) => g.name),
      (await rest(`/attribute-sets/${defaultSet}`)).groups.map((g: any) => g.name),
    );
    assert.deepEqual(await fault('product_attribute_set.create', ['x', 999999]), [100, 'Attribute set with requested id does not exist.']);
    assert.deepEqual(await fault('product_attribute_set.create', [' ', defaultSet]), [101, 'Attribute set name is empty.']);
    assert.deepEqual(await fault('product_attribute_set.create', ['outdoor', defaultSet]), [
      101,
      'Attribute set with the "outdoor" name already exists.',
    ]);

    const empty = await ok('product_attribute_set.groupAdd', [setId, 'Specs']);
    assert.deepEqual(await fault('product_attribute_set.groupAdd', [setId, 'SPECS']), [
      112,
      'Requested group exist already in requested attribute set.',
    ]);
    assert.equal(await code('product_attribute_set.groupAdd', [999999, 'x']), 113);
    assert.equal(await code('product_attribute_set.groupAdd', [setId, '  ']), 113);
    // a set made from this one copies its empty group too
    const copy = await ok('product_attribute_set.create', ['Outdoor Copy', setId]);
    assert.notEqual(await groupId(copy, 'Specs'), 'undefined');

    const c = newCode();
    const attr = await ok('product_attribute.create', [{ attribute_code: c, frontend_input: 'text', ...label('Waterproof') }]);
    assert.equal(await ok('product_attribute_set.attributeAdd', [attr, setId, empty, 5]), true);
    const specs = () =>
      rest(`/attribute-sets/${setId}`).then((s) => s.groups.find((g: any) => g.name === 'Specs' || g.name === 'Technical'));
    assert.deepEqual((await specs()).attributes, [{ code: c, sortOrder: 5 }]);
    assert.deepEqual(await fault('product_attribute_set.attributeAdd', [attr, setId]), [
      109,
      'Requested attribute is already in requested attribute set.',
    ]);
    assert.deepEqual(await fault('product_attribute_set.attributeAdd', [999999, setId]), [
      106,
      'Attribute with requested id does not exist.',
    ]);
    assert.deepEqual(await fault('product_attribute_set.attributeAdd', [attr, 999999]), [
      104,
      'Attribute set with requested id does not exist.',
    ]);
    assert.deepEqual(await fault('product_attribute_set.attributeAdd', [attr, copy, 999999]), [
      108,
      'Attribute group with requested id does not exist.',
    ]);
    assert.equal(await code('product_attribute_set.attributeAdd', [attr, copy, empty]), 108, "another set's group");
    assert.equal(await code('product_attribute_set.attributeAdd', [attr, copy, null, 'first']), 107);
    assert.equal(await ok('product_attribute_set.attributeAdd', { attributeId: attr, attributeSetId: copy }), true);
    assert.ok(
      (await rest(`/attribute-sets/${copy}`)).groups.find((g: any) => g.name === 'General').attributes.some((a: any) => a.code === c),
    );

    assert.equal(await ok('product_attribute_set.groupRename', [empty, 'Technical']), true);
    assert.deepEqual((await specs()).name, 'Technical');
    assert.equal(await code('product_attribute_set.groupRename', [empty, 'general']), 114);
    assert.equal(await code('product_attribute_set.groupRename', [999999, 'x']), 108);

    const nameAttr = (await ok('product_attribute.info', ['name'])).attribute_id;
    assert.match((await fault('product_attribute_set.attributeRemove', [nameAttr, setId]))[1], /Every set holds name/);
    assert.equal(await ok('product_attribute_set.attributeRemove', [attr, setId]), true);
    assert.deepEqual(await fault('product_attribute_set.attributeRemove', [attr, setId]), [
      111,
      'Requested attribute is not in requested attribute set.',
    ]);
    assert.equal(await code('product_attribute_set.attributeRemove', [999999, setId]), 106);
    assert.equal(await code('product_attribute_set.attributeRemove', [attr, 999999]), 104);
    // the group stays while empty, and goes when asked
    assert.equal(await ok('product_attribute_set.attributeAdd', [attr, setId, empty]), true);
    assert.equal(await ok('product_attribute_set.groupRemove', [empty]), true);
    assert.ok(!(await rest(`/attribute-sets/${setId}`)).attributeCodes.includes(c));
    assert.equal(await code('product_attribute_set.groupRename', [empty, 'x']), 108);
    assert.deepEqual(await fault('product_attribute_set.groupRemove', [await groupId(setId, 'General')]), [
      116,
      'Group can not be removed as it contains system attributes.',
    ]);
    const conf = await ok('product_attribute.create', [
      { attribute_code: newCode(), frontend_input: 'select', scope: 'global', is_configurable: 1, ...label('Size') },
    ]);
    const sizes = await ok('product_attribute_set.groupAdd', [setId, 'Sizes']);
    await ok('product_attribute_set.attributeAdd', [conf, setId, sizes]);
    assert.deepEqual(await fault('product_attribute_set.groupRemove', [sizes]), [
      117,
      'Group can not be removed as it contains attributes, used in configurable products.',
    ]);
    // REST replacing the groups takes the ids of the groups it leaves out
    const groups = (await rest(`/attribute-sets/${setId}`)).groups
      .filter((g: any) => g.name !== 'Sizes')
      .map((g: any) => ({ name: g.name, attributes: g.attributes.map((a: any) => a.code) }));
    assert.equal((await t.req('PUT', `${API}/attribute-sets/${setId}`, { token: admin, body: { groups } })).status, 200);
    assert.equal(await code('product_attribute_set.groupRemove', [sizes]), 108);
  });

  test('remove: with its products only when told to, never the Default set', async () => {
    const setId = await ok('product_attribute_set.create', ['Clearance', defaultSet]);
    const p = await createTestProduct(t, { attributeSetId: Number(setId) });
    assert.deepEqual(await fault('product_attribute_set.remove', [setId]), [
      105,
      (await rpc('resourceFaults', [api.session, 'product_attribute_set'])).result[5].message,
    ]);
    const reader = await newApiUser(t, ['attribute-sets/all']);
    assert.deepEqual(await fault('product_attribute_set.remove', [setId, true], await sessionOf(reader)), [2, 'Access denied.']);
    assert.equal((await t.req('GET', `${API}/products/${p.id}`, { token: admin })).status, 200);
    assert.equal(await ok('product_attribute_set.remove', [setId, '1']), true);
    assert.equal((await t.req('GET', `${API}/products/${p.id}`, { token: admin })).status, 404);
    assert.deepEqual(await fault('product_attribute_set.remove', [setId]), [104, 'Attribute set with requested id does not exist.']);
    const bare = await ok('product_attribute_set.create', ['Bare', defaultSet]);
    assert.equal(await ok('product_attribute_set.remove', { attributeSetId: bare }), true);
    assert.equal((await t.req('GET', `${API}/attribute-sets/${bare}`, { token: admin })).status, 404);
    assert.match((await fault('product_attribute_set.remove', [defaultSet, true]))[1], /Default set/);
  });

  test('parallel clients lose nothing; a reader changes nothing', async () => {
    const setId = await ok('product_attribute_set.create', ['Parallel', defaultSet]);
    const attrs = await Promise.all(
      [1, 2, 3, 4, 5].map((i) =>
        ok('product_attribute.create', [{ attribute_code: newCode(), frontend_input: 'text', ...label(`P${i}`) }]),
      ),
    );
    await Promise.all(attrs.map((a, i) => ok('product_attribute_set.attributeAdd', [a, setId, null, i])));
    const names = await Promise.all([1, 2, 3].map(() => rpc('call', [api.session, 'product_attribute_set.groupAdd', [setId, 'Same']])));
    assert.equal(names.filter((r) => r.result).length, 1);
    assert.deepEqual(
      names.filter((r) => r.error).map((r) => r.error!.code),
      [112, 112],
    );
    const codes = (await rest(`/attribute-sets/${setId}`)).attributeCodes;
    assert.equal(attrs.length, 5);
    assert.ok((await Promise.all(attrs.map((a) => ok('product_attribute.info', [a])))).every((i: any) => codes.includes(i.attribute_code)));

    const reader = await sessionOf(await newApiUser(t, ['attribute-sets/read']));
    assert.ok((await ok('product_attribute_set.list', [], reader)).length >= 3);
    for (const [p, args] of [
      ['product_attribute_set.create', ['x', defaultSet]],
      ['product_attribute_set.remove', [setId]],
      ['product_attribute_set.attributeAdd', [attrs[0], setId]],
      ['product_attribute_set.attributeRemove', [attrs[0], setId]],
      ['product_attribute_set.groupAdd', [setId, 'x']],
      ['product_attribute_set.groupRename', [1, 'x']],
      ['product_attribute_set.groupRemove', [1]],
    ] as const) {
      assert.deepEqual(await fault(p, args, reader), [2, 'Access denied.'], p);
    }
  });
});

describe('catalog_category_attribute over JSON-RPC', () => {
  test("our categories' fields under Magento's codes and ids, with their choices", async () => {
    const list = await ok('category_attribute.list', []);
    assert.deepEqual(list[0], { attribute_id: '41', code: 'name', type: 'text', required: '1', scope: 'store' });
    assert.deepEqual(
      list
        .filter((a: any) => ['is_active', 'display_mode', 'include_in_menu', 'filter_price_range'].includes(a.code))
        .map((a: any) => a.attribute_id),
      ['42', '49', '67', '70'],
    );
    const yesNo = [
      { label: 'Yes', value: '1' },
      { label: 'No', value: '0' },
    ];
    assert.deepEqual(await ok('catalog_category_attribute.options', ['42']), yesNo);
    assert.deepEqual(await ok('category_attribute.options', ['include_in_menu', 'german']), yesNo);
    assert.deepEqual(
      (await ok('category_attribute.options', ['display_mode'])).map((o: any) => o.value),
      ['PRODUCTS', 'PAGE', 'PRODUCTS_AND_PAGE'],
    );
    assert.deepEqual((await ok('category_attribute.options', ['page_layout']))[0], { value: '', label: 'No layout updates' });
    assert.ok((await ok('category_attribute.options', ['page_layout'])).some((o: any) => o.value === 'one_column'));
    const sortBy = await ok('category_attribute.options', [65]);
    assert.deepEqual(sortBy[0], { label: 'Best Value', value: 'position' });
    assert.ok(['name', 'price'].every((c) => sortBy.some((o: any) => o.value === c)));
    const pages = await ok('category_attribute.options', ['landing_page']);
    assert.deepEqual(pages[0], { value: '', label: 'Please select a static block ...' });
    assert.ok(pages.some((o: any) => o.label === 'Footer Links'));
    assert.deepEqual(await ok('category_attribute.options', ['name']), []);
    assert.deepEqual(await fault('category_attribute.options', ['custom_design']), [101, 'Requested attribute not found.']);
    assert.deepEqual(await fault('category_attribute.options', [42, 'nowhere']), [100, 'Requested store view not found.']);
    const reader = await sessionOf(await newApiUser(t, ['categories/read']));
    assert.deepEqual(await ok('category_attribute.options', ['is_anchor'], reader), yesNo);
    const listed = (await rpc('resources', [reader])).result.filter((r: any) => r.name.includes('attribute'));
    assert.deepEqual(
      listed.map((r: any) => [r.name, r.aliases, r.methods.map((m: any) => m.name)]),
      [['catalog_category_attribute', ['category_attribute'], ['currentStore', 'list', 'options']]],
    );
    assert.deepEqual(await fault('category_attribute.list', [], await sessionOf(await newApiUser(t, ['products/read']))), [
      2,
      'Access denied.',
    ]);

    // a store-limited API user names its own store views only
    const german = t.services.settings.storeByCode('german')!.id;
    const limited = await sessionOf(await newApiUser(t, ['categories/read'], [german]), { 'x-store-code': 'german' });
    assert.deepEqual(await ok('category_attribute.options', [42, german], limited), yesNo);
    assert.deepEqual(await fault('category_attribute.options', [42, 'default'], limited), [100, 'Requested store view not found.']);
  });
});
