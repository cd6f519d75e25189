/**
 * A customer's address book. The same rules serve /customers/me/addresses, /addresses and the admin's
 * /customers/{customerId}/addresses: another customer's address is a 404 like a missing one. The default
 * billing and shipping addresses are stored on the customer; address writes lock the customer row so that
 * concurrent writes keep the defaults consistent.
 */
import { and, asc, eq } from 'drizzle-orm';
import { withTx, type Ctx } from '../../platform/context.js';
import type { Db } from '../../platform/db.js';
import { notFound } from '../../platform/errors.js';
import { resolveAddressLocation } from '../directory/service.js';
import { normOptional, normRequired, normStreet, requireFields } from './fields.js';
import { toAddressDto, type AddressRow, type Defaults } from './mappers.js';
import type { AddressDto, AddressInputBody } from './schemas.js';
import { customerAddresses, customers } from './tables.js';

const REQUIRED = ['firstname', 'lastname', 'street', 'city', 'postcode', 'countryId', 'telephone'] as const;

const addressNotFound = () => notFound('Address not found');

/** The customer's default ids, with the row locked for the rest of the transaction. */
async function lockCustomer(db: Db, customerId: number): Promise<Defaults> {
  const [c] = await db
    .select({ defaultBillingId: customers.defaultBillingId, defaultShippingId: customers.defaultShippingId })
    .from(customers)
    .where(eq(customers.id, customerId))
    .for('update');
  if (!c) throw notFound('Customer not found');
  return c;
}

async function saveDefaults(db: Db, customerId: number, before: Defaults, after: Defaults): Promise<void> {
  if (before.defaultBillingId === after.defaultBillingId && before.defaultShippingId === after.defaultShippingId) return;
  await db.update(customers).set(after).where(eq(customers.id, customerId));
}

/** Every address of the customer, oldest first (unpaginated). */
export async function listAddresses(ctx: Ctx, customerId: number): Promise<AddressDto[]> {
  const rows = await ctx.db
    .select({ a: customerAddresses, billing: customers.defaultBillingId, shipping: customers.defaultShippingId })
    .from(customers)
    .leftJoin(customerAddresses, eq(customerAddresses.customerId, customers.id))
    .where(eq(customers.id, customerId))
    .orderBy(asc(customerAddresses.id));
  if (!rows.length) throw notFound('Customer not found');
  return rows.flatMap((r) => (r.a ? [toAddressDto(r.a, { defaultBillingId: r.billing, defaultShippingId: r.shipping })] : []));
}

export async function getAddress(ctx: Ctx, customerId: number, id: number): Promise<AddressDto> {
  const [r] = await ctx.db
    .select({ a: customerAddresses, billing: customers.defaultBillingId, shipping: customers.defaultShippingId })
    .from(customerAddresses)
    .innerJoin(customers, eq(customers.id, customerAddresses.customerId))
    .where(and(eq(customerAddresses.id, id), eq(customerAddresses.customerId, customerId)));
  if (!r) throw addressNotFound();
  return toAddressDto(r.a, { defaultBillingId: r.billing, defaultShippingId: r.shipping });
}

/** The VAT validation fields of an address, which only the legacy SOAP info result shows. */
export interface AddressVatCheck {
  vatIsValid: boolean | null;
  vatRequestId: string | null;
  vatRequestDate: string | null;
  vatRequestSuccess: boolean | null;
}

/**
 * An address found by its id alone, whoever owns it (legacy SOAP operations name no customer); undefined when
 * there is none. Callers check the owner against their scope with `assertCustomerInScope`.
 */
export async function findAddress(ctx: Ctx, id: number): Promise<{ address: AddressDto; vat: AddressVatCheck } | undefined> {
  const [r] = await ctx.db
    .select({ a: customerAddresses, billing: customers.defaultBillingId, shipping: customers.defaultShippingId })
    .from(customerAddresses)
    .innerJoin(customers, eq(customers.id, customerAddresses.customerId))
    .where(eq(customerAddresses.id, id));
  if (!r) return undefined;
  const { vatIsValid, vatRequestId, vatRequestDate, vatRequestSuccess } = r.a;
  return {
    address: toAddressDto(r.a, { defaultBillingId: r.billing, defaultShippingId: r.shipping }),
    vat: { vatIsValid, vatRequestId, vatRequestDate, vatRequestSuccess },
  };
}

type NewAddressRow = typeof customerAddresses.$inferInsert;
type AddressValues = Partial<Omit<NewAddressRow, 'id' | 'customerId' | 'createdAt'>>;

