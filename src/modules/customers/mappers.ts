/** Database rows to wire shapes. */
import { compact, wireDate, wireDateTime } from '../../platform/format.js';
import type { AddressDto, CustomerDto } from './schemas.js';
import type { customerAddresses, customers } from './tables.js';

export type AddressRow = typeof customerAddresses.$inferSelect;
export type CustomerRow = typeof customers.$inferSelect & { isSubscribed: boolean };

export interface Defaults {
  defaultBillingId: number | null;
  defaultShippingId: number | null;
}

export function toAddressDto(a: AddressRow, d: Defaults): AddressDto {
  return compact({
    id: a.id,
    customerId: a.customerId,
    firstname: a.firstname,
    lastname: a.lastname,
    prefix: a.prefix,
    middlename: a.middlename,
    suffix: a.suffix,
    company: a.company,
    street: a.street,
    city: a.city,
    region: a.region,
    regionId: a.regionId,
    postcode: a.postcode,
    countryId: a.countryId,
    telephone: a.telephone,
    fax: a.fax,
    vatId: a.vatId,
    isDefaultBilling: d.defaultBillingId === a.id,
    isDefaultShipping: d.defaultShippingId === a.id,
    createdAt: wireDateTime(a.createdAt)!,
    updatedAt: wireDateTime(a.updatedAt)!,
  });
}

export function fullName(c: {
  prefix: string | null;
  firstname: string;
  middlename: string | null;
  lastname: string;
  suffix: string | null;
}): string {
  return [c.prefix, c.firstname, c.middlename, c.lastname, c.suffix].filter((p) => p && p.trim()).join(' ');
}

/**
 * A customer with the addresses given. The full read carries every address and both defaults; a list item
 * (`listItem`) carries `addresses: []` and only the default billing address, which must be among `addresses`.
 */
export function toCustomerDto(c: CustomerRow, addresses: AddressRow[], listItem = false): CustomerDto {
  const byId = new Map(addresses.map((a) => [a.id, a]));
  const addr = (id: number | null) => {
    const a = id === null ? undefined : byId.get(id);
    return a ? toAddressDto(a, c) : undefined;
  };
  return compact({
    id: c.id,
    email: c.email,
    firstname: c.firstname,
    lastname: c.lastname,
    prefix: c.prefix,
    middlename: c.middlename,
    suffix: c.suffix,
    gender: c.gender,
    dob: wireDate(c.dob),
    taxvat: c.taxvat,
    fullName: fullName(c),
    isSubscribed: c.isSubscribed,
    groupId: c.groupId,
    isActive: c.isActive,
    websiteId: c.websiteId,
    storeId: c.storeId,
    createdIn: c.createdIn,
    disableAutoGroupChange: c.disableAutoGroupChange,
    isConfirmed: true,
    defaultBillingAddress: addr(c.defaultBillingId),
    defaultShippingAddress: listItem ? undefined : addr(c.defaultShippingId),
    addresses: listItem ? [] : addresses.map((a) => toAddressDto(a, c)),
    createdAt: wireDateTime(c.createdAt)!,
    updatedAt: wireDateTime(c.updatedAt)!,
  });
}
