/**
 * Customers: registration, authentication and profile (self-service and admin). Addresses live in
 * addresses.ts, password change and reset in passwords.ts.
 */
import { and, eq, getTableColumns, inArray, ne, sql, type SQL } from 'drizzle-orm';
import { hasPermission } from '../../platform/auth/access.js';
import { hashSecret, verifySecretAndUpgrade } from '../../platform/auth/secrets.js';
import { adminWebsiteScope, assertScopeWritable, customerIdOf, withTx, type AppServices, type Ctx } from '../../platform/context.js';
import { rows, statement, type Db, type Statement } from '../../platform/db.js';
import { AppError, badRequest, conflict, forbidden, fromDatabaseError, notFound } from '../../platform/errors.js';
import { configuredRule } from '../../platform/rate-limit.js';
import { declareConfig, declareConfigLabels } from '../../platform/settings.js';
import { setSubjectBlocked } from '../../platform/auth/subjects.js';
import { confirmCurrentPassword } from './current-password.js';
import { checkPassword, normDob, normEmail, normGender, normOptional, normRequired, requireFields } from './fields.js';
import { toCustomerDto, type AddressRow, type CustomerRow } from './mappers.js';
import type { CustomerCreateBody, CustomerDto, CustomerUpdateBody } from './schemas.js';
import { linkSubscriptions, subscribedSql } from './subscription.js';
import { customerAddresses, customerGroups, customers } from './tables.js';
import { customerEvents } from './events.js';

