/**
 * The legacy SOAP interface driven by PHP's own SoapClient (ext/soap), the client existing integrations use:
 * one scenario script per flavour (php/v1.php, php/v2.php, php/wsi.php) runs every operation and fault and
 * prints each step's outcome as JSON.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { API, type TestApp } from '../../../test/helpers.js';
import { deleteConfig, setConfig } from '../stores/service.js';
import { runScenario, skipWithout, stepOk as ok, type Step } from '../../../test/fixtures/legacy-api.js';
import { ageSession, login, newApiUser, newCustomer, startSoapApp } from '../../../test/fixtures/soap.js';

const skip = skipWithout('php');

let t: TestApp;
let base: string;
let admin: string;
let stale: string;
let denied: { username: string; apiKey: string };

before(async () => {
  if (skip) return;
  ({ t, base } = await startSoapApp());
  admin = await t.tokens.admin();
  stale = await login(base);
  await ageSession(t, stale, 3601);
  denied = await newApiUser(t, ['addresses/read']);
});
after(() => t?.close());

/** Runs a scenario against a fresh customer. */
async function scenario(script: string, wsdlPath: string): Promise<{ customer: number; r: Record<string, Step<string>> }> {
  const customer = await newCustomer(t);
  const env = {
    SOAP_WSDL_PATH: wsdlPath,
    SOAP_CUSTOMER_ID: String(customer),
    SOAP_STALE_SESSION: stale,
    SOAP_DENIED_USER: denied.username,
    SOAP_DENIED_KEY: denied.apiKey,
  };
  return { customer, r: await runScenario('php', script, base, env, 60_000) };
}

const faultOf = (s: Step<string>) => s?.fault;

const EXPIRED: [string, string] = ['5', 'Session expired. Try to relogin.'];
const DENIED: [string, string] = ['2', 'Access denied.'];
const NO_CUSTOMER: [string, string] = ['101', 'Customer not exists.'];
const NO_ADDRESS: [string, string] = ['102', 'Address not exists.'];
const DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** The customer's addresses as REST shows them to an admin. */
async function restAddresses(customer: number) {
  const r = await t.req('GET', `${API}/customers/${customer}/addresses`, { token: admin });
  assert.equal(r.status, 200, r.text);
  return r.body.member as any[];
}

