/** CMS pages over REST: visibility per store view and status, access per grant, validation, conflicts, URL paths. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API, buildTestApp, type Res, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let admin: string;
let customer: string;
let reader: string;
let writer: string;
let deleter: string;
let n = 0;

before(async () => {
  t = await buildTestApp();
  admin = await t.tokens.admin();
  customer = await t.tokens.customer();
  reader = await t.tokens.apiUser(['cms-pages/read']);
  writer = await t.tokens.apiUser(['cms-pages/write']);
  deleter = await t.tokens.apiUser(['cms-pages/delete']);
});
after(() => t.close());

const JSON_ONLY = { accept: 'application/json' };

function assertError(r: Res, status: number, error: string) {
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.error, error, r.text);
}

const uniq = (p: string) => `${p}-${++n}`;

async function create(body: Record<string, unknown>, token = admin): Promise<Record<string, any>> {
  const r = await t.req('POST', `${API}/cms-pages`, { token, body });
  assert.equal(r.status, 201, r.text);
  return r.body;
}

async function allPages(): Promise<Record<string, any>[]> {
  const r = await t.req('GET', `${API}/cms-pages?scope=all&itemsPerPage=100`, { token: admin, headers: JSON_ONLY });
  assert.equal(r.status, 200, r.text);
  return r.body;
}

async function resolve(path: string, store?: string): Promise<Res> {
  return t.req('GET', `${API}/url-resolver`, { query: { path, ...(store ? { store } : {}) }, headers: JSON_ONLY });
}

describe('demo pages', () => {
  test('home, about-us and no-route are public, active, in every store view, alphabetical by title', async () => {
    const r = await t.req('GET', `${API}/cms-pages`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body['@context'], '/api/contexts/CmsPage');
    const demo = r.body.member.filter((p: any) => ['home', 'about-us', 'no-route'].includes(p.identifier));
    assert.deepEqual(
      demo.map((p: any) => p.identifier),
      ['no-route', 'about-us', 'home'],
    );
    for (const p of demo) {
      assert.equal(p.status, 'enabled');
      assert.equal(p.isActive, true);
      assert.deepEqual(p.stores, [0]);
      assert.match(p.createdAt, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      assert.match(p.updatedAt, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    }
    const german = await t.req('GET', `${API}/cms-pages`, { query: { store: 'german', identifier: 'about-us' }, headers: JSON_ONLY });
    assert.equal(german.body.length, 1);
  });

  test('the URL resolver finds about-us', async () => {
    const about = (await t.req('GET', `${API}/cms-pages?identifier=about-us`, { headers: JSON_ONLY })).body[0];
    assert.deepEqual((await resolve('about-us')).body, [{ type: 'cms_page', id: about.id, identifier: 'about-us', redirectType: 0 }]);
    assert.deepEqual((await resolve('/About-Us/', 'german')).body, [
      { type: 'cms_page', id: about.id, identifier: 'about-us', redirectType: 0 },
    ]);
  });
});

describe('POST /cms-pages', () => {
  test('201 with defaults: active, every store view, status enabled; nulls omitted', async () => {
    const identifier = uniq('new-page');
    const p = await create({ identifier, title: '  New page ', unknownKey: 1 });
    assert.equal(typeof p.id, 'number');
    assert.equal(p.identifier, identifier);
    assert.equal(p.title, 'New page');
    assert.equal(p.content, '');
    assert.equal(p.isActive, true);
    assert.equal(p.status, 'enabled');
    assert.deepEqual(p.stores, [0]);
    assert.equal(p.metaRobots, undefined);
    assert.equal(p.unknownKey, undefined);
    const got = await t.req('GET', `${API}/cms-pages/${p.id}`);
    assert.equal(got.status, 200);
    assert.equal(got.body.identifier, identifier);
  });

  test('all fields round-trip; back-office fields only for back-office readers', async () => {
    const p = await create({
      identifier: uniq('full/page.html'),
      title: 'Full',
      contentHeading: 'Heading',
      content: '<p>x</p>',
      metaKeywords: 'k',
      metaDescription: 'd',
      metaRobots: 'noindex,follow',
      pageLayout: 'two_columns_left',
      sortOrder: 3,
      layoutUpdateXml: '<xml/>',
      customTheme: 'theme',
      customRootTemplate: 'root',
      customLayoutUpdateXml: '<x/>',
      customThemeFrom: '2026-01-01',
      customThemeTo: '2026-12-31',
      stores: ['default', 2],
    });
    assert.equal(p.metaRobots, 'NOINDEX,FOLLOW');
    assert.equal(p.sortOrder, 3);
    assert.deepEqual(p.stores, [1, 2]);
    assert.equal(p.layoutUpdateXml, '<xml/>');
    assert.equal(p.customThemeFrom, '2026-01-01');
    assert.equal(p.customThemeTo, '2026-12-31');
    const pub = (await t.req('GET', `${API}/cms-pages/${p.id}`)).body;
    assert.equal(pub.contentHeading, 'Heading');
    for (const k of ['layoutUpdateXml', 'customTheme', 'customRootTemplate', 'customLayoutUpdateXml', 'customThemeFrom', 'customThemeTo']) {
      assert.equal(pub[k], undefined, k);
    }
    assert.equal((await t.req('GET', `${API}/cms-pages/${p.id}`, { token: customer })).body.customTheme, undefined);
    assert.equal((await t.req('GET', `${API}/cms-pages/${p.id}`, { token: reader })).body.customTheme, 'theme');
  });

  test('stores accepts ["all"] and 0', async () => {
    assert.deepEqual((await create({ identifier: uniq('all-a'), title: 'A', stores: ['all'] })).stores, [0]);
    assert.deepEqual((await create({ identifier: uniq('all-b'), title: 'B', stores: [0, 2] })).stores, [0]);
    assert.deepEqual((await create({ identifier: uniq('ger'), title: 'G', stores: ['german'] })).stores, [2]);
  });

  test('bad input is a 400 and creates nothing', async () => {
    const before = (await allPages()).length;
    const bad: Record<string, unknown>[] = [
      { title: 'no identifier' },
      { identifier: uniq('no-title') },
      { identifier: uniq('blank-title'), title: '   ' },
      { identifier: '', title: 'x' },
      { identifier: 'About Us', title: 'x' },
      { identifier: 'Upper', title: 'x' },
      { identifier: 'a?b', title: 'x' },
      { identifier: '/lead', title: 'x' },
      { identifier: 'a//b', title: 'x' },
      { identifier: 'x'.repeat(101), title: 'x' },
      { identifier: uniq('robots'), title: 'x', metaRobots: 'FOLLOW' },
      { identifier: uniq('store'), title: 'x', stores: [999] },
      { identifier: uniq('store'), title: 'x', stores: ['nowhere'] },
      { identifier: uniq('store'), title: 'x', stores: [] },
      { identifier: uniq('date'), title: 'x', customThemeFrom: '2026-02-30' },
      { identifier: 5, title: 'x' },
      { identifier: uniq('active'), title: 'x', isActive: 'maybe' },
    ];
    for (const body of bad) assertError(await t.req('POST', `${API}/cms-pages`, { token: admin, body }), 400, 'bad_request');
    assert.equal((await allPages()).length, before);
    // 100 characters are fine
    await create({ identifier: `${'y'.repeat(96)}-${++n % 10}z.`.slice(0, 100), title: 'long' });
  });

  test('an identifier is unique per store view (409); other store views may reuse it', async () => {
    const identifier = uniq('dup');
    const a = await create({ identifier, title: 'German', stores: ['german'] });
    const before = (await allPages()).length;
    for (const stores of [['german'], ['all'], [1, 2], undefined]) {
      const r = await t.req('POST', `${API}/cms-pages`, { token: admin, body: { identifier, title: 'x', stores } });
      assertError(r, 409, 'conflict');
    }
    assert.equal((await allPages()).length, before);
    const b = await create({ identifier, title: 'Default', stores: ['default'] });
    assert.notEqual(a.id, b.id);
    // a page in every store view clashes with any store view
    const everywhere = uniq('everywhere');
    await create({ identifier: everywhere, title: 'x' });
    assertError(
      await t.req('POST', `${API}/cms-pages`, { token: admin, body: { identifier: everywhere, title: 'y', stores: ['german'] } }),
      409,
      'conflict',
    );
  });

  test('parallel creates of one identifier: one 201, the rest 409', async () => {
    const identifier = uniq('race');
    const rs = await Promise.all(
      Array.from({ length: 5 }, () => t.req('POST', `${API}/cms-pages`, { token: admin, body: { identifier, title: 'r' } })),
    );
    assert.deepEqual(rs.map((r) => r.status).sort(), [201, 409, 409, 409, 409]);
    assert.equal((await allPages()).filter((p) => p.identifier === identifier).length, 1);
  });

  test('access: anonymous 401, customer 403, read-only 403, write grant 201', async () => {
    const body = { identifier: uniq('acl'), title: 'x' };
    assertError(await t.req('POST', `${API}/cms-pages`, { body }), 401, 'unauthorized');
    assertError(await t.req('POST', `${API}/cms-pages`, { token: customer, body }), 403, 'forbidden');
    assertError(await t.req('POST', `${API}/cms-pages`, { token: reader, body }), 403, 'forbidden');
    assertError(await t.req('POST', `${API}/cms-pages`, { token: await t.tokens.apiUser(['cms-blocks/all']), body }), 403, 'forbidden');
    await create(body, writer);
  });
});

describe('GET /cms-pages visibility', () => {
  test('inactive and other-store pages are 404 for public callers; back-office readers see them', async () => {
    const off = await create({ identifier: uniq('off'), title: 'Off', isActive: false });
    assert.equal(off.status, 'disabled');
    const ger = await create({ identifier: uniq('ger-only'), title: 'Ger', stores: ['german'] });
    for (const token of [undefined, customer, writer]) {
      assertError(await t.req('GET', `${API}/cms-pages/${off.id}`, { token }), 404, 'not_found');
      assertError(await t.req('GET', `${API}/cms-pages/${ger.id}`, { token }), 404, 'not_found');
    }
    assertError(await t.req('GET', `${API}/cms-pages/${off.id}`, { query: { store: 'german' } }), 404, 'not_found');
    assert.equal((await t.req('GET', `${API}/cms-pages/${ger.id}`, { query: { store: 'german' } })).status, 200);
    for (const token of [admin, reader]) {
      const r = await t.req('GET', `${API}/cms-pages/${off.id}`, { token });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.isActive, false);
      assert.equal((await t.req('GET', `${API}/cms-pages/${ger.id}`, { token })).status, 200);
    }
    assertError(await t.req('GET', `${API}/cms-pages/999999`, { token: admin }), 404, 'not_found');
    // lists
    const pub = (await t.req('GET', `${API}/cms-pages?itemsPerPage=100`, { headers: JSON_ONLY })).body.map((p: any) => p.id);
    assert.ok(!pub.includes(off.id) && !pub.includes(ger.id));
    const pubGer = (await t.req('GET', `${API}/cms-pages?itemsPerPage=100&store=german`, { headers: JSON_ONLY })).body.map(
      (p: any) => p.id,
    );
    assert.ok(pubGer.includes(ger.id) && !pubGer.includes(off.id));
    const all = (await allPages()).map((p) => p.id);
    assert.ok(all.includes(off.id) && all.includes(ger.id));
  });

  test('scope=all: anonymous 401, customer 403, API user without read 403; other values 400', async () => {
    assertError(await t.req('GET', `${API}/cms-pages?scope=all`), 401, 'unauthorized');
    assertError(await t.req('GET', `${API}/cms-pages?scope=all`, { token: customer }), 403, 'forbidden');
    assertError(await t.req('GET', `${API}/cms-pages?scope=all`, { token: writer }), 403, 'forbidden');
    assert.equal((await t.req('GET', `${API}/cms-pages?scope=all`, { token: reader })).status, 200);
    assertError(await t.req('GET', `${API}/cms-pages?scope=everything`, { token: admin }), 400, 'bad_request');
  });

  test('filters: identifier, search and q (at least 3 characters), dates, paging', async () => {
    const p = await create({ identifier: uniq('filter-me'), title: 'Zebra Stripes', content: 'findable-needle' });
    const byId = await t.req('GET', `${API}/cms-pages`, { query: { identifier: p.identifier } });
    assert.equal(byId.body.totalItems, 1);
    assert.equal(byId.body.member[0].id, p.id);
    assert.equal((await t.req('GET', `${API}/cms-pages`, { query: { identifier: 'nope-nope' } })).body.totalItems, 0);
    for (const query of [{ search: 'zebra' }, { q: 'ZEBRA' }, { search: 'findable-needle' }] as Record<string, string>[]) {
      const r = await t.req('GET', `${API}/cms-pages`, { query, headers: JSON_ONLY });
      assert.deepEqual(
        r.body.map((x: any) => x.id),
        [p.id],
        JSON.stringify(query),
      );
    }
    for (const query of [{ search: 'ab' }, { q: ' a ' }, { search: '' }] as Record<string, string>[]) {
      assertError(await t.req('GET', `${API}/cms-pages`, { query }), 400, 'bad_request');
    }
    assert.equal((await t.req('GET', `${API}/cms-pages`, { query: { search: '%%%' } })).body.totalItems, 0);
    assert.equal((await t.req('GET', `${API}/cms-pages`, { query: { createdFrom: '2000-01-01', search: 'zebra' } })).body.totalItems, 1);
    assert.equal((await t.req('GET', `${API}/cms-pages`, { query: { createdTo: '2000-01-01', search: 'zebra' } })).body.totalItems, 0);
    assert.equal((await t.req('GET', `${API}/cms-pages`, { query: { updatedSince: '2999-01-01 00:00:00' } })).body.totalItems, 0);
    assertError(await t.req('GET', `${API}/cms-pages`, { query: { createdFrom: 'yesterday' } }), 400, 'bad_request');
    const page = await t.req('GET', `${API}/cms-pages`, { query: { itemsPerPage: '1' } });
    assert.equal(page.body.member.length, 1);
    assert.ok(page.body.totalItems > 1);
    assert.ok(page.body.view.next);
  });
});

describe('PUT /cms-pages/{id}', () => {
  test('changes only the fields sent', async () => {
    const p = await create({ identifier: uniq('put'), title: 'Before', content: 'keep', metaRobots: 'INDEX,FOLLOW' });
    const r = await t.req('PUT', `${API}/cms-pages/${p.id}`, { token: admin, body: { title: 'After' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.title, 'After');
    assert.equal(r.body.content, 'keep');
    assert.equal(r.body.metaRobots, 'INDEX,FOLLOW');
    assert.equal(r.body.identifier, p.identifier);
    const r2 = await t.req('PUT', `${API}/cms-pages/${p.id}`, {
      token: writer,
      body: { metaRobots: null, isActive: false, stores: ['german'] },
    });
    assert.equal(r2.status, 200, r2.text);
    assert.equal(r2.body.metaRobots, undefined);
    assert.equal(r2.body.status, 'disabled');
    assert.deepEqual(r2.body.stores, [2]);
    assert.equal(r2.body.title, 'After');
  });

  test('bad input 400, clash 409, unknown 404; nothing changes', async () => {
    const taken = await create({ identifier: uniq('taken'), title: 'T' });
    const p = await create({ identifier: uniq('mine'), title: 'M' });
    const bodies = [{ identifier: 'Bad Id' }, { title: '' }, { metaRobots: 'NOPE' }, { stores: ['nowhere'] }, { identifier: null }];
    for (const body of bodies) assertError(await t.req('PUT', `${API}/cms-pages/${p.id}`, { token: admin, body }), 400, 'bad_request');
    assertError(
      await t.req('PUT', `${API}/cms-pages/${p.id}`, { token: admin, body: { identifier: taken.identifier, title: 'changed' } }),
      409,
      'conflict',
    );
    const now = (await t.req('GET', `${API}/cms-pages/${p.id}`, { token: admin })).body;
    assert.equal(now.identifier, p.identifier);
    assert.equal(now.title, 'M');
    assertError(await t.req('PUT', `${API}/cms-pages/999999`, { token: admin, body: { title: 'x' } }), 404, 'not_found');
    // keeping its own identifier is no clash
    assert.equal(
      (await t.req('PUT', `${API}/cms-pages/${p.id}`, { token: admin, body: { identifier: p.identifier, stores: ['all'] } })).status,
      200,
    );
  });

  test('access: anonymous 401, customer 403, read-only 403', async () => {
    const p = await create({ identifier: uniq('put-acl'), title: 'x' });
    assertError(await t.req('PUT', `${API}/cms-pages/${p.id}`, { body: { title: 'y' } }), 401, 'unauthorized');
    assertError(await t.req('PUT', `${API}/cms-pages/${p.id}`, { token: customer, body: { title: 'y' } }), 403, 'forbidden');
    assertError(await t.req('PUT', `${API}/cms-pages/${p.id}`, { token: reader, body: { title: 'y' } }), 403, 'forbidden');
    assert.equal((await t.req('GET', `${API}/cms-pages/${p.id}`)).body.title, 'x');
  });
});

describe('DELETE /cms-pages/{id}', () => {
  test('204; a write grant is not enough (403); anonymous 401; unknown 404', async () => {
    const p = await create({ identifier: uniq('del'), title: 'x' });
    assertError(await t.req('DELETE', `${API}/cms-pages/${p.id}`), 401, 'unauthorized');
    assertError(await t.req('DELETE', `${API}/cms-pages/${p.id}`, { token: customer }), 403, 'forbidden');
    assertError(await t.req('DELETE', `${API}/cms-pages/${p.id}`, { token: writer }), 403, 'forbidden');
    assert.equal((await t.req('GET', `${API}/cms-pages/${p.id}`)).status, 200);
    const r = await t.req('DELETE', `${API}/cms-pages/${p.id}`, { token: deleter });
    assert.equal(r.status, 204, r.text);
    assert.equal(r.text, '');
    assertError(await t.req('GET', `${API}/cms-pages/${p.id}`, { token: admin }), 404, 'not_found');
    assertError(await t.req('DELETE', `${API}/cms-pages/${p.id}`, { token: admin }), 404, 'not_found');
  });
});

describe('URL paths', () => {
  test('a page resolves where it is shown and while active; a new identifier leaves a 301; delete removes it', async () => {
    const identifier = uniq('landing/page');
    const p = await create({ identifier, title: 'Landing', stores: ['german'] });
    const hit = [{ type: 'cms_page', id: p.id, identifier, redirectType: 0 }];
    assert.deepEqual((await resolve(identifier, 'german')).body, hit);
    assert.deepEqual((await resolve(identifier)).body, []);
    await t.req('PUT', `${API}/cms-pages/${p.id}`, { token: admin, body: { isActive: false } });
    assert.deepEqual((await resolve(identifier, 'german')).body, []);
    await t.req('PUT', `${API}/cms-pages/${p.id}`, { token: admin, body: { isActive: true, identifier: `${identifier}-new` } });
    assert.deepEqual((await resolve(`${identifier}-new`, 'german')).body, [
      { type: 'cms_page', id: p.id, identifier: `${identifier}-new`, redirectType: 0 },
    ]);
    assert.deepEqual((await resolve(identifier, 'german')).body, [
      { type: 'redirect', redirectUrl: `${identifier}-new`, redirectType: 301 },
    ]);
    await t.req('DELETE', `${API}/cms-pages/${p.id}`, { token: admin });
    assert.deepEqual((await resolve(`${identifier}-new`, 'german')).body, []);
    assert.deepEqual((await resolve(identifier, 'german')).body, []);
  });

  test('a path held by a category in the store view is a 409 and creates nothing', async () => {
    const cat = await t.req('POST', `${API}/categories`, { token: admin, body: { name: 'Cms Clash Cat' } });
    assert.equal(cat.status, 201, cat.text);
    const before = (await allPages()).length;
    assertError(
      await t.req('POST', `${API}/cms-pages`, { token: admin, body: { identifier: 'cms-clash-cat', title: 'x', stores: ['default'] } }),
      409,
      'conflict',
    );
    assert.equal((await allPages()).length, before);
  });
});

describe('content directives', () => {
  test('the storefront gets media, store, block and allowed config directives rendered; the back office the stored text', async () => {
    const blockId = uniq('dir-block');
    const b = await t.req('POST', `${API}/cms-blocks`, {
      token: admin,
      body: { identifier: blockId, title: 'Inner', content: 'Inner {{store direct_url="inner"}}' },
    });
    assert.equal(b.status, 201, b.text);
    const loop = uniq('dir-loop');
    // a block naming itself renders once and stops
    const l = await t.req('POST', `${API}/cms-blocks`, {
      token: admin,
      body: { identifier: loop, title: 'Loop', content: `L[{{block id="${loop}"}}]` },
    });
    assert.equal(l.status, 201, l.text);
    const content = [
      '<img src="{{media url="wysiwyg/banner.webp"}}">',
      '<a href="{{store url=\'customer/account\'}}">A</a>',
      '<a href="{{store direct_url="about-us"}}">B</a>',
      `<div>{{block id="${blockId}"}}</div>`,
      `<div>{{block id="${b.body.id}"}}</div>`,
      `<div>{{block id="${loop}"}}</div>`,
      '<div>{{block id="no-such-block"}}</div>',
      '<p>{{config path="web/unsecure/base_url"}}</p>',
      '<p>[{{config path="payment/checkmo/title"}}]</p>',
      '<p>{{widget type="cms/widget_page_link" page_id="2"}}</p>',
      '<p>{{media url="../../etc/passwd"}}</p>',
    ].join('\n');
    const page = await create({ identifier: uniq('directives'), title: 'Directives', content });
    const pub = await t.req('GET', `${API}/cms-pages/${page.id}`, { headers: JSON_ONLY });
    assert.equal(pub.status, 200, pub.text);
    assert.deepEqual(pub.body.content.split('\n'), [
      '<img src="http://shop.test/media/wysiwyg/banner.webp">',
      '<a href="http://shop.test/customer/account/">A</a>',
      '<a href="http://shop.test/about-us">B</a>',
      '<div>Inner http://shop.test/inner</div>',
      '<div>Inner http://shop.test/inner</div>',
      '<div>L[]</div>',
      '<div></div>',
      '<p>http://shop.test/</p>',
      '<p>[]</p>',
      '<p>{{widget type="cms/widget_page_link" page_id="2"}}</p>',
      '<p>http://shop.test/media/etc/passwd</p>',
    ]);
    const list = await t.req('GET', `${API}/cms-pages`, { query: { identifier: page.identifier }, headers: JSON_ONLY });
    assert.equal(list.body[0].content, pub.body.content);
    const blockPub = await t.req('GET', `${API}/cms-blocks/${l.body.id}`, { headers: JSON_ONLY });
    assert.equal(blockPub.body.content, 'L[]');
    const back = await t.req('GET', `${API}/cms-pages/${page.id}`, { token: admin, headers: JSON_ONLY });
    assert.equal(back.body.content, content);
  });
});
