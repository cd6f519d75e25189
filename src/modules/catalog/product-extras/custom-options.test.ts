import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { API, buildTestApp, type Res, type TestApp } from '../../../../test/helpers.js';
import { countStatements } from '../../../platform/db.js';
import { AppError } from '../../../platform/errors.js';
import { deleteConfig, setConfig } from '../../stores/service.js';
import { storeCustomOptionFile } from './custom-options-service.js';
import { createTestProduct } from '../../../../test/fixtures/catalog.js';
import { customOptionFiles, customOptionValues, customOptions, products } from '../tables.js';

let t: TestApp;
let dataDir: string;
let admin: string;
let customer: string;
const tok: Record<'other' | 'read' | 'write' | 'writeOnly' | 'delete', string> = {
  other: '',
  read: '',
  write: '',
  writeOnly: '',
  delete: '',
};
let png: Buffer;

before(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'options-test-'));
  t = await buildTestApp({ env: { DATA_DIR: dataDir } });
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  tok.other = await t.tokens.apiUser(['customers/read']);
  tok.read = await t.tokens.apiUser(['products/read']);
  tok.write = await t.tokens.apiUser(['products/read', 'products/write']);
  tok.delete = await t.tokens.apiUser(['products/delete']);
  tok.writeOnly = await t.tokens.apiUser(['products/write']);
  png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#00ff00' } })
    .png()
    .toBuffer();
});
after(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function assertError(r: Res, status: number, error: string) {
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.error, error, r.text);
  assert.equal(typeof r.body.message, 'string');
  if (status !== 401) assert.equal(r.body.code, status);
}

const url = (productId: number) => `${API}/products/${productId}/custom-options`;

async function createOption(productId: number, body: Record<string, unknown>, token = admin): Promise<Record<string, any>> {
  const r = await t.req('POST', url(productId), { token, body });
  assert.equal(r.status, 201, r.text);
  return r.body;
}

async function optionRows(productId: number) {
  const opts = await t.database.db.select().from(customOptions).where(eq(customOptions.productId, productId)).orderBy(customOptions.id);
  const values = [];
  for (const o of opts)
    values.push(
      ...(await t.database.db
        .select()
        .from(customOptionValues)
        .where(eq(customOptionValues.optionId, o.id))
        .orderBy(customOptionValues.id)),
    );
  return { opts, values };
}

async function hasRequired(productId: number): Promise<boolean> {
  const [row] = await t.database.db.select({ v: products.hasRequiredOptions }).from(products).where(eq(products.id, productId));
  return row.v;
}

const dropDown = {
  title: 'Size',
  type: 'drop_down',
  required: true,
  sortOrder: 2,
  values: [
    { title: 'Small', price: 0, sortOrder: 1 },
    { title: 'Large', price: 2.5, priceType: 'percent', sku: 'L', sortOrder: 2 },
  ],
};

