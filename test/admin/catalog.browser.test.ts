/**
 * The catalog screens in Chromium: the products grid and a product's page (a price and a name changed in the German
 * store view and read back from the storefront API with X-Store-Code, images uploaded and reordered), a new product,
 * the category tree (a category moved by drag and drop and by its keyboard "Move" control, checked over the API),
 * attributes and attribute sets, and reviews approved in bulk; axe-core on every catalog screen.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { API } from '../helpers.js';
import { createTestProduct } from '../fixtures/catalog.js';
import { assertAccessible, browserSkip, signIn, startBackOffice, type BackOffice } from '../fixtures/browser.js';

describe('the catalog in the back office', { skip: browserSkip }, () => {
  let bo: BackOffice;
  let page: Page;
  let admin: string;
  before(async () => {
    bo = await startBackOffice();
    admin = await bo.t.tokens.admin();
    page = await bo.page();
    await signIn(page, bo.base);
  });
  after(() => bo?.close());

  const api = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
    const r = await bo.t.req(method, `${API}${path}`, { token: admin, body, headers });
    assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${r.text}`);
    return r.body;
  };
  const menu = (name: string) => page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name, exact: true }).click();
  const tab = async (name: string, screen: string) => {
    await page.getByRole('tab', { name }).click();
    await page.getByRole('tabpanel', { name }).waitFor();
    await assertAccessible(page, screen);
  };

  test('a price and a name changed in one store view show on the storefront API in that store view', async () => {
    const p = await createTestProduct(bo.t, { name: 'Browser Lamp', price: 20, stockData: { qty: 5, isInStock: true } });
    await menu('Products');
    await page.getByRole('heading', { name: 'Products', level: 1 }).waitFor();
    await page.getByRole('table', { name: 'Products' }).getByRole('row').nth(1).waitFor();
    await assertAccessible(page, 'products grid');
    await page.getByRole('searchbox', { name: 'Search' }).fill(p.sku);
    await page.getByText('1 record', { exact: true }).waitFor();
    await page.getByRole('table', { name: 'Products' }).getByRole('link', { name: 'Browser Lamp' }).click();
    await page.getByRole('heading', { name: 'Browser Lamp', level: 1 }).waitFor();
    await page.getByLabel('Price', { exact: true }).waitFor();
    await assertAccessible(page, 'product page, general');

    await page.getByLabel('Store view', { exact: true }).selectOption({ label: 'German Store View' });
    await page.getByText('You are editing the values of this store view').waitFor();
    await page.getByRole('checkbox', { name: 'Use default value for Name' }).uncheck();
    await page.getByLabel('Name', { exact: true }).fill('Browser Lampe');
    await page.getByLabel('Price', { exact: true }).fill('42.50');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await assertAccessible(page, 'product page in a store view');

    // the storefront, in the German store view (prices asked in dollars) and in the default one
    const german = await bo.t.req('GET', `${API}/products/${p.id}`, { headers: { 'x-store-code': 'german', 'x-currency-code': 'USD' } });
    assert.equal(german.status, 200, german.text);
    assert.equal(german.body.price, 42.5);
    assert.equal(german.body.name, 'Browser Lampe');
    const main = await bo.t.req('GET', `${API}/products/${p.id}`, { headers: { 'x-store-code': 'default' } });
    assert.equal(main.body.name, 'Browser Lamp', 'the default store view keeps its name');
    assert.equal(main.body.price, 42.5, 'the price is shared by every store view');

    // back to the default value in the German store view
    await page.getByRole('checkbox', { name: 'Use default value for Name' }).check();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const again = await bo.t.req('GET', `${API}/products/${p.id}`, { headers: { 'x-store-code': 'german' } });
    assert.equal(again.body.name, 'Browser Lamp');

    // the other sections of the page
    await tab('Advanced prices', 'product page, advanced prices');
    await tab('Stock', 'product page, stock');
    await tab('Categories', 'product page, categories');
    await tab('Custom options', 'product page, custom options');
    await tab('Related products', 'product page, related products');

    // images: two uploaded, the second moved first by keyboard, roles kept on the first upload
    await page.getByRole('tab', { name: 'Images' }).click();
    const png = (color: string) =>
      sharp({ create: { width: 40, height: 40, channels: 3, background: color } })
        .png()
        .toBuffer();
    await page.getByLabel('Upload images').setInputFiles([
      { name: 'red.png', mimeType: 'image/png', buffer: await png('#ff0000') },
      { name: 'blue.png', mimeType: 'image/png', buffer: await png('#0000ff') },
    ]);
    await page.getByText('Images uploaded.').waitFor();
    await page.getByRole('list', { name: 'Image order' }).getByRole('listitem').nth(1).waitFor();
    await assertAccessible(page, 'product page, images');
    const gallery = async () => (await api('GET', `/products/${p.id}/media`)).member as { id: number; file: string; types: string[] }[];
    const [first, second] = await gallery();
    assert.deepEqual(first.types.sort(), ['image', 'small_image', 'thumbnail']);
    await page.getByRole('button', { name: /^Move .*blue.* up$/ }).click();
    await page.getByText('Image order saved.').waitFor();
    assert.deepEqual(
      (await gallery()).map((m) => m.id),
      [second.id, first.id],
    );
    // the thumbnail role dragged onto the blue image
    const items = page.getByRole('list', { name: 'Image order' }).getByRole('listitem');
    await items.first().dragTo(page.locator('.role-slot').filter({ hasText: 'Thumbnail' }));
    await page.getByText('Thumbnail saved.').waitFor();
    const roles = await gallery();
    assert.deepEqual(roles.find((m) => m.id === second.id)?.types, ['thumbnail']);
  });

  test("each product type's own tab: variants, bundle options, grouped products (one added), downloadable links", async () => {
    const colors = (await api('GET', '/product-attributes?search=color')).member.find(
      (a: { attributeCode: string }) => a.attributeCode === 'color',
    );
    const child = await createTestProduct(bo.t, { name: 'Lamp Shade Red', customAttributesWrite: { color: colors.options[2].value } });
    const configurable = await createTestProduct(bo.t, { name: 'Lamp Shade', type: 'configurable' });
    await api('PUT', `/products/${configurable.id}/configurable`, { superAttributes: ['color'], childProductIds: [child.id] });
    const bundle = await createTestProduct(bo.t, { name: 'Lamp Kit', type: 'bundle' });
    await api('POST', `/products/${bundle.id}/bundle-options`, { title: 'Shade', type: 'select', selections: [{ productId: child.id }] });
    const grouped = await createTestProduct(bo.t, { name: 'Lamp Set', type: 'grouped' });
    const downloadable = await createTestProduct(bo.t, { name: 'Lamp Manual', type: 'downloadable' });
    await api('POST', `/products/${downloadable.id}/downloadable-links`, {
      title: 'Manual PDF',
      linkType: 'url',
      linkUrl: 'https://example.com/manual.pdf',
    });

    const open = async (id: number, name: string, tabName: string) => {
      await page.goto(`${bo.base}/products/${id}`);
      await page.getByRole('heading', { name, level: 1 }).waitFor();
      await page.getByRole('tab', { name: tabName }).click();
      await page.getByRole('tabpanel', { name: tabName }).waitFor();
    };
    await open(configurable.id, 'Lamp Shade', 'Variants');
    await page.getByRole('cell', { name: 'Red', exact: true }).waitFor();
    await assertAccessible(page, 'configurable product, variants');
    await open(bundle.id, 'Lamp Kit', 'Bundle items');
    await page.getByText('Lamp Shade Red').first().waitFor();
    await assertAccessible(page, 'bundle product, options');
    await open(downloadable.id, 'Lamp Manual', 'Downloadable links');
    await page.getByText('Manual PDF').waitFor();
    await assertAccessible(page, 'downloadable product, links');
    await open(grouped.id, 'Lamp Set', 'Grouped products');
    await page.getByLabel('Add a product to the group').fill(child.sku);
    await page.getByLabel('Add a product to the group').press('Enter');
    await page.getByRole('button', { name: 'Add Lamp Shade Red' }).click();
    await assertAccessible(page, 'grouped product, products');
    await page.getByRole('button', { name: 'Save grouped products' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const members = (await api('GET', `/products/${grouped.id}/grouped`)).member as { childProductId: number }[];
    assert.deepEqual(
      members.map((m) => m.childProductId),
      [child.id],
    );
  });

  test('a new product is created from the grid', async () => {
    await menu('Products');
    await page.getByRole('link', { name: 'Add product' }).click();
    await page.getByRole('heading', { name: 'New product', level: 1 }).waitFor();
    await assertAccessible(page, 'new product');
    await page.getByLabel('Type').selectOption('virtual');
    await page.getByLabel('SKU').fill('browser-virtual-1');
    await page.getByLabel('Name').fill('Browser Voucher');
    await page.getByLabel('Price').fill('15');
    await page.getByRole('button', { name: 'Create product' }).click();
    await page.getByRole('heading', { name: 'Browser Voucher', level: 1 }).waitFor();
    const found = await api('GET', '/products?sku=browser-virtual-1');
    assert.equal(found.member[0].type, 'virtual');
    assert.equal(found.member[0].price, 15);
  });

  test('a category moves by drag and drop and by its Move control; the tree over the API follows', async () => {
    const a = await api('POST', '/categories', { name: 'Browser Shelf', parentId: 2 });
    const b = await api('POST', '/categories', { name: 'Browser Box', parentId: 2 });
    await menu('Categories');
    await page.getByRole('heading', { name: 'Categories', level: 1 }).waitFor();
    const tree = page.getByRole('navigation', { name: 'Category tree' });
    await tree.getByRole('link', { name: 'Browser Box' }).waitFor();
    await assertAccessible(page, 'category tree');

    const row = (name: string) => tree.locator('.cat-row').filter({ has: page.getByRole('link', { name, exact: true }) });
    const target = row('Browser Shelf');
    const box = (await target.boundingBox())!;
    await row('Browser Box').dragTo(target, { targetPosition: { x: 20, y: box.height * 0.8 } });
    await page.getByText('Browser Box moved into Browser Shelf').waitFor();
    const moved = (await api('GET', '/categories/tree')).member.find((c: { id: number }) => c.id === b.id);
    assert.equal(moved.parentId, a.id);

    // by keyboard: back under the default category, before the shelf
    await tree.getByRole('button', { name: 'Move Browser Box' }).click();
    const form = page.getByRole('form', { name: 'Move Browser Box' });
    await form.getByLabel('New parent').selectOption({ label: 'Default Category' });
    await form.getByLabel('Place').selectOption({ label: 'Before Browser Shelf' });
    await assertAccessible(page, 'category tree, move control');
    await form.getByRole('button', { name: 'Move', exact: true }).press('Enter');
    await page.getByText('Browser Box moved into Default Category').waitFor();
    const list = (await api('GET', '/categories/tree')).member as { id: number; parentId: number; position: number }[];
    const [boxNow, shelfNow] = [list.find((c) => c.id === b.id)!, list.find((c) => c.id === a.id)!];
    assert.equal(boxNow.parentId, 2);
    assert.ok(boxNow.position < shelfNow.position, 'placed before the shelf');

    await tree.getByRole('link', { name: 'Browser Shelf' }).click();
    await page.getByRole('heading', { name: 'Browser Shelf', level: 1 }).waitFor();
    await assertAccessible(page, 'category page');
    await page.getByLabel('Store view', { exact: true }).selectOption({ label: 'German Store View' });
    await page.getByRole('checkbox', { name: 'Use default value for Name' }).uncheck();
    await page.getByLabel('Name', { exact: true }).fill('Browser Regal');
    await page.getByRole('button', { name: 'Save category' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const german = await bo.t.req('GET', `${API}/categories/${a.id}`, { headers: { 'x-store-code': 'german' } });
    assert.equal(german.body.name, 'Browser Regal');
  });

  test('attributes and attribute sets: grids and pages, an option added to a select attribute', async () => {
    await menu('Attributes');
    await page.getByRole('heading', { name: 'Attributes', level: 1 }).waitFor();
    await page.getByRole('table', { name: 'Attributes' }).getByRole('row').nth(1).waitFor();
    await assertAccessible(page, 'attributes grid');
    await page.getByRole('searchbox', { name: 'Search' }).fill('manufacturer');
    await page.getByText('3 records', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'manufacturer', exact: true }).click();
    await page.getByRole('heading', { name: 'Attribute manufacturer', level: 1 }).waitFor();
    await assertAccessible(page, 'attribute page');
    await page.getByLabel('New option').fill('Tailspin');
    await page.getByRole('button', { name: 'Add option' }).click();
    await page.getByRole('button', { name: 'Save attribute' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const attrs = await api('GET', '/product-attributes?search=manufacturer');
    assert.ok(attrs.member[0].options.some((o: { label: string }) => o.label === 'Tailspin'));

    await menu('Attribute sets');
    await page.getByRole('heading', { name: 'Attribute sets', level: 1 }).waitFor();
    await page.getByRole('table', { name: 'Attribute sets' }).getByRole('row').nth(1).waitFor();
    await assertAccessible(page, 'attribute sets grid');
    await page.getByRole('link', { name: 'Clothing', exact: true }).click();
    await page.getByRole('heading', { name: 'Clothing', level: 1 }).waitFor();
    await assertAccessible(page, 'attribute set page');
  });

  test('reviews are approved in bulk from the grid', async () => {
    const p = await createTestProduct(bo.t, { name: 'Reviewed Lamp' });
    const ids: number[] = [];
    for (const title of ['Bright and warm', 'Sturdy base']) {
      ids.push((await api('POST', `/products/${p.id}/reviews`, { title, detail: 'Good lamp', nickname: 'tester', rating: 5 })).id);
    }
    await menu('Reviews');
    await page.getByRole('heading', { name: 'Reviews', level: 1 }).waitFor();
    await page.getByRole('group', { name: 'Filters' }).getByLabel('Status').selectOption('pending');
    const grid = page.getByRole('table', { name: 'Reviews' });
    await grid.getByRole('link', { name: 'Sturdy base' }).waitFor();
    await assertAccessible(page, 'reviews grid');
    for (const id of ids) await grid.getByRole('checkbox', { name: `Select row ${id}` }).check();
    await page.getByRole('group', { name: 'Actions on the selected rows' }).getByRole('button', { name: 'Approve' }).click();
    await grid.getByRole('link', { name: 'Sturdy base' }).waitFor({ state: 'detached' });
    for (const id of ids) assert.equal((await api('GET', `/reviews/${id}`)).status, 'approved');

    await page.getByRole('group', { name: 'Filters' }).getByLabel('Status').selectOption('approved');
    await grid.getByRole('link', { name: 'Sturdy base' }).click();
    await page.getByRole('heading', { name: 'Sturdy base', level: 1 }).waitFor();
    await assertAccessible(page, 'review page');
  });
});
