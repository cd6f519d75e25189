import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { countStatements } from '../../platform/db.js';
import { deleteConfig, setConfig } from '../stores/service.js';
import {
  createTaxClass,
  createTaxRate,
  createTaxRule,
  deleteTaxRate,
  postcodeMatches,
  resolveTaxRates,
  taxConfig,
  type TaxDestination,
} from './service.js';

let t: TestApp;
const CA = 12;
const NY = 43;
const TX = 57;

before(async () => {
  t = await buildTestApp();
});
after(() => t.close());

const ctx = () => t.systemCtx();
const us = (regionId: number | null, postcode: string | null = null): TaxDestination => ({ countryId: 'US', regionId, postcode });

/** percents of the result as plain strings, by class */
function summary(
  m: Map<number, { percent: { toString(): string }; rates: { code: string; title: string; percent: { toString(): string } }[] }>,
) {
  return Object.fromEntries(
    [...m.entries()].map(([k, v]) => [
      k,
      { percent: v.percent.toString(), rates: v.rates.map((r) => `${r.code}|${r.title}|${r.percent.toString()}`) },
    ]),
  );
}

async function productClass(name: string) {
  return (await createTaxClass(ctx(), { className: name, classType: 'PRODUCT' })).id;
}
async function rate(code: string, country: string, percent: number, extra: Record<string, unknown> = {}) {
  return (await createTaxRate(ctx(), { code, taxCountryId: country, rate: percent, ...extra })).id;
}
async function rule(code: string, productClassId: number, rateIds: number[], extra: Record<string, unknown> = {}) {
  return createTaxRule(ctx(), { code, customerTaxClassIds: [3], productTaxClassIds: [productClassId], taxRateIds: rateIds, ...extra });
}

describe('resolveTaxRates with the install and demo data', () => {
  test('region rates: CA 8.25, NY 8.375, TX none; only Taxable Goods is taxed', async () => {
    assert.deepEqual(summary(await resolveTaxRates(ctx(), us(CA, '90210'), 3, [2, 4])), {
      2: { percent: '8.25', rates: ['US-CA-*-Rate 1|US-CA-*-Rate 1|8.25'] },
    });
    assert.deepEqual(summary(await resolveTaxRates(ctx(), us(NY), 3, [2])), {
      2: { percent: '8.375', rates: ['US-NY-*-Rate 1|US-NY-*-Rate 1|8.375'] },
    });
    assert.equal((await resolveTaxRates(ctx(), us(TX), 3, [2])).size, 0);
    assert.equal((await resolveTaxRates(ctx(), us(null), 3, [2])).size, 0);
    assert.equal(
      (await resolveTaxRates(ctx(), { countryId: 'de', regionId: null, postcode: '10115' }, 3, [2])).get(2)?.percent.toString(),
      '19',
    );
  });

  test('a customer class no rule lists pays nothing; no classes or class 0 ask nothing', async () => {
    const other = await createTaxClass(ctx(), { className: 'Exempt customer', classType: 'CUSTOMER' });
    assert.equal((await resolveTaxRates(ctx(), us(CA), other.id, [2])).size, 0);
    // counted in the calls' own scope: a background pass of another part of the app must not count
    const { n } = await countStatements(async () => {
      assert.equal((await resolveTaxRates(ctx(), us(CA), 3, [])).size, 0);
      assert.equal((await resolveTaxRates(ctx(), us(CA), 0, [2])).size, 0);
    });
    assert.equal(n, 0);
  });

  test('one query for any number of product classes', async () => {
    const { n } = await countStatements(() => resolveTaxRates(ctx(), us(CA), 3, [2, 4, 77, 78, 79]));
    assert.equal(n, 1);
  });
});