describe('POST /products/{id}/custom-options', () => {
  test('a field option carries its own price and max characters; a required one sets hasRequiredOptions', async () => {
    const p = await createTestProduct(t);
    assert.equal(await hasRequired(p.id), false);
    const o = await createOption(p.id, {
      title: ' Engraving ',
      type: 'field',
      required: true,
      price: 5.25,
      priceType: 'fixed',
      maxCharacters: 20,
      sku: 'ENG',
    });
    assert.deepEqual(o, {
      id: o.id,
      title: 'Engraving',
      type: 'field',
      required: true,
      sortOrder: 0,
      price: 5.25,
      priceType: 'fixed',
      sku: 'ENG',
      maxCharacters: 20,
      values: [],
    });
    assert.equal(await hasRequired(p.id), true);
    const product = await t.req('GET', `${API}/products/${p.id}`, { token: admin });
    assert.equal(product.body.hasRequiredOptions, true);
  });

  test('select options carry values and no price of their own', async () => {
    const p = await createTestProduct(t);
    const o = await createOption(p.id, dropDown);
    assert.equal(o.price, undefined);
    assert.equal(o.priceType, 'fixed');
    assert.deepEqual(
      o.values.map(({ id, ...v }: { id: number }) => (assert.equal(typeof id, 'number'), v)),
      [
        { title: 'Small', price: 0, priceType: 'fixed', sortOrder: 1 },
        { title: 'Large', price: 2.5, priceType: 'percent', sku: 'L', sortOrder: 2 },
      ],
    );
    for (const type of ['radio', 'checkbox', 'multiple']) {
      const v = await createOption(p.id, { title: type, type, values: [{ title: 'One' }] });
      assert.deepEqual(
        v.values.map((x: { title: string; price: number; sortOrder: number }) => [x.title, x.price, x.sortOrder]),
        [['One', 0, 0]],
      );
    }
  });

  test('every type without values takes a price; area a max length; file its extensions and image size', async () => {
    const p = await createTestProduct(t);
    const area = await createOption(p.id, { title: 'Note', type: 'area', maxCharacters: 0 });
    assert.equal(area.maxCharacters, 0);
    assert.equal(area.price, 0);
    const file = await createOption(p.id, {
      title: 'Logo',
      type: 'file',
      fileExtensions: '.PNG; jpg,  png',
      imageSizeX: 300,
      imageSizeY: 200,
      price: 10,
      priceType: 'percent',
    });
    assert.equal(file.fileExtensions, 'png, jpg');
    assert.equal(file.imageSizeX, 300);
    assert.equal(file.imageSizeY, 200);
    assert.equal(file.priceType, 'percent');
    for (const type of ['date', 'date_time', 'time']) {
      const o = await createOption(p.id, { title: type, type, price: 1 });
      assert.equal(o.type, type);
      assert.equal(o.price, 1);
      assert.deepEqual(o.values, []);
    }
    assert.equal(await hasRequired(p.id), false);
  });

  test('invalid options are a 400 naming the field, and nothing is stored', async () => {
    const p = await createTestProduct(t);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ title: 'Size', type: 'drop_down' }, /values/],
      [{ title: 'Size', type: 'drop_down', values: [] }, /values/],
      [{ ...dropDown, price: 3 }, /price/],
      [{ ...dropDown, maxCharacters: 3 }, /maxCharacters/],
      [{ title: 'Text', type: 'field', values: [{ title: 'x' }] }, /values/],
      [{ title: 'Text', type: 'field', fileExtensions: 'png' }, /fileExtensions/],
      [{ title: 'Text', type: 'field', imageSizeX: 10 }, /imageSizeX/],
      [{ title: 'Logo', type: 'file', maxCharacters: 10 }, /maxCharacters/],
      [{ title: 'Logo', type: 'file', fileExtensions: 'p*g' }, /fileExtensions/],
      [{ title: 'When', type: 'date', maxCharacters: 10 }, /maxCharacters/],
      [{ title: 'Text', type: 'field', price: -1 }, /price/],
      [{ title: 'Text', type: 'field', price: '5' }, /price/],
      [{ title: 'Text', type: 'field', priceType: 'relative' }, /priceType/],
      [{ title: 'Text', type: 'field', maxCharacters: -1 }, /maxCharacters/],
      [{ title: 'Text', type: 'field', maxCharacters: 1.5 }, /maxCharacters/],
      [{ title: 'Text', type: 'textbox' }, /type/],
      [{ title: '', type: 'field' }, /title/],
      [{ title: '   ', type: 'field' }, /title/],
      [{ title: 'a'.repeat(256), type: 'field' }, /title/],
      [{ type: 'field' }, /title/],
      [{ title: 'Text' }, /type/],
      [{ title: 'Text', type: 'field', required: 'yes' }, /required/],
      [{ ...dropDown, values: [{ title: '' }] }, /values\.0\.title/],
      [{ ...dropDown, values: [{ title: 'A' }, { title: ' ' }] }, /values\.1\.title/],
      [{ ...dropDown, values: [{ price: 1 }] }, /title/],
      [{ ...dropDown, values: [{ title: 'A', price: -2 }] }, /price/],
      [{ ...dropDown, values: [{ title: 'A', priceType: 'x' }] }, /priceType/],
      // no two values of an option share a title (whatever the case and surrounding spaces)
      [
        { ...dropDown, values: [{ title: 'Red' }, { title: 'Blue' }, { title: 'Red' }] },
        /values\.2\.title "Red" is already the title of values\.0/,
      ],
      [{ ...dropDown, values: [{ title: 'Red' }, { title: ' red ' }] }, /values\.1\.title/],
      // money keeps 4 decimal places: more is refused, not rounded away
      [{ title: 'Text', type: 'field', price: 1e-9 }, /price must have at most 4 decimal places/],
      [{ title: 'Text', type: 'field', price: 5.12345 }, /price must have at most 4 decimal places/],
      [{ ...dropDown, values: [{ title: 'A', price: 0.00001 }] }, /values\.0\.price must have at most 4 decimal places/],
    ];
    for (const [body, field] of cases) {
      const r = await t.req('POST', url(p.id), { token: admin, body });
      assertError(r, 400, 'bad_request');
      assert.match(r.body.message, field, JSON.stringify(body));
    }
    assertError(
      await t.req('POST', url(p.id), { token: admin, raw: '{"title":', headers: { 'content-type': 'application/json' } }),
      400,
      'bad_request',
    );
    const rows = await optionRows(p.id);
    assert.equal(rows.opts.length, 0);
    assert.equal(await hasRequired(p.id), false);
  });

  test('an unknown product is a 404; a grouped product takes no options (400)', async () => {
    assertError(await t.req('POST', url(99999999), { token: admin, body: { title: 'x', type: 'field' } }), 404, 'not_found');
    const g = await createTestProduct(t, { type: 'grouped', price: undefined });
    assertError(await t.req('POST', url(g.id), { token: admin, body: { title: 'x', type: 'field' } }), 400, 'bad_request');
    assert.equal((await optionRows(g.id)).opts.length, 0);
  });

  test('access: anonymous 401, customer 403, products/read 403, products/write 201', async () => {
    const p = await createTestProduct(t);
    const body = { title: 'Gift note', type: 'area' };
    assertError(await t.req('POST', url(p.id), { body }), 401, 'unauthorized');
    for (const token of [customer, tok.other, tok.read, tok.delete])
      assertError(await t.req('POST', url(p.id), { token, body }), 403, 'forbidden');
    assert.equal((await optionRows(p.id)).opts.length, 0);
    await createOption(p.id, body, tok.write);
  });
});

