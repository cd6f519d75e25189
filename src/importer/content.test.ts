/**
 * Import of content and promotions from a generated Maho shop: CMS, sales rules and coupons, newsletter,
 * reviews, wishlists, gift cards, blog and revocation requests, read back over REST; a second run changes
 * nothing. Products are written straight into the target (the catalog import is tested on its own).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { API, buildTestApp, type TestApp } from '../../test/helpers.js';
import { rows } from '../platform/db.js';
import { convertConditions } from './entities/content-promotions.js';
import { phpUnserialize } from './entities/content-shared.js';
import { buyRequestOf } from './entities/content-wishlists.js';
import { createSourceDatabase, type SourceDatabase } from '../../test/fixtures/importer/database.js';
import { generateShop, type GeneratedShop } from '../../test/fixtures/importer/generate.js';
import { phpSerialize } from '../../test/fixtures/importer/support.js';
import type { Group } from './context.js';
import type { Report } from './report.js';
import { importMagento } from './run.js';

const MINE = [
  'cms pages',
  'cms blocks',
  'sales rules',
  'coupons',
  'coupon usages',
  'newsletter subscribers',
  'ratings',
  'reviews',
  'review votes',
  'wishlist items',
  'gift cards',
  'gift card history',
  'blog categories',
  'blog posts',
  'revocation requests',
];
const ONLY: Group[] = [
  'stores',
  'customers',
  'content',
  'promotions',
  'newsletter',
  'reviews',
  'wishlists',
  'giftcards',
  'blog',
  'revocation',
];

let src: SourceDatabase;
let shop: GeneratedShop;
let t: TestApp;
let admin: string;
let first: Report;
let second: Report;

async function q<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  const [r] = await src.pool.query(text, params);
  return r as T[];
}

async function target<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return rows<T>(t.database.db, query);
}

async function list(path: string, query: Record<string, string> = {}): Promise<{ total: number; items: any[] }> {
  const r = await t.req('GET', `${API}${path}`, { token: admin, query: { itemsPerPage: '100', ...query } });
  assert.equal(r.status, 200, r.text);
  return { total: r.body.totalItems, items: r.body.member };
}

function stats(report: Report, entity: string) {
  const e = report.entities.find((x) => x.entity === entity);
  assert.ok(e, `no ${entity} in the report`);
  return e;
}

function reasons(report: Report, entity: string): Record<string, number> {
  return Object.fromEntries([...stats(report, entity).skips].map(([k, v]) => [k, v.count]));
}

/** Rows the generator does not write: usage tables, edge cases, Maho-style JSON conditions, a buy request. */
async function addSourceRows(): Promise<void> {
  await src.pool.query(`CREATE TABLE IF NOT EXISTS salesrule_coupon_usage (
    coupon_id int unsigned NOT NULL, customer_id int unsigned NOT NULL, times_used int unsigned NOT NULL DEFAULT 0, PRIMARY KEY (coupon_id, customer_id))`);
  await src.pool.query(`CREATE TABLE IF NOT EXISTS salesrule_customer (
    rule_customer_id int unsigned NOT NULL AUTO_INCREMENT, rule_id int unsigned NOT NULL DEFAULT 0, customer_id int unsigned NOT NULL DEFAULT 0,
    times_used smallint unsigned NOT NULL DEFAULT 0, PRIMARY KEY (rule_customer_id))`);
  await src.pool.query(`CREATE TABLE IF NOT EXISTS wishlist_item_option (
    option_id int unsigned NOT NULL AUTO_INCREMENT, wishlist_item_id int unsigned NOT NULL, product_id int unsigned NOT NULL, code varchar(255) NOT NULL,
    value text NULL, PRIMARY KEY (option_id))`);
  const [cart20] = await q<{ coupon_id: number }>("SELECT coupon_id FROM salesrule_coupon WHERE code = 'CART20'");
  // CART20: used 3 times, by customers 1 and 2 (counted on the coupon) and 3 (counted on its rule only)
  await src.pool.query('DELETE FROM salesrule_coupon_usage WHERE coupon_id = ?', [cart20.coupon_id]);
  await src.pool.query('DELETE FROM salesrule_customer WHERE rule_id = 3');
  await src.pool.query(
    'INSERT INTO salesrule_coupon_usage (coupon_id, customer_id, times_used) VALUES (?, 1, 1), (?, 2, 1), (?, 999999, 1)',
    [cart20.coupon_id, cart20.coupon_id, cart20.coupon_id],
  );
  await src.pool.query('INSERT INTO salesrule_customer (rule_id, customer_id, times_used) VALUES (3, 1, 1), (3, 3, 1)');
  // a rule whose conditions do not convert (PHP), and one with a minimum subtotal in Maho's JSON
  const countryDe = phpSerialize({
    type: 'salesrule/rule_condition_combine',
    attribute: null,
    operator: null,
    value: '1',
    is_value_processed: null,
    aggregator: 'all',
    conditions: [
      { type: 'salesrule/rule_condition_address', attribute: 'country_id', operator: '==', value: 'DE', is_value_processed: false },
      { type: 'salesrule/rule_condition_address', attribute: 'base_subtotal', operator: '>=', value: '75.5', is_value_processed: false },
    ],
  });
  const json50 = JSON.stringify({
    type: 'salesrule/rule_condition_combine',
    attribute: null,
    operator: null,
    value: '1',
    is_value_processed: null,
    aggregator: 'all',
    conditions: [
      { type: 'salesrule/rule_condition_address', attribute: 'base_subtotal', operator: '>=', value: '50', is_value_processed: false },
    ],
  });
  const rule = `INSERT INTO salesrule (rule_id, name, is_active, conditions_serialized, actions_serialized, simple_action, discount_amount, discount_step, coupon_type, uses_per_customer)
                VALUES (?, ?, 1, ?, NULL, 'by_percent', ?, 0, 2, 0)`;
  await src.pool.query(rule, [906, 'Germany only', countryDe, '12.5000']);
  await src.pool.query(rule, [907, 'Fifty and up', json50, '5.0000']);
  await src.pool.query('INSERT INTO salesrule_website (rule_id, website_id) VALUES (906, 1), (907, 1)');
  await src.pool.query('INSERT INTO salesrule_customer_group (rule_id, customer_group_id) VALUES (906, 1), (907, 0), (907, 1)');
  await src.pool.query(
    "INSERT INTO salesrule_coupon (rule_id, code, usage_limit, times_used, is_primary, type) VALUES (906, 'GERMANY', NULL, 0, 1, 0), (907, 'Json50', 5, 7, 1, 0)",
  );
  // a subscriber of the admin store view, a review of a product that does not exist
  await src.pool.query(
    "INSERT INTO newsletter_subscriber (store_id, customer_id, subscriber_email, subscriber_status) VALUES (0, 0, 'admin.scope@example.org', 1)",
  );
  await src.pool.query(
    'INSERT INTO review (review_id, created_at, entity_id, entity_pk_value, status_id) VALUES (900000, NOW(), 1, 999999, 1)',
  );
  await src.pool.query(
    "INSERT INTO review_detail (review_id, store_id, title, detail, nickname) VALUES (900000, 1, 'Gone', 'Product gone', 'X')",
  );
  // the choices made for the first wishlist item
  const [item] = await q<{ wishlist_item_id: number; product_id: number }>(
    'SELECT wishlist_item_id, product_id FROM wishlist_item ORDER BY wishlist_item_id LIMIT 1',
  );
  await src.pool.query('DELETE FROM wishlist_item_option WHERE wishlist_item_id = ?', [item.wishlist_item_id]);
  await src.pool.query("INSERT INTO wishlist_item_option (wishlist_item_id, product_id, code, value) VALUES (?, ?, 'info_buyRequest', ?)", [
    item.wishlist_item_id,
    item.product_id,
    phpSerialize({ product: String(item.product_id), qty: '1', super_attribute: { '92': '21', '180': '5' }, options: { '3': 'Engraved' } }),
  ]);
}

