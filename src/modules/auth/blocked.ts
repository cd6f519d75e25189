/**
 * Blocked token subjects: every token of a blocked subject is refused. Its own file so that the customers
 * module can block a deactivated customer without importing the auth service, which imports customers.
 */
import { eq } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.js';
import { blockedSubjects } from './tables.js';

/** Every token of the subject is refused until unblocked (a deactivated customer). */
export async function setSubjectBlocked(ctx: Ctx, subject: string, blocked: boolean, reason = 'inactive'): Promise<void> {
  if (blocked) await ctx.db.insert(blockedSubjects).values({ subject, reason }).onConflictDoNothing();
  else await ctx.db.delete(blockedSubjects).where(eq(blockedSubjects.subject, subject));
}
