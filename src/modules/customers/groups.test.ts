import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eq } from 'drizzle-orm';
import { API, buildTestApp, type Res, type TestApp } from '../../../test/helpers.js';
import { deleteConfig, setConfig } from '../stores/service.js';
import { moveCustomersToGroup } from './group-membership.js';
import { taxClasses } from '../tax/tables.js';
import { customerGroups, customers } from './tables.js';

let t: TestApp;
let admin: string;
let customer: string;
/** API-user tokens by the permissions their role holds */
const tok: Record<'none' | 'read' | 'write' | 'delete', string> = { none: '', read: '', write: '', delete: '' };

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  tok.none = await t.tokens.apiUser(['customers/read']);
  tok.read = await t.tokens.apiUser(['customer-groups/read']);
  tok.write = await t.tokens.apiUser(['customer-groups/read', 'customer-groups/write']);
  tok.delete = await t.tokens.apiUser(['customer-groups/delete']);
});
after(() => t.close());

const JSON_ONLY = { accept: 'application/json' };

async function groupRows() {
  return t.database.db.select().from(customerGroups).orderBy(customerGroups.id);
}

function assertError(r: Res, status: number, error: string) {
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.error, error, r.text);
  assert.equal(typeof r.body.message, 'string');
  if (status !== 401) assert.equal(r.body.code, status);
}

async function create(code: string, taxClassId?: number): Promise<{ id: number; code: string }> {
  const r = await t.req('POST', `${API}/customer-groups`, {
    token: admin,
    body: taxClassId === undefined ? { code } : { code, taxClassId },
  });
  assert.equal(r.status, 201, r.text);
  return r.body;
}

describe('GET /customer-groups', () => {
  test('lists the install groups by code with their tax class, as JSON-LD with paging links', async () => {
    const r = await t.req('GET', `${API}/customer-groups`, { token: admin });
    assert.equal(r.status, 200);
    assert.equal(r.body['@type'], 'Collection');
    assert.equal(r.body['@context'], '/api/contexts/CustomerGroup');
    assert.equal(r.body.totalItems, 4);
    assert.deepEqual(r.body.member, [
      { id: 1, code: 'General', taxClassId: 3, taxClassName: 'Retail Customer' },
      { id: 0, code: 'NOT LOGGED IN', taxClassId: 3, taxClassName: 'Retail Customer' },
      { id: 3, code: 'Retailer', taxClassId: 3, taxClassName: 'Retail Customer' },
      { id: 2, code: 'Wholesale', taxClassId: 3, taxClassName: 'Retail Customer' },
    ]);
    assert.equal(r.body.view['@type'], 'PartialCollectionView');
    assert.equal(r.body.view.first, `${API}/customer-groups?page=1`);
    assert.equal(r.body.view.next, undefined);
    assert.equal(r.headers['cache-control'], 'no-store');
  });

  test('Accept: application/json gets the bare array', async () => {
    const r = await t.req('GET', `${API}/customer-groups`, { token: admin, headers: JSON_ONLY });
    assert.equal(r.status, 200);
    assert.deepEqual(
      r.body.map((g: { code: string }) => g.code),
      ['General', 'NOT LOGGED IN', 'Retailer', 'Wholesale'],
    );
  });

  test('pages with itemsPerPage (alias pageSize); out-of-range values are clamped', async () => {
    const p2 = await t.req('GET', `${API}/customer-groups?page=2&itemsPerPage=3`, { token: admin });
    assert.equal(p2.status, 200);
    assert.equal(p2.body.totalItems, 4);
    assert.deepEqual(
      p2.body.member.map((g: { id: number }) => g.id),
      [2],
    );
    assert.equal(p2.body.view.previous, `${API}/customer-groups?page=1&itemsPerPage=3`);
    assert.equal(p2.body.view.last, `${API}/customer-groups?page=2&itemsPerPage=3`);
    const alias = await t.req('GET', `${API}/customer-groups?pageSize=1`, { token: admin });
    assert.deepEqual(
      alias.body.member.map((g: { id: number }) => g.id),
      [1],
    );
    const zero = await t.req('GET', `${API}/customer-groups?itemsPerPage=0&page=-3`, { token: admin });
    assert.equal(zero.status, 200);
    assert.equal(zero.body.member.length, 1);
    const far = await t.req('GET', `${API}/customer-groups?page=999999999`, { token: admin });
    assert.equal(far.status, 200);
    assert.deepEqual(far.body.member, []);
    assert.equal(far.body.totalItems, 4);
  });

  test('bad paging values are a 400', async () => {
    for (const q of ['page=abc', 'itemsPerPage=1.5', 'pageSize=x']) {
      assertError(await t.req('GET', `${API}/customer-groups?${q}`, { token: admin }), 400, 'bad_request');
    }
  });

  test('needs customer-groups/read', async () => {
    const anon = await t.req('GET', `${API}/customer-groups`);
    assertError(anon, 401, 'unauthorized');
    assert.match(String(anon.headers['www-authenticate']), /^Bearer/);
    assertError(await t.req('GET', `${API}/customer-groups`, { token: customer }), 403, 'forbidden');
    assertError(await t.req('GET', `${API}/customer-groups`, { token: tok.none }), 403, 'forbidden');
    assertError(await t.req('GET', `${API}/customer-groups`, { token: tok.delete }), 403, 'forbidden');
    assert.equal((await t.req('GET', `${API}/customer-groups`, { token: tok.read })).status, 200);
    assert.equal((await t.req('GET', `${API}/customer-groups`, { token: await t.tokens.client() })).status, 200);
  });
});

