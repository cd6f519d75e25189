/**
 * Product sub-resources over GraphQL: media gallery, custom options, tier prices, bundle options, configurable,
 * grouped children, links and downloadable links; reads per access level, writes with `input` and payloads,
 * bad input a 400 (never a 500).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';

let t: TestApp;
let admin: string;
let customer: string;
let simple: Record<string, any>;
let other: Record<string, any>;

const gql = (query: string, token?: string, variables?: Record<string, unknown>) => t.gql(query, token, variables);
const ok = (r: { errors?: unknown }) => assert.equal(r.errors, undefined, JSON.stringify(r.errors));
const nodes = (conn: { edges: { node: any }[] }) => conn.edges.map((e) => e.node);

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  simple = await createTestProduct(t, { price: 40 });
  other = await createTestProduct(t, { price: 15 });
});
after(() => t.close());

describe('product sub-resources over GraphQL', () => {
  test('productMediaGallery: public, a connection; an unknown product is a 404', async () => {
    const r = await gql(`{ productMediaGallery(productId: ${simple.id}) { totalCount edges { node { id url position } } } }`);
    ok(r);
    assert.equal(r.data!.productMediaGallery.totalCount, 0);
    const rest = await t.req('GET', `${API}/products/${simple.id}/media`);
    assert.equal(rest.body.totalItems, 0);
    const missing = await gql('{ productMediaGallery(productId: 99999999) { totalCount } }');
    assert.equal(missing.errors![0].extensions.status, 404);
    const denied = await gql(
      `mutation { deleteProductMedia(input: {productId: ${simple.id}, valueId: 1}) { productMedia { id } } }`,
      customer,
    );
    assert.equal(denied.errors![0].extensions.status, 403);
    const unknown = await gql(
      `mutation { deleteProductMedia(input: {productId: ${simple.id}, valueId: 99999}) { clientMutationId } }`,
      admin,
    );
    assert.equal(unknown.errors![0].extensions.status, 404);
  });

  test('custom options: list, create, update, delete', async () => {
    const created = await gql(
      `mutation { createProductCustomOption(input: {productId: ${simple.id}, title: "Engraving", type: "field", price: 5, priceType: "fixed", required: false}) { productCustomOption { id _id title type price } } }`,
      admin,
    );
    ok(created);
    const option = created.data!.createProductCustomOption.productCustomOption;
    assert.equal(option.title, 'Engraving');
    assert.equal(option.price, 5);
    const list = await gql(
      `{ productCustomOptions(productId: ${simple.id}) { totalCount edges { node { _id title values } } } }`,
      customer,
    );
    ok(list);
    assert.deepEqual(
      nodes(list.data!.productCustomOptions).map((n) => n._id),
      [option._id],
    );
    const updated = await gql(
      `mutation { updateProductCustomOption(input: {productId: ${simple.id}, id: ${option._id}, title: "Monogram"}) { productCustomOption { _id title } } }`,
      admin,
    );
    ok(updated);
    assert.equal(updated.data!.updateProductCustomOption.productCustomOption.title, 'Monogram');
    const foreign = await gql(
      `mutation { updateProductCustomOption(input: {productId: ${other.id}, id: ${option._id}, title: "x"}) { productCustomOption { _id } } }`,
      admin,
    );
    assert.equal(foreign.data!.updateProductCustomOption, null);
    assert.equal(foreign.errors![0].extensions.status, 404);
    const bad = await gql(
      `mutation { createProductCustomOption(input: {productId: ${simple.id}, title: "x", type: "bogus"}) { productCustomOption { _id } } }`,
      admin,
    );
    assert.equal(bad.errors![0].extensions.status, 400);
    const anon = await gql(
      `mutation { createProductCustomOption(input: {productId: ${simple.id}, title: "x", type: "field"}) { productCustomOption { _id } } }`,
    );
    assert.equal(anon.errors![0].extensions.status, 401);
    const deleted = await gql(
      `mutation { deleteProductCustomOption(input: {productId: ${simple.id}, id: ${option._id}}) { clientMutationId } }`,
      admin,
    );
    ok(deleted);
    assert.equal((await gql(`{ productCustomOptions(productId: ${simple.id}) { totalCount } }`)).data!.productCustomOptions.totalCount, 0);
  });

  test('tier prices: admin reads, replace (a list payload) and clear', async () => {
    const anon = await gql(`{ productTierPrices(productId: ${simple.id}) { totalCount } }`);
    assert.equal(anon.errors![0].extensions.status, 401);
    const cust = await gql(`{ productTierPrices(productId: ${simple.id}) { totalCount } }`, customer);
    assert.equal(cust.errors![0].extensions.status, 403);
    const replaced = await gql(
      `mutation { replaceProductTierPrices(input: {productId: ${simple.id}, tierPrices: [{qty: 5, price: 35}, {qty: 10, price: 30.5}], clientMutationId: "r1"}) { clientMutationId tierPrices { qty price } } }`,
      admin,
    );
    ok(replaced);
    assert.equal(replaced.data!.replaceProductTierPrices.clientMutationId, 'r1');
    assert.equal(replaced.data!.replaceProductTierPrices.tierPrices.length, 2);
    const rest = await t.req('GET', `${API}/products/${simple.id}/tier-prices`, { token: admin });
    const list = await gql(`{ productTierPrices(productId: ${simple.id}) { totalCount edges { node { qty price } } } }`, admin);
    ok(list);
    assert.equal(list.data!.productTierPrices.totalCount, rest.body.totalItems);
    assert.deepEqual(
      nodes(list.data!.productTierPrices).map((n) => [n.qty, n.price]),
      rest.body.member.map((m: { qty: number; price: number }) => [m.qty, m.price]),
    );
    const bad = await gql(
      `mutation { replaceProductTierPrices(input: {productId: ${simple.id}, tierPrices: [{qty: -1, price: 1}]}) { tierPrices { qty } } }`,
      admin,
    );
    assert.equal(bad.errors![0].extensions.status, 400);
    const notList = await gql(
      `mutation { replaceProductTierPrices(input: {productId: ${simple.id}, tierPrices: "x"}) { tierPrices { qty } } }`,
      admin,
    );
    assert.equal(notList.errors![0].extensions.status, 400);
    const denied = await gql(
      `mutation { replaceProductTierPrices(input: {productId: ${simple.id}, tierPrices: []}) { tierPrices { qty } } }`,
      customer,
    );
    assert.equal(denied.errors![0].extensions.status, 403);
    const cleared = await gql(`mutation { clearProductTierPrices(input: {productId: ${simple.id}}) { clientMutationId } }`, admin);
    ok(cleared);
    assert.equal((await gql(`{ productTierPrices(productId: ${simple.id}) { totalCount } }`, admin)).data!.productTierPrices.totalCount, 0);
  });

  test('bundle options: list, create, update by id and by path, delete', async () => {
    const bundle = await createTestProduct(t, { type: 'bundle', priceType: 0, skuType: 0 });
    const created = await gql(
      `mutation { createProductBundleOption(input: {productId: ${bundle.id}, title: "Pick", type: "radio", required: true, selections: [{productId: ${simple.id}, qty: 1}]}) { bundleOption { _id title selections } } }`,
      admin,
    );
    ok(created);
    const option = created.data!.createProductBundleOption.bundleOption;
    assert.equal(option.title, 'Pick');
    const list = await gql(`{ productBundleOptions(productId: ${bundle.id}) { totalCount edges { node { _id title required } } } }`);
    ok(list);
    assert.deepEqual(
      nodes(list.data!.productBundleOptions).map((n) => n._id),
      [option._id],
    );
    const byBody = await gql(
      `mutation { updateProductBundleOptionById(input: {productId: ${bundle.id}, optionId: ${option._id}, title: "Choose"}) { bundleOption { title } } }`,
      admin,
    );
    ok(byBody);
    assert.equal(byBody.data!.updateProductBundleOptionById.bundleOption.title, 'Choose');
    const byPath = await gql(
      `mutation { updateProductBundleOption(input: {productId: ${bundle.id}, id: ${option._id}, title: "Select"}) { bundleOption { title } } }`,
      admin,
    );
    ok(byPath);
    assert.equal(byPath.data!.updateProductBundleOption.bundleOption.title, 'Select');
    const badType = await gql(
      `mutation { createProductBundleOption(input: {productId: ${bundle.id}, title: "x", type: "bogus"}) { bundleOption { _id } } }`,
      admin,
    );
    assert.equal(badType.errors![0].extensions.status, 400);
    const second = await gql(
      `mutation { createProductBundleOption(input: {productId: ${bundle.id}, title: "Extra"}) { bundleOption { _id } } }`,
      admin,
    );
    ok(second);
    const delById = await gql(
      `mutation { deleteProductBundleOptionById(input: {productId: ${bundle.id}, id: ${second.data!.createProductBundleOption.bundleOption._id}}) { clientMutationId } }`,
      admin,
    );
    ok(delById);
    const del = await gql(
      `mutation { deleteProductBundleOption(input: {productId: ${bundle.id}, id: ${option._id}}) { clientMutationId } }`,
      admin,
    );
    ok(del);
    const again = await gql(
      `mutation { deleteProductBundleOption(input: {productId: ${bundle.id}, id: ${option._id}}) { clientMutationId } }`,
      admin,
    );
    assert.equal(again.errors![0].extensions.status, 404);
    assert.equal((await gql(`{ productBundleOptions(productId: ${bundle.id}) { totalCount } }`)).data!.productBundleOptions.totalCount, 0);
  });

  test('configurable: the one-element connection; writes need products/write; a simple product is a 400 or 404', async () => {
    const conf = await createTestProduct(t, { type: 'configurable' });
    const r = await gql(`{ productConfigurable(productId: ${conf.id}) { totalCount edges { node { superAttributes childProductIds } } } }`);
    ok(r);
    const rest = await t.req('GET', `${API}/products/${conf.id}/configurable`);
    assert.equal(r.data!.productConfigurable.totalCount, 1);
    assert.deepEqual(r.data!.productConfigurable.edges[0].node.childProductIds, rest.body.member[0].childProductIds);
    const notConf = await gql(`{ productConfigurable(productId: ${simple.id}) { totalCount } }`);
    assert.ok([400, 404].includes(notConf.errors![0].extensions.status), JSON.stringify(notConf.errors));
    const denied = await gql(
      `mutation { addProductConfigurableChild(input: {productId: ${conf.id}, childId: ${simple.id}}) { clientMutationId } }`,
      customer,
    );
    assert.equal(denied.errors![0].extensions.status, 403);
    const set = await gql(
      `mutation { setProductConfigurable(input: {productId: ${conf.id}, childProductIds: []}) { configurableProduct { childProductIds } } }`,
      admin,
    );
    ok(set);
    assert.deepEqual(set.data!.setProductConfigurable.configurableProduct.childProductIds, []);
    const remove = await gql(
      `mutation { removeProductConfigurableChild(input: {productId: ${conf.id}, childId: ${simple.id}}) { clientMutationId } }`,
      admin,
    );
    assert.ok(remove.errors![0].extensions.status >= 400 && remove.errors![0].extensions.status < 500);
  });

  test('grouped: list, add, replace (a list payload), remove', async () => {
    const group = await createTestProduct(t, { type: 'grouped' });
    const added = await gql(
      `mutation { addProductGroupedChild(input: {productId: ${group.id}, childProductId: ${simple.id}, qty: 2}) { groupedProduct { id qty } } }`,
      admin,
    );
    ok(added);
    const list = await gql(`{ productGroupedChildren(productId: ${group.id}) { totalCount edges { node { id childProductSku qty } } } }`);
    ok(list);
    assert.equal(list.data!.productGroupedChildren.totalCount, 1);
    const replaced = await gql(
      `mutation { replaceProductGroupedChildren(input: {productId: ${group.id}, children: [{childProductId: ${other.id}}]}) { children { id } } }`,
      admin,
    );
    ok(replaced);
    assert.equal(replaced.data!.replaceProductGroupedChildren.children.length, 1);
    const bad = await gql(
      `mutation { addProductGroupedChild(input: {productId: ${group.id}, childProductId: ${group.id}}) { groupedProduct { id } } }`,
      admin,
    );
    assert.equal(bad.errors![0].extensions.status, 400);
    const removed = await gql(
      `mutation { removeProductGroupedChild(input: {productId: ${group.id}, childProductId: ${other.id}}) { clientMutationId } }`,
      admin,
    );
    ok(removed);
    assert.equal(
      (await gql(`{ productGroupedChildren(productId: ${group.id}) { totalCount } }`)).data!.productGroupedChildren.totalCount,
      0,
    );
  });

  test('links: related, cross-sell and up-sell lists and writes', async () => {
    for (const kind of ['Related', 'CrossSell', 'UpSell']) {
      const added = await gql(
        `mutation { addProduct${kind}Link(input: {productId: ${simple.id}, linkedProductId: ${other.id}, position: 1}) { productLink { id position } } }`,
        admin,
      );
      ok(added);
      const list = await gql(
        `{ product${kind}Links(productId: ${simple.id}) { totalCount edges { node { id linkedProductSku position } } } }`,
        customer,
      );
      ok(list);
      assert.equal(list.data![`product${kind}Links`].totalCount, 1);
      const replaced = await gql(
        `mutation { replaceProduct${kind}Links(input: {productId: ${simple.id}, links: []}) { links { id } } }`,
        admin,
      );
      ok(replaced);
      assert.deepEqual(replaced.data![`replaceProduct${kind}Links`].links, []);
      const self = await gql(
        `mutation { addProduct${kind}Link(input: {productId: ${simple.id}, linkedProductId: ${simple.id}}) { productLink { id } } }`,
        admin,
      );
      assert.equal(self.errors![0].extensions.status, 400);
      const gone = await gql(
        `mutation { removeProduct${kind}Link(input: {productId: ${simple.id}, linkedProductId: ${other.id}}) { clientMutationId } }`,
        admin,
      );
      assert.equal(gone.errors![0].extensions.status, 404);
    }
  });

  test('downloadable links: public list; deletes need products/write', async () => {
    const d = await createTestProduct(t, { type: 'downloadable' });
    const created = await t.req('POST', `${API}/products/${d.id}/downloadable-links`, {
      token: admin,
      body: { title: 'Manual', linkUrl: 'https://example.com/manual.pdf', price: 0 },
    });
    assert.equal(created.status, 201, created.text);
    const list = await gql(`{ productDownloadableLinks(productId: ${d.id}) { totalCount edges { node { id title } } } }`);
    ok(list);
    assert.equal(list.data!.productDownloadableLinks.totalCount, 1);
    const denied = await gql(
      `mutation { deleteProductDownloadableLink(input: {productId: ${d.id}, id: ${created.body.id}}) { clientMutationId } }`,
      customer,
    );
    assert.equal(denied.errors![0].extensions.status, 403);
    const byId = await gql(
      `mutation { deleteProductDownloadableLinkById(input: {productId: ${d.id}, linkId: ${created.body.id}}) { clientMutationId } }`,
      admin,
    );
    ok(byId);
    const again = await gql(
      `mutation { deleteProductDownloadableLink(input: {productId: ${d.id}, id: ${created.body.id}}) { clientMutationId } }`,
      admin,
    );
    assert.equal(again.errors![0].extensions.status, 404);
  });
});