describe('postcodes', () => {
  test('wildcard, prefix, exact (any case, spaces ignored), numeric range', async () => {
    const p = await productClass('Postcode goods');
    const any = await rate('GB any', 'GB', 10);
    const prefix = await rate('GB SW1', 'GB', 2, { taxPostcode: 'sw1*' });
    const exact = await rate('GB EC1A', 'GB', 1, { taxPostcode: 'EC1A 1BB' });
    await rule('GB postcodes', p, [any, prefix, exact]);
    const gb = (postcode: string | null) => resolveTaxRates(ctx(), { countryId: 'GB', regionId: null, postcode }, 3, [p]);
    assert.equal((await gb(null)).get(p)?.percent.toString(), '10');
    assert.equal((await gb('SW1A 1AA')).get(p)?.percent.toString(), '12');
    assert.equal((await gb('ec1a1bb')).get(p)?.percent.toString(), '11');
    assert.equal((await gb('EC1A 1BC')).get(p)?.percent.toString(), '10');
    assert.equal((await gb('SW2')).get(p)?.percent.toString(), '10');

    const r = await rate('AU range', 'AU', 5, { zipIsRange: true, zipFrom: '2000', zipTo: '2999' });
    await rule('AU range', p, [r]);
    const au = (postcode: string | null) => resolveTaxRates(ctx(), { countryId: 'AU', regionId: null, postcode }, 3, [p]);
    assert.equal((await au('2000')).get(p)?.percent.toString(), '5');
    assert.equal((await au('2999')).get(p)?.percent.toString(), '5');
    assert.equal((await au(' 2 500 ')).get(p)?.percent.toString(), '5');
    assert.equal((await au('3000')).size, 0);
    assert.equal((await au('1999')).size, 0);
    assert.equal((await au('ABC')).size, 0);
    assert.equal((await au(null)).size, 0);
  });

  test('postcodeMatches directly', () => {
    const pat = (postcode: string) => ({ postcode, zipIsRange: false, zipFrom: null, zipTo: null });
    assert.equal(postcodeMatches(pat('*'), null), true);
    assert.equal(postcodeMatches(pat('902*'), '90210'), true);
    assert.equal(postcodeMatches(pat('902*'), '91210'), false);
    assert.equal(postcodeMatches(pat('90210'), '90210'), true);
    assert.equal(postcodeMatches(pat('90210'), null), false);
    const range = { postcode: '100-200', zipIsRange: true, zipFrom: '100', zipTo: '200' };
    assert.equal(postcodeMatches(range, '150'), true);
    assert.equal(postcodeMatches(range, '150-1234'), true);
    assert.equal(postcodeMatches(range, '201'), false);
  });

  test('a rate for the whole country (no region) applies in every region', async () => {
    const p = await productClass('Country-wide goods');
    const all = await rate('US all regions', 'US', 1, { taxRegionId: 0 });
    const ca = await rate('US CA extra', 'US', 2, { taxRegionId: CA });
    await rule('US country-wide', p, [all, ca]);
    assert.equal((await resolveTaxRates(ctx(), us(TX), 3, [p])).get(p)?.percent.toString(), '1');
    assert.equal((await resolveTaxRates(ctx(), us(CA), 3, [p])).get(p)?.percent.toString(), '3');
  });
});

