/**
 * Customers: registration, authentication and profile.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import type { Db } from '../../platform/db.js';
import { hashSecret, verifySecret } from '../../platform/auth/secrets.js';
import { badRequest, conflict } from '../../platform/errors.js';
import { declareDefaults } from '../../platform/settings.js';
import { customerGroups, customers } from './tables.js';

declareDefaults({
  'customer/create_account/default_group': 1,
  'customer/password/minimum_password_length': 7,
});

export interface CustomerIdentity {
  id: number;
  email: string;
  firstname: string;
  lastname: string;
}

/** The customer with this email in the current website, when the password matches and the account is active. */
export async function authenticateCustomer(ctx: Ctx, email: string, password: string): Promise<CustomerIdentity | undefined> {
  const [c] = await ctx.db
    .select({ id: customers.id, email: customers.email, firstname: customers.firstname, lastname: customers.lastname, hash: customers.passwordHash, isActive: customers.isActive })
    .from(customers)
    .where(and(eq(customers.websiteId, ctx.store.websiteId), eq(customers.email, email.trim().toLowerCase())));
  const ok = await verifySecret(password, c?.hash);
  if (!c || !ok || !c.isActive) return undefined;
  return { id: c.id, email: c.email, firstname: c.firstname, lastname: c.lastname };
}

export async function getCustomerIdentity(ctx: Ctx, id: number): Promise<CustomerIdentity | undefined> {
  const [c] = await ctx.db
    .select({ id: customers.id, email: customers.email, firstname: customers.firstname, lastname: customers.lastname, isActive: customers.isActive })
    .from(customers)
    .where(eq(customers.id, id));
  return c && c.isActive ? c : undefined;
}

export interface NewCustomer {
  email: string;
  password: string;
  firstname: string;
  lastname: string;
}

export async function registerCustomer(ctx: Ctx, input: NewCustomer): Promise<number> {
  const min = ctx.app.settings.getInt('customer/password/minimum_password_length', ctx.store.storeId);
  if (input.password.length < min) throw badRequest(`The password must have at least ${min} characters`);
  const email = input.email.trim().toLowerCase();
  const [dup] = await ctx.db.select({ id: customers.id }).from(customers).where(and(eq(customers.websiteId, ctx.store.websiteId), eq(customers.email, email)));
  if (dup) throw conflict('A customer with this email already exists', { reason: 'EMAIL_TAKEN' });
  const [row] = await ctx.db
    .insert(customers)
    .values({
      websiteId: ctx.store.websiteId,
      storeId: ctx.store.storeId,
      email,
      firstname: input.firstname,
      lastname: input.lastname,
      groupId: ctx.app.settings.getInt('customer/create_account/default_group', ctx.store.storeId),
      passwordHash: await hashSecret(input.password),
      createdIn: ctx.app.settings.store(ctx.store.storeId)?.name,
    })
    .returning({ id: customers.id });
  return row.id;
}

/** Install data: groups NOT LOGGED IN (0), General (1), Wholesale (2), Retailer (3), all of tax class 3. */
export async function install(db: Db): Promise<void> {
  await db.insert(customerGroups).values([
    { id: 0, code: 'NOT LOGGED IN', taxClassId: 3 },
    { id: 1, code: 'General', taxClassId: 3 },
    { id: 2, code: 'Wholesale', taxClassId: 3 },
    { id: 3, code: 'Retailer', taxClassId: 3 },
  ]);
  await db.execute(sql`SELECT setval(pg_get_serial_sequence('customer_groups', 'id'), (SELECT max(id) FROM customer_groups))`);
}

export const DEMO_CUSTOMER = { email: 'customer@example.com', password: 'Password123!', firstname: 'Jane', lastname: 'Doe' };

export async function seedDemo(ctx: Ctx): Promise<void> {
  await registerCustomer(ctx, DEMO_CUSTOMER);
}
