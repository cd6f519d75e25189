/**
 * Customer groups, customers and their addresses (ids kept). Password hashes are copied as they are: the
 * legacy formats are verified at login and replaced by our own hash on the first successful one.
 */
import { sql } from 'drizzle-orm';
import { rows } from '../../platform/db.js';
import { customerAddresses, customerGroups, customers } from '../../modules/customers/tables.js';
import {
  assertImportable,
  count,
  existingIds,
  imported,
  recordKeptIds,
  sinceWhere,
  upsert,
  upsertKept,
  WriteBehind,
  type EntityImporter,
  type ImportContext,
} from '../context.js';
import { attributesOf, eavValues, valuesIn, type EavAttribute } from '../eav.js';
import { bool, date, day, int, readAhead, str, text, trimmed, type SourceRow } from '../source.js';

/** Matches nothing at login: an account created without a password (by an admin) must reset it first. */
const NO_PASSWORD = '!';

export const customerGroupsImporter: EntityImporter = {
  name: 'customer groups',
  group: 'customers',
  count: (ctx) => ctx.source.count('customer_group'),
  async run(ctx, stats, tick) {
    const all = await ctx.source.query('SELECT * FROM customer_group ORDER BY customer_group_id');
    const classes = new Set(
      (await rows<{ id: number }>(ctx.db, sql`SELECT id FROM tax_classes WHERE class_type = 'CUSTOMER'`)).map((r) => r.id),
    );
    const fallback = Math.min(...classes);
    stats.found = all.length;
    const values = all.map((g) => ({
      id: Number(g.customer_group_id),
      code: text(g.customer_group_code) ?? `group-${g.customer_group_id}`,
      taxClassId: classes.has(Number(g.tax_class_id)) ? Number(g.tax_class_id) : fallback,
    }));
    for (const v of values)
      await ctx.db.execute(sql`UPDATE customer_groups SET code = code || ' (' || id || ')' WHERE code = ${v.code} AND id <> ${v.id}`);
    count(stats, await upsert(ctx.db, customerGroups, values, [customerGroups.id]));
    await recordKeptIds(
      ctx.db,
      'customer groups',
      values.map((v) => v.id as number),
    );
    ctx.sequences.add('customer_groups');
    tick(all.length);
  },
};

/**
 * A hash re-hashed at a login since the last run is kept, unless the customer changed in the source since
 * (a new password there moves its updated_at).
 */
const KEEP_UPGRADED_HASH = `CASE WHEN t.password_hash LIKE 'scrypt$%' AND excluded.updated_at <= t.updated_at THEN t.password_hash ELSE excluded.password_hash END`;

const CUSTOMER_CODES = [
  'firstname',
  'lastname',
  'middlename',
  'prefix',
  'suffix',
  'dob',
  'gender',
  'taxvat',
  'password_hash',
  'default_billing',
  'default_shipping',
  'created_in',
  'disable_auto_group_change',
];

async function customerAttributes(ctx: ImportContext): Promise<Map<string, EavAttribute>> {
  let attrs = ctx.memo.get('customerAttributes') as Map<string, EavAttribute> | undefined;
  if (!attrs) ctx.memo.set('customerAttributes', (attrs = await attributesOf(ctx.source, 'customer')));
  return attrs;
}

export const customersImporter: EntityImporter = {
  name: 'customers',
  group: 'customers',
  fills: ['customers'],
  count: (ctx) => {
    const s = sinceWhere(ctx, 'customer_entity');
    return ctx.source.count('customer_entity', s.where, s.params);
  },
  async run(ctx, stats, tick) {
    await assertImportable(ctx.db, 'customers', 'customers');
    const attrs = await customerAttributes(ctx);
    const groups = new Set((await rows<{ id: number }>(ctx.db, sql`SELECT id FROM customer_groups`)).map((r) => r.id));
    const storeWebsites = new Map(
      (await rows<{ id: number; website: number }>(ctx.db, sql`SELECT id, website_id AS website FROM stores`)).map((r) => [
        r.id,
        r.website,
      ]),
    );
    const websiteIds = new Set(storeWebsites.values());
    const seen = new Set<string>();
    const since = sinceWhere(ctx, 'customer_entity');
    const behind = new WriteBehind();
    try {
      for await (const [batch, eav] of readAhead(
        ctx.source.batches({ from: 'customer_entity', key: 'entity_id', where: since.where, params: since.params }),
        (batch) =>
          eavValues(
            ctx.source,
            'customer_entity',
            batch.map((r) => Number(r.entity_id)),
            attrs,
            CUSTOMER_CODES,
          ),
      )) {
        stats.found += batch.length;
        const values: (typeof customers.$inferInsert)[] = [];
        for (const r of batch) {
          const id = Number(r.entity_id);
          const v = Object.assign({}, valuesIn(eav, id), staticValues(r));
          const email = trimmed(r.email)?.toLowerCase();
          const storeId = int(r.store_id);
          const websiteId = int(r.website_id) ?? (storeId ? storeWebsites.get(storeId) : undefined);
          if (!email) ctx.report.skip(stats, id, 'no email');
          else if (!websiteId || !websiteIds.has(websiteId))
            ctx.report.skip(stats, id, 'website not imported (accounts shared globally need a website)');
          else if (seen.has(`${websiteId}/${email}`)) ctx.report.skip(stats, id, 'same email twice in one website');
          else {
            seen.add(`${websiteId}/${email}`);
            values.push({
              id,
              websiteId,
              email,
              firstname: text(v.firstname) ?? '',
              lastname: text(v.lastname) ?? '',
              prefix: text(v.prefix),
              middlename: text(v.middlename),
              suffix: text(v.suffix),
              gender: int(v.gender) || null,
              dob: day(v.dob),
              taxvat: text(v.taxvat),
              groupId: groups.has(Number(r.group_id)) ? Number(r.group_id) : 1,
              isActive: r.is_active === undefined ? true : bool(r.is_active),
              storeId: storeId && storeWebsites.has(storeId) ? storeId : null,
              createdIn: text(v.created_in),
              disableAutoGroupChange: bool(v.disable_auto_group_change),
              passwordHash: trimmed(v.password_hash) ?? NO_PASSWORD,
              defaultBillingId: int(v.default_billing) || null,
              defaultShippingId: int(v.default_shipping) || null,
              createdAt: date(r.created_at) ?? new Date(0),
              updatedAt: date(r.updated_at) ?? date(r.created_at) ?? new Date(0),
            });
          }
        }
        const found = stats.found;
        await behind.add(async () => {
          await upsertKept(ctx.db, stats, customers, 'customers', values, { passwordHash: KEEP_UPGRADED_HASH });
          tick(found);
        });
      }
    } finally {
      await behind.flush();
    }
    ctx.sequences.add('customers');
  },
  async verify(ctx) {
    const [{ n }] = await rows<{ n: number }>(
      ctx.db,
      sql`SELECT count(*)::int AS n FROM customers c WHERE ${imported('customers', sql`c.id`)}`,
    );
    const skipped = ctx.report.entity('customers').skipped;
    ctx.report.check('customers (source rows less skipped)', (await ctx.source.count('customer_entity')) - skipped, n);
  },
};

