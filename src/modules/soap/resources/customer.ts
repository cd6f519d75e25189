/** `customer` of the Magento 1 API: list (with filters), info, create, update and delete, over the customers service. */
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Ctx } from '../../../platform/context.js';
import { customerRowsWhere } from '../../customers/list.js';
import type { CustomerCreateBody, CustomerUpdateBody } from '../../customers/schemas.js';
import { createCustomer, deleteCustomer, updateCustomer } from '../../customers/service.js';
import { isRecord } from '../encoding.js';
import { filterSql, FilterError, parseFilters, type FilterColumn } from '../filters.js';
import { defineResource, idArg, magentoDate, resourceFault, serviceFault, type LegacyValue } from '../resources.js';

type Row = Awaited<ReturnType<typeof customerRowsWhere>>[number];

/** A customer as Magento lists it; the password hash is never part of it. */
function customerRecord(c: Row): Map<string, LegacyValue> {
  return new Map<string, LegacyValue>([
    ['customer_id', c.id],
    ['created_at', magentoDate(c.createdAt)],
    ['updated_at', magentoDate(c.updatedAt)],
    ['increment_id', null],
    ['store_id', c.storeId],
    ['website_id', c.websiteId],
    ['created_in', c.createdIn],
    ['email', c.email],
    ['firstname', c.firstname],
    ['middlename', c.middlename],
    ['lastname', c.lastname],
    ['prefix', c.prefix],
    ['suffix', c.suffix],
    ['group_id', c.groupId],
    ['dob', c.dob ? `${c.dob} 00:00:00` : null],
    ['taxvat', c.taxvat],
    ['gender', c.gender],
    ['is_active', c.isActive ? 1 : 0],
    ['default_billing', c.defaultBillingId],
    ['default_shipping', c.defaultShippingId],
  ]);
}

/** The filters' fields: Magento's attribute codes (and `customer_id`) over the customers table. */
const columns = (t: Parameters<Parameters<typeof customerRowsWhere>[1]>[0]): Record<string, FilterColumn> => ({
  customer_id: { column: t.id, type: 'number' },
  entity_id: { column: t.id, type: 'number' },
  email: { column: t.email },
  firstname: { column: t.firstname },
  middlename: { column: t.middlename },
  lastname: { column: t.lastname },
  prefix: { column: t.prefix },
  suffix: { column: t.suffix },
  taxvat: { column: t.taxvat },
  gender: { column: t.gender, type: 'number' },
  group_id: { column: t.groupId, type: 'number' },
  website_id: { column: t.websiteId, type: 'number' },
  store_id: { column: t.storeId, type: 'number' },
  created_in: { column: t.createdIn },
  is_active: { column: t.isActive, type: 'bool' },
  created_at: { column: t.createdAt, type: 'date' },
  updated_at: { column: t.updatedAt, type: 'date' },
  dob: { column: t.dob },
});

const str = (v: LegacyValue | undefined) => (v === undefined || v === null ? undefined : String(v));
const int = (v: LegacyValue | undefined, field: string) => {
  if (v === undefined || v === null || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n)) throw resourceFault(customer, 'data_invalid', `Invalid value for ${field}.`);
  return n;
};

/** The customer data of a create or update in the service's names; unknown attributes are ignored, as Magento does. */
function customerData(v: LegacyValue | undefined): CustomerCreateBody & CustomerUpdateBody {
  if (!isRecord(v)) throw resourceFault(customer, 'data_invalid', 'Customer data must be a struct.');
  const active = v.get('is_active');
  return {
    email: str(v.get('email')),
    firstname: str(v.get('firstname')),
    lastname: str(v.get('lastname')),
    middlename: str(v.get('middlename')),
    prefix: str(v.get('prefix')),
    suffix: str(v.get('suffix')),
    taxvat: str(v.get('taxvat')),
    dob: str(v.get('dob'))?.slice(0, 10),
    gender: int(v.get('gender'), 'gender'),
    groupId: int(v.get('group_id'), 'group_id'),
    websiteId: int(v.get('website_id'), 'website_id'),
    isActive: active === undefined || active === null ? undefined : ['1', 'true', 1, true].includes(active as string | number | boolean),
    password: str(v.get('password')),
  };
}

