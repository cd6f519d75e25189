/**
 * An account made from a guest order (POST /customers/create-from-order): the accountToken of the guest
 * order read names the order; the new customer gets the order's email and names, its billing address as the
 * default billing and shipping address, and the order itself. The order is the orders module's and the
 * account the customers module's: the two meet here, in the later of the two.
 */
import { and, eq, isNull } from 'drizzle-orm';
import { Type, type Static } from 'typebox';
import { withTx, type Ctx } from '../../platform/context.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import { configuredRule } from '../../platform/rate-limit.js';
import { addressBookInput, createAddress } from '../customers/addresses.js';
import { customerEmailTaken } from '../customers/from-order.js';
import type { CustomerDto } from '../customers/schemas.js';
import { getCustomer, registerCustomer } from '../customers/service.js';
import { verifyAccountToken } from './account-token.js';
import { orders, type OrderAddress } from './tables.js';

export const CreateFromOrder = Type.Object(
  {
    accountToken: Type.String({ maxLength: 2048, description: 'the accountToken of the guest order read (valid for an hour)' }),
    password: Type.String({ maxLength: 256, description: 'the new account password' }),
  },
  { additionalProperties: false },
);
export type CreateFromOrderBody = Static<typeof CreateFromOrder>;

interface OrderForAccount {
  id: number;
  storeId: number;
  customerId: number | null;
  email: string;
  firstname: string | null;
  lastname: string | null;
  billingAddress: OrderAddress | null;
}

/**
 * What creating an account needs of the order, with the order row locked until the caller's transaction
 * ends (call inside withTx); undefined when there is no such order.
 */
async function orderForAccount(ctx: Ctx, orderId: number): Promise<OrderForAccount | undefined> {
  if (!Number.isInteger(orderId) || orderId < 1 || orderId > 2147483647) return undefined;
  const [o] = await ctx.db
    .select({
      id: orders.id,
      storeId: orders.storeId,
      customerId: orders.customerId,
      email: orders.customerEmail,
      firstname: orders.customerFirstname,
      lastname: orders.customerLastname,
      billingAddress: orders.billingAddress,
    })
    .from(orders)
    .where(eq(orders.id, orderId))
    .for('update');
  return o;
}

/**
 * Gives a guest order its customer: customer id set, no longer a guest order, its one-time token gone.
 * False when the order has a customer already (or is gone); never changes a customer's order.
 */
async function attachOrderToCustomer(ctx: Ctx, orderId: number, customerId: number): Promise<boolean> {
  const done = await ctx.db
    .update(orders)
    .set({ customerId, customerIsGuest: false, accessTokenHash: null, updatedAt: ctx.now })
    .where(and(eq(orders.id, orderId), isNull(orders.customerId)))
    .returning({ id: orders.id });
  return done.length > 0;
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
      await createAddress(tx, id, { ...addressBookInput(billing), isDefaultBilling: true, isDefaultShipping: true });
    }
    if (!(await attachOrderToCustomer(tx, order.id, id))) throw accountExists();
    // the new account as its owner sees it, whoever called (the caller may be signed in as someone else)
    return getCustomer({ ...tx, actor: { kind: 'anonymous' } }, id);
  });
}