describe('GET /customer-groups/{id}', () => {
  test('returns one group, group 0 included', async () => {
    const r = await t.req('GET', `${API}/customer-groups/2`, { token: tok.read });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { id: 2, code: 'Wholesale', taxClassId: 3, taxClassName: 'Retail Customer' });
    const zero = await t.req('GET', `${API}/customer-groups/0`, { token: admin });
    assert.equal(zero.body.code, 'NOT LOGGED IN');
  });

  test('unknown is a 404; a malformed id a 400', async () => {
    assertError(await t.req('GET', `${API}/customer-groups/999`, { token: admin }), 404, 'not_found');
    for (const id of ['abc', '-1', '1.5', '99999999999']) {
      assertError(await t.req('GET', `${API}/customer-groups/${id}`, { token: admin }), 400, 'bad_request');
    }
  });

  test('needs customer-groups/read', async () => {
    assertError(await t.req('GET', `${API}/customer-groups/1`), 401, 'unauthorized');
    assertError(await t.req('GET', `${API}/customer-groups/1`, { token: customer }), 403, 'forbidden');
    assertError(await t.req('GET', `${API}/customer-groups/1`, { token: tok.none }), 403, 'forbidden');
  });
});

describe('POST /customer-groups', () => {
  test('creates a group (201) with the default customer tax class', async () => {
    const r = await t.req('POST', `${API}/customer-groups`, { token: tok.write, body: { code: '  VIP  ' } });
    assert.equal(r.status, 201);
    assert.equal(r.headers['cache-control'], 'no-store');
    assert.equal(r.body.code, 'VIP');
    assert.equal(r.body.taxClassId, 3);
    assert.equal(r.body.taxClassName, 'Retail Customer');
    assert.ok(r.body.id > 3);
    const read = await t.req('GET', `${API}/customer-groups/${r.body.id}`, { token: admin });
    assert.deepEqual(read.body, r.body);
  });

  test('ignores unknown and read-only keys', async () => {
    const r = await t.req('POST', `${API}/customer-groups`, {
      token: admin,
      body: { code: 'Ignored Keys', taxClassId: 3, id: 4242, taxClassName: 'Made up', extra: true },
    });
    assert.equal(r.status, 201);
    assert.notEqual(r.body.id, 4242);
    assert.equal(r.body.taxClassName, 'Retail Customer');
    assert.equal(Object.keys(r.body).includes('extra'), false);
  });

  test('a duplicate code, in any case, is a 409 and creates nothing', async () => {
    const before = await groupRows();
    for (const code of ['General', 'general', ' WHOLESALE ', 'not logged in']) {
      const r = await t.req('POST', `${API}/customer-groups`, { token: admin, body: { code } });
      assertError(r, 409, 'conflict');
      assert.deepEqual(r.body.details, { field: 'code' });
    }
    assert.deepEqual(await groupRows(), before);
  });

  test('bad input is a 400 and creates nothing', async () => {
    const before = await groupRows();
    const bodies: unknown[] = [
      {},
      { code: '' },
      { code: '   ' },
      { code: 'x'.repeat(33) },
      { code: 42 },
      { code: null },
      { code: 'Ok', taxClassId: '3' },
      { code: 'Ok', taxClassId: 3.5 },
      { code: 'Ok', taxClassId: 0 },
      { code: 'Ok', taxClassId: 99999999999 },
      { code: 'Ok', taxClassId: 2 }, // a PRODUCT tax class
      { code: 'Ok', taxClassId: 999 }, // no such tax class
      { code: 'Bad\u0007Code' },
      [],
      'General',
    ];
    for (const body of bodies) {
      assertError(await t.req('POST', `${API}/customer-groups`, { token: admin, body }), 400, 'bad_request');
    }
    const wrongClass = await t.req('POST', `${API}/customer-groups`, { token: admin, body: { code: 'Ok', taxClassId: 2 } });
    assert.equal(wrongClass.body.details.field, 'taxClassId');
    assertError(
      await t.req('POST', `${API}/customer-groups`, { token: admin, raw: '{"code": ', headers: { 'content-type': 'application/json' } }),
      400,
      'bad_request',
    );
    assertError(
      await t.req('POST', `${API}/customer-groups`, { token: admin, raw: '', headers: { 'content-type': 'application/json' } }),
      400,
      'bad_request',
    );
    const plain = await t.req('POST', `${API}/customer-groups`, { token: admin, raw: 'code=x', headers: { 'content-type': 'text/plain' } });
    assertError(plain, 415, 'unsupported_media_type');
    const untyped = await t.req('POST', `${API}/customer-groups`, { token: admin, raw: '{"code":"Untyped"}' });
    assertError(untyped, 415, 'unsupported_media_type');
    assert.deepEqual(await groupRows(), before);
  });

  test('concurrent creates of the same code in different case: one wins, the other gets a 409', async () => {
    const results = await Promise.all(
      ['Race', 'RACE', 'race'].map((code) => t.req('POST', `${API}/customer-groups`, { token: admin, body: { code } })),
    );
    assert.deepEqual(results.map((r) => r.status).sort(), [201, 409, 409]);
    assert.equal((await groupRows()).filter((g) => g.code.toLowerCase() === 'race').length, 1);
  });

  test('32 characters are enough', async () => {
    const g = await create('y'.repeat(32));
    assert.equal(g.code.length, 32);
  });

  test('needs customer-groups/create (write covers it)', async () => {
    const before = await groupRows();
    assertError(await t.req('POST', `${API}/customer-groups`, { body: { code: 'Anon' } }), 401, 'unauthorized');
    assertError(await t.req('POST', `${API}/customer-groups`, { token: customer, body: { code: 'Cust' } }), 403, 'forbidden');
    assertError(await t.req('POST', `${API}/customer-groups`, { token: tok.read, body: { code: 'Reader' } }), 403, 'forbidden');
    assertError(await t.req('POST', `${API}/customer-groups`, { token: tok.delete, body: { code: 'Deleter' } }), 403, 'forbidden');
    assert.deepEqual(await groupRows(), before);
  });
});

