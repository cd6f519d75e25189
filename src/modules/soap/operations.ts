/**
 * The five customer-address operations, shared by V1, V2 and WS-I: legacy arguments in, the customers service
 * called (same validation and storage as REST), legacy records and fault codes out. Each wire adapter only
 * decodes its arguments and encodes the plain results returned here.
 */
import { Value } from 'typebox/value';
import { recordActivity, type ActivityEntry } from '../../platform/activity-log.js';
import type { Ctx } from '../../platform/context.js';
import { hasPermission, type Operation } from '../../platform/auth/access.js';
import { AppError } from '../../platform/errors.js';
import { createAddress, deleteAddress, findAddress, listAddresses, updateAddress, type AddressVatCheck } from '../customers/addresses.js';
import { AddressInput, type AddressDto, type AddressInputBody } from '../customers/schemas.js';
import { assertCustomerInScope } from '../customers/service.js';
import { isRecord, parseBoolean, type SoapValue } from './encoding.js';
import { fault, SoapFault } from './faults.js';
import { idArg } from './resources.js';

export const METHODS = ['list', 'create', 'info', 'update', 'delete'] as const;
export type Method = (typeof METHODS)[number];

/**
 * Legacy ACL `customer/address/<method>` mapped onto the API roles' `addresses` resource (the one the REST
 * address routes require); holding the method's permission also grants the `customer/address` node.
 */
const ACL: Record<Method, Operation> = { list: 'read', info: 'read', create: 'create', update: 'write', delete: 'delete' };

export function authorizeMethod(ctx: Ctx, method: Method): void {
  const a = ctx.actor;
  if (a.kind !== 'admin' || !hasPermission(a.permissions, 'addresses', ACL[method])) throw fault('accessDenied');
}

/** An address in legacy field names; numbers stay numbers here, each wire decides how to type them. */
export type LegacyAddress = Record<string, string | number | boolean | null>;

/** Every attribute in the order the info result lists them; `increment_id` is never set. */
function legacyAddress(a: AddressDto, vat?: AddressVatCheck): LegacyAddress {
  const bit = (b: boolean | null | undefined) => (b === null || b === undefined ? null : b ? 1 : 0);
  return {
    customer_address_id: a.id,
    created_at: a.createdAt,
    updated_at: a.updatedAt,
    increment_id: null,
    prefix: a.prefix ?? null,
    firstname: a.firstname,
    middlename: a.middlename ?? null,
    lastname: a.lastname,
    suffix: a.suffix ?? null,
    company: a.company ?? null,
    street: a.street.join('\n'),
    city: a.city,
    country_id: a.countryId,
    region: a.region ?? null,
    region_id: a.regionId ?? null,
    postcode: a.postcode ?? null,
    telephone: a.telephone,
    fax: a.fax ?? null,
    vat_id: a.vatId ?? null,
    vat_is_valid: bit(vat?.vatIsValid),
    vat_request_id: vat?.vatRequestId ?? null,
    vat_request_date: vat?.vatRequestDate ?? null,
    vat_request_success: bit(vat?.vatRequestSuccess),
    is_default_billing: a.isDefaultBilling,
    is_default_shipping: a.isDefaultShipping,
  };
}

/** A list item carries only the attributes that have a value. */
function withoutNulls(a: LegacyAddress): LegacyAddress {
  return Object.fromEntries(Object.entries(a).filter(([, v]) => v !== null));
}

// ---- input ----

const TEXT_FIELDS: [string, keyof AddressInputBody][] = [
  ['firstname', 'firstname'],
  ['lastname', 'lastname'],
  ['middlename', 'middlename'],
  ['prefix', 'prefix'],
  ['suffix', 'suffix'],
  ['company', 'company'],
  ['city', 'city'],
  ['postcode', 'postcode'],
  ['telephone', 'telephone'],
  ['fax', 'fax'],
  ['country_id', 'countryId'],
  ['region', 'region'],
  ['vat_id', 'vatId'],
];

const invalid = (field: string) => fault('dataInvalid', `Invalid value for ${field}.`);

function text(field: string, v: SoapValue): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  throw invalid(field);
}