describe('SOAP V1 with PHP SoapClient', { skip }, () => {
  test('login, call() for every method and fault, multiCall, sessions; REST reads what SOAP wrote', async () => {
    const { customer, r } = await scenario('v1.php', '');
    assert.deepEqual(faultOf(r.loginWrongKey), DENIED);
    assert.deepEqual(faultOf(r.loginEmpty), ['6', 'Required parameter is missing, for more details see "exception.log".']);
    assert.match(ok(r.login), /^[0-9a-f]{32}$/);
    assert.deepEqual(ok(r.listEmpty), []);
    const id = ok(r.create);
    assert.match(id, /^\d+$/, 'V1 sends the new id as a numeric string');

    assert.deepEqual(faultOf(r.createInvalid), [
      '100',
      'Please enter the first name.\nPlease enter the last name.\nPlease enter the street.\nPlease enter the zip/postal code.\nPlease enter the telephone number.',
    ]);
    assert.deepEqual(faultOf(r.createNoCustomer), NO_CUSTOMER);
    assert.deepEqual(faultOf(r.listNoCustomer), NO_CUSTOMER);

    const info = ok(r.info);
    assert.deepEqual(Object.keys(info), [
      'customer_address_id',
      'created_at',
      'updated_at',
      'increment_id',
      'prefix',
      'firstname',
      'middlename',
      'lastname',
      'suffix',
      'company',
      'street',
      'city',
      'country_id',
      'region',
      'region_id',
      'postcode',
      'telephone',
      'fax',
      'vat_id',
      'vat_is_valid',
      'vat_request_id',
      'vat_request_date',
      'vat_request_success',
      'is_default_billing',
      'is_default_shipping',
    ]);
    assert.match(info.created_at, DATE);
    assert.deepEqual(
      { ...info, created_at: undefined, updated_at: undefined },
      {
        customer_address_id: id,
        created_at: undefined,
        updated_at: undefined,
        increment_id: null,
        prefix: null,
        firstname: 'Ann',
        middlename: null,
        lastname: 'Lee',
        suffix: null,
        company: null,
        street: 'Main St 1\nApt 2',
        city: 'Berlin',
        country_id: 'DE',
        region: 'Berlin',
        region_id: '82',
        postcode: '10115',
        telephone: '030 1234',
        fax: null,
        vat_id: null,
        vat_is_valid: null,
        vat_request_id: null,
        vat_request_date: null,
        vat_request_success: null,
        is_default_billing: true,
        is_default_shipping: false,
      },
    );
    // list items carry only populated fields, the default flags last
    const [item] = ok(r.list);
    assert.deepEqual(Object.keys(item), [
      'customer_address_id',
      'created_at',
      'updated_at',
      'firstname',
      'lastname',
      'street',
      'city',
      'country_id',
      'region',
      'region_id',
      'postcode',
      'telephone',
      'is_default_billing',
      'is_default_shipping',
    ]);

    assert.equal(ok(r.update), true);
    const updated = ok(r.infoAfterUpdate);
    assert.equal(updated.telephone, '030 9999');
    assert.equal(updated.street, 'Side St 5\nBack', 'a V1 street string is split into lines and joined back');
    assert.equal(updated.is_default_billing, true, 'false does not clear a default');
    assert.equal(updated.is_default_shipping, true);
    assert.deepEqual(faultOf(r.updateInvalid), ['100', 'Please enter the first name.']);
    assert.deepEqual(faultOf(r.updateMissing), NO_ADDRESS);
    assert.deepEqual(faultOf(r.infoMissing), NO_ADDRESS);
    assert.deepEqual(faultOf(r.deleteMissing), NO_ADDRESS);
    assert.deepEqual(faultOf(r.badMethod), ['3', 'Invalid api path.']);
    assert.deepEqual(faultOf(r.badPath), ['3', 'Invalid api path.']);

    const multi = ok(r.multiCall);
    assert.equal(multi.length, 3);
    assert.equal(multi[0].customer_address_id, id);
    assert.deepEqual(multi[1], { isFault: true, faultCode: '102', faultMessage: 'Address not exists.' });
    assert.deepEqual(multi[2], { isFault: true, faultCode: '3', faultMessage: 'Invalid api path.' });
    assert.deepEqual(ok(r.multiCallBreak), [{ isFault: true, faultCode: '102', faultMessage: 'Address not exists.' }]);

    assert.equal(ok(r.delete), true);
    assert.deepEqual(faultOf(r.infoDeleted), NO_ADDRESS);
    assert.deepEqual(faultOf(r.staleSession), EXPIRED);
    assert.deepEqual(faultOf(r.unknownSession), EXPIRED);
    assert.deepEqual(faultOf(r.deniedCreate), DENIED);
    assert.equal(ok(r.deniedList).length, 1, 'a role with addresses/read may list');
    assert.equal(ok(r.endSession), true);
    assert.deepEqual(faultOf(r.afterEnd), EXPIRED);
    assert.equal(ok(r.endUnknown), true);

    const rest = await restAddresses(customer);
    assert.deepEqual(
      rest.map((a) => a.id),
      [Number(ok(r.createKept))],
    );
    assert.deepEqual(
      { street: rest[0].street, city: rest[0].city, regionId: rest[0].regionId, region: rest[0].region, billing: rest[0].isDefaultBilling },
      { street: ['Keep Rd 3'], city: 'Hamburg', regionId: 85, region: 'Hamburg', billing: false },
    );
  });
});

