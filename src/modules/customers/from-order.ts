/**
 * An account made from a guest order (POST /customers/create-from-order): the accountToken of the guest
 * order read names the order; the new customer gets the order's email and names, its billing address as the
 * default billing and shipping address, and the order itself.
 */
import { and, eq, sql } from 'drizzle-orm';
import { Type, type Static } from 'typebox';
import { withTx, type Ctx } from '../../platform/context.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import { configuredRule } from '../../platform/rate-limit.js';
import { verifyAccountToken } from '../orders/account-token.js';
import { attachOrderToCustomer, orderForAccount } from '../orders/attach.js';
import { createAddress } from './addresses.js';
import type { CustomerDto } from './schemas.js';
import { getCustomer, registerCustomer } from './service.js';
import { customers } from './tables.js';

export const CreateFromOrder = Type.Object(
  {
    accountToken: Type.String({ maxLength: 2048, description: 'the accountToken of the guest order read (valid for an hour)' }),
    password: Type.String({ maxLength: 256, description: 'the new account password' }),
  },
  { additionalProperties: false },
);
export type CreateFromOrderBody = Static<typeof CreateFromOrder>;

/** Whether an account of the website has this email (case-insensitive). */
export async function customerEmailTaken(ctx: Ctx, websiteId: number, email: string): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.websiteId, websiteId), eq(customers.email, sql`${email.trim().toLowerCase()}::text`)))
    .limit(1);
  return !!row;
}

const badToken = () =>
  badRequest('The account token is invalid or has expired', { reason: 'INVALID_ACCOUNT_TOKEN', details: { field: 'accountToken' } });
const accountExists = () =>
  conflict('A customer account already exists for this order', { reason: 'ACCOUNT_EXISTS', details: { field: 'email' } });

/**
 * POST /customers/create-from-order: 400 for a bad, tampered or expired token, 404 when the order is gone,
 * 409 when the order already has a customer or an account of its website has its email. Registration is rate
 * limited per IP like POST /customers.
 */
export async function createCustomerFromOrder(ctx: Ctx, body: CreateFromOrderBody): Promise<CustomerDto> {
  const claims = verifyAccountToken(ctx, body.accountToken);
  if (!claims) throw badToken();
  if (ctx.actor.kind !== 'admin') {
    await ctx.app.limiter.consume(configuredRule(ctx.app.settings, 'customer_register', 3600, ctx.store.storeId), ctx.ip);
  }
  return withTx(ctx, async (tx) => {
    const order = await orderForAccount(tx, claims.orderId);
    if (!order) throw notFound('Order not found', { reason: 'ORDER_NOT_FOUND' });
    if (order.email.trim().toLowerCase() !== claims.email.trim().toLowerCase()) throw badToken();
    if (order.customerId !== null) throw accountExists();
    const websiteId = tx.app.settings.store(order.storeId)?.websiteId ?? tx.store.websiteId;
    if (await customerEmailTaken(tx, websiteId, order.email)) throw accountExists();
    const billing = order.billingAddress;
    const id = await registerCustomer(tx, {
      email: order.email,
      password: body.password,
      firstname: billing?.firstName || order.firstname || '',
      lastname: billing?.lastName || order.lastname || '',
      websiteId,
    });
    if (billing) {
      await createAddress(tx, id, {
        firstname: billing.firstName,
        lastname: billing.lastName,
        company: billing.company ?? undefined,
        street: billing.street,
        city: billing.city,
        postcode: billing.postcode,
        countryId: billing.countryId,
        ...(billing.regionId ? { regionId: billing.regionId } : billing.region ? { region: billing.region } : {}),
        telephone: billing.telephone,
        isDefaultBilling: true,
        isDefaultShipping: true,
      });
    }
    if (!(await attachOrderToCustomer(tx, order.id, id))) throw accountExists();
    // the new account as its owner sees it, whoever called (the caller may be signed in as someone else)
    return getCustomer({ ...tx, actor: { kind: 'anonymous' } }, id);
  });
}
