import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { countStatements } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { dec } from '../../platform/money.js';
import { deleteConfig, setConfig } from '../stores/service.js';
import { carrierTitle, findRate, shippingRates, type ShippingRate, type ShippingRequest } from './service.js';
import { exportTableRates, importTableRates, parseCsv } from './tablerates.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp();
});
after(() => t.close());

/** Store-view overrides, removed afterwards (the demo's own values live at the default scope). */
async function withConfig(values: Record<string, string>, fn: () => Promise<void>): Promise<void> {
  const ctx = t.systemCtx();
  for (const [path, value] of Object.entries(values)) await setConfig(ctx.db, ctx.app.settings, path, value, 'stores', 1);
  try {
    await fn();
  } finally {
    for (const path of Object.keys(values)) await deleteConfig(ctx.db, ctx.app.settings, path, 'stores', 1);
  }
}

function request(
  over: Partial<
    Omit<ShippingRequest, 'packageValue' | 'packageValueWithoutDiscount' | 'packageWeight' | 'packageQty' | 'freeMethodWeight'>
  > & {
    value?: string;
    valueWithoutDiscount?: string;
    weight?: string;
    qty?: string;
    freeMethodWeight?: string;
  } = {},
): ShippingRequest {
  const value = over.value ?? '50';
  return {
    storeId: over.storeId ?? 1,
    websiteId: over.websiteId ?? 1,
    countryId: over.countryId ?? 'US',
    regionId: over.regionId ?? null,
    postcode: over.postcode ?? null,
    packageValue: dec(value),
    packageValueWithoutDiscount: dec(over.valueWithoutDiscount ?? value),
    packageWeight: dec(over.weight ?? '1'),
    packageQty: dec(over.qty ?? '2'),
    freeShipping: over.freeShipping ?? false,
    freeMethodWeight: over.freeMethodWeight === undefined ? undefined : dec(over.freeMethodWeight),
  };
}

const plain = (rates: ShippingRate[]) => rates.map((r) => ({ ...r, price: r.price.toFixed(2) }));
const priced = (rates: ShippingRate[]) => rates.map((r) => [r.code, r.price.toFixed(2)]);

// region ids of the directory module (Magento's): California 12, New York 43, Texas 57
const CA = 12;
const NY = 43;
const TX = 57;

async function rejects(p: Promise<unknown>, pattern: RegExp): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof AppError, String(err));
    assert.equal(err.status, 400);
    assert.match(err.message, pattern);
    return true;
  });
}

