/**
 * The current store view kept in the legacy API session (`currentStore` of the category and product families):
 * set by id or code and read back, used by the methods whose store is left out, kept per session and per family
 * (and per call of a multiCall, within one session check), gone with the session, and the faults of an unknown
 * store view.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { API, type TestApp } from '../../../test/helpers.js';
import { LegacyClient } from '../../../test/fixtures/legacy-api.js';
import { newApiUser, newWebsite, startSoapApp } from '../../../test/fixtures/soap.js';
import { countStatements } from '../../platform/db.js';
import { soapSessions } from './tables.js';

let t: TestApp;
let base: string;
let german: string;
const api = new LegacyClient(() => base);
const { rpc, sessionOf } = api;
// every call here names its session, first
const ok = (s: string, p: string, args: unknown) => api.ok(p, args, s);
const fault = (s: string, p: string, args: unknown) => api.fault(p, args, s);

const NOT_FOUND: [number, string] = [100, 'Requested store view not found.'];

before(async () => {
  ({ t, base } = await startSoapApp());
  german = String(t.services.settings.storeByCode('german')!.id);
});
after(() => t?.close());

describe('catalog_category.currentStore', () => {
  test('answers 0 until set; sets by code or id and reads back; 0, "" and "admin" are the default values', async () => {
    const s = await sessionOf();
    assert.equal(await ok(s, 'category.currentStore', []), '0');
    assert.equal(await ok(s, 'catalog_category.currentStore', ['german']), german);
    assert.equal(await ok(s, 'category.currentStore', []), german);
    assert.equal(await ok(s, 'category.currentStore', { store: null }), german);
    assert.equal(await ok(s, 'category.currentStore', [0]), '0');
    assert.equal(await ok(s, 'category.currentStore', []), '0');
    assert.equal(await ok(s, 'category.currentStore', { store: Number(german) }), german);
    assert.equal(await ok(s, 'category.currentStore', ['admin']), '0');
    assert.equal(await ok(s, 'category.currentStore', [` ${german} `]), german);
    assert.equal(await ok(s, 'category.currentStore', ['']), '0');
    assert.equal(await ok(s, 'category.currentStore', ['DEFAULT']), '1');
  });

  test('an unknown store view is fault 100 and keeps the one set before', async () => {
    const s = await sessionOf();
    assert.equal(await ok(s, 'category.currentStore', ['german']), german);
    for (const bad of ['nowhere', 999999, '99999', 1.5, true, { store: 1 }, [1]]) {
      assert.deepEqual(await fault(s, 'category.currentStore', [bad]), NOT_FOUND, JSON.stringify(bad));
    }
    assert.equal(await ok(s, 'category.currentStore', []), german);
  });

  test('category info, update, create and tree work in the kept store view when their store is left out', async () => {
    const s = await sessionOf();
    const c = await ok(s, 'category.create', [2, { name: 'Kept Base', description: 'Base text' }]);
    assert.equal(await ok(s, 'category.currentStore', ['german']), german);
    assert.equal(await ok(s, 'category.update', [c, { name: 'Kept Deutsch' }]), true);
    assert.equal((await ok(s, 'category.info', [c])).name, 'Kept Deutsch');
    // a store named in the call wins; 0 and '' are the default values
    assert.equal((await ok(s, 'category.info', [c, 'default'])).name, 'Kept Base');
    assert.equal((await ok(s, 'category.info', [c, 0])).name, 'Kept Base');
    assert.equal((await ok(s, 'category.info', [c, ''])).name, 'Kept Base');
    // the whole tree (not the store's root) with the kept store view's names
    const tree = await ok(s, 'category.tree', []);
    assert.equal(tree.category_id, '1');
    const under2 = tree.children.find((x: any) => x.category_id === '2');
    assert.equal(under2.children.find((x: any) => x.category_id === String(c)).name, 'Kept Deutsch');
    assert.equal(await ok(s, 'category.update', [c, { description: 'Default text' }, 0]), true);
    assert.equal((await ok(s, 'category.info', [c])).description, 'Default text', 'a store view without its own value reads the default');
    // the default values are untouched by the kept store's update: REST reads them
    const admin = await t.tokens.admin();
    assert.equal((await t.req('GET', `${API}/categories/${c}`, { token: admin })).body.name, 'Kept Base');
    assert.equal(await ok(s, 'category.currentStore', [0]), '0');
    assert.equal((await ok(s, 'category.info', [c])).name, 'Kept Base');
  });

  test('kept per session: another session of the same user works on the default values', async () => {
    const [a, b] = [await sessionOf(), await sessionOf()];
    const c = await ok(a, 'category.create', [2, { name: 'Per Session' }]);
    assert.equal(await ok(a, 'category.currentStore', ['german']), german);
    assert.equal(await ok(a, 'category.update', [c, { name: 'Pro Sitzung' }]), true);
    assert.equal(await ok(b, 'category.currentStore', []), '0');
    assert.equal((await ok(b, 'category.info', [c])).name, 'Per Session');
    assert.equal((await ok(a, 'category.info', [c])).name, 'Pro Sitzung');
    assert.equal(await ok(b, 'category.currentStore', ['default']), '1');
    assert.equal(await ok(a, 'category.currentStore', []), german);
  });

  test('gone with the session: endSession removes it; a new session starts without one', async () => {
    const s = await sessionOf();
    assert.equal(await ok(s, 'category.currentStore', ['german']), german);
    assert.equal((await rpc('endSession', [s])).result, true);
    assert.deepEqual(await fault(s, 'category.currentStore', []), [5, 'Session expired. Try to relogin.']);
    const hash = crypto.createHash('sha256').update(s).digest('hex');
    assert.equal((await t.database.db.select().from(soapSessions).where(eq(soapSessions.idHash, hash))).length, 0);
    assert.equal(await ok(await sessionOf(), 'category.currentStore', []), '0');
  });

  test('a multiCall: a store set by one call is used by the later ones', async () => {
    const s = await sessionOf();
    const c = await ok(s, 'category.create', [2, { name: 'Multi Base' }]);
    assert.equal(await ok(s, 'category.update', [c, { name: 'Multi Deutsch' }, 'german']), true);
    const r = await rpc('multiCall', [
      s,
      [
        ['category.info', [c]],
        ['category.currentStore', ['german']],
        ['category.info', [c]],
        ['category.currentStore', ['nowhere']],
        ['category.currentStore', []],
      ],
    ]);
    assert.deepEqual(
      r.result.map((x: any) => (x.isFault ? [x.faultCode, x.faultMessage] : (x.name ?? x))),
      ['Multi Base', german, 'Multi Deutsch', ['100', NOT_FOUND[1]], german],
    );
    assert.equal(await ok(s, 'category.currentStore', []), german);
  });

  test('one session check per multiCall; reading the kept store costs no statement, setting it one', async () => {
    const s = await sessionOf();
    const statements = async (calls: unknown[]) => {
      const { n, result } = await countStatements(() =>
        t.req('POST', '/api/jsonrpc/', { body: { jsonrpc: '2.0', method: 'multiCall', params: [s, calls], id: 1 } }),
      );
      assert.equal(result.status, 200);
      assert.ok(
        result.body.result.every((x: any) => !x.isFault),
        result.text,
      );
      return n;
    };
    const read = ['category.currentStore', []];
    const one = await statements([read]);
    assert.ok(one > 0);
    assert.equal(await statements([read, read, read, read, read]), one);
    const set = ['category.currentStore', ['german']];
    assert.equal(await statements([set, read]), one + 1);
    assert.equal(await statements([set, set, read]), one + 2);
  });

  test('a kept store view that no longer exists is fault 100 for the methods that would use it', async () => {
    const s = await sessionOf();
    const hash = crypto.createHash('sha256').update(s).digest('hex');
    await t.database.db
      .update(soapSessions)
      .set({ data: sql`jsonb_build_object('category_store_id', 999999)` })
      .where(eq(soapSessions.idHash, hash));
    assert.deepEqual(await fault(s, 'category.info', [2]), NOT_FOUND);
    assert.deepEqual(await fault(s, 'category.currentStore', []), NOT_FOUND);
    assert.equal((await ok(s, 'category.info', [2, 0])).category_id, '2');
    assert.equal(await ok(s, 'category.currentStore', ['default']), '1');
  });

  test('permissions: the role needs category read; a store-limited user keeps only its own store views', async () => {
    const none = await newApiUser(t, ['customers/read']);
    assert.deepEqual(await fault(await sessionOf(none), 'category.currentStore', ['german']), [2, 'Access denied.']);
    const reader = await newApiUser(t, ['categories/read']);
    assert.equal(await ok(await sessionOf(reader), 'category.currentStore', ['german']), german);
    const second = await newWebsite(t, 'keptweb');
    const limited = await sessionOf(await newApiUser(t, ['categories/all'], [second.storeId]), { 'x-store-code': 'keptweb' });
    assert.deepEqual(await fault(limited, 'category.currentStore', ['german']), NOT_FOUND);
    assert.deepEqual(await fault(limited, 'category.currentStore', ['default']), NOT_FOUND);
    assert.equal(await ok(limited, 'category.currentStore', ['keptweb']), String(second.storeId));
    assert.equal(await ok(limited, 'category.currentStore', []), String(second.storeId));
  });
});

describe('the product family of resources', () => {
  test('catalog_product.currentStore: info and update without a store work in the kept one; categories keep their own', async () => {
    const s = await sessionOf();
    const sku = `kept-${crypto.randomBytes(4).toString('hex')}`;
    const id = await ok(s, 'catalog_product.create', [
      'simple',
      '1',
      sku,
      { name: 'Kept default', price: '5.00', status: 1, visibility: 4, websites: [1], tax_class_id: 2, weight: 1 },
    ]);
    assert.equal(await ok(s, 'product.currentStore', ['german']), german);
    assert.equal(await ok(s, 'category.currentStore', []), '0', 'the category family is apart');
    assert.equal(await ok(s, 'catalog_product.update', [sku, { name: 'Behalten' }, null, 'sku']), true);
    assert.equal((await ok(s, 'catalog_product.info', [sku, null, null, 'sku'])).name, 'Behalten');
    assert.equal((await ok(s, 'catalog_product.info', [sku, 0, null, 'sku'])).name, 'Kept default', 'the default values are untouched');
    assert.equal(await ok(s, 'product.currentStore', [0]), '0');
    assert.equal((await ok(s, 'catalog_product.info', [id, null, null])).name, 'Kept default');
    assert.deepEqual(await fault(s, 'product.currentStore', ['nowhere']), NOT_FOUND);
  });

  test('product attributes, their media and category attributes have currentStore too', async () => {
    const s = await sessionOf();
    assert.equal(await ok(s, 'product_attribute.currentStore', ['german']), german);
    assert.equal(await ok(s, 'product.currentStore', []), german, 'products and their attributes share one');
    assert.equal(await ok(s, 'product_media.currentStore', []), german);
    assert.equal(await ok(s, 'category_attribute.currentStore', []), '0');
    assert.equal(await ok(s, 'category_attribute.currentStore', ['german']), german);
    assert.equal(await ok(s, 'category.currentStore', []), german, 'categories and their attributes share one');
    for (const p of ['product_attribute', 'product_media', 'category_attribute']) {
      assert.deepEqual(await fault(s, `${p}.currentStore`, ['nowhere']), NOT_FOUND, p);
    }
  });
});