declareConfigLabels({
  customer: 'Customer Configuration',
  'customer/create_account': 'Create New Account Options',
  'customer/password': 'Password Options',
  api: 'API',
  'api/rate_limit': 'Rate Limits',
});
declareConfig({
  'customer/create_account/default_group': { type: 'integer', default: 1, label: 'Default Group', comment: 'a customer group id', min: 0 },
  'customer/password/minimum_password_length': { type: 'integer', default: 7, label: 'Minimum Password Length', min: 1, max: 256 },
  'api/rate_limit/customer_register': {
    type: 'integer',
    default: 5,
    label: 'Registrations',
    comment: 'registrations per IP per hour by anonymous (and customer) callers; 0: no limit',
    min: 0,
    scopes: ['default'],
  },
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
    .select({
      id: customers.id,
      email: customers.email,
      firstname: customers.firstname,
      lastname: customers.lastname,
      hash: customers.passwordHash,
      isActive: customers.isActive,
    })
    .from(customers)
    .where(and(eq(customers.websiteId, ctx.store.websiteId), eq(customers.email, email.trim().toLowerCase())));
  const { ok, rehash } = await verifySecretAndUpgrade(password, c?.hash, ctx.log);
  if (!c || !ok || !c.isActive) return undefined;
  if (rehash) {
    // a legacy (imported) or weaker hash is replaced once; a concurrent login that got there first wins
    try {
      await ctx.db
        .update(customers)
        .set({ passwordHash: rehash })
        .where(and(eq(customers.id, c.id), eq(customers.passwordHash, c.hash)));
    } catch (err) {
      ctx.log.warn({ err, customerId: c.id }, 'could not store the upgraded password hash');
    }
  }
  return { id: c.id, email: c.email, firstname: c.firstname, lastname: c.lastname };
}

export async function getCustomerIdentity(ctx: Ctx, id: number): Promise<CustomerIdentity | undefined> {
  if (!Number.isInteger(id) || id < 1 || id > 2147483647) return undefined;
  const [row] = await rows<{ c: [number, string, string, string] | null }>(
    ctx.db,
    sql`SELECT ${customerIdentitySql(sql`${id}::int`)} AS c`,
  );
  return identityFromJson(row?.c ?? null);
}

/** The identity of the customer `customerId` (SQL), when it exists and is active, as one JSON value. */
export function customerIdentitySql(customerId: SQL): SQL {
  return sql`(SELECT json_build_array(c.id, c.email, c.firstname, c.lastname) FROM ${customers} c WHERE c.id = ${customerId} AND c.is_active)`;
}

/** The identity customerIdentitySql read; undefined for a customer that does not exist or is not active. */
export function identityFromJson(json: [number, string, string, string] | null): CustomerIdentity | undefined {
  return json ? { id: json[0], email: json[1], firstname: json[2], lastname: json[3] } : undefined;
}

/** The calling customer's id (routes with access.customer). */
export function selfId(ctx: Ctx): number {
  const id = customerIdOf(ctx.actor);
  if (id === undefined) throw forbidden('Customer identity required', { reason: 'CUSTOMER_IDENTITY_REQUIRED' });
  return id;
}

const emailTaken = () => conflict('A customer with this email already exists', { reason: 'EMAIL_TAKEN', details: { field: 'email' } });

/** A unique violation on (website, email) that a concurrent request won becomes the named 409. */
function mapEmailRace(err: unknown): never {
  const db = fromDatabaseError(err);
  if (db?.reason === 'DUPLICATE') throw emailTaken();
  throw err;
}

async function emailExists(db: Db, websiteId: number, email: string, exceptId?: number): Promise<boolean> {
  const conds = [eq(customers.websiteId, websiteId), eq(customers.email, email)];
  if (exceptId !== undefined) conds.push(ne(customers.id, exceptId));
  const [row] = await db
    .select({ id: customers.id })
    .from(customers)
    .where(and(...conds))
    .limit(1);
  return !!row;
}

/** Group 0 (NOT LOGGED IN) is not a customer's group. */
async function checkGroup(db: Db, groupId: number): Promise<void> {
  const [g] = groupId > 0 ? await db.select({ id: customerGroups.id }).from(customerGroups).where(eq(customerGroups.id, groupId)) : [];
  if (!g) throw badRequest(`Unknown customer group: ${groupId}`, { reason: 'INVALID_GROUP', details: { field: 'groupId' } });
}

/** The store view new accounts of a website are created in: the current one, else the website's default. */
function storeOfWebsite(ctx: Ctx, websiteId: number): number {
  if (websiteId === ctx.store.websiteId) return ctx.store.storeId;
  const r = ctx.app.settings;
  const website = r.website(websiteId);
  const group = website?.defaultGroupId ? r.group(website.defaultGroupId) : undefined;
  if (!website || !group?.defaultStoreId) {
    throw badRequest(`Unknown website: ${websiteId}`, { reason: 'INVALID_WEBSITE', details: { field: 'websiteId' } });
  }
  return group.defaultStoreId;
}

export interface NewCustomer {
  email: string;
  password: string;
  firstname: string;
  lastname: string;
  prefix?: string | null;
  middlename?: string | null;
  suffix?: string | null;
  gender?: number | null;
  dob?: string | null;
  taxvat?: string | null;
  groupId?: number;
  isActive?: boolean;
  websiteId?: number;
  disableAutoGroupChange?: boolean;
}

/** Creates an account with everything given (trusted callers: REST after its access checks, seeds, CLI). */
export async function registerCustomer(ctx: Ctx, input: NewCustomer): Promise<number> {
  requireFields({ ...input }, ['email', 'password', 'firstname', 'lastname']);
  const email = normEmail(input.email);
  checkPassword(ctx, input.password);
  const websiteId = input.websiteId ?? ctx.store.websiteId;
  const storeId = storeOfWebsite(ctx, websiteId);
  const groupId = input.groupId ?? ctx.app.settings.getInt('customer/create_account/default_group', storeId);
  const values = {
    websiteId,
    storeId,
    email,
    firstname: normRequired('firstname', input.firstname)!,
    lastname: normRequired('lastname', input.lastname)!,
    prefix: normOptional(input.prefix),
    middlename: normOptional(input.middlename),
    suffix: normOptional(input.suffix),
    gender: normGender(input.gender),
    dob: normDob(ctx, input.dob),
    taxvat: normOptional(input.taxvat),
    groupId,
    isActive: input.isActive ?? true,
    disableAutoGroupChange: input.disableAutoGroupChange ?? false,
    createdIn: ctx.app.settings.store(storeId)?.name,
  };
  await checkGroup(ctx.db, groupId);
  if (await emailExists(ctx.db, websiteId, email)) throw emailTaken();
  const passwordHash = await hashSecret(input.password);
  return withTx(ctx, async (tx) => {
    const [row] = await tx.db
      .insert(customers)
      .values({ ...values, passwordHash, createdAt: ctx.now, updatedAt: ctx.now })
      .returning({ id: customers.id })
      .catch(mapEmailRace);
    await linkSubscriptions(tx, { id: row.id, email, websiteId });
    emitCustomerEvent(tx, 'customer.created', row.id, storeId);
    return row.id;
  });
}

const ADMIN_FIELDS = ['groupId', 'isActive', 'websiteId', 'taxvat', 'disableAutoGroupChange'] as const;

/**
 * POST /customers. Anonymous and customer callers are rate-limited per IP and their admin-only fields
 * ignored; an admin/API caller setting admin-only fields needs customers/create.
 */
export async function createCustomer(ctx: Ctx, body: CustomerCreateBody): Promise<CustomerDto> {
  const a = ctx.actor;
  let trusted = false;
  if (a.kind === 'admin') {
    trusted = hasPermission(a.permissions, 'customers', 'create');
    if (!trusted && ADMIN_FIELDS.some((f) => body[f] !== undefined)) {
      throw forbidden('Access denied: requires customers/create', { reason: 'PERMISSION_DENIED' });
    }
  } else {
    await ctx.app.limiter.consume(configuredRule(ctx.app.settings, 'customer_register', 3600, ctx.store.storeId), ctx.ip);
  }
  requireFields(body, ['email', 'password', 'firstname', 'lastname']);
  const input: NewCustomer = {
    email: String(body.email),
    password: String(body.password),
    firstname: String(body.firstname),
    lastname: String(body.lastname),
    prefix: body.prefix,
    middlename: body.middlename,
    suffix: body.suffix,
    gender: body.gender,
    dob: body.dob,
  };
  if (trusted) {
    Object.assign(input, {
      groupId: body.groupId,
      isActive: body.isActive,
      websiteId: body.websiteId,
      taxvat: body.taxvat,
      disableAutoGroupChange: body.disableAutoGroupChange,
    });
    // customers belong to a website: a store-limited principal creates them in its own websites only
    if (body.websiteId !== undefined) assertScopeWritable(ctx, [body.websiteId], 'websiteId', 'website');
  }
  const id = await registerCustomer(ctx, input);
  return loadCustomer(ctx, id);
}

/** The customers row's columns and whether the customer is subscribed to the newsletter. */
export function customerColumns(ctx: Ctx) {
  return { ...getTableColumns(customers), isSubscribed: subscribedSql(ctx) };
}

/**
 * One customer with every address in one prepared statement (GET /customers/me is a hot path): the customer's
 * columns under their property names, the addresses as a JSON array in id order. On the embedded database it
 * is answered from memory while nothing has written.
 */
type CustomerWithAddresses = Statement<CustomerRow & { addresses: AddressRow[] }>;

/** The statement per app: it embeds the newsletter's SQL (`ctx.app.customerSubscriptions`, fixed for the app's lifetime). */
const withAddressesByApp = new WeakMap<AppServices, CustomerWithAddresses>();

function customerWithAddresses(ctx: Ctx): CustomerWithAddresses {
  let built = withAddressesByApp.get(ctx.app);
  if (!built) {
    const subscribed = subscribedSql(ctx);
    built = statement<CustomerRow & { addresses: AddressRow[] }>(
      'customers_with_addresses',
      () => {
        const cols = Object.entries(getTableColumns(customers))
          .filter(([key]) => key !== 'passwordHash')
          .map(([key, col]) =>
            col.columnType === 'PgDateString' ? sql`${col}::text AS ${sql.identifier(key)}` : sql`${col} AS ${sql.identifier(key)}`,
          );
        const fields = Object.entries(getTableColumns(customerAddresses)).map(([key, col]) => sql`${key}::text, ${col}`);
        return sql`SELECT ${sql.join(cols, sql`, `)}, ${subscribed} AS "isSubscribed",
          COALESCE((SELECT json_agg(json_build_object(${sql.join(fields, sql`, `)}) ORDER BY ${customerAddresses.id})
                      FROM ${customerAddresses} WHERE ${customerAddresses.customerId} = ${customers.id}), '[]'::json) AS addresses
        FROM ${customers} WHERE ${customers.id} = ${sql.placeholder('id')}`;
      },
      { memo: true },
    );
    withAddressesByApp.set(ctx.app, built);
  }
  return built;
}

async function loadCustomer(ctx: Ctx, id: number): Promise<CustomerDto> {
  const [c] = await customerWithAddresses(ctx).run(ctx.db, { id });
  if (!c) throw notFound('Customer not found');
  return toCustomerDto(c, c.addresses);
}

/** A condition limiting customers to the websites of a store-restricted admin token (none for anyone else). */
export function websiteScope(ctx: Ctx): SQL | undefined {
  const ids = adminWebsiteScope(ctx);
  return ids ? inArray(customers.websiteId, ids.length ? ids : [-1]) : undefined;
}

/** 404 for a customer outside the websites a store-restricted admin token may see. */
export async function assertCustomerInScope(ctx: Ctx, id: number): Promise<void> {
  const scope = websiteScope(ctx);
  if (!scope) return;
  const [row] = await ctx.db
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.id, id), scope));
  if (!row) throw notFound('Customer not found');
}