describe('flat rate and free shipping', () => {
  test('demo store: flat rate 5.00 per item; free shipping from a subtotal of 100', async () => {
    const ctx = t.systemCtx();
    assert.deepEqual(plain(await shippingRates(ctx, request({ qty: '2', value: '50' }))), [
      {
        code: 'flatrate_flatrate',
        title: 'Flat Rate - Fixed',
        carrierCode: 'flatrate',
        methodCode: 'flatrate',
        carrierTitle: 'Flat Rate',
        methodTitle: 'Fixed',
        price: '10.00',
      },
    ]);
    // the threshold applies to the subtotal before discount, inclusive
    assert.deepEqual(priced(await shippingRates(ctx, request({ qty: '3', value: '90', valueWithoutDiscount: '100' }))), [
      ['flatrate_flatrate', '15.00'],
      ['freeshipping_freeshipping', '0.00'],
    ]);
    assert.deepEqual(priced(await shippingRates(ctx, request({ value: '99.99', valueWithoutDiscount: '99.99' }))), [
      ['flatrate_flatrate', '10.00'],
    ]);
    const free = (await shippingRates(ctx, request({ value: '150' })))[1];
    assert.deepEqual(
      { ...free, price: free.price.toFixed(2) },
      {
        code: 'freeshipping_freeshipping',
        title: 'Free Shipping - Free',
        carrierCode: 'freeshipping',
        methodCode: 'freeshipping',
        carrierTitle: 'Free Shipping',
        methodTitle: 'Free',
        price: '0.00',
      },
    );
  });

  test('per item, per order, handling fee, fractional quantities', async () => {
    const ctx = t.systemCtx();
    await withConfig({ 'carriers/flatrate/price': '4.99', 'carriers/flatrate/handling_fee': '2.50' }, async () => {
      assert.deepEqual(priced(await shippingRates(ctx, request({ qty: '3' }))), [['flatrate_flatrate', '17.47']]);
      assert.deepEqual(priced(await shippingRates(ctx, request({ qty: '1.5' }))), [['flatrate_flatrate', '9.99']]);
    });
    await withConfig({ 'carriers/flatrate/type': 'O', 'carriers/flatrate/handling_fee': '1' }, async () => {
      assert.deepEqual(priced(await shippingRates(ctx, request({ qty: '7' }))), [['flatrate_flatrate', '6.00']]);
    });
    await withConfig({ 'carriers/flatrate/price': 'not a number' }, async () => {
      assert.deepEqual(priced(await shippingRates(ctx, request({ qty: '2' }))), [['flatrate_flatrate', '0.00']]);
    });
  });

  test('a cart rule that makes the shipment free: flat rate 0, free shipping offered under the threshold', async () => {
    const ctx = t.systemCtx();
    assert.deepEqual(priced(await shippingRates(ctx, request({ value: '10', freeShipping: true }))), [
      ['flatrate_flatrate', '0.00'],
      ['freeshipping_freeshipping', '0.00'],
    ]);
  });

  test('free shipping with a threshold of 0 is always offered; inactive carriers offer nothing', async () => {
    const ctx = t.systemCtx();
    await withConfig({ 'carriers/freeshipping/free_shipping_subtotal': '0' }, async () => {
      assert.deepEqual(priced(await shippingRates(ctx, request({ value: '0.01' }))), [
        ['flatrate_flatrate', '10.00'],
        ['freeshipping_freeshipping', '0.00'],
      ]);
    });
    await withConfig({ 'carriers/flatrate/active': '0', 'carriers/freeshipping/active': '0' }, async () => {
      assert.deepEqual(await shippingRates(ctx, request({ value: '500' })), []);
    });
  });

  test('country restrictions', async () => {
    const ctx = t.systemCtx();
    await withConfig({ 'carriers/flatrate/sallowspecific': '1', 'carriers/flatrate/specificcountry': 'DE, fr' }, async () => {
      assert.deepEqual(await shippingRates(ctx, request({ countryId: 'US' })), []);
      assert.deepEqual(priced(await shippingRates(ctx, request({ countryId: 'DE' }))), [['flatrate_flatrate', '10.00']]);
      assert.deepEqual(priced(await shippingRates(ctx, request({ countryId: 'FR' }))), [['flatrate_flatrate', '10.00']]);
    });
    // a restriction to no country at all offers nowhere; the list alone restricts nothing
    await withConfig({ 'carriers/flatrate/sallowspecific': '1' }, async () => {
      assert.deepEqual(await shippingRates(ctx, request({ countryId: 'DE' })), []);
    });
    await withConfig({ 'carriers/flatrate/specificcountry': 'DE' }, async () => {
      assert.deepEqual(priced(await shippingRates(ctx, request({ countryId: 'US' }))), [['flatrate_flatrate', '10.00']]);
    });
  });

  test('sorted by sort order, then code; titles per store view', async () => {
    const ctx = t.systemCtx();
    await withConfig(
      { 'carriers/flatrate/sort_order': '10', 'carriers/freeshipping/sort_order': '5', 'carriers/freeshipping/title': 'Gratis' },
      async () => {
        const rates = await shippingRates(ctx, request({ value: '200' }));
        assert.deepEqual(
          rates.map((r) => [r.code, r.title]),
          [
            ['freeshipping_freeshipping', 'Gratis - Free'],
            ['flatrate_flatrate', 'Flat Rate - Fixed'],
          ],
        );
        assert.equal(carrierTitle(ctx, 'freeshipping', 1), 'Gratis');
        assert.equal(carrierTitle(ctx, 'freeshipping', 2), 'Free Shipping', 'the german store view keeps the default');
      },
    );
    assert.equal(carrierTitle(ctx, 'flatrate', 1), 'Flat Rate');
    assert.equal(carrierTitle(ctx, 'tablerate', 1), 'Best Way');
    assert.equal(carrierTitle(ctx, 'ups', 1), undefined);
  });

  test('a package without shippable units (only virtual items) gets no rates', async () => {
    const ctx = t.systemCtx();
    assert.deepEqual(await shippingRates(ctx, request({ qty: '0', value: '500' })), []);
  });

  test('findRate: the rate of an offered code, nothing otherwise', async () => {
    const ctx = t.systemCtx();
    const r = await findRate(ctx, request({ qty: '3' }), 'flatrate_flatrate');
    assert.equal(r?.price.toFixed(2), '15.00');
    assert.equal(r?.carrierCode, 'flatrate');
    assert.equal(await findRate(ctx, request({ value: '50' }), 'freeshipping_freeshipping'), undefined, 'below the threshold');
    assert.equal((await findRate(ctx, request({ value: '150' }), 'freeshipping_freeshipping'))?.price.toFixed(2), '0.00');
    assert.equal(await findRate(ctx, request(), 'tablerate_bestway'), undefined, 'inactive');
    for (const code of ['flatrate', 'flatrate_other', 'ups_ground', '', '_'])
      assert.equal(await findRate(ctx, request(), code), undefined, code);
  });
});