function flag(field: string, v: SoapValue | undefined): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'boolean') return v;
  try {
    if (typeof v === 'number' || typeof v === 'string') return parseBoolean(String(v));
  } catch {
    // reported below as invalid data
  }
  throw invalid(field);
}

/**
 * The service input for legacy address data. Absent or null fields are not set, an empty string clears one;
 * street lines may come as a list or as one string. `false` default flags change nothing (legacy semantics):
 * on create they are passed as false so that no default is taken implicitly, on update they are dropped.
 */
function addressInput(data: SoapValue | undefined, mode: 'create' | 'update'): AddressInputBody {
  // an empty element (`<addressData/>`) is an empty struct
  const fields = data === '' ? undefined : data;
  if (fields !== undefined && fields !== null && !isRecord(fields)) throw fault('dataInvalid', 'Address data must be a struct.');
  const get = (k: string) => (fields ? fields.get(k) : undefined);
  const input: Record<string, unknown> = {};
  for (const [name, key] of TEXT_FIELDS) {
    const v = get(name);
    if (v !== undefined && v !== null) input[key] = text(name, v);
  }
  const regionId = get('region_id');
  if (regionId !== undefined && regionId !== null) {
    const s = text('region_id', regionId).trim();
    if (s === '' || s === '0') input.regionId = null;
    else if (/^\d{1,10}$/.test(s) && Number(s) <= 2147483647) input.regionId = Number(s);
    else throw invalid('region_id');
  }
  // a list element whose one member was read as a struct (`<street><string>L1</string></street>`) is that member
  const rawStreet = get('street');
  const street = isRecord(rawStreet) ? [...rawStreet.values()].flat() : rawStreet;
  if (Array.isArray(street)) input.street = street.map((l) => (l === null ? '' : text('street', l)));
  else if (street !== undefined && street !== null) input.street = text('street', street);
  for (const [name, key] of [
    ['is_default_billing', 'isDefaultBilling'],
    ['is_default_shipping', 'isDefaultShipping'],
  ] as const) {
    const f = flag(name, get(name));
    if (f === true) input[key] = true;
    else if (mode === 'create') input[key] = false;
  }
  // the constraints REST enforces through its body schema (lengths, line count)
  const [first] = [...Value.Errors(AddressInput, input)];
  if (first) {
    const key = first.instancePath.split('/')[1] ?? '';
    const name = TEXT_FIELDS.find(([, k]) => k === key)?.[0] ?? (key === 'regionId' ? 'region_id' : key);
    throw fault('dataInvalid', `${name} ${first.message}`.trim());
  }
  return input as AddressInputBody;
}

// ---- service errors ----

const REQUIRED_MESSAGES: Record<string, string> = {
  firstname: 'Please enter the first name.',
  lastname: 'Please enter the last name.',
  street: 'Please enter the street.',
  city: 'Please enter the city.',
  telephone: 'Please enter the telephone number.',
  postcode: 'Please enter the zip/postal code.',
  countryId: 'Please enter the country.',
};

/** A refusal of the service as fault 100, with the legacy wording for missing fields. */
function dataFault(err: AppError): SoapFault {
  if (err.reason === 'MISSING_FIELDS') {
    const fields = (err.details?.fields ?? []) as string[];
    return fault('dataInvalid', fields.map((f) => REQUIRED_MESSAGES[f] ?? `Please enter ${f}.`).join('\n'));
  }
  if (err.reason === 'REGION_REQUIRED') return fault('dataInvalid', 'Please enter the state/province.');
  return fault('dataInvalid', err.message);
}

const isKind = (err: unknown, ...kinds: string[]): err is AppError => err instanceof AppError && kinds.includes(err.kind);

/** Runs a service call, turning its "not found" into the given fault. */
async function orFault<T>(name: 'customerNotExists' | 'addressNotExists', fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isKind(err, 'not_found')) throw fault(name);
    throw err;
  }
}

/** The customer's id, checked to exist and to be within the caller's store scope (fault 101). */
async function customerOf(ctx: Ctx, customerId: SoapValue | undefined): Promise<number> {
  const id = idArg(customerId);
  if (id === undefined) throw fault('customerNotExists');
  await orFault('customerNotExists', () => assertCustomerInScope(ctx, id));
  return id;
}