/** The columns an input sets (undefined = not sent), country and region checked against the directory. */
function addressValues(ctx: Ctx, input: AddressInputBody, stored?: AddressRow): AddressValues {
  const v: AddressValues = {
    firstname: normRequired('firstname', input.firstname),
    lastname: normRequired('lastname', input.lastname),
    prefix: normOptional(input.prefix),
    middlename: normOptional(input.middlename),
    suffix: normOptional(input.suffix),
    company: normOptional(input.company),
    street: normStreet(input.street),
    city: normRequired('city', input.city),
    postcode: normRequired('postcode', input.postcode),
    telephone: normRequired('telephone', input.telephone),
    fax: normOptional(input.fax),
    vatId: normOptional(input.vatId),
  };
  const countrySent = input.countryId !== undefined;
  if (countrySent || input.region !== undefined || input.regionId !== undefined || !stored) {
    const countryId = countrySent ? normRequired('countryId', input.countryId)! : stored!.countryId;
    const countryChanged = !stored || countryId.trim().toUpperCase() !== stored.countryId;
    // a region sent (as id or as text) replaces the stored one; a new country starts without one
    const keep = !countryChanged && input.region === undefined && input.regionId === undefined;
    const loc = resolveAddressLocation(ctx, {
      countryId,
      regionId: keep ? stored!.regionId : input.regionId,
      region: keep ? stored!.region : input.region,
    });
    Object.assign(v, loc);
  }
  return v;
}

/** An order's or a cart's address (camelCase, as their rows keep it), the fields a customer's address book takes. */
export interface PostalAddress {
  firstName: string;
  lastName: string;
  company?: string | null;
  street: string[];
  city: string;
  postcode: string;
  countryId: string;
  regionId?: number | null;
  region?: string | null;
  telephone: string;
}

/** The address-book entry for a postal address: its region by id when it has one, else by name. */
export function addressBookInput(a: PostalAddress): AddressInputBody {
  return {
    firstname: a.firstName,
    lastname: a.lastName,
    company: a.company ?? undefined,
    street: a.street,
    city: a.city,
    postcode: a.postcode,
    countryId: a.countryId,
    ...(a.regionId ? { regionId: a.regionId } : a.region ? { region: a.region } : {}),
    telephone: a.telephone,
  };
}

/** Creates an address; it becomes a default when asked, or when the customer has none of that kind yet. */
export async function createAddress(ctx: Ctx, customerId: number, input: AddressInputBody): Promise<AddressDto> {
  requireFields(input, REQUIRED);
  const values = addressValues(ctx, input);
  return withTx(ctx, async (tx) => {
    const before = await lockCustomer(tx.db, customerId);
    const [row] = await tx.db
      .insert(customerAddresses)
      // requireFields above guarantees the required columns
      .values({ ...(values as Omit<NewAddressRow, 'customerId'>), customerId, createdAt: ctx.now, updatedAt: ctx.now })
      .returning();
    const pick = (flag: boolean | undefined, current: number | null) =>
      flag === true || (flag === undefined && current === null) ? row.id : current;
    const after = {
      defaultBillingId: pick(input.isDefaultBilling, before.defaultBillingId),
      defaultShippingId: pick(input.isDefaultShipping, before.defaultShippingId),
    };
    await saveDefaults(tx.db, customerId, before, after);
    return toAddressDto(row, after);
  });
}

/** A partial update; `isDefaultBilling: false` on the default address clears that default. */
export async function updateAddress(ctx: Ctx, customerId: number, id: number, input: AddressInputBody): Promise<AddressDto> {
  return withTx(ctx, async (tx) => {
    const before = await lockCustomer(tx.db, customerId);
    const [stored] = await tx.db
      .select()
      .from(customerAddresses)
      .where(and(eq(customerAddresses.id, id), eq(customerAddresses.customerId, customerId)));
    if (!stored) throw addressNotFound();
    const values = addressValues(ctx, input, stored);
    const [row] = await tx.db
      .update(customerAddresses)
      .set({ ...values, updatedAt: ctx.now })
      .where(eq(customerAddresses.id, id))
      .returning();
    const pick = (flag: boolean | undefined, current: number | null) =>
      flag === true ? id : flag === false && current === id ? null : current;
    const after = {
      defaultBillingId: pick(input.isDefaultBilling, before.defaultBillingId),
      defaultShippingId: pick(input.isDefaultShipping, before.defaultShippingId),
    };
    await saveDefaults(tx.db, customerId, before, after);
    return toAddressDto(row, after);
  });
}

/** Deletes an address; a default that pointed at it is cleared. */
export async function deleteAddress(ctx: Ctx, customerId: number, id: number): Promise<void> {
  await withTx(ctx, async (tx) => {
    const before = await lockCustomer(tx.db, customerId);
    const gone = await tx.db
      .delete(customerAddresses)
      .where(and(eq(customerAddresses.id, id), eq(customerAddresses.customerId, customerId)))
      .returning({ id: customerAddresses.id });
    if (!gone.length) throw addressNotFound();
    await saveDefaults(tx.db, customerId, before, {
      defaultBillingId: before.defaultBillingId === id ? null : before.defaultBillingId,
      defaultShippingId: before.defaultShippingId === id ? null : before.defaultShippingId,
    });
  });
}
