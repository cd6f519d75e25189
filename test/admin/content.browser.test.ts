/**
 * The content screens in Chromium: the media library (upload), a CMS page written in the rich-text editor with
 * formatted text and an image of the media library and read back through the storefront API, a block edited (and
 * the warning before leaving unsaved changes), a blog category and post created, a revocation declaration
 * processed; axe-core on every screen of the area.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { API } from '../helpers.js';
import { assertAccessible, browserSkip, signIn, startBackOffice, type BackOffice } from '../fixtures/browser.js';
import { placeTestOrder } from '../fixtures/checkout.js';

describe('the content screens in Chromium', { skip: browserSkip }, () => {
  let bo: BackOffice;
  let page: Page;
  let admin: string;
  let imageName: string;
  const tag = Date.now().toString(36);

  before(async () => {
    bo = await startBackOffice();
    admin = await bo.t.tokens.admin();
    page = await bo.page();
    await signIn(page, bo.base);
  });
  after(() => bo?.close());

  const menu = (name: string) => page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name, exact: true }).click();
  const heading = (name: string) => page.getByRole('heading', { name, level: 1 }).waitFor();
  /** whether the focus is in the rich-text editor's text, right now */
  const inEditor = () => page.evaluate(() => document.activeElement?.closest('[contenteditable="true"]') != null);

  test('the media library uploads an image into a new folder and shows it', async () => {
    await menu('Media library');
    await heading('Media library');
    await assertAccessible(page, 'media library');
    const png = await sharp({ create: { width: 60, height: 40, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    await page.getByLabel('Image file').setInputFiles({ name: `Blue ${tag}.png`, mimeType: 'image/png', buffer: png });
    await page.getByLabel('Into a new folder (optional)').fill(`pages-${tag}`);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    imageName = `blue_${tag}.webp`;
    await page
      .getByRole('status')
      .filter({ hasText: `${imageName} uploaded.` })
      .waitFor();
    // the folder it went into is shown, with the image
    await page.getByRole('list', { name: 'Images' }).getByText(imageName).waitFor();
    const crumbs = page.getByRole('navigation', { name: 'Folders' });
    assert.equal(await crumbs.locator('[aria-current="location"]').textContent(), `pages-${tag}`);
    await crumbs.getByRole('button', { name: 'Media' }).click();
    await page
      .getByRole('list', { name: 'Folders' })
      .getByRole('button', { name: `pages-${tag}` })
      .waitFor();
    await assertAccessible(page, 'media library with a folder');
  });

  test('a CMS page with formatted text and an image from the media library reads back through the storefront API', async () => {
    await menu('Pages');
    await heading('CMS pages');
    await page.getByRole('table', { name: 'CMS pages' }).getByRole('row').nth(1).waitFor();
    await assertAccessible(page, 'CMS pages grid');
    await page.getByRole('link', { name: 'New page' }).click();
    await heading('New page');
    await page.getByLabel('Title', { exact: true }).fill(`Shipping ${tag}`);
    await page.getByLabel('URL key', { exact: true }).fill(`shipping-${tag}`);
    const editor = page.getByRole('textbox', { name: 'Content', exact: true });
    await editor.click();
    await page.keyboard.type('We ship ');
    // a click on the toolbar leaves the focus in the text, so typing can go on at once
    const bold = async (pressed: boolean) => {
      await page.getByRole('button', { name: 'Bold', exact: true }).click();
      assert.ok(await inEditor(), 'the focus stays in the text');
      await page.locator(`button[title="Bold"][aria-pressed="${pressed}"]`).waitFor();
    };
    await bold(true);
    await page.keyboard.type('every day');
    await bold(false);
    await page.keyboard.type('.');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Insert image' }).click();
    const dialog = page.getByRole('dialog', { name: 'Choose an image' });
    await dialog.getByLabel('Alternative text (what the image shows)').fill('A blue square');
    await dialog.getByRole('button', { name: `pages-${tag}` }).click();
    await assertAccessible(page, 'media picker');
    await dialog.getByRole('button', { name: `Choose ${imageName}` }).click();
    await dialog.waitFor({ state: 'detached' });
    await editor.locator('img[alt="A blue square"]').waitFor();
    await assertAccessible(page, 'new CMS page form');
    await page.getByRole('button', { name: 'Save' }).click();
    await heading(`Page: Shipping ${tag}`);
    assert.match(page.url(), /\/admin\/cms-pages\/\d+$/);

    // stored with the media directive, as Maho stores it
    const id = Number(page.url().split('/').pop());
    const stored = await bo.t.req('GET', `${API}/cms-pages/${id}`, { token: admin });
    assert.equal(stored.status, 200, stored.text);
    assert.match(stored.body.content, /<strong>every day<\/strong>/);
    assert.ok(stored.body.content.includes(`src="{{media url="wysiwyg/pages-${tag}/${imageName}"}}"`), stored.body.content);
    // the storefront gets the directive rendered to the store's media address
    const shown = await bo.t.req('GET', `${API}/cms-pages`, {
      query: { identifier: `shipping-${tag}` },
      headers: { accept: 'application/json' },
    });
    assert.equal(shown.status, 200, shown.text);
    assert.equal(shown.body.length, 1);
    const html: string = shown.body[0].content;
    assert.match(html, /<p>We ship <strong>every day<\/strong>\.<\/p>/);
    assert.match(html, new RegExp(`<img src="http://shop\\.test/media/wysiwyg/pages-${tag}/${imageName}" alt="A blue square">`));
    // the image is served
    const served = await fetch(`${bo.origin}/media/wysiwyg/pages-${tag}/${imageName}`);
    assert.equal(served.status, 200);
    // and shown in the editor when the page is opened again
    await page.reload();
    await page
      .getByRole('textbox', { name: 'Content', exact: true })
      .locator(`img[src="/media/wysiwyg/pages-${tag}/${imageName}"]`)
      .waitFor();
    await assertAccessible(page, 'CMS page form');
  });

  test('a block is edited in the editor; leaving with unsaved changes asks first', async () => {
    const created = await bo.t.req('POST', `${API}/cms-blocks`, {
      token: admin,
      body: { identifier: `promo-${tag}`, title: `Promo ${tag}`, content: '<p>Old offer</p>' },
    });
    assert.equal(created.status, 201, created.text);
    await menu('Blocks');
    await heading('CMS blocks');
    await page.getByRole('searchbox', { name: 'Search' }).fill(`Promo ${tag}`);
    await page.getByText('1 record', { exact: true }).waitFor();
    await assertAccessible(page, 'CMS blocks grid');
    await page.getByRole('link', { name: `Promo ${tag}` }).click();
    await heading(`Block: Promo ${tag}`);
    await assertAccessible(page, 'CMS block form');
    const editor = page.getByRole('textbox', { name: 'Content', exact: true });
    await editor.getByText('Old offer').click();
    await page.keyboard.press('End');
    await page.keyboard.type(', now 20% off');
    await page.getByLabel('Title', { exact: true }).fill(`Promo ${tag} spring`);

    // the way back is held while the changes are unsaved
    const asked = new Promise<string>((resolve) =>
      page.once('dialog', (d) => {
        resolve(d.message());
        void d.dismiss();
      }),
    );
    await page.getByRole('link', { name: 'Back', exact: true }).click();
    assert.match(await asked, /unsaved changes/);
    await heading(`Block: Promo ${tag}`);

    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const read = await bo.t.req('GET', `${API}/cms-blocks/${created.body.id}`, { token: admin });
    assert.equal(read.body.title, `Promo ${tag} spring`);
    assert.equal(read.body.content, '<p>Old offer, now 20% off</p>');
    // saved: leaving asks nothing
    await page.getByRole('link', { name: 'Back', exact: true }).click();
    await heading('CMS blocks');
  });

  test('a blog category and a post in it are created', async () => {
    await menu('Blog categories');
    await heading('Blog categories');
    await assertAccessible(page, 'blog categories grid');
    await page.getByRole('link', { name: 'New category' }).click();
    await heading('New category');
    await page.getByLabel('Name', { exact: true }).fill(`Guides ${tag}`);
    await assertAccessible(page, 'new blog category form');
    await page.getByRole('button', { name: 'Save' }).click();
    await heading(`Category: Guides ${tag}`);
    await assertAccessible(page, 'blog category form');

    await menu('Blog posts');
    await heading('Blog posts');
    await assertAccessible(page, 'blog posts grid');
    await page.getByRole('link', { name: 'New post' }).click();
    await heading('New post');
    await page.getByLabel('Title', { exact: true }).fill(`How to choose ${tag}`);
    await page.getByLabel('Publish date (UTC)').fill('2024-05-01T09:30');
    await page.getByRole('checkbox', { name: `Guides ${tag}` }).check();
    await page.getByRole('textbox', { name: 'Content', exact: true }).click();
    await page.getByRole('button', { name: 'Heading', exact: true }).click();
    assert.ok(await inEditor(), 'the focus stays in the text');
    await page.keyboard.type('Sizes');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Measure twice.');
    await page.getByRole('button', { name: 'Choose image' }).click();
    const dialog = page.getByRole('dialog', { name: 'Choose an image' });
    await dialog.getByRole('button', { name: `pages-${tag}` }).click();
    await dialog.getByRole('button', { name: `Choose ${imageName}` }).click();
    await page.getByRole('img', { name: "The post's image" }).waitFor();
    await assertAccessible(page, 'new blog post form');
    await page.getByRole('button', { name: 'Save' }).click();
    await heading(`Post: How to choose ${tag}`);
    await assertAccessible(page, 'blog post form');

    const posts = await bo.t.req('GET', `${API}/blog-posts`, {
      query: { urlKey: `how-to-choose-${tag}` },
      headers: { accept: 'application/json' },
    });
    assert.equal(posts.status, 200, posts.text);
    assert.equal(posts.body.length, 1, 'published: public');
    const post = posts.body[0];
    assert.equal(post.publishDate, '2024-05-01 09:30:00');
    assert.equal(post.content, '<h2>Sizes</h2><p>Measure twice.</p>');
    assert.equal(post.image, `wysiwyg/pages-${tag}/${imageName}`);
    const cats = await bo.t.req('GET', `${API}/blog-categories`, {
      token: admin,
      query: { search: `Guides ${tag}` },
      headers: { accept: 'application/json' },
    });
    assert.deepEqual(post.categoryIds, [cats.body[0].id]);
  });

  test('a revocation declaration is found in the grid and accepted on its page', async () => {
    const email = `revoke-${tag}@example.com`;
    const c = await bo.t.req('POST', `${API}/customers`, {
      body: { email, password: 'Secret123', firstname: 'Rhea', lastname: `Browser${tag}` },
    });
    assert.equal(c.status, 201, c.text);
    const token = await bo.t.tokens.customer(email, 'Secret123');
    const order = await placeTestOrder(bo.t, { customerToken: token });
    const declared = await bo.t.req('POST', `${API}/customers/me/revocation-requests`, {
      token,
      body: { orderId: order.id, reason: 'Too small' },
    });
    assert.equal(declared.status, 201, declared.text);

    await menu('Revocation requests');
    await heading('Revocation requests');
    await page.getByRole('searchbox', { name: 'Search' }).fill(`Browser${tag}`);
    await page.getByText('1 record', { exact: true }).waitFor();
    await assertAccessible(page, 'revocation requests grid');
    await page.getByRole('link', { name: order.incrementId }).click();
    await heading(`Revocation of order ${order.incrementId}`);
    await page.getByText('Too small').waitFor();
    await assertAccessible(page, 'revocation request page');
    await page.getByLabel('Processing status').selectOption('accepted');
    await page.getByLabel('Staff note (not shown to the customer)').fill('Label sent');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const read = await bo.t.req('GET', `${API}/revocation-requests/${declared.body.id}`, { token: admin });
    assert.equal(read.body.processedStatus, 'accepted');
    assert.equal(read.body.adminNote, 'Label sent');
    assert.ok(read.body.processedAt);
  });
});