describe('GET /products/{id}/custom-options', () => {
  test('anyone sees the options by sort order with their values', async () => {
    const p = await createTestProduct(t);
    const b = await createOption(p.id, { title: 'B', type: 'field', sortOrder: 5 });
    const a = await createOption(p.id, { ...dropDown, sortOrder: 1 });
    const c = await createOption(p.id, { title: 'C', type: 'field', sortOrder: 5 });
    for (const token of [undefined, customer, tok.other, admin]) {
      const r = await t.req('GET', url(p.id), { token });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body['@context'], '/api/contexts/ProductCustomOption');
      assert.equal(r.body.totalItems, 3);
      assert.deepEqual(r.body.member, [a, b, c]);
    }
    const plain = await t.req('GET', url(p.id), { headers: { accept: 'application/json' } });
    assert.deepEqual(plain.body, [a, b, c]);
  });

  test('a product without options has an empty list; unknown or disabled products are a 404 for shoppers', async () => {
    const p = await createTestProduct(t);
    const r = await t.req('GET', url(p.id));
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.member, []);
    assertError(await t.req('GET', url(99999999)), 404, 'not_found');
    const off = await createTestProduct(t, { isActive: false });
    await createOption(off.id, { title: 'x', type: 'field' });
    assertError(await t.req('GET', url(off.id)), 404, 'not_found');
    assertError(await t.req('GET', url(off.id), { token: customer }), 404, 'not_found');
    assert.equal((await t.req('GET', url(off.id), { token: tok.read })).body.totalItems, 1);
  });
});

