/**
 * Mail outbox. A service queues mail in the same transaction as the change that causes it; the sender
 * delivers committed rows through SMTP with retries. Without SMTP_URL (demo and test) mail is logged and
 * kept in the outbox with status `logged`; in production it waits until SMTP is configured.
 *
 * Delivery is at least once: a pass claims due rows by pushing their `next_attempt_at` forward by a lease
 * (one short statement, `FOR UPDATE SKIP LOCKED`, so several processes never claim the same row), then talks
 * to SMTP outside any transaction and records the outcome. A process that dies mid-send leaves its rows to
 * be picked up again when the lease runs out.
 */
import { eq, sql } from 'drizzle-orm';
import type { Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import { rows, type Db } from './db.js';
import { afterCommit, type Ctx } from './context.js';
import { serialPasses } from './passes.js';
import { mailOutbox } from './tables.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** what kind of mail this is, e.g. `customer/password_reset` */
  template: string;
  /** the store view the mail is about (an order's); default: the request's */
  storeId?: number;
}

/** Queues mail on ctx.db: inside withTx it commits or rolls back with the change that caused it. */
export async function queueMail(ctx: Ctx, mail: Mail): Promise<number> {
  const [row] = await ctx.db.insert(mailOutbox).values(outboxRow(ctx, mail)).returning({ id: mailOutbox.id });
  mailQueued(ctx);
  return row.id;
}

/** The columns a queued mail gives (outboxRow); the others take their defaults. */
export const OUTBOX_COLUMNS = ['toAddress', 'subject', 'textBody', 'htmlBody', 'template', 'storeId'] as const;

/**
 * The outbox row of a mail, for a writer that inserts it within a larger statement of its own transaction;
 * it then calls mailQueued.
 */
export function outboxRow(ctx: Ctx, mail: Mail): Pick<typeof mailOutbox.$inferInsert, (typeof OUTBOX_COLUMNS)[number]> {
  return {
    toAddress: mail.to,
    subject: mail.subject,
    textBody: mail.text,
    htmlBody: mail.html,
    template: mail.template,
    storeId: mail.storeId ?? ctx.store.storeId,
  };
}

/** Wakes the sender once the caller's transaction has committed mail it queued. */
export function mailQueued(ctx: Ctx): void {
  afterCommit(ctx, () => ctx.app.nudgeOutbox());
}

/** Delivery attempts before a mail is marked `failed`. */
export const MAX_ATTEMPTS = 6;
const BATCH = 10;
/** How long a claimed row is left alone by other passes: longer than a batch can take with the timeouts below. */
const LEASE_SECONDS = 15 * 60;
const SMTP_TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000 };

/** Seconds to wait after the given failed attempt (1-based): 15 s, 30 s, 1 min, ... up to an hour. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(3600, 15 * 2 ** (attempts - 1));
}

export interface MailSender {
  /** Delivers what is due now; resolves with the number of rows handled once this pass is done. */
  runOnce(): Promise<number>;
  nudge(): void;
  stop(): Promise<void>;
}

interface ClaimedMail {
  id: number;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  attempts: number;
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
  const { db, log } = opts;
  // loaded only where mail is sent: a server without SMTP_URL does not keep the mail library in memory
  let transport: Promise<Transporter> | undefined;
  const smtp = (url: string) => (transport ??= import('nodemailer').then((m) => m.default.createTransport({ url, ...SMTP_TIMEOUTS })));

  const claim = () =>
    rows<ClaimedMail>(
      db,
      sql`UPDATE mail_outbox SET next_attempt_at = now() + make_interval(secs => ${LEASE_SECONDS})
          WHERE id IN (
            SELECT id FROM mail_outbox WHERE status = 'pending' AND next_attempt_at <= now()
            ORDER BY id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
          RETURNING id, to_address, subject, text_body, html_body, attempts`,
    );

  async function deliver(mail: ClaimedMail, smtpUrl: string): Promise<void> {
    const attempts = mail.attempts + 1;
    try {
      await (
        await smtp(smtpUrl)
      ).sendMail({
        from: opts.from,
        to: mail.to_address,
        subject: mail.subject,
        text: mail.text_body,
        html: mail.html_body ?? undefined,
      });
    } catch (err) {
      const failed = attempts >= MAX_ATTEMPTS;
      const message = err instanceof Error ? err.message : String(err);
      log.warn({ mailId: mail.id, attempts, err: message }, failed ? 'mail failed, giving up' : 'mail failed, will retry');
      await db
        .update(mailOutbox)
        .set({
          attempts,
          status: failed ? 'failed' : 'pending',
          lastError: message.slice(0, 1000),
          nextAttemptAt: sql`now() + make_interval(secs => ${retryDelaySeconds(attempts)})`,
        })
        .where(eq(mailOutbox.id, mail.id));
      return;
    }
    await db.update(mailOutbox).set({ status: 'sent', sentAt: new Date(), attempts, lastError: null }).where(eq(mailOutbox.id, mail.id));
  }

  // without SMTP nothing can fail: claiming a batch marks it logged at once (one statement a batch)
  const claimLogged = () =>
    rows<ClaimedMail>(
      db,
      sql`UPDATE mail_outbox SET status = 'logged', sent_at = now()
          WHERE id IN (
            SELECT id FROM mail_outbox WHERE status = 'pending' AND next_attempt_at <= now()
            ORDER BY id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
          RETURNING id, to_address, subject, text_body, html_body, attempts`,
    );

  async function pass(): Promise<number> {
    if (!opts.smtpUrl && opts.holdWithoutSmtp) return 0;
    let handled = 0;
    for (;;) {
      if (!opts.smtpUrl) {
        const logged = await claimLogged();
        for (const mail of logged)
          log.info({ mailId: mail.id, to: mail.to_address, subject: mail.subject, body: mail.text_body }, 'mail (not sent: no SMTP_URL)');
        handled += logged.length;
        if (logged.length < BATCH) return handled;
        continue;
      }
      const batch = await claim();
      for (const mail of batch) await deliver(mail, opts.smtpUrl);
      handled += batch.length;
      if (batch.length < BATCH) return handled;
    }
  }

  const passes = serialPasses(pass, (err) => log.error({ err }, 'mail sender pass failed'));

  const timer = setInterval(passes.kick, opts.pollMs ?? 5000);
  timer.unref();

  return {
    async runOnce() {
      await passes.idle();
      return pass();
    },
    nudge: passes.kick,
    async stop() {
      clearInterval(timer);
      await passes.stop();
      (await transport)?.close();
    },
  };
}
