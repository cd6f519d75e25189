/**
 * Blocked token subjects: every token of a blocked subject is refused; and credential changes, which end the
 * tokens issued before them. Tokens of every kind of subject (customers, API users, OAuth clients) are checked
 * against these, and the modules owning those subjects write them (the customers module blocks a deactivated
 * customer and ends the tokens of a changed password), so they live with the tokens, in the platform.
 */
import { eq, sql } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import type { Db } from '../db.js';
import { blockedSubjects, subjectValidAfter } from '../tables.js';

/** Every token of the subject is refused until unblocked (a deactivated customer). */
export async function setSubjectBlocked(ctx: Ctx, subject: string, blocked: boolean, reason = 'inactive'): Promise<void> {
  if (blocked) await ctx.db.insert(blockedSubjects).values({ subject, reason }).onConflictDoNothing();
  else await ctx.db.delete(blockedSubjects).where(eq(blockedSubjects.subject, subject));
}

/**
 * The subject's credentials changed at `at`: its tokens issued in earlier seconds and its sessions opened before
 * are refused from now on, in every process. Call it in the transaction of the change. Of two changes the later
 * time stays.
 */
export async function credentialsChanged(db: Db, subject: string, at: Date): Promise<void> {
  await db
    .insert(subjectValidAfter)
    .values({ subject, validAfter: at })
    .onConflictDoUpdate({
      target: subjectValidAfter.subject,
      set: { validAfter: sql`GREATEST(${subjectValidAfter.validAfter}, excluded.valid_after)` },
    });
}
