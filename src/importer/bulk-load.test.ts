/**
 * Loading an empty table without its foreign keys and secondary indexes (bulk-load.ts): they are made again exactly
 * as they were, a row that breaks a foreign key still fails the load, and a table that holds rows keeps everything.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { freshDatabase, type TestDb } from '../../test/helpers.js';
import { products } from '../modules/catalog/tables.js';
import { rows, type Db } from '../platform/db.js';
import { bulkLoad, freshTable } from './bulk-load.js';
import { upsert } from './context.js';

/** The indexes and constraints of a table, as the catalog writes them out (NOT NULL aside: a column's, not dropped). */
async function definitions(db: Db, table: string): Promise<string[]> {
  const list = await rows<{ d: string }>(
    db,
    sql`SELECT indexdef AS d FROM pg_indexes WHERE tablename = ${table}
        UNION ALL
        SELECT conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = ${table}::regclass AND contype <> 'n'`,
  );
  return list.map((r) => r.d).sort();
}

const count = async (db: Db, table: string) =>
  (await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)}`))[0].n;

describe('bulk loading an empty table', () => {
  let t: TestDb;
  let db: Db;
  let setId: number;
  const before_: Record<string, string[]> = {};

  before(async () => {
    t = await freshDatabase();
    db = t.database.db;
    [{ id: setId }] = await rows<{ id: number }>(db, sql`INSERT INTO attribute_sets (name) VALUES ('Bulk load') RETURNING id`);
    for (const table of ['products', 'customers']) before_[table] = await definitions(db, table);
    assert.equal(await count(db, 'products'), 0);
    assert.ok((await count(db, 'customers')) > 0, 'the test database holds a customer');
  });
  after(() => t?.drop());

  const product = (sku: string, attributeSet: number) =>
    sql`INSERT INTO products (sku, attribute_set_id, name, url_key) VALUES (${sku}, ${attributeSet}, ${sku}, ${sku})`;

  test('loads without foreign keys and secondary indexes, then makes them again as they were', async () => {
    await db.transaction(async (txn) => {
      const tx = txn as unknown as Db;
      // a write earlier in the transaction (a dry run is one) leaves the referenced table with trigger events pending
      const [{ id: ownSet }] = await rows<{ id: number }>(
        tx,
        sql`INSERT INTO attribute_sets (name) VALUES ('Same transaction') RETURNING id`,
      );
      await bulkLoad(tx, ['products', 'customers'], async () => {
        const during = await definitions(tx, 'products');
        assert.ok(during.length < before_.products.length, 'something was dropped');
        assert.ok(
          during.every((d) => /UNIQUE|PRIMARY KEY|TRIGGER/.test(d)),
          `only keys, unique indexes and triggers stay: ${during.join('; ')}`,
        );
        // customers holds a row: loaded as it is
        assert.deepEqual(await definitions(tx, 'customers'), before_.customers);
        for (let i = 0; i < 3; i++) await tx.execute(product(`BULK-${i}`, i ? setId : ownSet));
      });
      assert.deepEqual(await definitions(tx, 'products'), before_.products);
    });
    assert.equal(await count(db, 'products'), 3);
    assert.deepEqual(await definitions(db, 'products'), before_.products);
  });

  test('a row that breaks a foreign key fails the load, and the transaction leaves everything as it was', async () => {
    await db.execute(sql`DELETE FROM products`);
    await assert.rejects(
      db.transaction(async (txn) => {
        const tx = txn as unknown as Db;
        await bulkLoad(tx, ['products'], async () => {
          await tx.execute(product('GOOD', setId));
          await tx.execute(product('NO-SET', setId + 1000));
        });
      }),
      (err: Error & { cause?: { code?: string } }) => {
        assert.equal(err.cause?.code ?? (err as { code?: string }).code, '23503', String(err));
        assert.match(String(err.cause ?? err), /products_attribute_set_id_attribute_sets_id_fk/);
        return true;
      },
    );
    assert.equal(await count(db, 'products'), 0);
    assert.deepEqual(await definitions(db, 'products'), before_.products);
  });

  test('without tables it only runs the load', async () => {
    assert.equal(await bulkLoad(db, undefined, async () => 42), 42);
    assert.equal(await bulkLoad(db, [], async () => 'x'), 'x');
  });

  describe('rows upserted into a table the load found empty', () => {
    // values COPY's text format must escape or spell out: tabs, newlines, backslashes, a JSON null, arrays, dates,
    // negative numbers, years of fewer than four digits, long text (written otherwise than short text)
    const values = (ids: number[], sku = (id: number) => `COPY-${id}`) =>
      ids.map((id) => ({
        id,
        sku: sku(id),
        attributeSetId: setId,
        name: `Tab\there, line\nbreak, return\r and back\\slash \\N ${id}`,
        urlKey: `copy-${id}`,
        description: id % 2 ? null : 'ünïcødé "quoted" \\.',
        isActive: id % 2 === 1,
        hasRequiredOptions: id % 2 === 0,
        price: '12.3400',
        weight: id % 2 ? null : '0.5000',
        websiteIds: [1, id],
        specialFromDate: '2024-02-29',
        attributes: { color: 'red\tblue', sizes: [1, 2], none: null, nested: { a: 'b\\c' } },
        storeValues: (id % 2 ? {} : { '1': { name: 'Store\nname' } }) as Record<string, Record<string, unknown>>,
        searchText: `copy ${id}`,
        metaDescription: `${'long '.repeat(14)}ünï\tcødé\\ ${id}`,
        skuType: id % 2 ? -id * 1000 : 0,
        createdAt: new Date(Date.UTC(2020, 0, id, 1, 2, 3, 456)),
        updatedAt: new Date(Date.UTC(id * 111, 11, 31, 23, 59, 59, 7)),
      }));
    const read = (tx: Db) =>
      rows<Record<string, unknown>>(
        tx,
        sql`SELECT id, sku, attribute_set_id, name, url_key, description, is_active, has_required_options, price::text, weight::text,
                   website_ids, special_from_date::text, attributes, store_values, search_text, search_vector::text, created_at,
                   meta_description, sku_type, updated_at
              FROM products WHERE sku LIKE 'COPY-%' ORDER BY id`,
      );

    test('land as an upsert writes them, on PostgreSQL by COPY, and a key not above the last falls back to the upsert', async () => {
      await db.execute(sql`DELETE FROM products`);
      let loaded: Record<string, unknown>[] = [];
      await db
        .transaction(async (txn) => {
          const tx = txn as unknown as Db;
          await bulkLoad(tx, ['products'], async () => {
            assert.deepEqual(await upsert(tx, products, values([2, 4, 5]), [products.id]), { inserted: 3, updated: 0, unchanged: 0 });
            assert.deepEqual(await upsert(tx, products, values([7, 9]), [products.id]), { inserted: 2, updated: 0, unchanged: 0 });
            // within a batch in any order, all above the last batch's
            assert.deepEqual(await upsert(tx, products, values([11, 10]), [products.id]), { inserted: 2, updated: 0, unchanged: 0 });
            // COPY is PostgreSQL's: the embedded database upserts, and the table stops counting as fresh
            assert.equal(freshTable(tx, 'products')?.top, t.database.kind === 'postgres' ? 11 : undefined);
            // id 3 is below the highest copied: upserted, as is everything after
            const again = values([3, 9]).map((v) => (v.id === 9 ? { ...v, name: 'Renamed' } : v));
            assert.deepEqual(await upsert(tx, products, again, [products.id]), { inserted: 1, updated: 1, unchanged: 0 });
            assert.equal(freshTable(tx, 'products'), undefined);
          });
          loaded = await read(tx);
          throw new Error('roll back');
        })
        .catch((err: Error) => assert.equal(err.message, 'roll back'));
      // the same rows, upserted into the table as it is (no bulk load, so no COPY)
      await upsert(db, products, values([2, 3, 4, 5, 7, 9, 10, 11]), [products.id]);
      await upsert(db, products, [{ ...values([9])[0], name: 'Renamed' }], [products.id]);
      assert.deepEqual(loaded, await read(db));
      assert.equal(loaded.length, 8);
      await db.execute(sql`DELETE FROM products`);
    });

    test('a copied row that breaks a unique index fails the load', async () => {
      await assert.rejects(
        db.transaction(async (txn) => {
          const tx = txn as unknown as Db;
          await bulkLoad(tx, ['products'], async () => {
            await upsert(
              tx,
              products,
              values([1, 2], () => 'COPY-SAME'),
              [products.id],
            );
          });
        }),
        (err: Error & { cause?: { code?: string } }) => {
          assert.equal(err.cause?.code ?? (err as { code?: string }).code, '23505', String(err));
          return true;
        },
      );
      assert.equal(await count(db, 'products'), 0);
    });
  });
});