describe('SOAP V2 with PHP SoapClient', { skip }, () => {
  test('every customerAddress operation and fault through the long index.php route', async () => {
    const { customer, r } = await scenario('v2.php', '/index.php/api/v2_soap/index/?wsdl');
    assert.deepEqual(faultOf(r.loginWrongKey), DENIED);
    assert.deepEqual(ok(r.listEmpty), []);
    const id = ok(r.create);
    assert.equal(typeof id, 'number');
    assert.deepEqual(faultOf(r.createInvalid), [
      '100',
      'Please enter the last name.\nPlease enter the street.\nPlease enter the city.\nPlease enter the zip/postal code.\nPlease enter the telephone number.',
    ]);
    assert.deepEqual(faultOf(r.createNoCustomer), NO_CUSTOMER);
    assert.deepEqual(faultOf(r.listNoCustomer), NO_CUSTOMER);
    const info = ok(r.info);
    assert.match(info.created_at, DATE);
    // typed by the WSDL, WSDL order, unset fields and vat_* left out
    assert.deepEqual(Object.keys(info), [
      'customer_address_id',
      'created_at',
      'updated_at',
      'city',
      'country_id',
      'firstname',
      'lastname',
      'postcode',
      'region',
      'region_id',
      'street',
      'telephone',
      'is_default_billing',
      'is_default_shipping',
    ]);
    assert.deepEqual(
      [info.customer_address_id, info.region_id, info.street, info.is_default_billing, info.is_default_shipping],
      [id, 82, 'Ring 7\nHinterhaus', false, true],
    );
    assert.deepEqual(ok(r.list), [info]);
    assert.equal(ok(r.update), true);
    const updated = ok(r.infoAfterUpdate);
    assert.deepEqual(
      [updated.city, updated.street, updated.is_default_billing, updated.is_default_shipping],
      ['Potsdam', 'Neuer Markt 1', true, true],
    );
    assert.deepEqual(faultOf(r.updateInvalid), ['100', 'Please enter the telephone number.']);
    assert.deepEqual(faultOf(r.updateMissing), NO_ADDRESS);
    assert.deepEqual(faultOf(r.infoMissing), NO_ADDRESS);
    assert.deepEqual(faultOf(r.deleteMissing), NO_ADDRESS);
    assert.equal(ok(r.delete), true);
    assert.deepEqual(faultOf(r.infoDeleted), NO_ADDRESS);
    assert.deepEqual(faultOf(r.staleSession), EXPIRED);
    assert.deepEqual(faultOf(r.deniedDelete), DENIED);
    assert.equal(ok(r.deniedInfo).customer_address_id, ok(r.createKept));
    assert.equal(ok(r.endSession), true);
    assert.deepEqual(faultOf(r.afterEnd), EXPIRED);

    const rest = await restAddresses(customer);
    assert.deepEqual(
      rest.map((a) => [a.id, a.street, a.city, a.regionId]),
      [[ok(r.createKept), ['Kept Way 9'], 'Bremen', 84]],
    );
  });
});

describe('SOAP V2 in WS-I mode with PHP SoapClient', { skip }, () => {
  test('with compliance_wsi on, /api/v2_soap/?wsdl is the document/literal interface', async () => {
    await setConfig(t.database.db, t.services.settings, 'api/config/compliance_wsi', '1');
    let res;
    try {
      res = await scenario('wsi.php', '/api/v2_soap/?wsdl');
    } finally {
      await deleteConfig(t.database.db, t.services.settings, 'api/config/compliance_wsi');
    }
    const { customer, r } = res;
    assert.deepEqual(faultOf(r.loginWrongKey), DENIED);
    assert.match(ok(r.login), /^[0-9a-f]{32}$/);
    assert.deepEqual(ok(r.listEmpty), {}, 'an empty list is an empty result element');
    const id = ok(r.create);
    assert.equal(typeof id, 'number');
    assert.deepEqual(faultOf(r.createInvalid), [
      '100',
      'Please enter the first name.\nPlease enter the street.\nPlease enter the city.\nPlease enter the zip/postal code.\nPlease enter the country.\nPlease enter the telephone number.',
    ]);
    assert.deepEqual(faultOf(r.createNoCustomer), NO_CUSTOMER);
    const info = ok(r.info);
    assert.deepEqual(
      [info.customer_address_id, info.street, info.country_id, info.is_default_billing, info.is_default_shipping, 'region' in info],
      [id, 'Allee 1\nEtage 3', 'IE', true, true, false],
    );
    assert.deepEqual(ok(r.list), { complexObjectArray: [info] });
    assert.equal(ok(r.update), true);
    const updated = ok(r.infoAfterUpdate);
    assert.deepEqual([updated.company, updated.street, updated.is_default_billing], ['Acme', 'Quay 2', true]);
    assert.deepEqual(faultOf(r.updateMissing), NO_ADDRESS);
    assert.deepEqual(faultOf(r.infoMissing), NO_ADDRESS);
    assert.deepEqual(faultOf(r.deleteMissing), NO_ADDRESS);
    assert.equal(ok(r.delete), true);
    assert.deepEqual(ok(r.listAfterDelete), {});
    assert.deepEqual(faultOf(r.staleSession), EXPIRED);
    assert.deepEqual(faultOf(r.deniedUpdate), DENIED);
    assert.equal(ok(r.endSession), true);
    assert.deepEqual(faultOf(r.afterEnd), EXPIRED);

    const rest = await restAddresses(customer);
    assert.deepEqual(
      rest.map((a) => [a.id, a.street, a.city, a.countryId]),
      [[ok(r.createKept), ['Kept Quay 4'], 'Cork', 'IE']],
    );
  });
});
