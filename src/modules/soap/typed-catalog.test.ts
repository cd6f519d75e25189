/**
 * The catalog over SOAP V2 and WS-I with PHP's SoapClient from our WSDL (php/catalog.php): a PIM creates a product
 * with an additional attribute, reads it with attributes and additional attributes asked for, updates and lists
 * it, sets tier prices, uploads an image, links a related product, adds a custom option, makes a configurable
 * product over two children and gives it a third, and deletes the first; REST reads what it wrote.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { API, type TestApp } from '../../../test/helpers.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { pngBase64, runScenario, skipWithout, type Step, stepOk as ok } from '../../../test/fixtures/legacy-api.js';
import { startSoapAppWithFiles } from '../../../test/fixtures/soap.js';

const skip = skipWithout('php');

let t: TestApp;
let base: string;
let admin: string;
let close: (() => Promise<void>) | undefined;
let png: string;

before(async () => {
  if (skip) return;
  ({ t, base, close } = await startSoapAppWithFiles('soap-typed-catalog-'));
  admin = await t.tokens.admin();
  png = await pngBase64('#00ff00');
});
after(() => close?.());

for (const [style, wsdlPath] of [
  ['v2', '/api/v2_soap/?wsdl'],
  ['wsi', '/api/v2_soap/wsi/?wsdl'],
] as const) {
  describe(`a PIM over ${style === 'v2' ? 'SOAP V2' : 'WS-I'} with PHP's SoapClient`, { skip }, () => {
    let r: Record<string, Step<string>>;
    let sku: string;
    let other: Record<string, any>;

    before(async () => {
      sku = `typed-${style}-${crypto.randomBytes(4).toString('hex')}`;
      other = await createTestProduct(t);
      r = await runScenario('php', 'catalog.php', base, {
        SOAP_WSDL_PATH: wsdlPath,
        SOAP_STYLE: style,
        SOAP_SKU: sku,
        SOAP_OTHER: other.sku,
        SOAP_IMAGE: png,
      });
    });

    test('types, sets and their attributes', () => {
      assert.ok(ok(r.types, 'types').includes('configurable'));
      assert.ok(ok(r.sets, 'sets').length >= 1);
      assert.ok(ok(r.attributes, 'attributes').includes('name'));
    });

    test('a product created, read with additional attributes, updated and listed', () => {
      const id = ok(r.create, 'create');
      assert.ok(Number(id) > 0);
      const info = ok(r.info, 'info');
      assert.equal(info.sku, sku);
      assert.equal(info.name, 'Typed tee');
      assert.deepEqual(info.additional_attributes, [{ key: 'cost', value: '4.2000' }]);
      assert.equal(ok(r.update, 'update'), true);
      const list = ok(r.list, 'list');
      assert.deepEqual(
        list.map((p: any) => [p.sku, p.name]),
        [[sku, 'Typed tee, new']],
      );
    });

    test('tier prices, an image, a related product and a custom option', () => {
      assert.ok(ok(r.tierUpdate, 'tierUpdate'));
      assert.deepEqual(
        ok(r.tierInfo, 'tierInfo').map((x: any) => [x.qty, x.price]),
        [[5, 11.25]],
      );
      assert.match(ok(r.image, 'image'), /^\/t\/y\/typed\.\w+$/);
      const images = ok(r.images, 'images');
      assert.equal(images.length, 1);
      assert.equal(images[0].label, 'Front');
      assert.deepEqual(images[0].types, ['image', 'thumbnail']);
      assert.ok(ok(r.link, 'link'));
      assert.deepEqual(
        ok(r.links, 'links').map((l: any) => l.sku),
        [other.sku],
      );
      assert.ok(ok(r.option, 'option'));
      assert.deepEqual(
        ok(r.options, 'options').map((o: any) => o.title),
        ['Engraving'],
      );
    });

    test('a configurable product created over its children and updated with a third', async () => {
      const ids = ['child1', 'child2', 'child3'].map((n) => Number(ok(r[n], n)));
      const id = Number(ok(r.configurable, 'configurable'));
      assert.equal(ok(r.configurableUpdate, 'configurableUpdate'), true);
      const conf = await t.req('GET', `${API}/products/${id}/configurable`, { token: admin });
      assert.equal(conf.status, 200, conf.text);
      const body = conf.body.member?.[0] ?? conf.body.items?.[0] ?? conf.body;
      assert.deepEqual(body.superAttributes, ['color', 'size']);
      assert.deepEqual(body.childProductIds, ids);
      const parent = await t.req('GET', `${API}/products/${id}`, { token: admin });
      assert.equal(parent.body.name, 'Typed configurable tee, three');
    });

    test('an unknown product is fault 101; the product is deleted', async () => {
      assert.deepEqual(r.missing.fault, ['101', 'Product not exists.']);
      assert.ok(ok(r.delete, 'delete'));
      const rest = await t.req('GET', `${API}/products/${ok(r.create, 'create')}`, { token: admin });
      assert.equal(rest.status, 404);
    });
  });
}
