/**
 * The mail outbox against a real SMTP server (smtp-server on 127.0.0.1): delivery after commit, nothing for a
 * rolled-back transaction, retries with back-off on rejection, giving up after MAX_ATTEMPTS, and demo mode
 * without SMTP_URL, where mail is logged and kept.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { sql } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../helpers.js';
import { rows } from '../../src/platform/db.js';
import { withTx } from '../../src/platform/context.js';
import { MAX_ATTEMPTS, queueMail, type Mail } from '../../src/platform/outbox.js';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

interface OutboxRow {
  status: string;
  attempts: number;
  last_error: string | null;
  retry_in: number;
  sent_at: Date | string | null;
}

const received: Received[] = [];
let rejecting = false;
let smtp: SMTPServer;
let t: TestApp;
let demo: TestApp;

before(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    secure: false,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, cb) {
      if (rejecting) cb(Object.assign(new Error('Mailbox temporarily unavailable'), { responseCode: 450 }));
      else cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  t = await buildTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Shop <shop@example.com>' } });
  demo = await buildTestApp();
});

after(async () => {
  await t?.close();
  await demo?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

let n = 0;
const mail = (label: string): Mail => {
  n += 1;
  return {
    to: `buyer${n}@example.com`,
    subject: `${label} ${n}`,
    text: `Hello number ${n}, this is the ${label} mail.`,
    template: 'test/outbox',
  };
};

async function outboxRow(app: TestApp, id: number): Promise<OutboxRow> {
  const [row] = await rows<OutboxRow>(
    app.database.db,
    sql`SELECT status, attempts, last_error, sent_at,
               EXTRACT(EPOCH FROM (next_attempt_at - now()))::float8 AS retry_in
        FROM mail_outbox WHERE id = ${id}`,
  );
  return row;
}

const receivedFor = (m: Mail) => received.filter((r) => r.raw.includes(`Subject: ${m.subject}`));

async function eventually(check: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('mail outbox with SMTP', () => {
  test('mail queued in a committed transaction is delivered with its recipient, subject and body', async () => {
    const m = mail('welcome');
    const id = await withTx(t.systemCtx(), (tx) => queueMail(tx, m));
    await t.mail.runOnce();
    const got = receivedFor(m);
    assert.equal(got.length, 1);
    assert.deepEqual(got[0].to, [m.to]);
    assert.equal(got[0].from, 'shop@example.com');
    assert.match(got[0].raw, /^From: Shop <shop@example\.com>/m);
    assert.match(got[0].raw, new RegExp(`^To: ${m.to}`, 'm'));
    assert.ok(got[0].raw.includes(m.text), 'body text present');
    const row = await outboxRow(t, id);
    assert.equal(row.status, 'sent');
    assert.equal(row.attempts, 1);
    assert.equal(row.last_error, null);
    assert.ok(row.sent_at);
  });

  test('the commit wakes the sender: delivery needs no polling', async () => {
    const m = mail('nudged');
    const id = await withTx(t.systemCtx(), (tx) => queueMail(tx, m));
    await eventually(async () => (await outboxRow(t, id)).status === 'sent', 3000);
    assert.equal(receivedFor(m).length, 1);
  });

  test('a rolled-back transaction queues nothing and sends nothing', async () => {
    const m = mail('rolled-back');
    await assert.rejects(
      withTx(t.systemCtx(), async (tx) => {
        await queueMail(tx, m);
        throw new Error('the change failed');
      }),
      /the change failed/,
    );
    await t.mail.runOnce();
    const left = await rows(t.database.db, sql`SELECT id FROM mail_outbox WHERE subject = ${m.subject}`);
    assert.deepEqual(left, []);
    assert.equal(receivedFor(m).length, 0);
  });

  test('more mail than one batch is all delivered in one pass', async () => {
    const batch = Array.from({ length: 23 }, () => mail('bulk'));
    await withTx(t.systemCtx(), async (tx) => {
      for (const m of batch) await queueMail(tx, m);
    });
    await t.mail.runOnce();
    for (const m of batch) assert.equal(receivedFor(m).length, 1, `${m.subject} delivered once`);
  });

  test('a rejecting server leaves the mail pending with back-off, then it fails after MAX_ATTEMPTS', async () => {
    const m = mail('rejected');
    rejecting = true;
    try {
      const id = await withTx(t.systemCtx(), (tx) => queueMail(tx, m));
      await t.mail.runOnce();
      let row = await outboxRow(t, id);
      assert.equal(row.status, 'pending');
      assert.equal(row.attempts, 1);
      assert.match(String(row.last_error), /Mailbox temporarily unavailable/);
      assert.ok(row.retry_in > 10 && row.retry_in <= 15, `first retry in about 15 s, got ${row.retry_in}`);

      // not due yet: another pass leaves it alone
      await t.mail.runOnce();
      assert.equal((await outboxRow(t, id)).attempts, 1);

      let previousDelay = row.retry_in;
      for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt++) {
        await t.database.db.execute(sql`UPDATE mail_outbox SET next_attempt_at = now() - interval '1 second' WHERE id = ${id}`);
        await t.mail.runOnce();
        row = await outboxRow(t, id);
        assert.equal(row.attempts, attempt);
        if (attempt < MAX_ATTEMPTS) {
          assert.equal(row.status, 'pending');
          assert.ok(row.retry_in > previousDelay, `delay grows: ${row.retry_in} > ${previousDelay}`);
          previousDelay = row.retry_in;
        }
      }
      assert.equal(row.status, 'failed');
      assert.equal(row.sent_at, null);

      // a failed mail is never tried again
      await t.database.db.execute(sql`UPDATE mail_outbox SET next_attempt_at = now() - interval '1 second' WHERE id = ${id}`);
      rejecting = false;
      await t.mail.runOnce();
      assert.equal((await outboxRow(t, id)).status, 'failed');
      assert.equal(receivedFor(m).length, 0);
    } finally {
      rejecting = false;
    }
  });

  test('a rejected mail that is later accepted is sent once', async () => {
    const m = mail('recovered');
    rejecting = true;
    const id = await withTx(t.systemCtx(), (tx) => queueMail(tx, m));
    await t.mail.runOnce();
    rejecting = false;
    assert.equal((await outboxRow(t, id)).status, 'pending');
    await t.database.db.execute(sql`UPDATE mail_outbox SET next_attempt_at = now() - interval '1 second' WHERE id = ${id}`);
    await t.mail.runOnce();
    const row = await outboxRow(t, id);
    assert.equal(row.status, 'sent');
    assert.equal(row.attempts, 2);
    assert.equal(row.last_error, null);
    assert.equal(receivedFor(m).length, 1);
  });
});

describe('mail outbox in demo mode without SMTP_URL', () => {
  test('mail is logged and kept with status logged', async () => {
    const m = mail('demo');
    const id = await withTx(demo.systemCtx(), (tx) => queueMail(tx, m));
    await demo.mail.runOnce();
    const row = await outboxRow(demo, id);
    assert.equal(row.status, 'logged');
    assert.ok(row.sent_at);
    assert.equal(receivedFor(m).length, 0);
    const [kept] = await rows<{ to_address: string; text_body: string }>(
      demo.database.db,
      sql`SELECT to_address, text_body FROM mail_outbox WHERE id = ${id}`,
    );
    assert.deepEqual(kept, { to_address: m.to, text_body: m.text });
  });
});