describe('PUT /customer-groups/{id}', () => {
  test('changes only the fields sent', async () => {
    const g = await create('Partners');
    const renamed = await t.req('PUT', `${API}/customer-groups/${g.id}`, { token: tok.write, body: { code: 'Partner Shops' } });
    assert.equal(renamed.status, 200);
    assert.deepEqual(renamed.body, { id: g.id, code: 'Partner Shops', taxClassId: 3, taxClassName: 'Retail Customer' });
    const same = await t.req('PUT', `${API}/customer-groups/${g.id}`, { token: admin, body: {} });
    assert.equal(same.status, 200);
    assert.deepEqual(same.body, renamed.body);
    // read-only and unknown keys are ignored
    const ro = await t.req('PUT', `${API}/customer-groups/${g.id}`, {
      token: admin,
      body: { id: 1, taxClassName: 'x', foo: 1, taxClassId: 3 },
    });
    assert.deepEqual(ro.body, renamed.body);
  });

  test('a new customer tax class is accepted', async () => {
    // the tax module has no tax-class write service yet: a second CUSTOMER class for this test
    const [cls] = await t.database.db
      .insert(taxClasses)
      .values({ className: 'Wholesale Customer', classType: 'CUSTOMER' })
      .returning({ id: taxClasses.id });
    const g = await create('Tax Movers');
    const r = await t.req('PUT', `${API}/customer-groups/${g.id}`, { token: admin, body: { taxClassId: cls.id } });
    assert.equal(r.status, 200);
    assert.equal(r.body.taxClassId, cls.id);
    assert.equal(r.body.taxClassName, 'Wholesale Customer');
    assert.equal(r.body.code, 'Tax Movers');
    const list = await t.req('GET', `${API}/customer-groups?itemsPerPage=100`, { token: admin, headers: JSON_ONLY });
    assert.equal(list.body.find((x: { id: number }) => x.id === g.id).taxClassName, 'Wholesale Customer');
  });

  test("a group may change the case of its own code; another group's code is a 409", async () => {
    const g = await create('Case Study');
    const r = await t.req('PUT', `${API}/customer-groups/${g.id}`, { token: admin, body: { code: 'CASE STUDY' } });
    assert.equal(r.status, 200);
    assert.equal(r.body.code, 'CASE STUDY');
    const before = await groupRows();
    const dup = await t.req('PUT', `${API}/customer-groups/${g.id}`, { token: admin, body: { code: 'retailer' } });
    assertError(dup, 409, 'conflict');
    assert.deepEqual(await groupRows(), before);
  });

  test('group 0 keeps its code but may change its tax class', async () => {
    const before = await groupRows();
    const r = await t.req('PUT', `${API}/customer-groups/0`, { token: admin, body: { code: 'Guests' } });
    assertError(r, 400, 'bad_request');
    assert.deepEqual(await groupRows(), before);
    const same = await t.req('PUT', `${API}/customer-groups/0`, { token: admin, body: { code: 'NOT LOGGED IN', taxClassId: 3 } });
    assert.equal(same.status, 200);
    assert.equal(same.body.code, 'NOT LOGGED IN');
  });

  test('bad input is a 400 and changes nothing; unknown is a 404', async () => {
    const g = await create('Unchanged');
    const before = await groupRows();
    for (const body of [
      { code: '' },
      { code: ' ' },
      { code: 'z'.repeat(33) },
      { code: 7 },
      { taxClassId: 4 },
      { taxClassId: 'x' },
      { code: 'New', taxClassId: 998 },
      [],
    ]) {
      assertError(await t.req('PUT', `${API}/customer-groups/${g.id}`, { token: admin, body }), 400, 'bad_request');
    }
    assertError(
      await t.req('PUT', `${API}/customer-groups/${g.id}`, { token: admin, raw: '{', headers: { 'content-type': 'application/json' } }),
      400,
      'bad_request',
    );
    assertError(await t.req('PUT', `${API}/customer-groups/abc`, { token: admin, body: { code: 'x' } }), 400, 'bad_request');
    assertError(await t.req('PUT', `${API}/customer-groups/9999`, { token: admin, body: { code: 'x' } }), 404, 'not_found');
    assert.deepEqual(await groupRows(), before);
  });

  test('needs customer-groups/write', async () => {
    const before = await groupRows();
    assertError(await t.req('PUT', `${API}/customer-groups/2`, { body: { code: 'A' } }), 401, 'unauthorized');
    assertError(await t.req('PUT', `${API}/customer-groups/2`, { token: customer, body: { code: 'B' } }), 403, 'forbidden');
    assertError(await t.req('PUT', `${API}/customer-groups/2`, { token: tok.read, body: { code: 'C' } }), 403, 'forbidden');
    assertError(await t.req('PUT', `${API}/customer-groups/2`, { token: tok.delete, body: { code: 'D' } }), 403, 'forbidden');
    assert.deepEqual(await groupRows(), before);
  });
});

