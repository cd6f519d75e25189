/**
 * Product tags over HTTP, the storefront and the customer's side: tagging by Magento's splitting rules (a new tag
 * pending, a customer's repeated tag not doubled, a disabled tag refused or back to pending), what shoppers see (a
 * product's approved tags with their popularity, the tag cloud, a tag and its products), a customer's own tags and
 * their removal, every access level and bad input; customers tagging at once with the same new word make one tag.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { rows } from '../../platform/db.js';
import { createTestProduct } from '../../../test/fixtures/catalog.js';
import { API, buildTestApp, type Res, type TestApp } from '../../../test/helpers.js';
import { tagNames } from './words.js';

let t: TestApp;
let admin: string;
let ann: string;
let bob: string;
let p1: number;
let p2: number;
let seq = 0;

const req = (method: string, path: string, token?: string, body?: unknown) => t.req(method, `${API}${path}`, { token, body });

function ok(r: Res, status = 200): any {
  assert.equal(r.status, status, `${r.status} ${r.text.slice(0, 400)}`);
  return r.body;
}

/** The error shape with `status`, and the message `message` matches. */
function refused(r: Res, status: number, message?: RegExp): void {
  assert.equal(r.status, status, `${r.status} ${r.text.slice(0, 400)}`);
  assert.equal(typeof r.body?.error, 'string', r.text);
  if (message) assert.match(r.body.message, message);
}

async function newCustomer(): Promise<string> {
  const email = `tagger${++seq}-${process.pid}@example.com`;
  ok(await req('POST', '/customers', undefined, { email, password: 'Password123!', firstname: 'Tag', lastname: 'Ger' }), 201);
  return t.tokens.customer(email, 'Password123!');
}

const tagOf = (name: string) =>
  rows<{ id: number; status: string }>(t.database.db, sql`SELECT id, status FROM tags WHERE lower(name) = lower(${name})`);
const submit = (productId: number, tags: unknown, token = ann) => req('POST', `/products/${productId}/tags`, token, { tags });
const publicTags = async (productId: number) => ok(await req('GET', `/products/${productId}/tags`)).member as any[];

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  ann = await t.tokens.customer();
  bob = await newCustomer();
  p1 = (await createTestProduct(t)).id;
  p2 = (await createTestProduct(t)).id;
});
after(() => t?.close());

describe('tag names', () => {
  test("words split on white space, 'quoted words' make one tag, repeats count once", () => {
    assert.deepEqual(tagNames("red 'dark blue'  green\tRED 'x'"), ['red', 'dark blue', 'green', 'x']);
    assert.deepEqual(tagNames("  ''  ' ' "), []);
    assert.deepEqual(tagNames("it's"), ["it's"]);
    assert.equal(tagNames('a'.repeat(300))[0].length, 255);
  });
});