const defined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, x]) => x !== undefined)) as T;

/** A service error as the resource's fault: not found as `not_exists`, a refusal of the data as `data_invalid`. */
function asFault(err: unknown, invalid: 'data_invalid' | 'not_deleted'): never {
  return serviceFault(customer, err, { missing: 'not_exists', forbidden: 'access_denied', invalid });
}

async function info(ctx: Ctx, id: number | undefined) {
  if (id === undefined) throw resourceFault(customer, 'not_exists');
  const [row] = await customerRowsWhere(ctx, (t) => eq(t.id, id));
  if (!row) throw resourceFault(customer, 'not_exists');
  return row;
}

export const customer = defineResource({
  name: 'customer',
  title: 'Customer API',
  faults: {
    data_invalid: ['100', 'Invalid customer data. Details in error message.'],
    filters_invalid: ['101', 'Invalid filters specified. Details in error message.'],
    not_exists: ['102', 'Customer not exists.'],
    not_deleted: ['103', 'Customer not deleted. Details in error message.'],
  },
  methods: {
    list: {
      title: 'Retrieve customers',
      permission: ['customers', 'read'],
      params: ['filters'],
      run: async (ctx, [filters]) => {
        let rows: Row[];
        try {
          const parsed = parseFilters(filters);
          rows = await customerRowsWhere(ctx, (t) => filterSql(parsed, columns(t)));
        } catch (err) {
          if (err instanceof FilterError) throw resourceFault(customer, 'filters_invalid', err.message);
          throw err;
        }
        return rows.map(customerRecord);
      },
    },
    info: {
      title: 'Retrieve customer data',
      permission: ['customers', 'read'],
      params: ['customerId', 'attributes'],
      run: async (ctx, [customerId, attributes]) => {
        const record = customerRecord(await info(ctx, idArg(customerId)));
        const wanted = typeof attributes === 'string' ? [attributes] : Array.isArray(attributes) ? attributes.map(String) : undefined;
        if (!wanted?.length) return record;
        return new Map([...record].filter(([k]) => k === 'customer_id' || wanted.includes(k)));
      },
    },
    create: {
      title: 'Create customer',
      permission: ['customers', 'create'],
      params: ['customerData'],
      run: async (ctx, [data]) => {
        const body = defined(customerData(data));
        for (const f of ['email', 'firstname', 'lastname'] as const) {
          if (!body[f]?.trim()) throw resourceFault(customer, 'data_invalid', `The value of attribute "${f}" is required`);
        }
        // Magento creates accounts without a password; ours get a random one, which the customer replaces by a reset
        body.password ??= `${crypto.randomBytes(18).toString('base64url')}aA1!`;
        try {
          return (await createCustomer(ctx, body)).id;
        } catch (err) {
          asFault(err, 'data_invalid');
        }
      },
    },
    update: {
      title: 'Update customer data',
      permission: ['customers', 'write'],
      params: ['customerId', 'customerData'],
      run: async (ctx, [customerId, data]) => {
        const id = (await info(ctx, idArg(customerId))).id;
        const { password: _ignored, ...body } = defined(customerData(data));
        try {
          await updateCustomer(ctx, id, body);
        } catch (err) {
          asFault(err, 'data_invalid');
        }
        return true;
      },
    },
    delete: {
      title: 'Delete customer',
      permission: ['customers', 'delete'],
      params: ['customerId'],
      run: async (ctx, [customerId]) => {
        const id = (await info(ctx, idArg(customerId))).id;
        try {
          await deleteCustomer(ctx, id);
        } catch (err) {
          asFault(err, 'not_deleted');
        }
        return true;
      },
    },
  },
});