/** The demo rows of a test database that the imported entities would collide with. */
async function clearDemo(): Promise<void> {
  for (const table of [
    'giftcard_history',
    'giftcards',
    'coupon_usages',
    'coupons',
    'sales_rules',
    'cms_page_stores',
    'cms_pages',
    'cms_block_stores',
    'cms_blocks',
    'blog_post_categories',
    'blog_post_stores',
    'blog_posts',
    'blog_category_stores',
    'blog_categories',
    'newsletter_subscribers',
    'wishlist_items',
    'review_votes',
    'reviews',
    'revocation_requests',
  ]) {
    await t.database.db.execute(sql`DELETE FROM ${sql.identifier(table)}`);
  }
  await t.database.db.execute(sql`DELETE FROM url_rewrites WHERE entity_type IN ('cms_page', 'blog_post')`);
  await t.database.db.execute(sql`DELETE FROM customers`);
}

/** Products of the source's ids, as the catalog import would leave them (it is not run here). */
async function seedProducts(): Promise<void> {
  const [set] = await target<{ id: number }>(sql`SELECT min(id)::int AS id FROM attribute_sets`);
  const list = await q<{ entity_id: number; sku: string }>('SELECT entity_id, sku FROM catalog_product_entity ORDER BY entity_id');
  const json = JSON.stringify(list.map((p) => ({ i: Number(p.entity_id), s: p.sku })));
  await t.database.db.execute(
    sql`INSERT INTO products (id, sku, attribute_set_id, name, url_key, website_ids)
        SELECT x.i, x.s, ${set.id}, x.s, lower(x.s) || '-' || x.i, '{1,2}' FROM jsonb_to_recordset(${json}::jsonb) AS x(i int, s text)`,
  );
  await t.database.db.execute(sql`SELECT setval(pg_get_serial_sequence('products', 'id'), (SELECT max(id) FROM products))`);
}