describe('DELETE /customer-groups/{id}', () => {
  test('deletes a group (204, empty body); it is gone afterwards', async () => {
    const g = await create('Short Lived');
    const r = await t.req('DELETE', `${API}/customer-groups/${g.id}`, { token: tok.delete });
    assert.equal(r.status, 204);
    assert.equal(r.text, '');
    assertError(await t.req('GET', `${API}/customer-groups/${g.id}`, { token: admin }), 404, 'not_found');
    assertError(await t.req('DELETE', `${API}/customer-groups/${g.id}`, { token: admin }), 404, 'not_found');
  });

  test("moves the group's customers to the default group, in one go", async () => {
    const db = t.database.db;
    const g = await create('Movers');
    const general = await db.select({ id: customers.id }).from(customers).where(eq(customers.groupId, 1));
    assert.ok(general.length > 0, 'the demo data has customers in General');
    assert.equal(await moveCustomersToGroup(t.systemCtx(), 1, g.id), general.length);
    assert.equal((await db.select().from(customers).where(eq(customers.groupId, g.id))).length, general.length);
    const r = await t.req('DELETE', `${API}/customer-groups/${g.id}`, { token: admin });
    assert.equal(r.status, 204);
    const back = await db.select({ id: customers.id }).from(customers).where(eq(customers.groupId, 1));
    assert.deepEqual(back.map((c) => c.id).sort(), general.map((c) => c.id).sort());
  });

  test('customers move to the default group configured for their website', async () => {
    const db = t.database.db;
    const reg = t.services.settings;
    const g = await create('Website Movers');
    await moveCustomersToGroup(t.systemCtx(), 1, g.id);
    await setConfig(db, reg, 'customer/create_account/default_group', '3', 'websites', 1);
    try {
      assert.equal((await t.req('DELETE', `${API}/customer-groups/${g.id}`, { token: admin })).status, 204);
      const moved = await db.select({ groupId: customers.groupId }).from(customers);
      assert.ok(moved.length > 0 && moved.every((c) => c.groupId === 3));
    } finally {
      await deleteConfig(db, reg, 'customer/create_account/default_group', 'websites', 1);
      await moveCustomersToGroup(t.systemCtx(), 3, 1);
    }
  });

  test('a failure after customers were moved rolls the move back', async () => {
    const db = t.database.db;
    const reg = t.services.settings;
    const g = await create('Rollback');
    const n = await moveCustomersToGroup(t.systemCtx(), 1, g.id);
    // the website's default group is valid, the default scope's is not: found only after the website's customers moved
    await setConfig(db, reg, 'customer/create_account/default_group', '1', 'websites', 1);
    await setConfig(db, reg, 'customer/create_account/default_group', '999', 'default', 0);
    try {
      const r = await t.req('DELETE', `${API}/customer-groups/${g.id}`, { token: admin });
      assertError(r, 409, 'conflict');
      assert.match(r.body.message, /customer\/create_account\/default_group/);
      assert.equal((await db.select().from(customers).where(eq(customers.groupId, g.id))).length, n);
      assert.ok((await groupRows()).some((row) => row.id === g.id));
    } finally {
      await deleteConfig(db, reg, 'customer/create_account/default_group', 'default', 0);
      await deleteConfig(db, reg, 'customer/create_account/default_group', 'websites', 1);
      await moveCustomersToGroup(t.systemCtx(), g.id, 1);
    }
  });

  test('group 0 cannot be deleted (400)', async () => {
    const r = await t.req('DELETE', `${API}/customer-groups/0`, { token: admin });
    assertError(r, 400, 'bad_request');
    assert.match(r.body.message, /NOT LOGGED IN/);
    assert.equal((await groupRows()).find((g) => g.id === 0)?.code, 'NOT LOGGED IN');
  });

  test('a default group of new accounts cannot be deleted (409), in whichever store view it is the default', async () => {
    const r = await t.req('DELETE', `${API}/customer-groups/1`, { token: admin });
    assertError(r, 409, 'conflict');
    assert.match(r.body.message, /default group/);
    const db = t.database.db;
    const reg = t.services.settings;
    const germanId = reg.storeByCode('german')!.id;
    await setConfig(db, reg, 'customer/create_account/default_group', '2', 'stores', germanId);
    try {
      assertError(await t.req('DELETE', `${API}/customer-groups/2`, { token: admin }), 409, 'conflict');
    } finally {
      await deleteConfig(db, reg, 'customer/create_account/default_group', 'stores', germanId);
    }
    assert.ok((await groupRows()).some((g) => g.id === 1));
    assert.ok((await groupRows()).some((g) => g.id === 2));
  });

  test('a malformed id is a 400', async () => {
    for (const id of ['abc', '-1', '99999999999']) {
      assertError(await t.req('DELETE', `${API}/customer-groups/${id}`, { token: admin }), 400, 'bad_request');
    }
  });

  test('needs customer-groups/delete (write is not enough)', async () => {
    const g = await create('Keep Me');
    assertError(await t.req('DELETE', `${API}/customer-groups/${g.id}`), 401, 'unauthorized');
    assertError(await t.req('DELETE', `${API}/customer-groups/${g.id}`, { token: customer }), 403, 'forbidden');
    assertError(await t.req('DELETE', `${API}/customer-groups/${g.id}`, { token: tok.write }), 403, 'forbidden');
    assertError(await t.req('DELETE', `${API}/customer-groups/${g.id}`, { token: tok.read }), 403, 'forbidden');
    assert.ok((await groupRows()).some((row) => row.id === g.id));
  });
});