describe('table rates', () => {
  const WEIGHT_RATES = [
    'Country,Region/State,Zip/Postal Code,Weight (and above),Shipping Price',
    '*,*,*,0,20',
    'US,*,*,0,10',
    'USA,*,*,10,15',
    'US,CA,*,0,8',
    'US,CA,900*,0,7',
    'US,CA,90210,0,6',
    'US,*,100*,0,9',
    'US,NY,*,5,4',
  ].join('\n');

  const tableRate = async (over: Parameters<typeof request>[0], config: Record<string, string> = {}) => {
    let out: string | undefined;
    await withConfig(
      { 'carriers/tablerate/active': '1', 'carriers/flatrate/active': '0', 'carriers/freeshipping/active': '0', ...config },
      async () => {
        const rates = await shippingRates(t.systemCtx(), request(over));
        assert.ok(rates.length <= 1);
        if (rates[0]) {
          assert.equal(rates[0].code, 'tablerate_bestway');
          assert.equal(rates[0].title, 'Best Way - Table Rate');
          out = rates[0].price.toFixed(2);
        }
      },
    );
    return out;
  };

  before(async () => {
    assert.deepEqual(await importTableRates(t.systemCtx(), 1, 'package_weight', WEIGHT_RATES), { imported: 8 });
  });

  test('the most specific destination wins', async () => {
    assert.equal(await tableRate({ countryId: 'DE', postcode: '10115' }), '20.00', "only '*' matches");
    assert.equal(await tableRate({ countryId: 'US', regionId: TX, postcode: '77001' }), '10.00', 'country');
    assert.equal(await tableRate({ countryId: 'US', regionId: TX, postcode: '10001' }), '9.00', 'country + zip prefix');
    assert.equal(await tableRate({ countryId: 'US', regionId: CA, postcode: '94016' }), '8.00', 'country + region');
    assert.equal(await tableRate({ countryId: 'US', regionId: CA, postcode: '90001' }), '7.00', 'country + region + zip prefix');
    assert.equal(await tableRate({ countryId: 'US', regionId: CA, postcode: '90210' }), '6.00', 'exact zip beats the prefix');
    assert.equal(await tableRate({ countryId: 'US', regionId: CA, postcode: null }), '8.00', 'no postcode: zip rows do not match');
  });

  test('condition thresholds: the highest value not above the package', async () => {
    assert.equal(await tableRate({ countryId: 'US', regionId: TX, weight: '9.9999' }), '10.00');
    assert.equal(await tableRate({ countryId: 'US', regionId: TX, weight: '10' }), '15.00');
    assert.equal(await tableRate({ countryId: 'US', regionId: TX, weight: '250' }), '15.00');
    // the region row starts at 5: lighter packages fall back to the country row
    assert.equal(await tableRate({ countryId: 'US', regionId: NY, weight: '4' }), '10.00');
    assert.equal(await tableRate({ countryId: 'US', regionId: NY, weight: '5' }), '4.00');
    // the weight of items not shipping free decides when the cart gives it
    assert.equal(await tableRate({ countryId: 'US', regionId: TX, weight: '12', freeMethodWeight: '2' }), '10.00');
  });

  test('handling fee, the free-shipping flag, another website, no row means no rate', async () => {
    assert.equal(await tableRate({ countryId: 'US', regionId: TX }, { 'carriers/tablerate/handling_fee': '1.5' }), '11.50');
    assert.equal(await tableRate({ countryId: 'US', regionId: TX, freeShipping: true }), '0.00');
    assert.equal(await tableRate({ countryId: 'US', websiteId: 99 }), undefined);
    // by quantity there are no rows at all
    assert.equal(await tableRate({ countryId: 'US' }, { 'carriers/tablerate/condition_name': 'package_qty' }), undefined);
    assert.equal(await tableRate({ countryId: 'US', regionId: TX, qty: '0' }), undefined, 'virtual only');
  });

  test('by order value (after discount) and by item count', async () => {
    const ctx = t.systemCtx();
    await importTableRates(ctx, 1, 'package_value', 'Country,Region,Zip,Subtotal,Price\nUS,*,*,0,12\nUS,*,*,50,6\nUS,*,*,100,0\n');
    await importTableRates(ctx, 1, 'package_qty', 'Country,Region,Zip,Qty,Price\nDE,*,*,1,3\nDE,*,*,3,2.5\n');
    try {
      const byValue = { 'carriers/tablerate/condition_name': 'package_value' };
      assert.equal(await tableRate({ value: '49.99' }, byValue), '12.00');
      assert.equal(await tableRate({ value: '50', valueWithoutDiscount: '120' }, byValue), '6.00');
      assert.equal(await tableRate({ value: '100' }, byValue), '0.00');
      const byQty = { 'carriers/tablerate/condition_name': 'package_qty' };
      assert.equal(await tableRate({ countryId: 'DE', qty: '2' }, byQty), '3.00');
      assert.equal(await tableRate({ countryId: 'DE', qty: '3' }, byQty), '2.50');
      assert.equal(await tableRate({ countryId: 'US', qty: '3' }, byQty), undefined);
      // the weight rows are untouched by imports of other conditions
      assert.equal(await tableRate({ countryId: 'DE' }), '20.00');
    } finally {
      await importTableRates(ctx, 1, 'package_value', 'h1,h2,h3,h4,h5\n');
      await importTableRates(ctx, 1, 'package_qty', 'h1,h2,h3,h4,h5\n');
    }
  });

  test('sorted with the other carriers; the lookup is one query', async () => {
    const ctx = t.systemCtx();
    await withConfig(
      { 'carriers/tablerate/active': '1', 'carriers/tablerate/sort_order': '-1', 'carriers/flatrate/sort_order': '1' },
      async () => {
        const { n, result: rates } = await countStatements(() =>
          shippingRates(ctx, request({ countryId: 'US', regionId: CA, postcode: '90210', value: '150' })),
        );
        assert.equal(n, 1);
        assert.deepEqual(priced(rates), [
          ['tablerate_bestway', '6.00'],
          ['freeshipping_freeshipping', '0.00'],
          ['flatrate_flatrate', '10.00'],
        ]);
      },
    );
  });

  test('the demo set is there for website 1, by weight, inactive', async () => {
    // the demo rows were replaced by this file's import; a fresh demo database has them
    const demo = await buildTestApp();
    try {
      const ctx = demo.systemCtx();
      const csv = await exportTableRates(ctx, 1, 'package_weight');
      assert.ok(csv.split('\n').filter(Boolean).length > 2, csv);
      assert.equal(ctx.app.settings.getBool('carriers/tablerate/active', 1), false);
      assert.equal(ctx.app.settings.get('carriers/freeshipping/free_shipping_subtotal', 1), '100');
      assert.equal(ctx.app.settings.getBool('carriers/freeshipping/active', 1), true);
    } finally {
      await demo.close();
    }
  });
});