describe('PUT /products/{id}/custom-options/{id}', () => {
  test('changes only the keys sent', async () => {
    const p = await createTestProduct(t);
    const o = await createOption(p.id, { title: 'Engraving', type: 'field', price: 5, maxCharacters: 10, sku: 'E' });
    const r = await t.req('PUT', `${url(p.id)}/${o.id}`, { token: admin, body: { title: 'Monogram', sku: null } });
    assert.equal(r.status, 200, r.text);
    const { sku: _sku, ...rest } = o;
    assert.deepEqual(r.body, { ...rest, title: 'Monogram' });
    const again = await t.req('PUT', `${url(p.id)}/${o.id}`, {
      token: admin,
      body: { price: 7.5, priceType: 'percent', maxCharacters: null },
    });
    assert.equal(again.body.price, 7.5);
    assert.equal(again.body.priceType, 'percent');
    assert.equal(again.body.maxCharacters, undefined);
  });

  test('values, when sent, replace the values; ids of kept values stay', async () => {
    const p = await createTestProduct(t);
    const o = await createOption(p.id, dropDown);
    const [small, large] = o.values;
    const r = await t.req('PUT', `${url(p.id)}/${o.id}`, {
      token: admin,
      body: {
        values: [
          { id: large.id, title: 'Large+', price: 3 },
          { title: 'Medium', price: 1, sortOrder: 5 },
        ],
      },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.values.length, 2);
    // a value without a sort order takes its place in the list
    assert.deepEqual(r.body.values[0], { id: large.id, title: 'Large+', price: 3, priceType: 'fixed', sortOrder: 0 });
    assert.deepEqual(r.body.values[1], { id: r.body.values[1].id, title: 'Medium', price: 1, priceType: 'fixed', sortOrder: 5 });
    assert.notEqual(r.body.values[1].id, small.id);
    const { values } = await optionRows(p.id);
    assert.deepEqual(values.map((v) => v.id).sort(), [large.id, r.body.values[1].id].sort());
    // without values the values stay
    const kept = await t.req('PUT', `${url(p.id)}/${o.id}`, { token: admin, body: { title: 'Size 2' } });
    assert.deepEqual(kept.body.values, r.body.values);
  });

  test('prices keep 4 decimal places exactly; swapping two titles is no duplicate', async () => {
    const p = await createTestProduct(t);
    const o = await createOption(p.id, {
      ...dropDown,
      values: [
        { title: 'Small', price: 0.0001 },
        { title: 'Large', price: 12.3456 },
      ],
    });
    assert.deepEqual(
      o.values.map((v: { price: number }) => v.price),
      [0.0001, 12.3456],
    );
    const [small, large] = o.values;
    const r = await t.req('PUT', `${url(p.id)}/${o.id}`, {
      token: admin,
      body: {
        values: [
          { id: small.id, title: 'Large' },
          { id: large.id, title: 'Small' },
        ],
      },
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      r.body.values.map((v: { id: number; title: string }) => [v.id, v.title]),
      [
        [small.id, 'Large'],
        [large.id, 'Small'],
      ],
    );
  });

  test('replacing values takes the same number of statements for 3 values as for 300 (batched writes)', async () => {
    const p = await createTestProduct(t);
    const statements = async (n: number) => {
      const o = await createOption(p.id, {
        title: `Many ${n}`,
        type: 'drop_down',
        values: Array.from({ length: n }, (_, i) => ({ title: `v${i}`, price: i })),
      });
      const ids: number[] = o.values.map((v: { id: number }) => v.id);
      // a third unchanged, a third changed, a third dropped, and as many new ones
      const third = Math.floor(n / 3);
      const values = [
        ...ids.slice(0, third).map((id, i) => ({ id, title: `v${i}`, price: i, sortOrder: i })),
        ...ids.slice(third, 2 * third).map((id, i) => ({ id, title: `changed ${i}`, price: 0.5, sortOrder: third + i })),
        ...Array.from({ length: third }, (_, i) => ({ title: `new ${i}`, price: 1, sortOrder: 2 * third + i })),
      ];
      const { n: used, result: r } = await countStatements(() => t.req('PUT', `${url(p.id)}/${o.id}`, { token: admin, body: { values } }));
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.values.length, values.length);
      assert.deepEqual(
        r.body.values.map((v: { title: string; price: number }) => [v.title, v.price]),
        values.map((v) => [v.title, v.price]),
      );
      const stored = (await optionRows(p.id)).values.filter((v) => v.optionId === o.id);
      assert.equal(stored.length, values.length);
      return used;
    };
    const few = await statements(3);
    const many = await statements(300);
    assert.equal(many, few, `PUT with 300 values ran ${many} statements, with 3 values ${few}`);
    assert.ok(few <= 25, `${few} statements`);
  });

  test('changing the type clears what the new type does not take', async () => {
    const p = await createTestProduct(t);
    const o = await createOption(p.id, dropDown);
    const toField = await t.req('PUT', `${url(p.id)}/${o.id}`, { token: admin, body: { type: 'field', maxCharacters: 5 } });
    assert.equal(toField.status, 200, toField.text);
    assert.deepEqual(toField.body.values, []);
    assert.equal(toField.body.price, 0);
    assert.equal(toField.body.maxCharacters, 5);
    assert.equal((await optionRows(p.id)).values.length, 0);
    const toFile = await t.req('PUT', `${url(p.id)}/${o.id}`, { token: admin, body: { type: 'file', fileExtensions: 'pdf' } });
    assert.equal(toFile.body.maxCharacters, undefined);
    assert.equal(toFile.body.fileExtensions, 'pdf');
    // a select type needs values
    assertError(await t.req('PUT', `${url(p.id)}/${o.id}`, { token: admin, body: { type: 'radio' } }), 400, 'bad_request');
    const toRadio = await t.req('PUT', `${url(p.id)}/${o.id}`, { token: admin, body: { type: 'radio', values: [{ title: 'Yes' }] } });
    assert.equal(toRadio.status, 200, toRadio.text);
    assert.equal(toRadio.body.price, undefined);
    assert.equal(toRadio.body.fileExtensions, undefined);
  });

  test('required changes keep hasRequiredOptions in step', async () => {
    const p = await createTestProduct(t);
    const a = await createOption(p.id, { title: 'A', type: 'field', required: true });
    const b = await createOption(p.id, { title: 'B', type: 'field', required: true });
    assert.equal(await hasRequired(p.id), true);
    await t.req('PUT', `${url(p.id)}/${a.id}`, { token: admin, body: { required: false } });
    assert.equal(await hasRequired(p.id), true);
    await t.req('PUT', `${url(p.id)}/${b.id}`, { token: admin, body: { required: false } });
    assert.equal(await hasRequired(p.id), false);
    await t.req('PUT', `${url(p.id)}/${a.id}`, { token: admin, body: { required: true } });
    assert.equal(await hasRequired(p.id), true);
    assert.equal((await t.req('DELETE', `${url(p.id)}/${a.id}`, { token: admin })).status, 204);
    assert.equal(await hasRequired(p.id), false);
  });

  test('bad input is a 400, an option of another product or an unknown one a 404, and nothing changes', async () => {
    const p = await createTestProduct(t);
    const q = await createTestProduct(t);
    const mine = await createOption(p.id, dropDown);
    const theirs = await createOption(q.id, { ...dropDown, required: false });
    const before = await optionRows(p.id);
    for (const body of [
      { price: 3 },
      { values: [] },
      { values: [{ id: theirs.values[0].id, title: 'stolen' }] },
      {
        values: [
          { id: mine.values[0].id, title: 'a' },
          { id: mine.values[0].id, title: 'b' },
        ],
      },
      { values: [{ id: mine.values[0].id, title: 'Same' }, { title: 'same' }] },
      { values: [{ title: 'Small' }, { title: 'Small' }] },
      { values: [{ id: mine.values[0].id, title: 'x', price: 1.00001 }] },
      { title: '' },
      { type: 'checkbox', values: [{ title: '' }] },
      { type: 'field', values: [{ title: 'x' }] },
      { sortOrder: 'first' },
      { required: 1 },
    ]) {
      assertError(await t.req('PUT', `${url(p.id)}/${mine.id}`, { token: admin, body }), 400, 'bad_request');
    }
    assertError(
      await t.req('PUT', `${url(p.id)}/${mine.id}`, { token: admin, raw: '[', headers: { 'content-type': 'application/json' } }),
      400,
      'bad_request',
    );
    assertError(await t.req('PUT', `${url(p.id)}/${theirs.id}`, { token: admin, body: { title: 'x' } }), 404, 'not_found');
    assertError(await t.req('PUT', `${url(p.id)}/99999999`, { token: admin, body: { title: 'x' } }), 404, 'not_found');
    assertError(await t.req('PUT', `${url(99999999)}/${mine.id}`, { token: admin, body: { title: 'x' } }), 404, 'not_found');
    assertError(await t.req('PUT', `${url(p.id)}/abc`, { token: admin, body: { title: 'x' } }), 400, 'bad_request');
    assert.deepEqual(await optionRows(p.id), before);
    assert.equal((await optionRows(q.id)).opts[0].title, 'Size');
  });

  test('access: anonymous 401, customer 403, products/read 403, products/write 200', async () => {
    const p = await createTestProduct(t);
    const o = await createOption(p.id, { title: 'T', type: 'field' });
    const body = { title: 'Changed' };
    assertError(await t.req('PUT', `${url(p.id)}/${o.id}`, { body }), 401, 'unauthorized');
    for (const token of [customer, tok.other, tok.read, tok.delete])
      assertError(await t.req('PUT', `${url(p.id)}/${o.id}`, { token, body }), 403, 'forbidden');
    assert.equal((await optionRows(p.id)).opts[0].title, 'T');
    assert.equal((await t.req('PUT', `${url(p.id)}/${o.id}`, { token: tok.write, body })).status, 200);
  });
});

describe('DELETE /products/{id}/custom-options/{id}', () => {
  test("removes the option and its values (204); again is a 404; another product's option is a 404", async () => {
    const p = await createTestProduct(t);
    const q = await createTestProduct(t);
    const o = await createOption(p.id, dropDown);
    const theirs = await createOption(q.id, { title: 'Keep', type: 'field' });
    assertError(await t.req('DELETE', `${url(p.id)}/${theirs.id}`, { token: admin }), 404, 'not_found');
    const r = await t.req('DELETE', `${url(p.id)}/${o.id}`, { token: admin });
    assert.equal(r.status, 204, r.text);
    assert.equal(r.text, '');
    const rows = await optionRows(p.id);
    assert.equal(rows.opts.length, 0);
    assert.equal((await t.database.db.select().from(customOptionValues).where(eq(customOptionValues.optionId, o.id))).length, 0);
    assertError(await t.req('DELETE', `${url(p.id)}/${o.id}`, { token: admin }), 404, 'not_found');
    assertError(await t.req('DELETE', `${url(99999999)}/${theirs.id}`, { token: admin }), 404, 'not_found');
    assert.equal((await optionRows(q.id)).opts.length, 1);
  });

  test('access: removing an option changes the product: anonymous 401, customer 403, products/read 403, products/delete only 403, products/write 204', async () => {
    const p = await createTestProduct(t);
    const o = await createOption(p.id, { title: 'T', type: 'field' });
    const o2 = await createOption(p.id, { title: 'U', type: 'field' });
    const target = `${url(p.id)}/${o.id}`;
    assertError(await t.req('DELETE', target), 401, 'unauthorized');
    for (const token of [customer, tok.other, tok.read, tok.delete])
      assertError(await t.req('DELETE', target, { token }), 403, 'forbidden');
    assert.equal((await optionRows(p.id)).opts.length, 2);
    assert.equal((await t.req('DELETE', target, { token: tok.writeOnly })).status, 204);
    assert.equal((await t.req('DELETE', `${url(p.id)}/${o2.id}`, { token: tok.write })).status, 204);
    assert.equal((await optionRows(p.id)).opts.length, 0);
  });
});

describe('custom option files', () => {
  const optionsDir = () => path.join(dataDir, 'media/custom_options');
  function storedFiles(): string[] {
    if (!fs.existsSync(optionsDir())) return [];
    return (fs.readdirSync(optionsDir(), { recursive: true }) as string[])
      .filter((f) => fs.statSync(path.join(optionsDir(), f)).isFile())
      .sort();
  }
  const fileRows = () => t.database.db.select().from(customOptionFiles);
  const rejects = (status: number, pattern?: RegExp) => (err: unknown) =>
    err instanceof AppError && err.status === status && (!pattern || pattern.test(err.message));

  test('a stored file downloads by option id and key as an attachment with its original name', async () => {
    const p = await createTestProduct(t);
    const o = await createOption(p.id, { title: 'Logo', type: 'file', fileExtensions: 'png, jpg', imageSizeX: 100, imageSizeY: 100 });
    const { key, url: fileUrl } = await storeCustomOptionFile(t.systemCtx(), o.id, {
      name: '../../My Logo "v2".PNG',
      contentType: 'image/png',
      data: png,
    });
    assert.match(key, /^[A-Za-z0-9_-]{32}$/);
    assert.equal(fileUrl, `http://shop.test/api/rest/v2/custom-option-file/${o.id}/${key}`);
    const res = await t.app.inject({ method: 'GET', url: new URL(fileUrl).pathname });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.rawPayload, png);
    assert.equal(res.headers['content-type'], 'image/png');
    assert.equal(res.headers['content-disposition'], `attachment; filename="My Logo v2.PNG"; filename*=UTF-8''My%20Logo%20v2.PNG`);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['content-length'], String(png.length));
    // the file is kept outside the public media folders
    const [row] = (await fileRows()).filter((r) => r.key === key);
    assert.equal(row.originalName, 'My Logo "v2".PNG');
    assert.equal(row.size, png.length);
    assert.ok(row.path.startsWith('custom_options/'));
    const direct = await t.app.inject({ method: 'GET', url: `/media/${row.path}` });
    assert.equal(direct.statusCode, 404);
  });

  test('a wrong key, a key of another option or a malformed key is a 404', async () => {
    const p = await createTestProduct(t);
    const a = await createOption(p.id, { title: 'A', type: 'file' });
    const b = await createOption(p.id, { title: 'B', type: 'file' });
    const { key } = await storeCustomOptionFile(t.systemCtx(), a.id, {
      name: 'notes.txt',
      contentType: 'text/plain',
      data: Buffer.from('hello'),
    });
    const ok = await t.req('GET', `${API}/custom-option-file/${a.id}/${key}`);
    assert.equal(ok.status, 200);
    assert.equal(ok.text, 'hello');
    const other = key.slice(0, 31) + (key[31] === 'A' ? 'B' : 'A');
    for (const p2 of [
      `${b.id}/${key}`,
      `${a.id}/${other}`,
      `${a.id}/short`,
      `${a.id}/${'x'.repeat(64)}`,
      `99999999/${key}`,
      `${a.id}/..%2f..%2fetc`,
    ]) {
      assertError(await t.req('GET', `${API}/custom-option-file/${p2}`), 404, 'not_found');
    }
    assertError(await t.req('GET', `${API}/custom-option-file/abc/${key}`), 400, 'bad_request');
  });

  test('a file option without limits takes any file; the checks of an option refuse what does not fit and store nothing', async () => {
    const p = await createTestProduct(t);
    const open = await createOption(p.id, { title: 'Any', type: 'file' });
    const limited = await createOption(p.id, { title: 'Logo', type: 'file', fileExtensions: 'png', imageSizeX: 30, imageSizeY: 100 });
    const field = await createOption(p.id, { title: 'Text', type: 'field' });
    const ctx = t.systemCtx();
    await storeCustomOptionFile(ctx, open.id, { name: 'anything', contentType: 'bogus type', data: Buffer.from('x') });
    const filesBefore = storedFiles();
    const rowsBefore = (await fileRows()).length;
    await assert.rejects(
      storeCustomOptionFile(ctx, limited.id, { name: 'logo.jpg', contentType: 'image/jpeg', data: png }),
      rejects(400, /extensions png/),
    );
    await assert.rejects(
      storeCustomOptionFile(ctx, limited.id, { name: 'logo', contentType: 'image/png', data: png }),
      rejects(400, /extensions/),
    );
    await assert.rejects(
      storeCustomOptionFile(ctx, limited.id, { name: 'logo.png', contentType: 'image/png', data: png }),
      rejects(400, /40×30/),
    );
    await assert.rejects(
      storeCustomOptionFile(ctx, limited.id, { name: 'logo.png', contentType: 'image/png', data: Buffer.from('text') }),
      rejects(400, /image/),
    );
    await assert.rejects(
      storeCustomOptionFile(ctx, open.id, { name: 'empty.txt', contentType: 'text/plain', data: Buffer.alloc(0) }),
      rejects(400),
    );
    await assert.rejects(
      storeCustomOptionFile(ctx, open.id, { name: '', contentType: 'text/plain', data: Buffer.from('x') }),
      rejects(400),
    );
    await assert.rejects(storeCustomOptionFile(ctx, field.id, { name: 'a.png', contentType: 'image/png', data: png }), rejects(400));
    await assert.rejects(storeCustomOptionFile(ctx, 99999999, { name: 'a.png', contentType: 'image/png', data: png }), rejects(404));
    await setConfig(t.database.db, t.services.settings, 'catalog/custom_options/max_upload_bytes', '10');
    try {
      await assert.rejects(
        storeCustomOptionFile(t.systemCtx(), open.id, { name: 'big.bin', contentType: 'application/octet-stream', data: Buffer.alloc(11) }),
        rejects(413),
      );
    } finally {
      await deleteConfig(t.database.db, t.services.settings, 'catalog/custom_options/max_upload_bytes');
    }
    assert.deepEqual(storedFiles(), filesBefore);
    assert.equal((await fileRows()).length, rowsBefore);
    // a fitting image passes, and an unknown content type is kept as octet-stream
    const narrow = await sharp({ create: { width: 30, height: 90, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    const { key } = await storeCustomOptionFile(ctx, limited.id, { name: 'ok.PNG', contentType: 'image/png', data: narrow });
    assert.equal((await fileRows()).find((r) => r.key === key)?.contentType, 'image/png');
    assert.ok((await fileRows()).some((r) => r.optionId === open.id && r.contentType === 'application/octet-stream'));
  });

  test('the download type comes from the content, never from what the uploader declared', async () => {
    const p = await createTestProduct(t);
    const any = await createOption(p.id, { title: 'Any', type: 'file' });
    const images = await createOption(p.id, { title: 'Picture', type: 'file', fileExtensions: 'jpg, png' });
    const docs = await createOption(p.id, { title: 'Document', type: 'file', fileExtensions: 'pdf, txt' });
    const ctx = t.systemCtx();
    const script = Buffer.from('<html><script>alert(document.cookie)</script></html>');
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
    const download = async (optionId: number, key: string) => {
      const res = await t.app.inject({ method: 'GET', url: `${API}/custom-option-file/${optionId}/${key}` });
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-disposition']), /^attachment; /);
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      return res;
    };
    // HTML declared as HTML, under a name the option takes: stored, but it downloads as an opaque file
    const html = await storeCustomOptionFile(ctx, docs.id, { name: 'page.txt', contentType: 'text/html', data: script });
    let res = await download(docs.id, html.key);
    assert.equal(res.headers['content-type'], 'application/octet-stream');
    assert.deepEqual(res.rawPayload, script);
    const untyped = await storeCustomOptionFile(ctx, any.id, { name: 'x.html', contentType: 'text/html; charset=utf-8', data: script });
    assert.equal((await download(any.id, untyped.key)).headers['content-type'], 'application/octet-stream');
    // a real image or PDF downloads as what it is, whatever was declared
    const image = await storeCustomOptionFile(ctx, images.id, { name: 'x.png', contentType: 'text/html', data: png });
    assert.equal((await download(images.id, image.key)).headers['content-type'], 'image/png');
    const jpegNamedPng = await storeCustomOptionFile(ctx, images.id, {
      name: 'photo.jpg',
      contentType: 'image/jpeg',
      data: png,
    });
    assert.equal(
      (await download(images.id, jpegNamedPng.key)).headers['content-type'],
      'image/png',
      'a PNG under a .jpg name the option allows',
    );
    const doc = await storeCustomOptionFile(ctx, docs.id, { name: 'terms.pdf', contentType: 'text/html', data: pdf });
    assert.equal((await download(docs.id, doc.key)).headers['content-type'], 'application/pdf');
    const rows = await fileRows();
    assert.equal(rows.find((r) => r.key === html.key)?.contentType, 'application/octet-stream');
    assert.equal(rows.find((r) => r.key === image.key)?.contentType, 'image/png');
    assert.equal(rows.find((r) => r.key === doc.key)?.contentType, 'application/pdf');
    // a row stored with a declared type before this rule still downloads by its content
    await t.database.db.update(customOptionFiles).set({ contentType: 'text/html' }).where(eq(customOptionFiles.key, html.key));
    res = await download(docs.id, html.key);
    assert.equal(res.headers['content-type'], 'application/octet-stream');
  });

  test('a file whose extension names an image or PDF must hold one (400); nothing is stored', async () => {
    const p = await createTestProduct(t);
    const any = await createOption(p.id, { title: 'Any', type: 'file' });
    const images = await createOption(p.id, { title: 'Picture', type: 'file', fileExtensions: 'png, jpg' });
    const docs = await createOption(p.id, { title: 'Document', type: 'file', fileExtensions: 'pdf' });
    const ctx = t.systemCtx();
    const script = Buffer.from('<script>alert(1)</script>');
    const filesBefore = storedFiles();
    const rowsBefore = (await fileRows()).length;
    const cases: [number, string, Buffer, RegExp][] = [
      [images.id, 'x.png', script, /content does not match its extension \.png: expected image\/png or image\/jpeg/],
      [images.id, 'x.jpg', Buffer.from('%PDF-1.4 not an image'), /extension \.jpg/],
      [any.id, 'x.png', script, /content does not match its extension \.png: expected an image/],
      [any.id, 'x.gif', Buffer.from('GIF'), /expected an image/],
      [any.id, 'x.pdf', png, /expected application\/pdf/],
      [docs.id, 'x.pdf', script, /expected application\/pdf/],
    ];
    for (const [optionId, name, data, message] of cases) {
      await assert.rejects(storeCustomOptionFile(ctx, optionId, { name, contentType: 'text/html', data }), rejects(400, message), name);
    }
    assert.deepEqual(storedFiles(), filesBefore);
    assert.equal((await fileRows()).length, rowsBefore);
  });

  test('deleting the option removes its files', async () => {
    const p = await createTestProduct(t);
    const o = await createOption(p.id, { title: 'Logo', type: 'file' });
    const { key } = await storeCustomOptionFile(t.systemCtx(), o.id, {
      name: 'a.txt',
      contentType: 'text/plain',
      data: Buffer.from('bye'),
    });
    const [row] = (await fileRows()).filter((r) => r.key === key);
    const abs = path.join(dataDir, 'media', row.path);
    assert.ok(fs.existsSync(abs));
    assert.equal((await t.req('DELETE', `${url(p.id)}/${o.id}`, { token: admin })).status, 204);
    const end = Date.now() + 2000;
    while (fs.existsSync(abs) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    assert.equal(fs.existsSync(abs), false);
    assertError(await t.req('GET', `${API}/custom-option-file/${o.id}/${key}`), 404, 'not_found');
  });
});