describe('GraphQL customer groups', () => {
  async function gql(query: string, variables: Record<string, unknown> = {}, token?: string) {
    const r = await t.req('POST', '/api/graphql', { token, body: { query, variables } });
    assert.equal(r.status, 200, r.text);
    return r.body as { data: Record<string, any> | null; errors?: { message: string; extensions: { code: string; status: number } }[] };
  }
  const LIST = 'query { customerGroups(first: 100) { totalCount edges { node { _id code taxClassId taxClassName } } } }';
  const iri = (id: number) => `/api/rest/v2/customer-groups/${id}`;
  const nodes = (c: { edges: { node: Record<string, unknown> }[] }) => c.edges.map((e) => e.node);

  test('anonymous callers and customers get an error with extensions.code', async () => {
    const anon = await gql(LIST);
    assert.equal(anon.data?.customerGroups ?? null, null);
    assert.equal(anon.errors?.[0].extensions.code, 'UNAUTHENTICATED');
    assert.equal(anon.errors?.[0].extensions.status, 401);
    const cust = await gql(LIST, {}, customer);
    assert.equal(cust.errors?.[0].extensions.code, 'ADMIN_REQUIRED');
    const none = await gql(LIST, {}, tok.none);
    assert.equal(none.errors?.[0].extensions.code, 'PERMISSION_DENIED');
    assert.equal(none.errors?.[0].extensions.status, 403);
  });

  test('an admin lists and reads groups', async () => {
    const r = await gql(LIST, {}, admin);
    assert.equal(r.errors, undefined);
    const rest = await t.req('GET', `${API}/customer-groups?itemsPerPage=100`, { token: admin });
    assert.equal(r.data!.customerGroups.totalCount, rest.body.totalItems);
    assert.deepEqual(
      nodes(r.data!.customerGroups).slice(0, 20),
      rest.body.member
        .slice(0, 20)
        .map(({ id, ...g }: { id: number }) => ({ _id: id, ...g, taxClassName: (g as { taxClassName?: string }).taxClassName ?? null })),
    );
    const paged = await gql('query { customerGroups(page: 2, pageSize: 1) { totalCount edges { node { _id } } } }', {}, tok.read);
    assert.deepEqual(nodes(paged.data!.customerGroups), [{ _id: rest.body.member[1].id }]);
    const cursor = await gql('query { customerGroups(first: 1) { edges { cursor } } }', {}, tok.read);
    const after = await gql(
      `query { customerGroups(first: 1, after: "${cursor.data!.customerGroups.edges[0].cursor}") { edges { node { _id } } pageInfo { hasPreviousPage } } }`,
      {},
      tok.read,
    );
    assert.deepEqual(nodes(after.data!.customerGroups), [{ _id: rest.body.member[1].id }]);
    assert.equal(after.data!.customerGroups.pageInfo.hasPreviousPage, true);
    const search = await gql('query { customerGroups(search: "WHOLE") { totalCount edges { node { code } } } }', {}, admin);
    assert.deepEqual(nodes(search.data!.customerGroups), [{ code: 'Wholesale' }]);
    const one = await gql('query($id: ID!) { customerGroup(id: $id) { id _id code taxClassName } }', { id: iri(2) }, admin);
    assert.deepEqual(one.data!.customerGroup, { id: iri(2), _id: 2, code: 'Wholesale', taxClassName: 'Retail Customer' });
    const byNumber = await gql('query { customerGroup(id: 2) { _id } }', {}, admin);
    assert.deepEqual(byNumber.data!.customerGroup, { _id: 2 });
    const missing = await gql('query { customerGroup(id: 9999) { id } }', {}, admin);
    assert.equal(missing.data!.customerGroup, null);
    assert.equal(missing.errors?.[0].extensions.code, 'GROUP_NOT_FOUND');
    assert.equal(missing.errors?.[0].extensions.status, 404);
  });

  test('create, update and delete with the same rules as REST', async () => {
    const created = await gql(
      'mutation($input: createCustomerGroupInput!) { createCustomerGroup(input: $input) { customerGroup { _id code taxClassId taxClassName } clientMutationId } }',
      { input: { code: ' GraphQL Group ', clientMutationId: 'c1' } },
      admin,
    );
    assert.equal(created.errors, undefined);
    assert.equal(created.data!.createCustomerGroup.clientMutationId, 'c1');
    const g = created.data!.createCustomerGroup.customerGroup;
    assert.deepEqual({ ...g, _id: 0 }, { _id: 0, code: 'GraphQL Group', taxClassId: 3, taxClassName: 'Retail Customer' });

    const dup = await gql('mutation { createCustomerGroup(input: { code: "graphql group" }) { customerGroup { _id } } }', {}, admin);
    assert.equal(dup.errors?.[0].extensions.code, 'GROUP_CODE_TAKEN');
    assert.equal(dup.errors?.[0].extensions.status, 409);
    const badTax = await gql(
      'mutation { createCustomerGroup(input: { code: "Other", taxClassId: 2 }) { customerGroup { _id } } }',
      {},
      admin,
    );
    assert.equal(badTax.errors?.[0].extensions.code, 'INVALID_TAX_CLASS');
    const long = await gql(
      'mutation($c: String!) { createCustomerGroup(input: { code: $c }) { customerGroup { _id } } }',
      { c: 'q'.repeat(33) },
      admin,
    );
    assert.equal(long.errors?.[0].extensions.status, 400);

    const updated = await gql(
      'mutation($id: ID!) { updateCustomerGroup(input: { id: $id, code: "GraphQL Renamed", taxClassId: null }) { customerGroup { _id code taxClassId } } }',
      { id: iri(g._id) },
      tok.write,
    );
    assert.deepEqual(updated.data!.updateCustomerGroup.customerGroup, { _id: g._id, code: 'GraphQL Renamed', taxClassId: 3 });
    const readOnly = await gql(
      'mutation($id: ID!) { updateCustomerGroup(input: { id: $id, code: "Nope" }) { customerGroup { _id } } }',
      { id: iri(g._id) },
      tok.read,
    );
    assert.equal(readOnly.errors?.[0].extensions.code, 'PERMISSION_DENIED');

    const del = (id: string | number) => `mutation { deleteCustomerGroup(input: { id: "${id}" }) { customerGroup { id } } }`;
    const writerDelete = await gql(del(iri(g._id)), {}, tok.write);
    assert.equal(writerDelete.errors?.[0].extensions.code, 'PERMISSION_DENIED');
    const zero = await gql(del(0), {}, admin);
    assert.equal(zero.errors?.[0].extensions.code, 'GROUP_NOT_DELETABLE');
    const deflt = await gql(del(1), {}, admin);
    assert.equal(deflt.errors?.[0].extensions.code, 'GROUP_IS_DEFAULT');
    const deleted = await gql(del(iri(g._id)), {}, tok.delete);
    assert.deepEqual(deleted, { data: { deleteCustomerGroup: { customerGroup: { id: iri(g._id) } } } });
    assert.equal((await t.req('GET', `${API}/customer-groups/${g._id}`, { token: admin })).status, 404);
  });

  test('anonymous mutations change nothing', async () => {
    const before = await groupRows();
    const r = await gql('mutation { createCustomerGroup(input: { code: "Anonymous" }) { customerGroup { _id } } }');
    assert.equal(r.errors?.[0].extensions.code, 'UNAUTHENTICATED');
    const d = await gql('mutation { deleteCustomerGroup(input: { id: 3 }) { customerGroup { id } } }');
    assert.equal(d.errors?.[0].extensions.code, 'UNAUTHENTICATED');
    assert.deepEqual(await groupRows(), before);
  });
});