describe('customers tag products', () => {
  test('a new tag is pending; the same word twice, in any case, is one tag', async () => {
    const r = ok(await submit(p1, "red 'dark blue' red RED"), 201);
    assert.equal(r.productId, p1);
    assert.deepEqual(
      r.tags.map((x: any) => [x.name, x.status, x.result]),
      [
        ['red', 'pending', 'new'],
        ['dark blue', 'pending', 'new'],
      ],
    );
    // again: the customer's uses are not doubled
    ok(await submit(p1, 'Red'), 201);
    const [{ n }] = await rows<{ n: number }>(t.database.db, sql`SELECT count(*)::int AS n FROM tag_relations WHERE product_id = ${p1}`);
    assert.equal(n, 2);
    assert.deepEqual(await publicTags(p1), [], 'pending tags are not shown');
  });

  test('approved by staff, the tag shows on the product with its popularity; others add to it', async () => {
    const [red] = await tagOf('red');
    ok(await req('PUT', `/tags/${red.id}`, admin, { status: 'approved' }));
    assert.deepEqual(await publicTags(p1), [{ id: red.id, name: 'red', status: 'approved', popularity: 1, productCount: 1 }]);
    const again = ok(await submit(p1, 'RED', bob), 201);
    assert.deepEqual(again.tags, [{ id: red.id, name: 'red', status: 'approved', result: 'exist' }]);
    const other = ok(await submit(p2, 'red'), 201);
    assert.equal(other.tags[0].result, 'success');
    assert.deepEqual(await publicTags(p1), [{ id: red.id, name: 'red', status: 'approved', popularity: 3, productCount: 2 }]);
  });

  test('a disabled tag: refused where the customer used it, back to pending for a new use', async () => {
    const [blue] = await tagOf('dark blue');
    ok(await req('PUT', `/tags/${blue.id}`, admin, { status: 'disabled' }));
    const mine = ok(await submit(p1, "'dark blue'"), 201);
    assert.deepEqual(mine.tags[0], { id: blue.id, name: 'dark blue', status: 'disabled', result: 'rejected' });
    assert.equal((await tagOf('dark blue'))[0].status, 'disabled');
    const fresh = ok(await submit(p1, "'Dark Blue'", bob), 201);
    assert.deepEqual(fresh.tags[0], { id: blue.id, name: 'dark blue', status: 'pending', result: 'new' });
    assert.equal((await tagOf('dark blue'))[0].status, 'pending');
  });

  test('bad input is a 400 and changes nothing; a product shoppers cannot see is a 404', async () => {
    const before = await rows<{ n: number }>(t.database.db, sql`SELECT count(*)::int AS n FROM tag_relations`);
    refused(await submit(p1, ''), 400);
    refused(await submit(p1, "   ''  "), 400, /at least one tag/);
    refused(await submit(p1, 5), 400);
    refused(await submit(p1, 'x'.repeat(1001)), 400);
    refused(await req('POST', `/products/abc/tags`, ann, { tags: 'x' }), 400);
    refused(await req('POST', `/products/${p1}/tags`, ann), 400);
    const raw = await t.req('POST', `${API}/products/${p1}/tags`, {
      token: ann,
      raw: '{"tags": ',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(raw.status, 400);
    refused(await submit(999999999, 'x'), 404, /Product not found/);
    const hidden = await createTestProduct(t, { visibility: 'not_visible' });
    refused(await submit(hidden.id, 'x'), 404, /Product not found/);
    refused(await req('GET', `/products/${hidden.id}/tags`), 404);
    const after = await rows<{ n: number }>(t.database.db, sql`SELECT count(*)::int AS n FROM tag_relations`);
    assert.deepEqual(after, before);
  });

  test('only a customer tags: anonymous 401, staff 403; tagging switched off is a 403', async () => {
    refused(await submit(p1, 'x', ''), 401);
    refused(await submit(p1, 'x', admin), 403);
    ok(await req('PUT', '/configuration', admin, { scope: 'default', values: { 'catalog/tags/enable_adding_tags_in_frontend': '0' } }));
    try {
      refused(await submit(p1, 'nope'), 403, /may not tag/);
    } finally {
      ok(await req('PUT', '/configuration', admin, { scope: 'default', values: { 'catalog/tags/enable_adding_tags_in_frontend': '1' } }));
    }
    assert.deepEqual(await tagOf('nope'), []);
  });

  test('customers adding the same new tag at once make one tag', async () => {
    const tokens = [ann, bob, await newCustomer(), await newCustomer()];
    for (let round = 0; round < 3; round++) {
      const word = `race${round}-${process.pid}`;
      const answers = await Promise.all(tokens.map((tok, i) => submit(i % 2 ? p1 : p2, `${word} shared${round}`, tok)));
      for (const a of answers) assert.equal(a.status, 201, a.text);
      const ids = new Set(answers.map((a) => a.body.tags[0].id));
      assert.equal(ids.size, 1, 'one tag');
      assert.equal((await tagOf(word)).length, 1);
      const [{ n }] = await rows<{ n: number }>(
        t.database.db,
        sql`SELECT count(*)::int AS n FROM tag_relations WHERE tag_id = ${[...ids][0]}`,
      );
      assert.equal(n, tokens.length, 'one use per customer');
    }
  });
});

describe('what shoppers see', () => {
  let cloudA: number;
  let cloudB: number;

  before(async () => {
    const a = ok(await submit(p1, `cloudy${process.pid} sunny${process.pid}`), 201);
    ok(await submit(p2, `sunny${process.pid}`, bob), 201);
    [cloudA, cloudB] = a.tags.map((x: any) => x.id);
    for (const id of [cloudA, cloudB]) ok(await req('PUT', `/tags/${id}`, admin, { status: 'approved' }));
  });

  test('the tag cloud: approved tags used here, popular first, searchable and paged', async () => {
    const cloud = ok(await req('GET', `/tags?search=${process.pid}`));
    assert.deepEqual(
      cloud.member.map((x: any) => [x.id, x.popularity, x.productCount]),
      [
        [cloudB, 2, 2],
        [cloudA, 1, 1],
      ],
    );
    assert.equal(cloud.totalItems, 2);
    assert.deepEqual(Object.keys(cloud.member[0]).sort(), ['id', 'name', 'popularity', 'productCount', 'status']);
    const second = ok(await req('GET', `/tags?search=${process.pid}&itemsPerPage=1&page=2`));
    assert.deepEqual(
      second.member.map((x: any) => x.id),
      [cloudA],
    );
    const past = ok(await req('GET', `/tags?search=${process.pid}&itemsPerPage=1&page=9`));
    assert.deepEqual([past.member.length, past.totalItems], [0, 2]);
    const byName = ok(await req('GET', `/tags?search=${process.pid}&sortBy=name`));
    assert.deepEqual(
      byName.member.map((x: any) => x.id),
      [cloudA, cloudB],
    );
    // staff-only filters change nothing for shoppers: still approved tags only
    const pending = ok(await req('GET', '/tags?status=pending&itemsPerPage=100'));
    assert.ok(pending.member.every((x: any) => x.status === 'approved'));
    // a store view where nobody tagged: an empty cloud
    assert.equal(ok(await req('GET', `/tags?search=${process.pid}&store=german`)).totalItems, 0);
  });

  test('a tag and its products; a pending or unknown tag is a 404', async () => {
    const tag = ok(await req('GET', `/tags/${cloudB}`));
    assert.deepEqual(tag, { id: cloudB, name: `sunny${process.pid}`, status: 'approved', popularity: 2, productCount: 2 });
    const products = ok(await req('GET', `/tags/${cloudB}/products`));
    assert.deepEqual(products.member.map((x: any) => x.productId).sort(), [p1, p2].sort());
    assert.deepEqual(Object.keys(products.member[0]).sort(), ['name', 'popularity', 'productId', 'sku']);
    const [pending] = await tagOf('dark blue');
    refused(await req('GET', `/tags/${pending.id}`), 404);
    refused(await req('GET', `/tags/${pending.id}/products`), 404);
    refused(await req('GET', '/tags/999999999'), 404);
    refused(await req('GET', '/tags/abc'), 400);
    refused(await req('GET', `/tags/${cloudB}?store=german`), 404, /Tag not found/);
  });

  test("a product shoppers cannot see leaves the tag's products", async () => {
    const p3 = (await createTestProduct(t)).id;
    ok(await submit(p3, `sunny${process.pid}`), 201);
    assert.equal(ok(await req('GET', `/tags/${cloudB}/products`)).totalItems, 3);
    ok(await req('PUT', `/products/${p3}`, admin, { isActive: false }));
    assert.deepEqual(
      ok(await req('GET', `/tags/${cloudB}/products`))
        .member.map((x: any) => x.productId)
        .sort(),
      [p1, p2].sort(),
    );
    // staff see it, with the store views it is tagged in
    const staff = ok(await req('GET', `/tags/${cloudB}/products`, admin));
    assert.deepEqual(staff.member.find((x: any) => x.productId === p3).stores, [1]);
  });
});

describe("a customer's own tags", () => {
  test('listed in every status with what they tagged, by name; not another customer’s', async () => {
    const mine = ok(await req('GET', '/customers/me/tags?itemsPerPage=100', ann)).member as any[];
    const names = mine.map((x) => x.name);
    assert.deepEqual(
      names,
      [...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())),
    );
    const red = mine.find((x) => x.name === 'red');
    assert.deepEqual(red.products.map((p: any) => p.productId).sort(), [p1, p2].sort());
    assert.equal(red.status, 'approved');
    assert.match(red.products[0].createdAt, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.equal(red.products[0].storeId, 1);
    assert.ok(mine.some((x) => x.status === 'pending' || x.status === 'disabled'));
    const fresh = await newCustomer();
    assert.equal(ok(await req('GET', '/customers/me/tags', fresh)).totalItems, 0);
    refused(await req('GET', '/customers/me/tags'), 401);
    refused(await req('GET', '/customers/me/tags', admin), 403);
  });

  test('removing one: gone from their products and the popularity; tagging again brings it back', async () => {
    const [red] = await tagOf('red');
    const before = (await publicTags(p1)).find((x) => x.id === red.id);
    const stranger = await newCustomer();
    refused(await req('DELETE', `/customers/me/tags/${red.id}`, stranger), 404);
    refused(await req('DELETE', `/customers/me/tags/${red.id}`), 401);
    refused(await req('DELETE', `/customers/me/tags/${red.id}`, admin), 403);
    refused(await req('DELETE', '/customers/me/tags/abc', ann), 400);
    refused(await req('DELETE', '/customers/me/tags/999999999', ann), 404);
    assert.equal((await req('DELETE', `/customers/me/tags/${red.id}`, ann)).status, 204);
    refused(await req('DELETE', `/customers/me/tags/${red.id}`, ann), 404);
    const mine = ok(await req('GET', '/customers/me/tags?itemsPerPage=100', ann)).member as any[];
    assert.ok(!mine.some((x) => x.id === red.id));
    const after = (await publicTags(p1)).find((x) => x.id === red.id);
    assert.equal(after.popularity, before.popularity - 2, "both of the customer's uses are gone");
    ok(await submit(p1, 'red'), 201);
    assert.equal((await publicTags(p1)).find((x) => x.id === red.id).popularity, before.popularity - 1);
  });
});

describe('GraphQL', () => {
  test("a product's tags, the cloud and tagging are fields of the schema", async () => {
    const r = await t.gql(`{ productTags(productId: ${p1}) { edges { node { _id name popularity } } totalCount } }`);
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    assert.ok(r.data.productTags.edges.some((e: any) => e.node.name === 'red'));
    const cloud = await t.gql(`{ tags(search: "red") { totalCount edges { node { name productCount } } } }`);
    assert.ok(cloud.data.tags.edges.some((e: any) => e.node.name === 'red'));
    const m = await t.gql(
      `mutation { tagProduct(input: { productId: ${p2}, tags: "graph${process.pid}" }) { tagSubmission { productId tags } } }`,
      ann,
    );
    assert.equal(m.errors, undefined, JSON.stringify(m.errors));
    assert.equal(m.data.tagProduct.tagSubmission.tags[0].result, 'new');
    const anon = await t.gql(`mutation { tagProduct(input: { productId: ${p2}, tags: "nope" }) { tagSubmission { productId } } }`);
    assert.ok(anon.errors?.length);
  });
});
