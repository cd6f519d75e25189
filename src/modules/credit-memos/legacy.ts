/**
 * What the Magento 1 API needs of credit memos beyond the REST reads: memo rows under a WHERE the caller builds
 * over this module's table (Magento's list filters, a lookup by increment id), and adding a comment to a memo.
 */
import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
import { adminStoreScope, withTx, type Ctx } from '../../platform/context.js';
import { badRequest } from '../../platform/errors.js';
import { assertOrderAccess, lockOrder, orderIncrementIdSql } from '../orders/core.js';
import { queueOrderMail } from '../orders/mail.js';
import { creditMemoNotFound } from './read.js';
import { COMMENT_MAX } from './schemas.js';
import { creditMemoComments, creditMemos } from './tables.js';

/** The table's columns and the order number of each row, for a caller's WHERE. */
export interface CreditMemoColumns {
  table: typeof creditMemos;
  orderIncrementId: SQL<string | null>;
}

export type LegacyCreditMemoRow = typeof creditMemos.$inferSelect & { orderIncrementId: string | null };

/**
 * The credit memos `where` selects, oldest first, each with its order's increment id, in one statement; an API
 * user limited to store views gets only theirs. `where` may throw (a malformed filter) before anything runs.
 */
export async function creditMemoRowsWhere(ctx: Ctx, where: (c: CreditMemoColumns) => SQL | undefined): Promise<LegacyCreditMemoRow[]> {
  const orderIncrementId = orderIncrementIdSql(creditMemos.orderId);
  const cond = where({ table: creditMemos, orderIncrementId });
  const scope = adminStoreScope(ctx);
  const scoped = scope ? inArray(creditMemos.storeId, scope.length ? scope : [-1]) : undefined;
  const rows = await ctx.db
    .select({ memo: creditMemos, orderIncrementId })
    .from(creditMemos)
    .where(and(cond, scoped))
    .orderBy(asc(creditMemos.id));
  return rows.map((r) => ({ ...r.memo, orderIncrementId: r.orderIncrementId }));
}

export interface CreditMemoCommentInput {
  comment: string;
  /** mail the customer about it */
  notifyCustomer?: boolean;
  /** the mail quotes the comment (else it only says the memo changed) */
  includeComment?: boolean;
}

/**
 * Adds a comment to a credit memo (not visible on the storefront); with notifyCustomer the customer gets a
 * mail in the same transaction. A memo the caller may not see is its 404; a blank comment a 400.
 */
export async function addCreditMemoComment(ctx: Ctx, memoId: number, input: CreditMemoCommentInput): Promise<void> {
  const text = typeof input.comment === 'string' ? input.comment.trim() : '';
  const invalid = (message: string, constraint: string) =>
    badRequest(message, { reason: 'VALIDATION_FAILED', details: { field: 'comment', constraint } });
  if (!text) throw invalid('comment is required', 'required');
  if (text.length > COMMENT_MAX) throw invalid(`comment must have at most ${COMMENT_MAX} characters`, 'maxLength');
  const notify = input.notifyCustomer === true;
  if (!Number.isInteger(memoId) || memoId < 1 || memoId > 2147483647) throw creditMemoNotFound();
  await withTx(ctx, async (tx) => {
    const [memo] = await tx.db.select().from(creditMemos).where(eq(creditMemos.id, memoId));
    const locked = memo && (await lockOrder(tx, memo.orderId));
    if (!memo || !locked) throw creditMemoNotFound();
    const { order } = locked;
    assertOrderAccess(tx, order, creditMemoNotFound);
    await tx.db.insert(creditMemoComments).values({
      creditMemoId: memo.id,
      comment: text,
      isCustomerNotified: notify,
      isVisibleOnFront: false,
      createdAt: tx.now,
    });
    await tx.db.update(creditMemos).set({ updatedAt: tx.now }).where(eq(creditMemos.id, memo.id));
    if (notify) {
      await queueOrderMail(tx, order, {
        template: 'sales/creditmemo_comment',
        subject: `Update to credit memo ${memo.incrementId} of order ${order.incrementId}`,
        intro: [`There is an update to credit memo ${memo.incrementId} of your order ${order.incrementId}.`],
        lines: input.includeComment === false ? [] : [text],
      });
    }
  });
}
