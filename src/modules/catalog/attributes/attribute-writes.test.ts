/**
 * Back-office writes of attributes and attribute sets, over HTTP: create, change (options replaced, those in use
 * kept), delete; sets with groups, renamed, regrouped, deleted; access per permission; bad input is a 4xx that
 * changes nothing.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API, buildTestApp, type TestApp } from '../../../../test/helpers.js';
import { createTestProduct } from '../../../../test/fixtures/catalog.js';

let t: TestApp;
let admin: string;
const tok = { read: '', attrs: '', sets: '' };

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  tok.read = await t.tokens.apiUser(['product-attributes/read', 'attribute-sets/read']);
  tok.attrs = await t.tokens.apiUser(['product-attributes/all']);
  tok.sets = await t.tokens.apiUser(['attribute-sets/all', 'product-attributes/read']);
});
after(() => t.close());

const attr = (body: unknown, token = admin) => t.req('POST', `${API}/product-attributes`, { token, body });

describe('product attribute writes', () => {
  test('creates a select attribute with options, changes it, keeps an option in use, deletes it', async () => {
    const created = await attr({
      attributeCode: 'fabric_weight',
      frontendLabel: 'Fabric weight',
      frontendInput: 'select',
      isFilterable: 1,
      options: [{ label: 'Light' }, { label: 'Heavy', swatchType: 'color', swatchValue: '#333333' }],
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.attributeCode, 'fabric_weight');
    assert.equal(created.body.backendType, 'int');
    assert.equal(created.body.isUserDefined, true);
    assert.deepEqual(
      created.body.options.map((o: { label: string }) => o.label),
      ['Light', 'Heavy'],
    );
    const [light, heavy] = created.body.options as { value: string }[];

    // in the Default set, a product holds "Heavy"
    const set = await t.req('GET', `${API}/attribute-sets`, { token: admin });
    const def = set.body.member.find((s: { attributeSetName: string }) => s.attributeSetName === 'Default');
    const groups = def.groups.map((g: { name: string; attributes: { code: string }[] }) => ({
      name: g.name,
      attributes: [...g.attributes.map((a) => a.code), ...(g.name === 'General' ? ['fabric_weight'] : [])],
    }));
    const regroup = await t.req('PUT', `${API}/attribute-sets/${def.id}`, { token: admin, body: { groups } });
    assert.equal(regroup.status, 200, regroup.text);
    assert.ok(regroup.body.attributeCodes.includes('fabric_weight'));
    const p = await createTestProduct(t, { attributeSetId: def.id, customAttributesWrite: { fabric_weight: heavy.value } });

    const id = created.body.id;
    const renamed = await t.req('PUT', `${API}/product-attributes/${id}`, {
      token: tok.attrs,
      body: {
        frontendLabel: 'Fabric',
        options: [{ value: heavy.value, label: 'Heavyweight' }, { label: 'Medium' }, { value: light.value, label: 'Light' }],
      },
    });
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal(renamed.body.frontendLabel, 'Fabric');
    assert.deepEqual(
      renamed.body.options.map((o: { label: string; value: string }) => o.label),
      ['Heavyweight', 'Medium', 'Light'],
    );
    assert.equal(renamed.body.options[0].value, heavy.value, 'a kept option keeps its id');

    const dropInUse = await t.req('PUT', `${API}/product-attributes/${id}`, {
      token: admin,
      body: { options: [{ value: light.value, label: 'Light' }] },
    });
    assert.equal(dropInUse.status, 409, dropInUse.text);
    assert.equal((await t.req('GET', `${API}/product-attributes/${id}`, { token: admin })).body.options.length, 3, 'nothing changed');

    const dropUnused = await t.req('PUT', `${API}/product-attributes/${id}`, {
      token: admin,
      body: { options: [{ value: heavy.value, label: 'Heavy' }] },
    });
    assert.equal(dropUnused.status, 200, dropUnused.text);
    assert.deepEqual(
      dropUnused.body.options.map((o: { label: string }) => o.label),
      ['Heavy'],
    );

    const del = await t.req('DELETE', `${API}/product-attributes/${id}`, { token: admin });
    assert.equal(del.status, 204, del.text);
    assert.equal((await t.req('GET', `${API}/product-attributes/${id}`, { token: admin })).status, 404);
    const product = await t.req('GET', `${API}/products/${p.id}`, { token: admin });
    assert.equal(product.body.customAttributes?.fabric_weight, undefined, 'the product lost the value');
  });

  test('built-in attributes keep their options and cannot be deleted', async () => {
    const list = await t.req('GET', `${API}/product-attributes`, { token: admin, query: { search: 'visibility' } });
    const visibility = list.body.member.find((a: { attributeCode: string }) => a.attributeCode === 'visibility');
    const opts = await t.req('PUT', `${API}/product-attributes/${visibility.id}`, { token: admin, body: { options: [{ label: 'x' }] } });
    assert.equal(opts.status, 400, opts.text);
    const del = await t.req('DELETE', `${API}/product-attributes/${visibility.id}`, { token: admin });
    assert.equal(del.status, 409, del.text);
    const label = await t.req('PUT', `${API}/product-attributes/${visibility.id}`, { token: admin, body: { frontendLabel: 'Shown in' } });
    assert.equal(label.status, 200, label.text);
    assert.equal(label.body.frontendLabel, 'Shown in');
  });

  test('bad input is a 4xx naming the field, and creates nothing', async () => {
    const cases: [unknown, number, string | undefined][] = [
      [{ attributeCode: 'Bad Code', frontendLabel: 'x', frontendInput: 'text' }, 400, undefined],
      [{ attributeCode: 'ok_code', frontendLabel: 'x', frontendInput: 'wysiwyg' }, 400, undefined],
      [{ attributeCode: 'color', frontendLabel: 'x', frontendInput: 'text' }, 409, 'attributeCode'],
      [{ attributeCode: 'sku', frontendLabel: 'x', frontendInput: 'text' }, 400, 'attributeCode'],
      [{ attributeCode: 'txt_opts', frontendLabel: 'x', frontendInput: 'text', options: [{ label: 'a' }] }, 400, 'options'],
      [{ attributeCode: 'cfg_text', frontendLabel: 'x', frontendInput: 'text', isConfigurable: true }, 400, 'isConfigurable'],
      [
        { attributeCode: 'dup_opts', frontendLabel: 'x', frontendInput: 'select', options: [{ label: 'a' }, { label: 'A' }] },
        400,
        'options',
      ],
      [
        {
          attributeCode: 'bad_swatch',
          frontendLabel: 'x',
          frontendInput: 'select',
          options: [{ label: 'a', swatchType: 'color', swatchValue: 'red' }],
        },
        400,
        'options',
      ],
    ];
    for (const [body, status, field] of cases) {
      const r = await attr(body);
      assert.equal(r.status, status, `${JSON.stringify(body)}: ${r.text}`);
      if (field) assert.equal(r.body.details?.field, field, r.text);
    }
    const r = await t.req('GET', `${API}/product-attributes`, { token: admin, query: { search: 'opts' } });
    assert.equal(r.body.totalItems, 0);
    const missing = await t.req('PUT', `${API}/product-attributes/999999`, { token: admin, body: { frontendLabel: 'x' } });
    assert.equal(missing.status, 404);
  });

  test('access: anonymous 401, customer and readers 403, product-attributes/all 201', async () => {
    const body = { attributeCode: 'access_probe', frontendLabel: 'Probe', frontendInput: 'text' };
    assert.equal((await attr(body, '')).status, 401);
    assert.equal((await attr(body, await t.tokens.customer())).status, 403);
    assert.equal((await attr(body, tok.read)).status, 403);
    assert.equal((await attr(body, tok.sets)).status, 403);
    const ok = await attr(body, tok.attrs);
    assert.equal(ok.status, 201, ok.text);
    assert.equal((await t.req('DELETE', `${API}/product-attributes/${ok.body.id}`, { token: tok.read })).status, 403);
  });
});

describe('attribute set writes', () => {
  test('creates a set from the Default set, renames and regroups it, refuses to delete one in use', async () => {
    const created = await t.req('POST', `${API}/attribute-sets`, { token: tok.sets, body: { attributeSetName: 'Posters' } });
    assert.equal(created.status, 201, created.text);
    assert.ok(created.body.attributeCodes.includes('name'));
    const id = created.body.id;

    const regroup = await t.req('PUT', `${API}/attribute-sets/${id}`, {
      token: tok.sets,
      body: {
        attributeSetName: 'Prints',
        groups: [
          { name: 'Basics', attributes: ['name', 'sku', 'status', 'visibility', 'price'] },
          { name: 'Looks', attributes: ['color', 'description'] },
        ],
      },
    });
    assert.equal(regroup.status, 200, regroup.text);
    assert.equal(regroup.body.attributeSetName, 'Prints');
    assert.deepEqual(
      regroup.body.groups.map((g: { name: string; attributes: { code: string }[] }) => [g.name, g.attributes.map((a) => a.code)]),
      [
        ['Basics', ['name', 'sku', 'status', 'visibility', 'price']],
        ['Looks', ['color', 'description']],
      ],
    );

    const noName = await t.req('PUT', `${API}/attribute-sets/${id}`, {
      token: admin,
      body: { groups: [{ name: 'A', attributes: ['sku'] }] },
    });
    assert.equal(noName.status, 400, noName.text);
    assert.equal(noName.body.details.field, 'groups');
    const unknown = await t.req('PUT', `${API}/attribute-sets/${id}`, {
      token: admin,
      body: { groups: [{ name: 'A', attributes: ['name', 'sku', 'status', 'visibility', 'no_such_code'] }] },
    });
    assert.equal(unknown.status, 400, unknown.text);
    const twice = await t.req('POST', `${API}/attribute-sets`, { token: admin, body: { attributeSetName: 'prints' } });
    assert.equal(twice.status, 409, twice.text);
    assert.equal(twice.body.details.field, 'attributeSetName');

    const p = await createTestProduct(t, { attributeSetId: id });
    const inUse = await t.req('DELETE', `${API}/attribute-sets/${id}`, { token: admin });
    assert.equal(inUse.status, 409, inUse.text);
    assert.equal((await t.req('DELETE', `${API}/products/${p.id}`, { token: admin })).status, 204);
    assert.equal((await t.req('DELETE', `${API}/attribute-sets/${id}`, { token: tok.read })).status, 403);
    assert.equal((await t.req('DELETE', `${API}/attribute-sets/${id}`, { token: admin })).status, 204);
    assert.equal((await t.req('GET', `${API}/attribute-sets/${id}`, { token: admin })).status, 404);
  });

  test('the Default set cannot be deleted; a set copies the groups of its skeleton', async () => {
    const sets = await t.req('GET', `${API}/attribute-sets`, { token: admin });
    const def = sets.body.member.find((s: { attributeSetName: string }) => s.attributeSetName === 'Default');
    const clothing = sets.body.member.find((s: { attributeSetName: string }) => s.attributeSetName === 'Clothing');
    assert.equal((await t.req('DELETE', `${API}/attribute-sets/${def.id}`, { token: admin })).status, 409);
    const copy = await t.req('POST', `${API}/attribute-sets`, {
      token: admin,
      body: { attributeSetName: 'Jackets', skeletonSetId: clothing.id },
    });
    assert.equal(copy.status, 201, copy.text);
    assert.deepEqual(copy.body.groups, clothing.groups);
    const badSkeleton = await t.req('POST', `${API}/attribute-sets`, {
      token: admin,
      body: { attributeSetName: 'Nope', skeletonSetId: 999999 },
    });
    assert.equal(badSkeleton.status, 400, badSkeleton.text);
    assert.equal((await t.req('POST', `${API}/attribute-sets`, { token: tok.attrs, body: { attributeSetName: 'X' } })).status, 403);
  });
});

describe('attribute list order', () => {
  test('sorts by label and by input type, both ways; a bad sort is a 400', async () => {
    const codes = async (q: Record<string, string>) => {
      const r = await t.req('GET', `${API}/product-attributes`, { token: admin, query: { itemsPerPage: '100', ...q } });
      assert.equal(r.status, 200, r.text);
      return r.body.member as { attributeCode: string; frontendLabel: string; frontendInput: string }[];
    };
    const byLabel = (await codes({ sortBy: 'label' })).map((a) => a.frontendLabel.toLowerCase());
    assert.deepEqual(
      byLabel,
      [...byLabel].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    );
    const desc = (await codes({ sortBy: 'label', sortDir: 'desc' })).map((a) => a.frontendLabel.toLowerCase());
    assert.equal(desc[0], byLabel[byLabel.length - 1]);
    const inputs = (await codes({ sortBy: 'frontend_input' })).map((a) => a.frontendInput);
    assert.deepEqual(inputs, [...inputs].sort());
    assert.equal((await t.req('GET', `${API}/product-attributes`, { token: admin, query: { sortBy: 'colour' } })).status, 400);
  });
});