/** 404 for a customer that does not exist or is outside the websites a store-restricted admin token may see. */
export async function assertCustomerExists(ctx: Ctx, id: number): Promise<void> {
  const scope = websiteScope(ctx);
  const [row] = await ctx.db
    .select({ id: customers.id })
    .from(customers)
    .where(scope ? and(eq(customers.id, id), scope) : eq(customers.id, id));
  if (!row) throw notFound('Customer not found');
}

/** GET /customers/me. */
export function getMe(ctx: Ctx): Promise<CustomerDto> {
  return loadCustomer(ctx, selfId(ctx));
}

/** GET /customers/{id}: an admin/API reader, or the customer themself (another id: 403). */
export async function getCustomer(ctx: Ctx, id: number): Promise<CustomerDto> {
  if (ctx.actor.kind === 'customer' && ctx.actor.customerId !== id) {
    throw forbidden('Access denied', { reason: 'NOT_OWN_CUSTOMER' });
  }
  await assertCustomerInScope(ctx, id);
  return loadCustomer(ctx, id);
}

/**
 * A partial update of the profile. Admin-only fields apply when `trusted` (PUT /customers/{id});
 * deactivating blocks every token of the customer, reactivating unblocks them.
 */
async function updateProfile(ctx: Ctx, id: number, body: CustomerUpdateBody, trusted: boolean): Promise<CustomerDto> {
  await withTx(ctx, async (tx) => {
    const [cur] = await tx.db.select().from(customers).where(eq(customers.id, id)).for('update');
    if (!cur) throw notFound('Customer not found');
    const patch: Partial<typeof customers.$inferInsert> = {
      firstname: normRequired('firstname', body.firstname),
      lastname: normRequired('lastname', body.lastname),
      prefix: normOptional(body.prefix),
      middlename: normOptional(body.middlename),
      suffix: normOptional(body.suffix),
      gender: normGender(body.gender),
      dob: normDob(ctx, body.dob),
      updatedAt: ctx.now,
    };
    if (body.email !== undefined) {
      const email = normEmail(body.email);
      if (email !== cur.email && (await emailExists(tx.db, cur.websiteId, email, id))) throw emailTaken();
      patch.email = email;
    }
    if (trusted) {
      if (body.websiteId !== undefined && body.websiteId !== cur.websiteId) {
        throw badRequest('The website of a customer cannot be changed', { reason: 'WEBSITE_IMMUTABLE', details: { field: 'websiteId' } });
      }
      if (body.groupId !== undefined) {
        await checkGroup(tx.db, body.groupId);
        patch.groupId = body.groupId;
      }
      patch.isActive = body.isActive;
      patch.taxvat = normOptional(body.taxvat);
      patch.disableAutoGroupChange = body.disableAutoGroupChange;
    }
    await tx.db.update(customers).set(patch).where(eq(customers.id, id));
    if (trusted && body.isActive !== undefined) await setSubjectBlocked(tx, `customer_${id}`, !body.isActive);
    emitCustomerEvent(tx, 'customer.updated', id, cur.storeId);
  }).catch((err: unknown) => {
    if (err instanceof AppError) throw err;
    mapEmailRace(err);
  });
  return loadCustomer(ctx, id);
}

