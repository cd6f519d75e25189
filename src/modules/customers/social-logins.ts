/**
 * The customer of a sign-in through another provider (an OpenID Connect ID token the auth module verified), as
 * Maho's social login finds it: by the identity linked before (provider and subject, in the current website);
 * else, when the provider verified the email address, by that address (the identity is then linked); else a new
 * account (active, named from the token), unless registration through providers is off.
 */
import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import { AppError, badRequest } from '../../platform/errors.js';
import { registerCustomer, type CustomerIdentity } from './service.js';
import { customerSocialLogins, customers } from './tables.js';

export interface SocialIdentity {
  provider: string;
  /** the token's `sub` */
  subject: string;
  email?: string;
  emailVerified: boolean;
  firstname?: string;
  lastname?: string;
}

export interface SocialCustomer {
  customer: CustomerIdentity;
  isNew: boolean;
}

const refused = (message: string, reason: string) => new AppError('unauthorized', message, { error: 'invalid_grant', reason });

const columns = {
  id: customers.id,
  email: customers.email,
  firstname: customers.firstname,
  lastname: customers.lastname,
  isActive: customers.isActive,
};

function usable(c: { isActive: boolean } & CustomerIdentity): CustomerIdentity {
  if (!c.isActive) throw refused('This account is not active', 'ACCOUNT_INACTIVE');
  return { id: c.id, email: c.email, firstname: c.firstname, lastname: c.lastname };
}

async function linked(ctx: Ctx, who: SocialIdentity) {
  const [row] = await ctx.db
    .select({ ...columns, linkId: customerSocialLogins.id, linkEmail: customerSocialLogins.email })
    .from(customerSocialLogins)
    .innerJoin(customers, eq(customers.id, customerSocialLogins.customerId))
    .where(
      and(
        eq(customerSocialLogins.provider, who.provider),
        eq(customerSocialLogins.subject, who.subject),
        eq(customerSocialLogins.websiteId, ctx.store.websiteId),
      ),
    );
  return row;
}

async function link(ctx: Ctx, who: SocialIdentity, customerId: number, email: string): Promise<void> {
  await ctx.db
    .insert(customerSocialLogins)
    .values({ provider: who.provider, subject: who.subject, websiteId: ctx.store.websiteId, customerId, email, createdAt: ctx.now })
    .onConflictDoNothing();
}

/** The customer this identity signs in as, linking or creating one as described above. */
export async function customerForSocialLogin(ctx: Ctx, who: SocialIdentity, opts: { allowRegistration: boolean }): Promise<SocialCustomer> {
  const known = await linked(ctx, who);
  if (known) {
    const customer = usable(known);
    if (who.email && who.email !== known.linkEmail) {
      await ctx.db.update(customerSocialLogins).set({ email: who.email }).where(eq(customerSocialLogins.id, known.linkId));
    }
    return { customer, isNew: false };
  }
  const email = who.email?.trim().toLowerCase();
  if (!email || !who.emailVerified) {
    throw refused('The provider has not verified an email address for this account', 'EMAIL_NOT_VERIFIED');
  }
  const [byEmail] = await ctx.db
    .select(columns)
    .from(customers)
    .where(and(eq(customers.websiteId, ctx.store.websiteId), eq(customers.email, email)));
  if (byEmail) {
    const customer = usable(byEmail);
    await link(ctx, who, customer.id, email);
    return { customer, isNew: false };
  }
  if (!opts.allowRegistration) {
    throw badRequest('Creating new accounts with social sign-in is not allowed; register first', { reason: 'REGISTRATION_NOT_ALLOWED' });
  }
  const id = await registerCustomer(ctx, {
    email,
    // never used to sign in: the account signs in through its provider until its owner sets a password
    password: crypto.randomBytes(32).toString('base64url'),
    firstname: who.firstname?.trim().slice(0, 255) || 'Customer',
    lastname: who.lastname?.trim().slice(0, 255) || '.',
  });
  await link(ctx, who, id, email);
  const [created] = await ctx.db.select(columns).from(customers).where(eq(customers.id, id));
  return { customer: usable(created), isNew: true };
}
