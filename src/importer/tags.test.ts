/**
 * Import of product tags from a generated Maho shop with Mage_Tag's tables: tags (ids, statuses, names unique in any
 * case), their base popularity per store view and their uses, read back over REST with the figures computed again
 * (the source's tag_summary is not read); what cannot be imported is reported with its reason, and a second run
 * changes nothing. Products are written straight into the target (the catalog import is tested on its own).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { API, buildTestApp, type TestApp } from '../../test/helpers.js';
import { rows } from '../platform/db.js';
import { createSourceDatabase, type SourceDatabase } from '../../test/fixtures/importer/database.js';
import { generateShop } from '../../test/fixtures/importer/generate.js';
import type { Group } from './context.js';
import type { Report } from './report.js';
import { importMagento } from './run.js';

const ONLY: Group[] = ['stores', 'customers', 'tags'];

let src: SourceDatabase;
let t: TestApp;
let admin: string;
let first: Report;
let second: Report;
let products: number[];
let customers: number[];

async function q<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  const [r] = await src.pool.query(text, params);
  return r as T[];
}

function stats(report: Report, entity: string) {
  const e = report.entities.find((x) => x.entity === entity);
  assert.ok(e, `no ${entity} in the report`);
  return e;
}

const reasons = (report: Report, entity: string): Record<string, number> =>
  Object.fromEntries([...stats(report, entity).skips].map(([k, v]) => [k, v.count]));

async function get(path: string): Promise<any> {
  const r = await t.req('GET', `${API}${path}`, { token: admin });
  assert.equal(r.status, 200, r.text);
  return r.body;
}

/** Mage_Tag's tables as Magento 1.9 and Maho create them, with tags, uses and base popularity worth importing. */
async function addTagTables(): Promise<void> {
  await src.pool.query(`CREATE TABLE tag (tag_id int unsigned NOT NULL AUTO_INCREMENT, name varchar(255) NULL,
    status smallint NOT NULL DEFAULT 0, first_customer_id int unsigned NULL, first_store_id smallint unsigned NULL, PRIMARY KEY (tag_id))`);
  await src.pool
    .query(`CREATE TABLE tag_relation (tag_relation_id int unsigned NOT NULL AUTO_INCREMENT, tag_id int unsigned NOT NULL DEFAULT 0,
    customer_id int unsigned NULL, product_id int unsigned NOT NULL DEFAULT 0, store_id smallint unsigned NOT NULL DEFAULT 1,
    active smallint unsigned NOT NULL DEFAULT 1, created_at datetime NULL, PRIMARY KEY (tag_relation_id),
    UNIQUE KEY UNQ_TAG_RELATION (tag_id, customer_id, product_id, store_id))`);
  await src.pool.query(`CREATE TABLE tag_summary (tag_id int unsigned NOT NULL DEFAULT 0, store_id smallint unsigned NOT NULL DEFAULT 0,
    customers int unsigned NOT NULL DEFAULT 0, products int unsigned NOT NULL DEFAULT 0, uses int unsigned NOT NULL DEFAULT 0,
    historical_uses int unsigned NOT NULL DEFAULT 0, popularity int unsigned NOT NULL DEFAULT 0, base_popularity int unsigned NOT NULL DEFAULT 0,
    PRIMARY KEY (tag_id, store_id))`);
  await src.pool.query(`CREATE TABLE tag_properties (tag_id int unsigned NOT NULL DEFAULT 0, store_id smallint unsigned NOT NULL DEFAULT 0,
    base_popularity int unsigned NOT NULL DEFAULT 0, PRIMARY KEY (tag_id, store_id))`);
  const [c1, c2] = customers;
  await src.pool.query(
    `INSERT INTO tag (tag_id, name, status, first_customer_id, first_store_id) VALUES
      (11, 'red', 1, ?, 1), (12, 'Dark Blue', 0, ?, 2), (13, 'off', -1, NULL, NULL), (14, 'RED', 1, ?, 1),
      (15, '  ', 1, NULL, NULL), (16, 'odd', 5, NULL, NULL), (17, 'gone-customer', 0, 999999, 99)`,
    [c1, c2, c2],
  );
  const [p1, p2] = products;
  await src.pool.query(
    `INSERT INTO tag_relation (tag_relation_id, tag_id, customer_id, product_id, store_id, active, created_at) VALUES
      (101, 11, ?, ?, 1, 1, '2020-01-02 03:04:05'), (102, 11, ?, ?, 1, 1, NULL), (103, 11, NULL, ?, 1, 1, NULL), (104, 11, NULL, ?, 1, 1, NULL),
      (105, 14, ?, ?, 1, 1, NULL), (106, 14, ?, ?, 2, 1, NULL), (107, 12, ?, ?, 2, 0, NULL),
      (108, 16, ?, ?, 1, 1, NULL), (109, 11, ?, 999999, 1, 1, NULL), (110, 11, 999999, ?, 1, 1, NULL), (111, 11, ?, ?, 99, 1, NULL),
      (112, 13, ?, ?, 1, 1, NULL)`,
    [c1, p1, c2, p1, p2, p2, c1, p2, c2, p1, c1, p1, c1, p1, c1, p1, c1, p1, c2, p2],
  );
  await src.pool.query(
    `INSERT INTO tag_properties (tag_id, store_id, base_popularity) VALUES (11, 1, 10), (11, 0, 3), (14, 1, 7), (16, 1, 2)`,
  );
  // a stale index: not read
  await src.pool.query(`INSERT INTO tag_summary (tag_id, store_id, popularity, products) VALUES (11, 1, 999, 999)`);
}