describe('table-rate import', () => {
  const HEADER = 'Country,Region/State,Zip/Postal Code,Weight (and above),Shipping Price';
  const current = () => exportTableRates(t.systemCtx(), 1, 'package_weight');

  test('Magento CSV: quoted fields, ISO-3 and lower case, CRLF, BOM, blank lines; export reads back', async () => {
    const ctx = t.systemCtx();
    const csv = `\uFEFF"Country","Region/State","Zip/Postal Code","Weight (and above)","Shipping Price"\r\n"usa","ca","90210","1.5","6.50"\r\n\r\ndeu,*,,0,3\r\n*,*,*,0,"25"\r\nUS,ny,10*,0,7.125\r\n`;
    assert.deepEqual(await importTableRates(ctx, 1, 'package_weight', csv), { imported: 4 });
    const exported = await current();
    assert.deepEqual(
      parseCsv(exported).filter((r) => r.length > 1),
      [
        ['Country', 'Region/State', 'Zip/Postal Code', 'Weight (and above)', 'Shipping Price'],
        ['*', '*', '*', '0.0000', '25.0000'],
        ['DEU', '*', '*', '0.0000', '3.0000'],
        ['USA', 'CA', '90210', '1.5000', '6.5000'],
        ['USA', 'NY', '10*', '0.0000', '7.1250'],
      ],
    );
    // importing the export again changes nothing; a second import replaces the first
    assert.deepEqual(await importTableRates(ctx, 1, 'package_weight', exported), { imported: 4 });
    assert.equal(await current(), exported);
    assert.deepEqual(await importTableRates(ctx, 1, 'package_weight', `${HEADER}\nUS,*,*,0,5\n`), { imported: 1 });
    assert.equal(parseCsv(await current()).filter((r) => r.length > 1).length, 2);
    // a header only empties the condition
    assert.deepEqual(await importTableRates(ctx, 1, 'package_weight', HEADER), { imported: 0 });
    assert.equal(parseCsv(await current()).filter((r) => r.length > 1).length, 1);
  });

  test('every bad row is named with its number; nothing changes', async () => {
    const ctx = t.systemCtx();
    await importTableRates(ctx, 1, 'package_weight', `${HEADER}\nUS,*,*,0,5\n`);
    const before = await current();
    const cases: [string, RegExp][] = [
      ['XX,*,*,0,5', /Row 2: unknown country "XX"/],
      ['US,ZZ,*,0,5', /Row 2: unknown region "ZZ" for US/],
      ['GB,LND,*,0,5', /Row 2: unknown region "LND" for GB/],
      ['*,CA,*,0,5', /Row 2: a region \("CA"\) needs a country/],
      ['US,*,90 210$,0,5', /Row 2: invalid zip\/postal code/],
      ['US,*,*1,0,5', /Row 2: invalid zip\/postal code/],
      ['US,*,123456789012345678901,0,5', /Row 2: invalid zip\/postal code/],
      ['US,*,*,-1,5', /Row 2: the condition value must be a number of 0 or more, got "-1"/],
      ['US,*,*,abc,5', /Row 2: the condition value must be a number/],
      ['US,*,*,,5', /Row 2: the condition value must be a number/],
      ['US,*,*,1e3,5', /Row 2: the condition value must be a number/],
      ['US,*,*,100000000,5', /Row 2: the condition value is too large/],
      ['US,*,*,0,-5', /Row 2: the shipping price must be a number of 0 or more/],
      ['US,*,*,0,free', /Row 2: the shipping price must be a number/],
      ['US,*,*,0', /Row 2: expected 5 columns, found 4/],
      ['US,*,*,0,5,extra', /Row 2: expected 5 columns, found 6/],
      ['US,*,*,0,5\nUSA,*,*,0.0,9', /Row 3: duplicate of row 2/],
      [
        'US,*,*,0,5\nDE,*,*,0,5\n\nus,CA,*,1,5\nUS,California,*,1,5\nUS,ca,*,1.00,6',
        /Row 6: unknown region "California".*Row 7: duplicate of row 5/,
      ],
    ];
    for (const [rows, pattern] of cases) {
      await rejects(importTableRates(ctx, 1, 'package_weight', `${HEADER}\n${rows}\n`), pattern);
    }
    await rejects(importTableRates(ctx, 1, 'package_weight', ''), /empty/);
    await rejects(importTableRates(ctx, 1, 'package_weight', '\n\n'), /empty/);
    await rejects(
      importTableRates(ctx, 1, 'package_weight', 'Country;Region;Zip;Weight;Price\nUS;*;*;0;5\n'),
      /Row 1: the header has 1 columns, expected 5/,
    );
    await rejects(importTableRates(ctx, 99, 'package_weight', `${HEADER}\nUS,*,*,0,5\n`), /Unknown website: 99/);
    await rejects(importTableRates(ctx, 1, 'package_volume' as 'package_weight', `${HEADER}\nUS,*,*,0,5\n`), /condition is one of/);
    // many problems: the first twenty are listed, with a count of the rest
    const many = Array.from({ length: 25 }, (_, i) => `XX,*,*,${i},5`).join('\n');
    await assert.rejects(importTableRates(ctx, 1, 'package_weight', `${HEADER}\n${many}\n`), (err: AppError) => {
      assert.equal((err.details?.errors as string[]).length, 20);
      assert.match(err.message, /Row 21: .*; and 5 more$/);
      return true;
    });
    assert.equal(await current(), before, 'nothing changed');
  });
});