describe('import of content and promotions', () => {
  before(async () => {
    src = await createSourceDatabase('maho');
    shop = await generateShop(src.pool, { variant: 'maho', products: 40, customers: 30, orders: 40 });
    await addSourceRows();
    t = await buildTestApp();
    admin = await t.tokens.admin();
    await clearDemo();
    await seedProducts();
    first = await importMagento({ source: src.url, db: t.database.db, only: ONLY });
    await t.systemCtx().app.settings.reload();
    second = await importMagento({ source: src.url, db: t.database.db, only: ONLY });
  });

  after(async () => {
    await t?.close();
    await src?.drop();
  });

  test('the checks pass', () => {
    const failed = first.checks.filter((c) => !c.ok);
    assert.deepEqual(failed, [], first.lines().join('\n'));
    for (const name of MINE)
      assert.ok(
        first.entities.some((e) => e.entity === name),
        `${name} reported`,
      );
  });

  test('CMS pages and blocks with their store views; page identifiers resolve as URL paths', async () => {
    const pages = await list('/cms-pages', { scope: 'all' });
    assert.equal(pages.total, shop.counts.cmsPages);
    const about = pages.items.find((p) => p.identifier === 'about-us');
    assert.equal(about.title, 'About Us');
    assert.equal(about.contentHeading, 'About Us');
    assert.match(about.content, /\{\{store url="contacts"\}\}/);
    assert.equal(about.pageLayout, 'two_columns_right');
    assert.deepEqual(about.stores, [0]);
    assert.equal(about.isActive, true);
    const homes = pages.items.filter((p) => p.identifier === 'home').sort((a, b) => a.id - b.id);
    assert.deepEqual(
      homes.map((p) => p.stores),
      [[1, 3], [2]],
    );
    assert.equal(homes[1].title, "Page d'accueil");
    assert.equal(homes[0].layoutUpdateXml, '<reference name="head"><action method="setTitle"><title>Home</title></action></reference>');
    assert.equal(pages.items.find((p) => p.identifier === 'no-route').metaRobots, 'NOINDEX,NOFOLLOW');
    assert.equal(pages.items.find((p) => p.identifier === 'summer-2019').isActive, false);
    const french = await t.req('GET', `${API}/url-resolver`, {
      query: { path: 'home', store: 'french' },
      headers: { accept: 'application/json' },
    });
    assert.equal(french.status, 200, french.text);
    assert.deepEqual(french.body, [{ type: 'cms_page', id: homes[1].id, identifier: 'home', redirectType: 0 }]);

    const blocks = await list('/cms-blocks', { scope: 'all' });
    assert.equal(blocks.total, shop.counts.cmsBlocks);
    const promos = blocks.items.filter((b) => b.identifier === 'promo').sort((a, b) => a.id - b.id);
    assert.deepEqual(
      promos.map((b) => b.stores),
      [[1], [2], [3]],
    );
    assert.equal(promos[1].content, '<p>Livraison gratuite dès 100 € !</p>');
  });

  test('coupons keep their rules, limits and usage counts; rules without a coupon and unconverted conditions are reported', async () => {
    assert.deepEqual(reasons(first, 'sales rules'), {
      'applies without a coupon (rules apply only through coupons here)': 2,
      'imported without its store labels': 2,
      'imported without its conditions (only a minimum subtotal converts)': 1,
    });
    const coupons = await list('/coupons');
    assert.equal(coupons.total, shop.counts.coupons + 2);
    const cart20 = coupons.items.find((c) => c.code === 'CART20');
    assert.equal(cart20.ruleName, 'Cart 20 off');
    assert.equal(cart20.discountType, 'cart_fixed');
    assert.equal(cart20.discountAmount, 20);
    assert.equal(cart20.minimumSubtotal, 100);
    assert.equal(cart20.usageLimit, 100);
    assert.equal(cart20.usagePerCustomer, 1);
    assert.equal(cart20.timesUsed, 3);
    assert.equal(cart20.stopRulesProcessing, true);
    assert.deepEqual(cart20.websiteIds, [1]);
    assert.deepEqual(cart20.customerGroupIds, [1]);
    assert.ok(cart20.expirationDate);
    const welcome = coupons.items.find((c) => c.code === 'WELCOME10');
    assert.equal(welcome.discountType, 'percent');
    assert.deepEqual(welcome.websiteIds, [1, 2]);
    assert.deepEqual(welcome.customerGroupIds, [0, 1, 2, 3]);
    assert.equal(welcome.timesUsed, Math.floor((shop.sizes.orders + 4) / 7));
    const germany = coupons.items.find((c) => c.code === 'GERMANY');
    assert.equal(germany.discountAmount, 12.5);
    assert.equal(germany.minimumSubtotal, 75.5);
    const json50 = coupons.items.find((c) => c.code === 'Json50');
    assert.equal(json50.minimumSubtotal, 50);
    // used past its limit in the source: the count is kept, the code stays used up
    assert.equal(json50.timesUsed, 7);
    assert.equal(json50.usageLimit, 7);
    const generated = coupons.items.filter((c) => c.code.startsWith('GEN-'));
    assert.equal(generated.length, shop.counts.generatedCoupons);
    assert.ok(generated.every((c) => c.type === 1 && c.usageLimit === 1 && c.ruleName === 'Generated codes'));

    // usage per customer: the coupon's rows, and the rule's count for a customer the coupon has none of
    const usages = await target<{ customerId: number; n: number }>(
      sql`SELECT customer_id AS "customerId", times_used AS n FROM coupon_usages WHERE coupon_id = ${cart20.id} ORDER BY customer_id`,
    );
    assert.deepEqual(usages, [
      { customerId: 1, n: 1 },
      { customerId: 2, n: 1 },
      { customerId: 3, n: 1 },
    ]);
    assert.deepEqual(reasons(first, 'coupon usages'), { 'its customer was not imported': 1 });

    // a generated code used once has reached its limit of one use
    const used = generated.find((c) => c.timesUsed === 1)!;
    const fresh = generated.find((c) => c.timesUsed === 0 && !c.expirationDate)!;
    const v1 = await t.req('POST', `${API}/coupons/validate`, { token: admin, body: { code: used.code }, query: { store: 'second_en' } });
    assert.equal(v1.body.isValid, false);
    assert.equal(v1.body.validationMessage, 'Coupon usage limit reached');
    const v2 = await t.req('POST', `${API}/coupons/validate`, { token: admin, body: { code: fresh.code }, query: { store: 'second_en' } });
    assert.equal(v2.body.isValid, true, v2.text);
  });

  test('newsletter subscribers keep their status, store view and customer', async () => {
    const subs = await list('/newsletter/subscribers');
    assert.equal(subs.total, shop.counts.subscribers);
    assert.deepEqual(reasons(first, 'newsletter subscribers'), { 'store view not imported': 1 });
    const byStatus = (s: string) => subs.items.filter((x) => x.status === s).length;
    assert.equal(byStatus('subscribed'), shop.counts.subscribersByStatus['1']);
    assert.equal(byStatus('not_active'), shop.counts.subscribersByStatus['2']);
    assert.equal(byStatus('unsubscribed'), shop.counts.subscribersByStatus['3']);
    assert.equal(byStatus('unconfirmed'), shop.counts.subscribersByStatus['4']);
    const [s] = await q<{ subscriber_id: number; customer_id: number; subscriber_email: string; store_id: number }>(
      'SELECT * FROM newsletter_subscriber WHERE customer_id > 0 ORDER BY subscriber_id LIMIT 1',
    );
    const got = (await t.req('GET', `${API}/newsletter/subscribers/${s.subscriber_id}`, { token: admin })).body;
    assert.equal(got.email, s.subscriber_email.toLowerCase());
    assert.equal(got.customerId, Number(s.customer_id));
    assert.equal(got.storeId, Number(s.store_id));
    // a subscription waiting for confirmation is confirmed by the code Magento mailed
    const [waiting] = await q<{ subscriber_email: string; subscriber_confirm_code: string }>(
      'SELECT * FROM newsletter_subscriber WHERE subscriber_status = 2 LIMIT 1',
    );
    const confirm = await t.req('POST', `${API}/newsletter/confirm`, {
      body: { code: waiting.subscriber_confirm_code, email: waiting.subscriber_email },
    });
    assert.equal(confirm.status, 201, confirm.text);
    assert.equal(confirm.body.status, 'subscribed');
  });

  test('reviews with their text, store views and votes', async () => {
    const reviews = await list('/reviews');
    const r = stats(first, 'reviews');
    assert.equal(r.found, shop.counts.reviews + 1);
    assert.equal(reasons(first, 'reviews')['its product was not imported'], 1);
    assert.equal(reviews.total, r.imported);
    assert.equal(r.imported + r.skipped, r.found);
    const [row] = await q<{ review_id: number; entity_pk_value: number; title: string; detail: string; nickname: string }>(
      'SELECT r.review_id, r.entity_pk_value, d.title, d.detail, d.nickname FROM review r JOIN review_detail d ON d.review_id = r.review_id WHERE r.review_id = 10',
    );
    const got = (await t.req('GET', `${API}/reviews/10`, { token: admin })).body;
    assert.equal(got.productId, Number(row.entity_pk_value));
    assert.equal(got.title, row.title);
    assert.equal(got.detail, row.detail);
    assert.equal(got.nickname, row.nickname);
    assert.deepEqual(got.stores, [1, 2]);
    const votes = await q<{ code: string; value: number }>(
      'SELECT r.rating_code AS code, v.value FROM rating_option_vote v JOIN rating r ON r.rating_id = v.rating_id WHERE v.review_id = 10 ORDER BY r.rating_id',
    );
    assert.deepEqual(
      got.ratings.map((x: any) => ({ code: x.code, value: x.value })),
      votes.map((v) => ({ code: v.code, value: Number(v.value) })),
    );
    const v = stats(first, 'review votes');
    assert.equal(v.imported + v.skipped, shop.counts.ratingVotes);
  });

  test('wishlist items with their choices', async () => {
    const w = stats(first, 'wishlist items');
    assert.equal(w.found, shop.counts.wishlistItems);
    assert.equal(w.imported, w.found - w.skipped);
    const [item] = await q<{ wishlist_item_id: number; product_id: number; customer_id: number; qty: string }>(
      'SELECT i.wishlist_item_id, i.product_id, w.customer_id, i.qty FROM wishlist_item i JOIN wishlist w ON w.wishlist_id = i.wishlist_id ORDER BY i.wishlist_item_id LIMIT 1',
    );
    const [got] = await target<{ customerId: number; productId: number; qty: number; buyRequest: unknown }>(
      sql`SELECT customer_id AS "customerId", product_id AS "productId", qty, buy_request AS "buyRequest" FROM wishlist_items WHERE id = ${item.wishlist_item_id}`,
    );
    assert.equal(got.customerId, Number(item.customer_id));
    assert.equal(got.productId, Number(item.product_id));
    assert.equal(got.qty, Math.round(Number(item.qty)));
    assert.deepEqual(got.buyRequest, { super_attribute: { '92': 21, '180': 5 }, options: { '3': 'Engraved' } });
  });

  test('gift cards keep their balance and history', async () => {
    assert.equal(stats(first, 'gift cards').imported, shop.counts.giftcards);
    const [{ n }] = await target<{ n: string }>(sql`SELECT sum(balance)::numeric(20,4)::text AS n FROM giftcards`);
    assert.equal(n, shop.sums.giftcardBalance);
    const [card] = await q<{ giftcard_id: number; code: string; balance: string; initial_balance: string }>(
      "SELECT * FROM giftcard WHERE status = 'active' AND balance < initial_balance ORDER BY giftcard_id LIMIT 1",
    );
    const got = await t.req('GET', `${API}/giftcards/${card.giftcard_id}`, { token: admin });
    assert.equal(got.status, 200, got.text);
    assert.equal(got.body.code, card.code);
    assert.equal(got.body.balance, Number(card.balance));
    assert.equal(got.body.initialBalance, Number(card.initial_balance));
    assert.equal(got.body.currencyCode, 'USD');
    const history = await q('SELECT * FROM giftcard_history WHERE giftcard_id = ?', [card.giftcard_id]);
    const [{ h }] = await target<{ h: number }>(
      sql`SELECT count(*)::int AS h FROM giftcard_history WHERE giftcard_id = ${card.giftcard_id}`,
    );
    assert.equal(h, history.length);
  });

  test('blog categories and posts with their store views, categories and images', async () => {
    const cats = await list('/blog-categories', { scope: 'all' });
    assert.equal(cats.total, shop.counts.blogCategories);
    const posts = await list('/blog-posts', { scope: 'all' });
    assert.equal(posts.total, shop.counts.blogPosts);
    const p1 = posts.items.find((p) => p.id === 1);
    assert.equal(p1.title, 'Store news 1');
    assert.deepEqual(p1.stores, [1, 3]);
    assert.deepEqual(p1.categoryIds, [2]);
    // Maho keeps the file name under media/blog
    const [image] = await q<{ value: string }>('SELECT value FROM blog_post_entity_varchar WHERE entity_id = 1');
    assert.equal(p1.image, `blog/${image.value}`);
    assert.equal(posts.items.find((p) => p.id === 8).isActive, false);
  });

  test('revocation requests', async () => {
    const reqs = await list('/revocation-requests');
    assert.equal(reqs.total, shop.counts.revocationRequests);
    const [src1] = await q<{ request_id: number; order_id: number; email: string; processed_status: string | null }>(
      'SELECT * FROM revocation_request ORDER BY request_id LIMIT 1',
    );
    const got = reqs.items.find((r) => r.id === Number(src1.request_id));
    assert.equal(got.orderId, Number(src1.order_id));
    assert.equal(got.email, src1.email.toLowerCase());
    assert.equal(got.processedStatus, 'accepted');
  });

  test('a second run changes nothing', () => {
    for (const name of MINE) {
      const e = stats(second, name);
      assert.equal(e.imported, 0, `${name} imported again`);
      assert.equal(e.updated, 0, `${name} updated again`);
    }
    assert.deepEqual(
      second.checks.filter((c) => !c.ok),
      [],
    );
  });
  test('--since reads only the rows changed since (tables without a change time are read whole)', async () => {
    const later = await importMagento({ source: src.url, db: t.database.db, only: ONLY, since: new Date(Date.now() + 86_400_000) });
    for (const name of [
      'cms pages',
      'cms blocks',
      'newsletter subscribers',
      'wishlist items',
      'gift cards',
      'blog categories',
      'blog posts',
    ]) {
      assert.equal(stats(later, name).found, 0, name);
    }
    assert.equal(stats(later, 'coupons').found, shop.counts.coupons + 2);
    for (const name of MINE) {
      assert.equal(stats(later, name).imported + stats(later, name).updated, 0, name);
    }
  });
});