/** The address by id, within the caller's scope (fault 102). */
async function addressOf(ctx: Ctx, addressId: SoapValue | undefined) {
  const id = idArg(addressId);
  const found = id === undefined ? undefined : await findAddress(ctx, id);
  if (!found) throw fault('addressNotExists');
  await orFault('addressNotExists', () => assertCustomerInScope(ctx, found.address.customerId));
  return found;
}

// ---- operations ----

export async function listOp(ctx: Ctx, customerId: SoapValue | undefined): Promise<LegacyAddress[]> {
  const id = await customerOf(ctx, customerId);
  const items = await orFault('customerNotExists', () => listAddresses(ctx, id));
  return items.map((a) => withoutNulls(legacyAddress(a)));
}

/** The new address id. */
export async function createOp(ctx: Ctx, customerId: SoapValue | undefined, data: SoapValue | undefined): Promise<number> {
  const id = await customerOf(ctx, customerId);
  try {
    return (await createAddress(ctx, id, addressInput(data, 'create'))).id;
  } catch (err) {
    if (isKind(err, 'not_found')) throw fault('customerNotExists');
    const refusal =
      err instanceof SoapFault ? err : isKind(err, 'bad_request', 'unprocessable_entity', 'conflict') ? dataFault(err) : undefined;
    if (!refusal) throw err;
    // the data is checked before the customer row is read; a missing customer still answers 101 first
    await orFault('customerNotExists', () => listAddresses(ctx, id));
    throw refusal;
  }
}

export async function infoOp(ctx: Ctx, addressId: SoapValue | undefined): Promise<LegacyAddress> {
  const found = await addressOf(ctx, addressId);
  return legacyAddress(found.address, found.vat);
}

export async function updateOp(ctx: Ctx, addressId: SoapValue | undefined, data: SoapValue | undefined): Promise<true> {
  const { address } = await addressOf(ctx, addressId);
  const input = addressInput(data, 'update');
  try {
    await updateAddress(ctx, address.customerId, address.id, input);
  } catch (err) {
    if (isKind(err, 'not_found')) throw fault('addressNotExists');
    if (isKind(err, 'bad_request', 'unprocessable_entity', 'conflict')) throw dataFault(err);
    throw err;
  }
  return true;
}

export async function deleteOp(ctx: Ctx, addressId: SoapValue | undefined): Promise<true> {
  const { address } = await addressOf(ctx, addressId);
  try {
    await deleteAddress(ctx, address.customerId, address.id);
  } catch (err) {
    if (isKind(err, 'not_found')) throw fault('addressNotExists');
    if (err instanceof AppError) throw fault('notDeleted', err.message);
    throw err;
  }
  return true;
}

/** Runs one operation with positional arguments `(id, addressData?)`, after the ACL check. */
export async function runMethod(
  ctx: Ctx,
  method: Method,
  args: (SoapValue | undefined)[],
): Promise<LegacyAddress[] | LegacyAddress | number | true> {
  authorizeMethod(ctx, method);
  switch (method) {
    case 'list':
      return listOp(ctx, args[0]);
    case 'create':
      return recordActivity(ctx, soapActivity(method, undefined, args[1]), (c) => createOp(c, args[0], args[1]));
    case 'info':
      return infoOp(ctx, args[0]);
    case 'update':
      return recordActivity(ctx, soapActivity(method, args[0], args[1]), (c) => updateOp(c, args[0], args[1]));
    case 'delete':
      return recordActivity(ctx, soapActivity(method, args[0]), (c) => deleteOp(c, args[0]));
  }
}

/** The activity log entry of a SOAP address write: the address (a create's from its answer, the new id) and the data sent. */
function soapActivity(method: Method, addressId: SoapValue | undefined, data?: SoapValue): ActivityEntry {
  const id = idArg(addressId);
  return {
    operation: `customer_address.${method}`,
    protocol: 'soap',
    method: method === 'delete' ? 'DELETE' : method === 'update' ? 'PUT' : 'POST',
    resource: 'addresses',
    ...(id !== undefined ? { resourceId: id } : {}),
    fields: data === '' ? undefined : data,
    idOfResult: method === 'create',
  };
}
