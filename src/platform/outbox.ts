/**
 * Mail outbox. A service queues mail in the same transaction as the change that causes it; the sender
 * delivers committed rows through SMTP with retries. Without SMTP_URL (demo and test) mail is logged and
 * kept in the outbox with status `logged`; in production it waits until SMTP is configured.
 */
import { and, asc, eq, lte, sql } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './db.js';
import { afterCommit, type Ctx } from './context.js';
import { mailOutbox } from './tables.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** what kind of mail this is, e.g. `customer/password_reset` */
  template: string;
}

export async function queueMail(ctx: Ctx, mail: Mail): Promise<number> {
  const [row] = await ctx.db
    .insert(mailOutbox)
    .values({
      toAddress: mail.to,
      subject: mail.subject,
      textBody: mail.text,
      htmlBody: mail.html,
      template: mail.template,
      storeId: ctx.store.storeId,
    })
    .returning({ id: mailOutbox.id });
  afterCommit(ctx, () => ctx.app.nudgeOutbox());
  return row.id;
}

export const MAX_ATTEMPTS = 6;

export interface MailSender {
  /** Delivers what is due now; resolves when this pass is done. */
  runOnce(): Promise<number>;
  nudge(): void;
  stop(): Promise<void>;
}

export function createMailSender(opts: {
  db: Db;
  log: FastifyBaseLogger;
  smtpUrl?: string;
  from: string;
  /** keep mail pending when there is no SMTP (production) instead of logging it */
  holdWithoutSmtp: boolean;
  pollMs?: number;
}): MailSender {
  const transport: Transporter | undefined = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : undefined;
  let running: Promise<number> | undefined;
  let again = false;
  let stopped = false;

  async function pass(): Promise<number> {
    if (!transport && opts.holdWithoutSmtp) return 0;
    let handled = 0;
    for (;;) {
      const batch = await opts.db.transaction(async (tx) => {
        const due = await tx
          .select()
          .from(mailOutbox)
          .where(and(eq(mailOutbox.status, 'pending'), lte(mailOutbox.nextAttemptAt, sql`now()`)))
          .orderBy(asc(mailOutbox.id))
          .limit(10)
          .for('update', { skipLocked: true });
        for (const mail of due) {
          if (!transport) {
            opts.log.info({ mailId: mail.id, to: mail.toAddress, subject: mail.subject, body: mail.textBody }, 'mail (not sent: no SMTP_URL)');
            await tx.update(mailOutbox).set({ status: 'logged', sentAt: new Date() }).where(eq(mailOutbox.id, mail.id));
            continue;
          }
          try {
            await transport.sendMail({
              from: opts.from,
              to: mail.toAddress,
              subject: mail.subject,
              text: mail.textBody,
              html: mail.htmlBody ?? undefined,
            });
            await tx.update(mailOutbox).set({ status: 'sent', sentAt: new Date(), attempts: mail.attempts + 1 }).where(eq(mailOutbox.id, mail.id));
          } catch (err) {
            const attempts = mail.attempts + 1;
            const failed = attempts >= MAX_ATTEMPTS;
            const delaySec = Math.min(3600, 15 * 2 ** (attempts - 1));
            opts.log.warn({ mailId: mail.id, attempts, err: (err as Error).message }, failed ? 'mail failed, giving up' : 'mail failed, will retry');
            await tx
              .update(mailOutbox)
              .set({
                attempts,
                status: failed ? 'failed' : 'pending',
                lastError: String((err as Error).message).slice(0, 1000),
                nextAttemptAt: new Date(Date.now() + delaySec * 1000),
              })
              .where(eq(mailOutbox.id, mail.id));
          }
        }
        return due.length;
      });
      handled += batch;
      if (batch < 10) return handled;
    }
  }

  function kick(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = pass()
      .catch((err) => {
        opts.log.error({ err }, 'mail sender pass failed');
        return 0;
      })
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          kick();
        }
      });
  }

  const timer = setInterval(kick, opts.pollMs ?? 5000);
  timer.unref();

  return {
    async runOnce() {
      while (running) await running;
      return pass();
    },
    nudge: kick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      while (running) await running.catch(() => 0);
      transport?.close();
    },
  };
}
