/**
 * What the Magento 1 API needs of invoices beyond the REST reads: invoice rows under a WHERE the caller builds over
 * this module's table (Magento's list filters), one invoice by its increment id with its items and comments, and
 * adding a comment to an invoice. A principal limited to store views reaches only theirs.
 */
import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
import { adminStoreScope, together, withTx, type Ctx } from '../../platform/context.js';
import { badRequest } from '../../platform/errors.js';
import { assertOrderAccess, lockOrder } from '../orders/core.js';
import { queueOrderMail } from '../orders/mail.js';
import { invoiceNotFound, type InvoiceRow } from './read.js';
import { invoiceComments, invoiceItems, invoices } from './tables.js';

export type InvoiceItemRow = typeof invoiceItems.$inferSelect;
export type InvoiceCommentRow = typeof invoiceComments.$inferSelect;

const COMMENT_MAX = 10000;

function scoped(ctx: Ctx): SQL | undefined {
  const scope = adminStoreScope(ctx);
  return scope ? inArray(invoices.storeId, scope.length ? scope : [-1]) : undefined;
}

/** The invoices `where` selects, oldest first, in one statement. `where` may throw (a malformed filter) before anything runs. */
export async function invoiceRowsWhere(ctx: Ctx, where: (t: typeof invoices) => SQL | undefined): Promise<InvoiceRow[]> {
  const cond = where(invoices);
  return ctx.db
    .select()
    .from(invoices)
    .where(and(cond, scoped(ctx)))
    .orderBy(asc(invoices.id));
}

export interface LegacyInvoice {
  invoice: InvoiceRow;
  items: InvoiceItemRow[];
  /** oldest first */
  comments: InvoiceCommentRow[];
}

/** The invoice with this increment id the caller may see, with its items and comments; undefined otherwise. */
export async function invoiceByIncrementId(ctx: Ctx, incrementId: string): Promise<LegacyInvoice | undefined> {
  const number = incrementId.trim();
  if (!number || number.length > 50) return undefined;
  const [invoice] = await ctx.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.incrementId, number), scoped(ctx)));
  if (!invoice) return undefined;
  const [items, comments] = await together(ctx, [
    () => ctx.db.select().from(invoiceItems).where(eq(invoiceItems.invoiceId, invoice.id)).orderBy(asc(invoiceItems.id)),
    () =>
      ctx.db
        .select()
        .from(invoiceComments)
        .where(eq(invoiceComments.invoiceId, invoice.id))
        .orderBy(asc(invoiceComments.createdAt), asc(invoiceComments.id)),
  ] as const);
  return { invoice, items, comments };
}

export interface InvoiceCommentInput {
  comment: string;
  /** mail the customer about it */
  notifyCustomer?: boolean;
  /** the mail quotes the comment (else it only says the invoice changed) */
  includeComment?: boolean;
}

/**
 * Adds a comment to an invoice (not visible on the storefront), under the order's lock as every change of the
 * order's documents; with notifyCustomer the customer gets a mail in the same transaction. An invoice the caller
 * may not see is its 404; a blank comment a 400.
 */
export async function addInvoiceComment(ctx: Ctx, invoiceId: number, input: InvoiceCommentInput): Promise<void> {
  const text = typeof input.comment === 'string' ? input.comment.trim() : '';
  const invalid = (message: string, constraint: string) =>
    badRequest(message, { reason: 'VALIDATION_FAILED', details: { field: 'comment', constraint } });
  if (!text) throw invalid('comment is required', 'required');
  if (text.length > COMMENT_MAX) throw invalid(`comment must have at most ${COMMENT_MAX} characters`, 'maxLength');
  const notify = input.notifyCustomer === true;
  if (!Number.isInteger(invoiceId) || invoiceId < 1 || invoiceId > 2147483647) throw invoiceNotFound();
  await withTx(ctx, async (tx) => {
    const [head] = await tx.db.select({ orderId: invoices.orderId }).from(invoices).where(eq(invoices.id, invoiceId));
    const locked = head && (await lockOrder(tx, head.orderId));
    if (!locked) throw invoiceNotFound();
    const { order } = locked;
    assertOrderAccess(tx, order, invoiceNotFound);
    const [invoice] = await tx.db.select().from(invoices).where(eq(invoices.id, invoiceId));
    if (!invoice) throw invoiceNotFound();
    await tx.db.insert(invoiceComments).values({
      invoiceId: invoice.id,
      comment: text,
      isCustomerNotified: notify,
      isVisibleOnFront: false,
      createdAt: tx.now,
    });
    await tx.db.update(invoices).set({ updatedAt: tx.now }).where(eq(invoices.id, invoice.id));
    if (notify) {
      await queueOrderMail(tx, order, {
        template: 'sales/invoice_comment',
        subject: `Update to invoice ${invoice.incrementId} of order ${order.incrementId}`,
        intro: [`There is an update to invoice ${invoice.incrementId} of your order ${order.incrementId}.`],
        lines: input.includeComment === false ? [] : [text],
      });
    }
  });
}
