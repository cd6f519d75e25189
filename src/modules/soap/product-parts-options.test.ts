/**
 * Custom options, their values and downloadable links of the Magento 1 API over JSON-RPC: every method and fault,
 * Magento's argument forms, malformed arguments changing nothing, values added at once all kept; and for every
 * product sub-resource (images, tier prices and links too, see product-parts.test.ts) the role's permissions,
 * the resource list and faults, and an API user limited to one store view.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API, type TestApp } from '../../../test/helpers.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { LegacyClient, pngBase64 } from '../../../test/fixtures/legacy-api.js';
import { newApiUser, newWebsite, startSoapAppWithFiles } from '../../../test/fixtures/soap.js';

let t: TestApp;
let base: string;
let admin: string;
let close: (() => Promise<void>) | undefined;
let png: string;
const api = new LegacyClient(() => base);
const { rpc, sessionOf, ok, fault, faultCodes, faultCode: code } = api;

const product = (body: Record<string, unknown> = {}) => createTestProduct(t, body);
const rest = async (url: string) => (await t.req('GET', `${API}${url}`, { token: admin })).body;
const image = (extra: Record<string, unknown> = {}) => ({ file: { content: png, mime: 'image/png', name: 'shot' }, ...extra });

before(async () => {
  ({ t, base, close } = await startSoapAppWithFiles('soap-options-'));
  admin = await t.tokens.admin();
  api.session = await sessionOf();
  png = await pngBase64('#ff0000');
});
after(() => close?.());
describe('product_custom_option and its values over JSON-RPC', () => {
  const field = {
    title: 'Engraving',
    type: 'field',
    is_require: 0,
    additional_fields: [{ price: '3.5', price_type: 'fixed', sku: 'eng', max_characters: 20 }],
  };
  const select = {
    title: 'Size',
    type: 'radio',
    additional_fields: [
      { title: 'S', price: 1 },
      { title: 'M <b>medium</b>', price: '2.25' },
    ],
  };

  test('types, add, list, info, update and remove', async () => {
    const types = await ok('catalog_product_custom_option.types', []);
    assert.equal(types.length, 10);
    assert.deepEqual(types[3], { label: 'Drop-down', value: 'drop_down' });
    const p = await product();
    assert.equal(await ok('product_custom_option.add', [p.sku, field]), true);
    assert.equal(await ok('product_custom_option.add', { productId: p.id, data: { ...select, sort_order: 2 }, store: 'default' }), true);
    const file = { title: 'Logo', type: 'file', additional_fields: [{ price: 0, file_extension: 'png, jpg', image_size_x: 100 }] };
    assert.equal(await ok('product_custom_option.add', [p.id, file]), true);
    const list = await ok('product_custom_option.list', [p.id]);
    assert.deepEqual(
      list.map((o: any) => [o.title, o.type, o.is_require, o.sort_order]),
      [
        ['Engraving', 'field', '0', '0'],
        ['Logo', 'file', '0', '0'],
        ['Size', 'radio', '0', '2'],
      ],
    );
    const [eng, logo, size] = list.map((o: any) => o.option_id);
    assert.deepEqual(await ok('product_custom_option.info', [eng]), {
      title: 'Engraving',
      type: 'field',
      is_require: '0',
      sort_order: '0',
      additional_fields: [{ price: '3.5000', price_type: 'fixed', sku: 'eng', max_characters: '20' }],
    });
    assert.deepEqual((await ok('product_custom_option.info', [logo])).additional_fields, [
      { price: '0.0000', price_type: 'fixed', sku: null, file_extension: 'png, jpg', image_size_x: '100', image_size_y: null },
    ]);
    const values = (await ok('product_custom_option.info', [size, 'default'])).additional_fields;
    assert.deepEqual(
      values.map((v: any) => [v.title, v.price]),
      [
        ['S', '1.0000'],
        ['M medium', '2.2500'],
      ],
    );
    // a row with value_id changes that value, one without adds a value; the values not sent stay
    const update = {
      title: 'Size',
      is_require: 1,
      additional_fields: [
        { value_id: values[0].value_id, price: '1.75' },
        { title: 'L', price: 3 },
      ],
    };
    assert.equal(await ok('product_custom_option.update', [size, update]), true);
    assert.deepEqual(
      (await ok('product_custom_option_value.list', [size])).map((v: any) => [v.title, v.price]),
      [
        ['S', '1.7500'],
        ['M medium', '2.2500'],
        ['L', '3.0000'],
      ],
    );
    assert.equal(await ok('product_custom_option.update', [eng, { type: 'area', additional_fields: [{ max_characters: 200 }] }]), true);
    assert.deepEqual(
      (await rest(`/products/${p.id}/custom-options`)).member.map((o: any) => [
        o.title,
        o.type,
        o.required,
        o.maxCharacters ?? null,
        o.price ?? null,
      ]),
      [
        ['Engraving', 'area', false, 200, 3.5],
        ['Logo', 'file', false, null, 0],
        ['Size', 'radio', true, null, null],
      ],
    );
    assert.equal(await ok('product_custom_option.remove', [logo]), true);
    assert.deepEqual(await fault('product_custom_option.info', [logo]), [105, 'Option with requested id does not exist.']);
  });

  test('option faults 101 to 106 change nothing', async () => {
    const p = await product();
    await ok('product_custom_option.add', [p.id, field]);
    const [opt] = await ok('product_custom_option.list', [p.id]);
    assert.deepEqual(await fault('product_custom_option.add', ['no-such-sku', field]), [101, 'Product with requested id does not exist.']);
    assert.deepEqual(await fault('product_custom_option.list', [999999999]), [101, 'Product with requested id does not exist.']);
    assert.deepEqual(await fault('product_custom_option.add', [p.id, { ...field, additional_fields: [] }]), [
      102,
      'Provided data is invalid.',
    ]);
    assert.deepEqual(await fault('product_custom_option.add', [p.id, 'x']), [102, 'Provided data is invalid.']);
    assert.deepEqual(await fault('product_custom_option.update', [opt.option_id, { additional_fields: 'x' }]), [
      102,
      'Provided data is invalid.',
    ]);
    const f = (extra: Record<string, unknown>) =>
      fault('product_custom_option.add', [p.id, { ...field, additional_fields: [{ ...field.additional_fields[0], ...extra }] }]);
    assert.deepEqual(await f({ price: 'free' }), [103, 'price must be a number.']);
    assert.deepEqual(await f({ price_type: 'half' }), [103, 'price_type must be fixed or percent.']);
    assert.equal((await f({ price: -1 }))[0], 103);
    assert.equal(
      (await fault('product_custom_option.add', [p.id, { ...select, additional_fields: [{ title: 'S' }, { title: 's' }] }]))[0],
      103,
    );
    assert.equal(
      (await fault('product_custom_option.update', [opt.option_id, { type: 'drop_down' }]))[0],
      103,
      'a select type needs values',
    );
    const g = await product({ type: 'grouped' });
    assert.equal((await fault('product_custom_option.add', [g.id, field]))[0], 103, 'a grouped product has no options');
    assert.deepEqual(await fault('product_custom_option.add', [p.id, field, 'nowhere']), [
      104,
      'Store with requested code/id does not exist.',
    ]);
    assert.deepEqual(await fault('product_custom_option.list', [p.id, 'nowhere']), [104, 'Store with requested code/id does not exist.']);
    for (const [m, args] of [
      ['info', [999999999]],
      ['update', [999999999, field]],
      ['remove', [999999999]],
      ['info', ['x']],
    ] as const) {
      assert.deepEqual(await fault(`product_custom_option.${m}`, args), [105, 'Option with requested id does not exist.'], m);
    }
    assert.deepEqual(await fault('product_custom_option.add', [p.id, { ...field, type: 'colour' }]), [
      106,
      "Invalid option type provided. Call 'types' to get list of allowed option types.",
    ]);
    assert.equal(await code('product_custom_option.update', [opt.option_id, { type: 'colour' }]), 106);
    assert.deepEqual((await ok('product_custom_option.list', [p.id])).length, 1, 'nothing refused was added');
    assert.equal((await ok('product_custom_option.info', [opt.option_id])).type, 'field');
  });

  test('values: list, info, add, update, remove; faults 101 to 109', async () => {
    const p = await product();
    await ok('product_custom_option.add', [p.id, select]);
    await ok('product_custom_option.add', [p.id, field]);
    const [size, text] = (await ok('product_custom_option.list', [p.id])).map((o: any) => o.option_id);
    const [s, m] = await ok('catalog_product_custom_option_value.list', [size]);
    assert.deepEqual(await ok('product_custom_option_value.info', [s.value_id, 'default']), {
      option_id: size,
      sku: null,
      sort_order: '0',
      default_title: 'S',
      store_title: null,
      title: 'S',
      default_price: '1.0000',
      default_price_type: 'fixed',
      store_price: null,
      store_price_type: null,
      price: '1.0000',
      price_type: 'fixed',
      value_id: s.value_id,
    });
    assert.equal(await ok('product_custom_option_value.add', [size, [{ title: 'XL', price: 4, sku: 'xl', sort_order: 9 }]]), true);
    assert.equal(await ok('product_custom_option_value.update', [m.value_id, { title: 'Medium', price_type: 'percent' }]), true);
    assert.equal(await ok('product_custom_option_value.remove', [s.value_id]), true);
    assert.deepEqual(
      (await ok('product_custom_option_value.list', [size])).map((v: any) => [v.title, v.price, v.price_type, v.sku]),
      [
        ['Medium', '2.2500', 'percent', null],
        ['XL', '4.0000', 'fixed', 'xl'],
      ],
    );
    const V = 'product_custom_option_value';
    assert.deepEqual(await fault(`${V}.info`, [s.value_id]), [101, 'Option value with requested id does not exist.']);
    assert.equal(await code(`${V}.update`, [s.value_id, { title: 'x' }]), 101);
    assert.equal(await code(`${V}.remove`, ['x']), 101);
    assert.equal(await code(`${V}.add`, [size, 'x']), 102);
    assert.equal(await code(`${V}.add`, [size, [{ title: 'Medium' }]]), 102, 'two values of an option share no title');
    assert.deepEqual(await fault(`${V}.list`, [999999999]), [103, 'Option with requested id does not exist.']);
    assert.equal(await code(`${V}.add`, [999999999, [{ title: 'x' }]]), 103);
    assert.deepEqual(await fault(`${V}.list`, [text]), [104, 'Invalid option type.']);
    assert.equal(await code(`${V}.add`, [text, [{ title: 'x' }]]), 104);
    assert.deepEqual(await fault(`${V}.list`, [size, 'nowhere']), [105, 'Store with requested code/id does not exist.']);
    assert.equal(await code(`${V}.info`, [m.value_id, 'nowhere']), 105);
    assert.equal(await code(`${V}.update`, [m.value_id, { title: 'Big', price: 'lots' }]), 107);
    assert.deepEqual(await fault(`${V}.update`, [m.value_id, { price: 1 }]), [108, 'Title field is required.']);
    assert.equal(await code(`${V}.update`, [m.value_id, { title: '<b></b>' }]), 108);
    const [xl] = (await ok(`${V}.list`, [size])).slice(1);
    assert.equal(await ok(`${V}.remove`, [xl.value_id]), true);
    assert.deepEqual(await fault(`${V}.remove`, [m.value_id]), [109, 'Option should have at least one value. Can not delete last value.']);
    assert.deepEqual(
      (await ok(`${V}.list`, [size])).map((v: any) => v.title),
      ['Medium'],
      'refused writes changed nothing',
    );
    // values added at once are all kept
    await Promise.all(['A', 'B', 'C', 'D'].map((title) => ok(`${V}.add`, [size, [{ title }]])));
    assert.equal((await ok(`${V}.list`, [size])).length, 5);
  });
});

describe('product_downloadable_link over JSON-RPC', () => {
  const pdf = Buffer.from('%PDF-1.4\n%test\n').toString('base64');

  test('add URL and file links with samples, list and remove', async () => {
    const p = await product({ type: 'downloadable' });
    const url = {
      title: 'Manual',
      price: '4.5',
      is_shareable: 1,
      number_of_downloads: 3,
      type: 'url',
      link_url: 'https://example.com/m.pdf',
      sort_order: 2,
    };
    assert.equal(
      await ok('catalog_product_downloadable_link.add', [
        p.id,
        { ...url, sample: { type: 'url', url: 'https://example.com/s.pdf' } },
        'link',
      ]),
      true,
    );
    const file = {
      title: 'Book',
      is_unlimited: 1,
      file: { name: 'book.pdf', base64_content: pdf },
      sample: { type: 'file', file: { name: 'peek.pdf', base64_content: pdf } },
    };
    assert.equal(
      await ok('product_downloadable_link.add', { productId: p.sku, resource: file, resourceType: 'link', identifierType: 'sku' }),
      true,
    );
    const { links, samples } = await ok('product_downloadable_link.list', [p.sku, 'default', 'sku']);
    assert.deepEqual(samples, []);
    const [book, manual] = links;
    assert.deepEqual(
      [
        manual.title,
        manual.price,
        manual.number_of_downloads,
        manual.is_shareable,
        manual.link_type,
        manual.link_url,
        manual.sample_type,
        manual.sample_url,
        manual.sort_order,
        manual.is_unlimited,
      ],
      ['Manual', '4.5000', '3', '1', 'url', 'https://example.com/m.pdf', 'url', 'https://example.com/s.pdf', '2', undefined],
    );
    assert.deepEqual(
      [
        book.title,
        book.price,
        book.number_of_downloads,
        book.is_shareable,
        book.link_type,
        book.link_url,
        book.sample_type,
        book.is_unlimited,
      ],
      ['Book', '0.0000', '0', '2', 'file', null, 'file', '1'],
    );
    const size = String(Buffer.from(pdf, 'base64').length);
    assert.deepEqual([book.file_save[0].size, book.file_save[0].status, book.sample_file_save[0].size], [size, 'old', size]);
    assert.equal(book.file_save[0].name, book.file_save[0].file.split('/').pop());
    assert.equal(await ok('product_downloadable_link.remove', [manual.link_id, 'link']), true);
    assert.deepEqual(
      (await rest(`/products/${p.id}/downloadable-links`)).member.map((l: any) => l.title),
      ['Book'],
    );
  });

  test('faults 100, 101, 408, 412, 414 and 415 change nothing', async () => {
    const p = await product({ type: 'downloadable' });
    const link = { title: 'L', type: 'url', link_url: 'https://example.com/l' };
    const add = (resource: unknown, type = 'link', ...rest: unknown[]) =>
      fault('product_downloadable_link.add', [p.id, resource, type, ...rest]);
    assert.deepEqual(await add(link, 'link', 'nowhere'), [100, 'Store with requested code/id does not exist.']);
    assert.deepEqual(await fault('product_downloadable_link.add', ['no-such-sku', link, 'link']), [
      101,
      'Product with requested id does not exist.',
    ]);
    assert.deepEqual(await fault('product_downloadable_link.list', [(await product()).id]), [
      408,
      'Incorrect product type. Downloadable content, can be added only to "downloadable" products.',
    ]);
    assert.deepEqual(await fault('product_downloadable_link.remove', [999999999, 'link']), [
      412,
      'Link or sample with specified ID was not found.',
    ]);
    assert.equal(await code('product_downloadable_link.remove', [1, 'sample']), 412);
    assert.equal((await add({ title: 'S', type: 'url', sample_url: 'https://example.com/s' }, 'sample'))[0], 414);
    assert.deepEqual(await add(link, 'links'), [415, 'Incorrect content type only "link", "link_samples" and "sample" allowed.']);
    assert.deepEqual(await add({ ...link, title: '' }), [415, 'Title cannot be empty.']);
    assert.deepEqual(await add({ ...link, link_url: '' }), [415, 'URL cannot be empty.']);
    assert.deepEqual(await add({ title: 'F', file: { base64_content: 'eA==' } }), [
      415,
      'Filename was omitted, or contains unallowed characters.',
    ]);
    const noContent = [415, 'File content should be passed as base64 string. For details, please see http://en.wikipedia.org/wiki/Base64'];
    assert.deepEqual(await add({ title: 'F', file: { name: 'f.pdf' } }), noContent);
    assert.deepEqual(await add({ title: 'F', file: { name: 'f.pdf', base64_content: '@@@' } }), noContent);
    assert.equal((await add({ ...link, link_url: 'ftp://example.com/x' }))[0], 415);
    assert.equal((await add({ ...link, price: 'free' }))[0], 415);
    assert.equal((await add({ ...link, sample: { type: 'url' } }))[0], 415);
    assert.equal((await add('x'))[0], 415);
    assert.equal(await code('product_downloadable_link.remove', [1, 'links']), 415);
    assert.deepEqual((await ok('product_downloadable_link.list', [p.id])).links, [], 'refused adds added nothing');
  });
});

describe('permissions, store-limited users and statements', () => {
  test('a reader reads and writes nothing; a role without products gets fault 2', async () => {
    const p = await product();
    const reader = await newApiUser(t, ['products/read']);
    const s = await sessionOf(reader);
    assert.deepEqual(await ok('product_media.list', [p.id], s), []);
    assert.deepEqual(await ok('product_tier_price.info', [p.id], s), []);
    assert.deepEqual(await ok('product_link.list', ['related', p.id], s), []);
    assert.deepEqual(await ok('product_custom_option.list', [p.id], s), []);
    for (const [m, args] of [
      ['product_media.create', [p.id, image()]],
      ['product_media.update', [p.id, '/a/b/c.webp', {}]],
      ['product_media.remove', [p.id, '/a/b/c.webp']],
      ['product_tier_price.update', [p.id, []]],
      ['product_link.assign', ['related', p.id, 1]],
      ['product_link.update', ['related', p.id, 1]],
      ['product_link.remove', ['related', p.id, 1]],
      ['product_custom_option.add', [p.id, {}]],
      ['product_custom_option.update', [1, {}]],
      ['product_custom_option.remove', [1]],
      ['product_custom_option_value.add', [1, []]],
      ['product_custom_option_value.update', [1, {}]],
      ['product_custom_option_value.remove', [1]],
      ['product_downloadable_link.add', [p.id, {}, 'link']],
      ['product_downloadable_link.remove', [1, 'link']],
    ] as const) {
      assert.deepEqual(await fault(m, args, s), [2, 'Access denied.'], m);
    }
    const none = await newApiUser(t, ['customers/read']);
    const n = await sessionOf(none);
    for (const m of [
      'product_media.list',
      'product_media.types',
      'product_tier_price.info',
      'product_link.types',
      'product_custom_option.types',
    ]) {
      assert.deepEqual(await fault(m, [p.id], n), [2, 'Access denied.'], m);
    }
    const names = (await rpc('resources', [s])).result.map((r: any) => [r.name, r.aliases]);
    for (const expected of [
      ['catalog_product_attribute_media', ['product_attribute_media', 'product_media']],
      ['catalog_product_attribute_tier_price', ['product_attribute_tier_price', 'product_tier_price']],
      ['catalog_product_link', ['product_link']],
      ['catalog_product_custom_option', ['product_custom_option']],
      ['catalog_product_custom_option_value', ['product_custom_option_value']],
      ['catalog_product_downloadable_link', ['product_downloadable_link']],
    ]) {
      assert.ok(
        names.some((x: any) => JSON.stringify(x) === JSON.stringify(expected)),
        JSON.stringify(expected),
      );
    }
    assert.deepEqual(await faultCodes('product_media'), ['100', '101', '102', '103', '104', '105', '106', '107']);
    assert.deepEqual(await faultCodes('product_custom_option_value'), ['101', '102', '103', '104', '105', '106', '107', '108', '109']);
    assert.equal((await faultCodes('product_downloadable_link')).length, 18);
  });

  test("a store-limited API user reaches its website's products and store views only", async () => {
    const second = await newWebsite(t, 'partsweb');
    const [mine, other] = [await product({ websiteIds: [second.websiteId] }), await product({ websiteIds: [1] })];
    const s = await sessionOf(await newApiUser(t, ['products/all'], [second.storeId]), { 'x-store-code': 'partsweb' });
    assert.ok(await ok('product_media.create', [mine.id, image(), 'partsweb'], s));
    assert.deepEqual(await fault('product_media.list', [mine.id, 'default'], s), [100, 'Requested store view not found.']);
    assert.deepEqual(await fault('product_media.create', [other.id, image()], s), [101, 'Product not exists.']);
    assert.deepEqual(await fault('product_tier_price.update', [other.id, []], s), [100, 'Product not exists.']);
    assert.deepEqual(await fault('product_link.assign', ['related', other.id, mine.id], s), [101, 'Product not exists.']);
    assert.equal(await ok('product_link.assign', ['related', mine.id, other.id], s), true);
    assert.equal(
      await code('product_custom_option.add', [other.id, { title: 'x', type: 'field', additional_fields: [{ price: 1 }] }], s),
      101,
    );
    await ok('product_custom_option.add', [other.id, { title: 'x', type: 'field', additional_fields: [{ price: 1 }] }]);
    const [opt] = await ok('product_custom_option.list', [other.id]);
    assert.equal(await code('product_custom_option.info', [opt.option_id], s), 101);
    assert.equal(await code('product_custom_option.remove', [opt.option_id], s), 101);
    assert.deepEqual(await ok('product_tier_price.info', [other.id]), [], 'nothing of the other website changed');
    assert.equal((await ok('product_media.list', [other.id])).length, 0);
  });
});