describe('a Magento 1.9 shop, imported without its catalog and customers', () => {
  let m19: GeneratedShop;
  let report: Report;

  before(async () => {
    src = await createSourceDatabase('magento19');
    m19 = await generateShop(src.pool, { variant: 'magento19', products: 20, customers: 12, orders: 10 });
    t = await buildTestApp();
    admin = await t.tokens.admin();
    await clearDemo();
    report = await importMagento({
      source: src.url,
      db: t.database.db,
      only: ['stores', 'content', 'promotions', 'newsletter', 'reviews', 'wishlists', 'giftcards', 'blog', 'revocation'],
    });
  });

  after(async () => {
    await t?.close();
    await src?.drop();
  });

  test('Maho-only entities are absent; what needs a product or customer is skipped with its reason', async () => {
    assert.deepEqual(
      report.checks.filter((c) => !c.ok),
      [],
      report.lines().join('\n'),
    );
    for (const name of ['gift cards', 'gift card history', 'blog categories', 'blog posts', 'revocation requests'])
      assert.equal(stats(report, name).found, 0, name);
    assert.equal(stats(report, 'cms pages').imported, m19.counts.cmsPages);
    assert.equal(stats(report, 'cms blocks').imported, m19.counts.cmsBlocks);
    assert.equal(stats(report, 'coupons').imported, m19.counts.coupons);
    assert.deepEqual(reasons(report, 'reviews'), { 'its product was not imported': m19.counts.reviews });
    assert.deepEqual(reasons(report, 'wishlist items'), { 'its customer was not imported': m19.counts.wishlistItems });
    assert.equal(stats(report, 'newsletter subscribers').imported, m19.counts.subscribers);
    const [{ linked }] = await target<{ linked: number }>(sql`SELECT count(customer_id)::int AS linked FROM newsletter_subscribers`);
    assert.equal(linked, 0);
    const pages = await list('/cms-pages', { scope: 'all' });
    assert.equal(pages.total, m19.counts.cmsPages);
    assert.equal(pages.items.find((p) => p.identifier === 'no-route').metaRobots, undefined);
  });
});