describe('import of product tags', () => {
  before(async () => {
    src = await createSourceDatabase('maho');
    await generateShop(src.pool, { variant: 'maho', products: 6, customers: 5, orders: 0 });
    products = (await q<{ entity_id: number }>('SELECT entity_id FROM catalog_product_entity ORDER BY entity_id LIMIT 2')).map((r) =>
      Number(r.entity_id),
    );
    customers = (await q<{ entity_id: number }>('SELECT entity_id FROM customer_entity ORDER BY entity_id LIMIT 2')).map((r) =>
      Number(r.entity_id),
    );
    await addTagTables();
    t = await buildTestApp();
    admin = await t.tokens.admin();
    await t.database.db.execute(sql`DELETE FROM customers`);
    // the source's products, as the catalog import would leave them (it is not run here)
    const [set] = await rows<{ id: number }>(t.database.db, sql`SELECT min(id)::int AS id FROM attribute_sets`);
    const list = await q<{ entity_id: number; sku: string }>('SELECT entity_id, sku FROM catalog_product_entity ORDER BY entity_id');
    const json = JSON.stringify(list.map((p) => ({ i: Number(p.entity_id), s: p.sku })));
    await t.database.db.execute(
      sql`INSERT INTO products (id, sku, attribute_set_id, name, url_key, website_ids)
          SELECT x.i, x.s, ${set.id}, x.s, lower(x.s) || '-' || x.i, '{1,2}' FROM jsonb_to_recordset(${json}::jsonb) AS x(i int, s text)`,
    );
    await t.database.db.execute(sql`SELECT setval(pg_get_serial_sequence('products', 'id'), (SELECT max(id) FROM products))`);
    first = await importMagento({ source: src.url, db: t.database.db, only: ONLY });
    await t.systemCtx().app.settings.reload();
    second = await importMagento({ source: src.url, db: t.database.db, only: ONLY });
  });

  after(async () => {
    await t?.close();
    await src?.drop();
  });

  test('the checks pass; what is left out is reported with its reason', () => {
    assert.deepEqual(
      first.checks.filter((c) => !c.ok),
      [],
      first.lines().join('\n'),
    );
    assert.deepEqual(reasons(first, 'tags'), {
      'no name': 1,
      'unknown status 5': 1,
      'same name as another tag (its uses go to that one)': 1,
    });
    assert.deepEqual(reasons(first, 'tag properties'), {
      'its tag was not imported': 1,
      'of the default values (not used)': 1,
      'a tag of the same name has one in that store view': 1,
    });
    assert.deepEqual(reasons(first, 'tag relations'), {
      'its tag was not imported': 1,
      'its product was not imported': 1,
      'its customer was not imported': 1,
      'store view not imported': 1,
      'the same use as another relation': 1,
    });
  });

  test('tags keep their ids, statuses and first use; a second run changes nothing', async () => {
    const all = await get('/tags?sortBy=id&sortDir=asc&itemsPerPage=100');
    assert.deepEqual(
      all.member.map((x: any) => [x.id, x.name, x.status, x.firstCustomerId ?? null, x.firstStoreId ?? null]),
      [
        [11, 'red', 'approved', customers[0], 1],
        [12, 'Dark Blue', 'pending', customers[1], 2],
        [13, 'off', 'disabled', null, null],
        [17, 'gone-customer', 'pending', null, null],
      ],
    );
    for (const e of ['tags', 'tag properties', 'tag relations']) {
      const s = stats(second, e);
      assert.deepEqual([s.imported, s.updated], [0, 0], `${e} on the second run`);
    }
  });

  test('the figures are computed from the uses: the merged tag’s uses and base popularity count for the first', async () => {
    const [p1, p2] = products;
    // tag 11 in store view 1: customers' uses 101, 102 and 105 (of RED), staff's 103 (104 repeats it); base 10 (its own)
    const red = await get('/tags/11?storeId=1');
    assert.deepEqual([red.popularity, red.productCount, red.customerCount, red.basePopularity], [13, 2, 2, 10]);
    const everywhere = await get('/tags/11');
    assert.deepEqual([everywhere.popularity, everywhere.productCount, everywhere.customerCount, everywhere.stores], [4, 2, 2, [1, 2]]);
    // the storefront of store view 1 shows it on both products
    for (const p of [p1, p2]) {
      const shown = (await t.req('GET', `${API}/products/${p}/tags`)).body.member;
      assert.deepEqual(
        shown.map((x: any) => [x.id, x.popularity]),
        [[11, 13]],
      );
    }
    // the removed use (inactive) counts for nothing; the disabled tag keeps its use
    assert.deepEqual((await get('/tags/12')).productCount, 0);
    assert.deepEqual((await get('/tags/13')).productCount, 1);
    const uses = await rows<{ id: number; tag_id: number; created_at: Date | string }>(
      t.database.db,
      sql`SELECT id, tag_id, created_at FROM tag_relations ORDER BY id`,
    );
    assert.deepEqual(
      uses.map((u) => [Number(u.id), Number(u.tag_id)]),
      [
        [101, 11],
        [102, 11],
        [103, 11],
        [105, 11],
        [106, 11],
        [107, 12],
        [112, 13],
      ],
    );
    assert.equal(new Date(uses[0].created_at).toISOString(), '2020-01-02T03:04:05.000Z');
  });

  test('new tags and uses after the import take ids past the imported ones', async () => {
    const made = await t.req('POST', `${API}/tags`, {
      token: admin,
      body: { name: 'after-import', storeId: 1, productIds: [products[0]] },
    });
    assert.equal(made.status, 201, made.text);
    assert.ok(made.body.id > 17);
    const [rel] = await rows<{ id: number }>(t.database.db, sql`SELECT max(id)::int AS id FROM tag_relations`);
    assert.ok(rel.id > 112);
  });
});