/**
 * DELETE /customers/{id} (admin/API with customers/delete): the account and its address book; every token of
 * the customer stops working. Orders, reviews and newsletter subscriptions stay, as the shop's records.
 */
export async function deleteCustomer(ctx: Ctx, id: number): Promise<void> {
  await assertCustomerInScope(ctx, id);
  await withTx(ctx, async (tx) => {
    const [cur] = await tx.db
      .select({ id: customers.id, storeId: customers.storeId })
      .from(customers)
      .where(eq(customers.id, id))
      .for('update');
    if (!cur) throw notFound('Customer not found');
    // the event carries the account as it was
    const gone = tx.app.events.wants('customer.deleted', cur.storeId) ? await loadCustomer(tx, id) : null;
    customerEvents.emit(tx, 'customer.deleted', { resource: 'customer', id, storeId: cur.storeId }, gone);
    await tx.db.delete(customers).where(eq(customers.id, id));
    await setSubjectBlocked(tx, `customer_${id}`, true);
  });
}

/** customer.created / customer.updated, with the account as the API shows it once the change is done. */
function emitCustomerEvent(tx: Ctx, type: 'customer.created' | 'customer.updated', id: number, storeId: number | null): void {
  customerEvents.emit(tx, type, { resource: 'customer', id, storeId }, () => loadCustomer(tx, id));
}

/**
 * PUT /customers/me: name parts, email, gender, dob; admin-only fields are ignored. A new email needs
 * `currentPassword`; the unchanged email sent back does not.
 */
export async function updateMe(ctx: Ctx, body: CustomerUpdateBody): Promise<CustomerDto> {
  const id = selfId(ctx);
  if (body.email !== undefined) {
    const email = normEmail(body.email);
    const [cur] = await ctx.db.select({ email: customers.email, hash: customers.passwordHash }).from(customers).where(eq(customers.id, id));
    if (cur && email !== cur.email) await confirmCurrentPassword(ctx, cur, body.currentPassword);
  }
  return updateProfile(ctx, id, body, false);
}

/** PUT /customers/{id} (admin/API with customers/write). */
export async function updateCustomer(ctx: Ctx, id: number, body: CustomerUpdateBody): Promise<CustomerDto> {
  await assertCustomerInScope(ctx, id);
  return updateProfile(ctx, id, body, true);
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
