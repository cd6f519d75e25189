/**
 * V2 (rpc/encoded, typed by the WSDL): `login`, `endSession` and `customerAddress{List,Create,Info,Update,Delete}`.
 * Results follow the WSDL types in WSDL order; unset fields and fields the type lacks (vat_*) are left out.
 */
import type { Ctx } from '../../platform/context.js';
import { Decoder, encodeValue } from './encoding.js';
import { serverFault } from './faults.js';
import { rpcParts } from './messages.js';
import { runMethod, type LegacyAddress, type Method } from './operations.js';
import { endSession, login, resume } from './sessions.js';
import { esc, type XmlElement } from './xml.js';

/** `customerAddressEntityItem`, in WSDL order. */
export const ITEM_FIELDS: [string, 'int' | 'string' | 'boolean'][] = [
  ['customer_address_id', 'int'],
  ['created_at', 'string'],
  ['updated_at', 'string'],
  ['increment_id', 'string'],
  ['city', 'string'],
  ['company', 'string'],
  ['country_id', 'string'],
  ['fax', 'string'],
  ['firstname', 'string'],
  ['lastname', 'string'],
  ['middlename', 'string'],
  ['postcode', 'string'],
  ['prefix', 'string'],
  ['region', 'string'],
  ['region_id', 'int'],
  ['street', 'string'],
  ['suffix', 'string'],
  ['telephone', 'string'],
  ['is_default_billing', 'boolean'],
  ['is_default_shipping', 'boolean'],
];

/** An item's fields as elements, typed (`xsi:type`) for V2 or plain for WS-I. */
export function itemFields(a: LegacyAddress, typed: boolean): string {
  let out = '';
  for (const [f, t] of ITEM_FIELDS) {
    const v = a[f];
    if (v === null || v === undefined) continue;
    out += typed ? `<${f} xsi:type="xsd:${t}">${esc(String(v))}</${f}>` : `<${f}>${esc(String(v))}</${f}>`;
  }
  return out;
}

/** V2 operation → method, its input parts after the session id, and its output part name. */
export const V2_OPERATIONS: Record<string, { method: Method; params: string[]; out: 'result' | 'info' }> = {
  customerAddressList: { method: 'list', params: ['customerId'], out: 'result' },
  customerAddressCreate: { method: 'create', params: ['customerId', 'addressData'], out: 'result' },
  customerAddressInfo: { method: 'info', params: ['addressId'], out: 'info' },
  customerAddressUpdate: { method: 'update', params: ['addressId', 'addressData'], out: 'info' },
  customerAddressDelete: { method: 'delete', params: ['addressId'], out: 'info' },
};

function v2Result(name: string, r: Awaited<ReturnType<typeof runMethod>>): string {
  if (r === true) return `<${name} xsi:type="xsd:boolean">true</${name}>`;
  if (typeof r === 'number') return `<${name} xsi:type="xsd:int">${r}</${name}>`;
  if (Array.isArray(r)) {
    const items = r.map((a) => `<item xsi:type="ns1:customerAddressEntityItem">${itemFields(a, true)}</item>`).join('');
    const open = `<${name} SOAP-ENC:arrayType="ns1:customerAddressEntityItem[${r.length}]" xsi:type="ns1:customerAddressEntityArray"`;
    return items ? `${open}>${items}</${name}>` : `${open}/>`;
  }
  return `<${name} xsi:type="ns1:customerAddressEntityItem">${itemFields(r, true)}</${name}>`;
}

/** The reply body for one V2 operation element. */
export async function handleV2(ctx: Ctx, op: XmlElement, dec: Decoder): Promise<string> {
  const parts = (names: string[]) => rpcParts(op, names).map((el) => (el ? dec.value(el) : undefined));
  if (op.local === 'login') {
    const [username, apiKey] = parts(['username', 'apiKey']);
    return `<ns1:loginResponse>${encodeValue('loginReturn', await login(ctx, username, apiKey))}</ns1:loginResponse>`;
  }
  if (op.local === 'endSession') {
    const [sessionId] = parts(['sessionId']);
    return `<ns1:endSessionResponse>${encodeValue('endSessionReturn', await endSession(ctx, sessionId))}</ns1:endSessionResponse>`;
  }
  const spec = Object.hasOwn(V2_OPERATIONS, op.local) ? V2_OPERATIONS[op.local] : undefined;
  if (!spec) throw serverFault(`Procedure '${op.local}' not present`);
  const [sessionId, ...args] = parts(['sessionId', ...spec.params]);
  const result = await runMethod(await resume(ctx, sessionId), spec.method, args);
  return `<ns1:${op.local}Response>${v2Result(spec.out, result)}</ns1:${op.local}Response>`;
}