describe('values as Magento stores them', () => {
  test('PHP serialize: byte lengths, nested arrays, objects', () => {
    assert.deepEqual(phpUnserialize('a:2:{i:0;s:5:"Céli";i:1;a:1:{s:1:"k";d:0.5;}}'), ['Céli', { k: 0.5 }]);
    assert.deepEqual(phpUnserialize('O:8:"stdClass":1:{s:1:"a";b:1;}'), { a: true });
    assert.throws(() => phpUnserialize('s:9:"short";'));
  });

  test('rule conditions: only a minimum subtotal converts', () => {
    const combine = (aggregator: string, conditions: unknown[], value = '1') =>
      phpSerialize({
        type: 'salesrule/rule_condition_combine',
        attribute: null,
        operator: null,
        value,
        is_value_processed: null,
        aggregator,
        conditions,
      });
    const subtotal = (operator: string, value: string) => ({
      type: 'salesrule/rule_condition_address',
      attribute: 'base_subtotal',
      operator,
      value,
    });
    assert.deepEqual(convertConditions(null), { minimumSubtotal: null, complete: true });
    assert.deepEqual(convertConditions('a:0:{}'), { minimumSubtotal: null, complete: true });
    assert.deepEqual(convertConditions(combine('all', [subtotal('>=', '100')])), { minimumSubtotal: '100', complete: true });
    assert.deepEqual(convertConditions(combine('any', [subtotal('>=', '100')])), { minimumSubtotal: '100', complete: true });
    assert.deepEqual(convertConditions(combine('any', [subtotal('>=', '100'), subtotal('>=', '5')])), {
      minimumSubtotal: null,
      complete: false,
    });
    assert.deepEqual(convertConditions(combine('all', [subtotal('>=', '100')], '0')), { minimumSubtotal: null, complete: false });
    assert.deepEqual(convertConditions(combine('all', [subtotal('>', '100')])), { minimumSubtotal: null, complete: false });
    assert.deepEqual(convertConditions('not serialized'), { minimumSubtotal: null, complete: false });
  });

  test('buy requests keep the cart fields', () => {
    assert.deepEqual(buyRequestOf(phpSerialize({ qty: '2', bundle_option: { '1': '4', '2': ['5', '6'] }, links: ['7'], uenc: 'x' })), {
      bundle_option: { '1': 4, '2': [5, 6] },
      links: [7],
    });
    assert.deepEqual(buyRequestOf('{"super_group":{"12":"2"}}'), { super_group: { '12': 2 } });
    assert.deepEqual(buyRequestOf('garbage'), {});
  });
});
