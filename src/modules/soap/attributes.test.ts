/**
 * `catalog_product_attribute` of the Magento 1 API, and a PIM's round trip with Python's xmlrpc.client (an
 * attribute with options made, added to a new group of a new set, read back over XML-RPC and REST); every method
 * and fault over JSON-RPC: options with store-view labels, writes that change nothing when refused, one-statement
 * lists, the role's permissions and store-limited API users. The sets and category attributes: attribute-sets.test.ts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API, type TestApp } from '../../../test/helpers.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { LegacyClient, runScenario, skipWithout } from '../../../test/fixtures/legacy-api.js';
import { newApiUser, startSoapApp } from '../../../test/fixtures/soap.js';
import { countStatements } from '../../platform/db.js';

let t: TestApp;
let base: string;
let admin: string;
let defaultSet: string;
let german: number;
const api = new LegacyClient(() => base);
const { rpc, sessionOf, ok, fault, faultCodes, faultCode: code } = api;

const rest = async (url: string) => (await t.req('GET', `${API}${url}`, { token: admin })).body;
const label = (label: string, store: unknown = 0) => ({ frontend_label: [{ store_id: store, label }] });
let seq = 0;
const newCode = () => `pim_attr_${Date.now().toString(36)}_${++seq}`;

before(async () => {
  ({ t, base } = await startSoapApp());
  admin = await t.tokens.admin();
  api.session = await sessionOf();
  defaultSet = (await ok('product_attribute_set.list', [])).find((s: any) => s.name === 'Default').set_id;
  german = t.services.settings.storeByCode('german')!.id;
});
after(() => t?.close());

describe('a PIM with Python xmlrpc.client', { skip: skipWithout('python') }, () => {
  test('creates an attribute with options, adds it to a new group of a new set and reads it back', async () => {
    const r = await runScenario('python', 'attribute_scenario.py', base, { RPC_GERMAN: String(german) });
    for (const [step, v] of Object.entries(r)) assert.ok(!(v as any).fault || step === 'duplicate', `${step}: ${JSON.stringify(v)}`);
    const id = r.create.ok;
    assert.equal(r.info.ok.attribute_code, 'pim_material');
    assert.deepEqual(
      r.info.ok.options.map((o: any) => o.label),
      ['Cotton', 'Wool', 'Linen'],
    );
    assert.deepEqual(
      r.optionsGerman.ok.map((o: any) => o.label),
      ['', 'Baumwolle', 'Wolle', 'Linen'],
    );
    assert.ok(r.list.ok.some((a: any) => a.attribute_id === String(id) && a.code === 'pim_material' && a.type === 'select'));
    assert.deepEqual(r.duplicate.fault, [112, 'Requested group exist already in requested attribute set.']);
    const set = await rest(`/attribute-sets/${r.set.ok}`);
    assert.equal(set.attributeSetName, 'PIM Apparel');
    assert.deepEqual(
      set.groups.find((g: any) => g.name === 'Material').attributes.map((a: any) => a.code),
      ['pim_material'],
    );
    const attr = await rest(`/product-attributes/${id}`);
    assert.deepEqual([attr.frontendLabel, attr.scope, attr.isFilterable, attr.isConfigurable], ['Material', 'global', 1, true]);
  });
});

describe('catalog_product_attribute over JSON-RPC', () => {
  test('types, and the list of a set in group order (one statement whatever its length)', async () => {
    assert.deepEqual(
      (await ok('product_attribute.types', [])).map((x: any) => x.value),
      ['text', 'textarea', 'date', 'boolean', 'multiselect', 'select', 'price'],
    );
    const list = await ok('catalog_product_attribute.list', [defaultSet]);
    const name = list.find((a: any) => a.code === 'name');
    assert.deepEqual(name, { attribute_id: name.attribute_id, code: 'name', type: 'text', required: '1', scope: 'store' });
    assert.ok(!list.some((a: any) => ['image', 'media_gallery', 'type_id'].includes(a.code)));
    assert.ok(list.findIndex((a: any) => a.code === 'name') < list.findIndex((a: any) => a.code === 'price'));
    assert.deepEqual(await ok('product_attribute.list', [999999]), []);
    const small = await ok('product_attribute_set.create', [`Small ${newCode()}`, defaultSet]);
    const count = async (setId: string) => {
      const post = () =>
        t.req('POST', '/api/jsonrpc/', {
          body: { jsonrpc: '2.0', method: 'call', params: [api.session, 'product_attribute.list', [setId]], id: 1 },
        });
      await post();
      return (await countStatements(post)).n;
    };
    await ok('product_attribute_set.attributeRemove', [list.find((a: any) => a.code === 'description').attribute_id, small]);
    assert.equal(await count(small), await count(defaultSet));
  });

  test('create, info and update, with Magento fields; refused data changes nothing', async () => {
    const c = newCode();
    const id = await ok('product_attribute.create', [
      {
        attribute_code: c,
        frontend_input: 'select',
        scope: 'global',
        is_configurable: '1',
        apply_to: ['simple', 'configurable'],
        is_used_for_promo_rules: 1,
        additional_fields: { is_filterable: 2, position: 7 },
        frontend_label: [
          { store_id: 0, label: '<b>Fit</b>' },
          { store_id: german, label: 'Passform' },
        ],
      },
    ]);
    const info = await ok('product_attribute.info', [c]);
    assert.deepEqual(info, {
      attribute_id: id,
      attribute_code: c,
      frontend_input: 'select',
      default_value: null,
      is_unique: '0',
      is_required: '0',
      apply_to: ['simple', 'configurable'],
      is_configurable: '1',
      is_searchable: '0',
      is_visible_in_advanced_search: '0',
      is_comparable: '0',
      is_used_for_promo_rules: '1',
      is_visible_on_front: '0',
      used_in_product_listing: '0',
      frontend_label: [{ store_id: '0', label: 'Fit' }],
      scope: 'global',
      additional_fields: { is_filterable: '2', is_filterable_in_search: '0', position: '7', used_for_sort_by: '0' },
    });
    assert.deepEqual(await ok('product_attribute.info', [id]), info);
    const price = await ok('product_attribute.info', ['price']);
    assert.equal(price.scope, undefined);
    assert.deepEqual(Object.keys(price.additional_fields), ['is_filterable', 'is_filterable_in_search', 'position', 'used_for_sort_by']);
    const status = await ok('product_attribute.info', ['status']);
    assert.deepEqual(
      [status.default_value, status.options],
      [
        '1',
        [
          { value: '1', label: 'Enabled' },
          { value: '2', label: 'Disabled' },
        ],
      ],
    );
    assert.deepEqual((await ok('product_attribute.info', ['has_options'])).options, [
      { label: 'Yes', value: '1' },
      { label: 'No', value: '0' },
    ]);
    assert.deepEqual(Object.keys((await ok('product_attribute.info', ['description'])).additional_fields), [
      'is_wysiwyg_enabled',
      'is_html_allowed_on_front',
    ]);
    assert.deepEqual(await fault('product_attribute.info', [999999]), [101, 'Requested attribute not found.']);
    assert.equal(await code('product_attribute.info', ['no_such_attribute']), 101);

    assert.equal(await ok('product_attribute.update', [c, { is_searchable: 1, ...label('Fit & Cut') }]), true);
    const after = await rest(`/product-attributes/${id}`);
    assert.deepEqual([after.frontendLabel, after.isSearchable, after.isFilterable, after.scope], ['Fit & Cut', true, 2, 'global']);
    assert.match((await fault('product_attribute.update', [c, { scope: 'store' }]))[1], /global select/);
    assert.equal(await code('product_attribute.update', [999999, { is_searchable: 1 }]), 101);
    assert.equal(await code('product_attribute.update', [c, 'x']), 102);
    assert.equal(await code('product_attribute.update', [c, { is_required: 'maybe' }]), 102);

    const bad: [unknown, number, string?][] = [
      [{ frontend_input: 'text', ...label('x') }, 102],
      [{ attribute_code: newCode(), frontend_input: 'text', frontend_label: 'x' }, 102],
      [{ attribute_code: 'Bad-Code', frontend_input: 'text', ...label('x') }, 103],
      [{ attribute_code: `a${'b'.repeat(60)}`, frontend_input: 'text', ...label('x') }, 103],
      [{ attribute_code: newCode(), frontend_input: 'media_image', ...label('x') }, 104],
      [{ attribute_code: c, frontend_input: 'text', ...label('x') }, 105],
      [{ attribute_code: newCode(), frontend_input: 'text' }, 105, 'Frontend label is not defined'],
      [{ attribute_code: newCode(), frontend_input: 'text', ...label('x', german) }, 105, 'Frontend label is not defined'],
      [{ attribute_code: newCode(), frontend_input: 'text', is_unique: 'perhaps', ...label('x') }, 102],
      [{ attribute_code: newCode(), frontend_input: 'select', additional_fields: { is_filterable: 7 }, ...label('x') }, 102],
      [{ attribute_code: newCode(), frontend_input: 'text', apply_to: ['spaceship'], ...label('x') }, 102],
      [{ attribute_code: newCode(), frontend_input: 'text', is_configurable: 1, ...label('x') }, 105],
      ['not a struct', 102],
    ];
    const before = (await rest('/product-attributes?search=pim_attr&pageSize=100')).totalItems;
    for (const [data, want, message] of bad) {
      const [got, text] = await fault('product_attribute.create', [data]);
      assert.equal(got, want, JSON.stringify(data));
      if (message) assert.equal(text, message);
    }
    assert.equal((await rest('/product-attributes?search=pim_attr&pageSize=100')).totalItems, before);
  });

  test('addOption with store-view labels, options in a store view, removeOption', async () => {
    const c = newCode();
    const id = await ok('product_attribute.create', [{ attribute_code: c, frontend_input: 'multiselect', ...label('Care') }]);
    const add = (data: unknown, attr: unknown = c) => ok('product_attribute.addOption', [attr, data]);
    assert.equal(
      await add({
        label: [
          { store_id: ['0'], value: 'Hand wash' },
          { store_id: [german], value: 'Handwäsche' },
        ],
        order: 2,
      }),
      true,
    );
    assert.equal(await add({ label: [{ store_id: [0, german], value: 'Dry clean' }], order: 1, is_default: 1 }), true);
    assert.equal(
      await add({
        label: [
          { store_id: 0, value: 'Tumble' },
          { store_id: 999, value: 'ignored' },
        ],
        order: 3,
      }),
      true,
    );
    const options = await ok('product_attribute.options', [c]);
    assert.deepEqual(
      options.map((o: any) => o.label),
      ['', 'Dry clean', 'Hand wash', 'Tumble'],
    );
    assert.deepEqual(
      (await ok('product_attribute.options', { attributeId: id, store: 'german' })).map((o: any) => o.label),
      ['', 'Dry clean', 'Handwäsche', 'Tumble'],
    );
    assert.deepEqual(await ok('product_attribute.options', [id, german]), await ok('product_attribute.options', [id, 'german']));
    assert.deepEqual(await ok('product_attribute.options', [id, 'admin']), options);
    assert.equal((await ok('product_attribute.info', [id])).default_value, options[1].value);
    assert.deepEqual(await fault('product_attribute.options', [id, 'nowhere']), [100, 'Requested store view not found.']);
    assert.equal(await code('product_attribute.options', [999999]), 101);
    assert.deepEqual(await ok('product_attribute.options', ['name']), []);

    assert.match((await fault('product_attribute.addOption', [c, { label: [{ store_id: 0, value: 'hand WASH' }] }]))[1], /exists/);
    assert.deepEqual(await fault('product_attribute.addOption', [c, { label: [{ store_id: german, value: 'Nur deutsch' }] }]), [
      108,
      'Default option value is not defined',
    ]);
    assert.equal(await code('product_attribute.addOption', [c, { label: 'x' }]), 102);
    assert.equal(await code('product_attribute.addOption', ['name', { label: [{ store_id: 0, value: 'x' }] }]), 104);
    assert.equal(await code('product_attribute.addOption', ['status', { label: [{ store_id: 0, value: 'x' }] }]), 108);
    assert.equal(await code('product_attribute.addOption', [999999, { label: [{ store_id: 0, value: 'x' }] }]), 101);
    assert.equal((await ok('product_attribute.options', [c])).length, 4);
    // clients adding the same option at once make one
    const same = await Promise.all(
      [1, 2, 3].map(() => rpc('call', [api.session, 'product_attribute.addOption', [c, { label: [{ store_id: 0, value: 'Iron' }] }]])),
    );
    assert.deepEqual(same.map((r) => r.result ?? r.error!.code).sort(), [108, 108, true]);
    assert.equal(
      await ok('product_attribute.removeOption', [
        c,
        (await ok('product_attribute.options', [c])).find((o: any) => o.label === 'Iron').value,
      ]),
      true,
    );

    // a product holds "Hand wash": that option stays
    await ok('product_attribute_set.attributeAdd', [id, defaultSet]);
    const [, dry, hand, tumble] = options.map((o: any) => o.value);
    await createTestProduct(t, { attributeSetId: Number(defaultSet), customAttributesWrite: { [c]: [Number(hand)] } });
    assert.match((await fault('product_attribute.removeOption', [c, hand]))[1], /Products still hold/);
    assert.equal(await ok('product_attribute.removeOption', [id, tumble]), true);
    assert.equal(await code('product_attribute.removeOption', [c, tumble]), 109);
    assert.equal(await code('product_attribute.removeOption', [c, 'x']), 109);
    assert.equal(await code('product_attribute.removeOption', ['name', dry]), 104);
    assert.deepEqual(
      (await rest(`/product-attributes/${id}`)).options.map((o: any) => o.label),
      ['Dry clean', 'Hand wash'],
    );
  });

  test("remove: a store's own attribute goes, built-in ones and unknown ones are faults", async () => {
    const c = newCode();
    const id = await ok('product_attribute.create', [{ attribute_code: c, frontend_input: 'text', ...label('Gone') }]);
    assert.equal(await ok('product_attribute.remove', [c]), true);
    assert.equal((await t.req('GET', `${API}/product-attributes/${id}`, { token: admin })).status, 404);
    assert.deepEqual(await fault('product_attribute.remove', [id]), [101, 'Requested attribute not found.']);
    assert.deepEqual(await fault('product_attribute.remove', ['name']), [106, 'This attribute cannot be deleted.']);
  });

  test('permissions and store-limited API users', async () => {
    const c = newCode();
    await ok('product_attribute.create', [{ attribute_code: c, frontend_input: 'select', ...label('Perm') }]);
    const reader = await sessionOf(await newApiUser(t, ['product-attributes/read']));
    assert.ok((await ok('product_attribute.info', [c], reader)).attribute_id);
    assert.equal((await ok('product_attribute.types', [], reader)).length, 7);
    for (const [p, args] of [
      ['product_attribute.create', [{ attribute_code: newCode(), frontend_input: 'text', ...label('x') }]],
      ['product_attribute.update', [c, { is_searchable: 1 }]],
      ['product_attribute.remove', [c]],
      ['product_attribute.addOption', [c, { label: [{ store_id: 0, value: 'x' }] }]],
      ['product_attribute.removeOption', [c, 1]],
    ] as const) {
      assert.deepEqual(await fault(p, args, reader), [2, 'Access denied.'], p);
    }
    const none = await sessionOf(await newApiUser(t, ['customers/read']));
    assert.deepEqual(await fault('product_attribute.list', [defaultSet], none), [2, 'Access denied.']);
    assert.deepEqual(await fault('category_attribute.list', [], none), [2, 'Access denied.']);
    assert.deepEqual(await faultCodes('product_attribute'), ['100', '101', '102', '103', '104', '105', '106', '107', '108', '109']);

    const limited = await sessionOf(await newApiUser(t, ['product-attributes/all'], [german]), { 'x-store-code': 'german' });
    assert.equal(await ok('product_attribute.addOption', [c, { label: [{ store_id: [0, german], value: 'Eins' }] }], limited), true);
    assert.equal((await ok('product_attribute.options', [c, 'german'], limited))[1].label, 'Eins');
    assert.deepEqual(await fault('product_attribute.options', [c, 'default'], limited), [100, 'Requested store view not found.']);
    const other = t.services.settings.storeByCode('default')!.id;
    assert.equal(
      await code(
        'product_attribute.addOption',
        [
          c,
          {
            label: [
              { store_id: 0, value: 'Zwei' },
              { store_id: other, value: 'Two' },
            ],
          },
        ],
        limited,
      ),
      108,
    );
    assert.equal((await ok('product_attribute.options', [c])).length, 2);
  });
});
