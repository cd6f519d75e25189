import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { stores, websites } from '../stores/tables.js';
import { taxClasses } from '../tax/tables.js';

export const customerGroups = pgTable('customer_groups', {
  id: serial('id').primaryKey(),
  code: text('code').notNull().unique(),
  taxClassId: integer('tax_class_id')
    .notNull()
    .references(() => taxClasses.id),
});

export const customers = pgTable(
  'customers',
  {
    id: serial('id').primaryKey(),
    websiteId: integer('website_id')
      .notNull()
      .references(() => websites.id),
    /** stored lower-cased */
    email: text('email').notNull(),
    firstname: text('firstname').notNull(),
    lastname: text('lastname').notNull(),
    prefix: text('prefix'),
    middlename: text('middlename'),
    suffix: text('suffix'),
    gender: integer('gender'),
    dob: date('dob', { mode: 'string' }),
    taxvat: text('taxvat'),
    groupId: integer('group_id')
      .notNull()
      .references(() => customerGroups.id),
    isActive: boolean('is_active').notNull().default(true),
    storeId: integer('store_id').references(() => stores.id),
    createdIn: text('created_in'),
    disableAutoGroupChange: boolean('disable_auto_group_change').notNull().default(false),
    passwordHash: text('password_hash').notNull(),
    defaultBillingId: integer('default_billing_id'),
    defaultShippingId: integer('default_shipping_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('customers_website_email_uq').on(t.websiteId, t.email),
    index('customers_email_idx').on(t.email),
    index('customers_created_idx').on(t.createdAt),
    index('customers_name_idx').on(sql`lower(${t.lastname})`, sql`lower(${t.firstname})`),
  ],
);

export const customerAddresses = pgTable(
  'customer_addresses',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    firstname: text('firstname').notNull(),
    lastname: text('lastname').notNull(),
    prefix: text('prefix'),
    middlename: text('middlename'),
    suffix: text('suffix'),
    company: text('company'),
    street: text('street').array().notNull(),
    city: text('city').notNull(),
    region: text('region'),
    regionId: integer('region_id'),
    postcode: text('postcode'),
    countryId: text('country_id').notNull(),
    telephone: text('telephone').notNull(),
    fax: text('fax'),
    vatId: text('vat_id'),
    vatIsValid: boolean('vat_is_valid'),
    vatRequestDate: text('vat_request_date'),
    vatRequestId: text('vat_request_id'),
    vatRequestSuccess: boolean('vat_request_success'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('customer_addresses_customer_idx').on(t.customerId)],
);

/** Single-use password reset tokens, stored as SHA-256 hashes of the token sent by mail. */
export const passwordResets = pgTable(
  'customer_password_resets',
  {
    tokenHash: text('token_hash').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('customer_password_resets_customer_idx').on(t.customerId)],
);

/**
 * Sign-in identities of other providers (OpenID Connect: Google, Apple, Microsoft, a configured issuer): the
 * provider's subject linked to a customer of one website, as Maho's social_login_identity.
 */
export const customerSocialLogins = pgTable(
  'customer_social_logins',
  {
    id: serial('id').primaryKey(),
    provider: text('provider').notNull(),
    /** the ID token's `sub` */
    subject: text('subject').notNull(),
    websiteId: integer('website_id')
      .notNull()
      .references(() => websites.id, { onDelete: 'cascade' }),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    /** the address the provider last gave */
    email: text('email'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('customer_social_logins_identity_uq').on(t.provider, t.subject, t.websiteId),
    index('customer_social_logins_customer_idx').on(t.customerId),
  ],
);