/** Columns some versions keep on customer_entity itself rather than as EAV values. */
function staticValues(r: SourceRow): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const code of CUSTOMER_CODES) if (r[code] !== undefined && r[code] !== null) out[code] = r[code];
  return out;
}

const ADDRESS_CODES = [
  'firstname',
  'lastname',
  'middlename',
  'prefix',
  'suffix',
  'company',
  'street',
  'city',
  'region',
  'region_id',
  'postcode',
  'country_id',
  'telephone',
  'fax',
  'vat_id',
  'vat_is_valid',
  'vat_request_date',
  'vat_request_id',
  'vat_request_success',
];

export const addressesImporter: EntityImporter = {
  name: 'customer addresses',
  group: 'customers',
  fills: ['customer_addresses'],
  count: (ctx) => {
    const s = sinceWhere(ctx, 'customer_address_entity');
    return ctx.source.count('customer_address_entity', s.where, s.params);
  },
  async run(ctx, stats, tick) {
    await assertImportable(ctx.db, 'customer_addresses', 'customer addresses');
    const attrs = await attributesOf(ctx.source, 'customer_address');
    const since = sinceWhere(ctx, 'customer_address_entity');
    const behind = new WriteBehind();
    try {
      for await (const [batch, [eav, owners]] of readAhead(
        ctx.source.batches({
          from: 'customer_address_entity',
          key: 'entity_id',
          where: since.where,
          params: since.params,
        }),
        (batch) =>
          Promise.all([
            eavValues(
              ctx.source,
              'customer_address_entity',
              batch.map((r) => Number(r.entity_id)),
              attrs,
              ADDRESS_CODES,
            ),
            // written by the customers entity: read ahead with the batch
            behind.read(() =>
              existingIds(
                ctx.db,
                'customers',
                batch.map((r) => Number(r.parent_id)),
              ),
            ),
          ]),
      )) {
        stats.found += batch.length;
        const values: (typeof customerAddresses.$inferInsert)[] = [];
        for (const r of batch) {
          const id = Number(r.entity_id);
          const v = valuesIn(eav, id);
          const country = trimmed(v.country_id);
          if (!owners.has(Number(r.parent_id))) ctx.report.skip(stats, id, 'its customer was not imported');
          else if (!country) ctx.report.skip(stats, id, 'no country');
          else {
            values.push({
              id,
              customerId: Number(r.parent_id),
              firstname: text(v.firstname) ?? '',
              lastname: text(v.lastname) ?? '',
              prefix: text(v.prefix),
              middlename: text(v.middlename),
              suffix: text(v.suffix),
              company: text(v.company),
              street: (str(v.street) ?? '')
                .split('\n')
                .map((s) => s.trim())
                .filter(Boolean),
              city: text(v.city) ?? '',
              region: text(v.region),
              regionId: int(v.region_id) || null,
              postcode: text(v.postcode),
              countryId: country,
              telephone: text(v.telephone) ?? '',
              fax: text(v.fax),
              vatId: text(v.vat_id),
              vatIsValid: v.vat_is_valid === undefined || v.vat_is_valid === null ? null : bool(v.vat_is_valid),
              vatRequestDate: text(v.vat_request_date),
              vatRequestId: text(v.vat_request_id),
              vatRequestSuccess: v.vat_request_success === undefined || v.vat_request_success === null ? null : bool(v.vat_request_success),
              createdAt: date(r.created_at) ?? new Date(0),
              updatedAt: date(r.updated_at) ?? date(r.created_at) ?? new Date(0),
            });
          }
        }
        const found = stats.found;
        await behind.add(async () => {
          await upsertKept(ctx.db, stats, customerAddresses, 'customer addresses', values);
          tick(found);
        });
      }
    } finally {
      await behind.flush();
    }
    ctx.sequences.add('customer_addresses');
  },
};