describe('priorities', () => {
  test('rules of the same priority add; a rate in two of them counts once', async () => {
    const p = await productClass('Same priority goods');
    const a = await rate('FR a', 'FR', 5);
    const b = await rate('FR b', 'FR', 3);
    const c = await rate('FR c', 'FR', 1.5);
    await rule('FR rule 1', p, [a, b]);
    await rule('FR rule 2', p, [a, c]);
    const m = await resolveTaxRates(ctx(), { countryId: 'FR', regionId: null, postcode: '75001' }, 3, [p]);
    assert.deepEqual(summary(m), { [p]: { percent: '9.5', rates: ['FR a|FR a|5', 'FR b|FR b|3', 'FR c|FR c|1.5'] } });
  });

  test('a higher priority compounds on the lower ones; calculateSubtotal only adds', async () => {
    const p = await productClass('Compound goods');
    const gst = await rate('CA GST', 'CA', 5);
    const pst = await rate('CA PST', 'CA', 10);
    const extra = await rate('CA extra', 'CA', 2);
    await rule('CA GST rule', p, [gst], { priority: 0 });
    await rule('CA PST rule', p, [pst], { priority: 1 });
    const dest = { countryId: 'CA', regionId: null, postcode: null };
    // (1.05)(1.10) - 1 = 15.5 %
    assert.equal((await resolveTaxRates(ctx(), dest, 3, [p])).get(p)?.percent.toString(), '15.5');
    await rule('CA extra rule', p, [extra], { priority: 2, calculateSubtotal: true });
    const m = await resolveTaxRates(ctx(), dest, 3, [p]);
    assert.equal(m.get(p)?.percent.toString(), '17.5');
    assert.deepEqual(
      m.get(p)?.rates.map((r) => r.code),
      ['CA GST', 'CA PST', 'CA extra'],
    );
  });

  test('several product classes in one call; titles of the store view', async () => {
    const p1 = await productClass('Multi 1');
    const p2 = await productClass('Multi 2');
    const r1 = await rate('IT std', 'IT', 22, { titles: [{ storeId: ctx().store.storeId, title: 'IVA' }] });
    const r2 = await rate('IT reduced', 'IT', 10);
    await rule('IT std', p1, [r1]);
    await rule('IT reduced', p2, [r2]);
    const m = await resolveTaxRates(ctx(), { countryId: 'IT', regionId: null, postcode: null }, 3, [p1, p2, 2]);
    assert.deepEqual(summary(m), {
      [p1]: { percent: '22', rates: ['IT std|IVA|22'] },
      [p2]: { percent: '10', rates: ['IT reduced|IT reduced|10'] },
    });
  });

  test('a deleted rate no longer applies; its rule stays and applies nothing', async () => {
    const p = await productClass('Deleted rate goods');
    const r = await rate('NL std', 'NL', 21);
    await rule('NL std', p, [r]);
    assert.equal((await resolveTaxRates(ctx(), { countryId: 'NL', regionId: null, postcode: null }, 3, [p])).size, 1);
    await deleteTaxRate(ctx(), r);
    assert.equal((await resolveTaxRates(ctx(), { countryId: 'NL', regionId: null, postcode: null }, 3, [p])).size, 0);
  });
});

describe('taxConfig', () => {
  test('defaults, and store config overrides', async () => {
    const storeId = ctx().store.storeId;
    assert.deepEqual(taxConfig(ctx(), storeId), {
      basedOn: 'shipping',
      priceIncludesTax: false,
      shippingIncludesTax: false,
      applyAfterDiscount: true,
      shippingTaxClassId: 0,
      defaultDestination: { countryId: 'US', regionId: null, postcode: null },
      originDestination: { countryId: 'US', regionId: null, postcode: null },
    });
    const s = t.services.settings;
    await setConfig(t.database.db, s, 'tax/calculation/based_on', 'origin', 'stores', storeId);
    await setConfig(t.database.db, s, 'tax/calculation/price_includes_tax', '1');
    await setConfig(t.database.db, s, 'tax/classes/shipping_tax_class', '4');
    await setConfig(t.database.db, s, 'tax/defaults/region', String(CA));
    await setConfig(t.database.db, s, 'shipping/origin/postcode', '10001');
    const c = taxConfig(ctx(), storeId);
    assert.equal(c.basedOn, 'origin');
    assert.equal(c.priceIncludesTax, true);
    assert.equal(c.shippingTaxClassId, 4);
    assert.deepEqual(c.defaultDestination, { countryId: 'US', regionId: CA, postcode: null });
    assert.deepEqual(c.originDestination, { countryId: 'US', regionId: null, postcode: '10001' });
    await setConfig(t.database.db, s, 'tax/calculation/based_on', 'nonsense', 'stores', storeId);
    assert.equal(taxConfig(ctx(), storeId).basedOn, 'shipping');
    for (const path of [
      'tax/calculation/price_includes_tax',
      'tax/classes/shipping_tax_class',
      'tax/defaults/region',
      'shipping/origin/postcode',
    ]) {
      await deleteConfig(t.database.db, s, path);
    }
    await deleteConfig(t.database.db, s, 'tax/calculation/based_on', 'stores', storeId);
    assert.equal(taxConfig(ctx(), storeId).priceIncludesTax, false);
  });
});
