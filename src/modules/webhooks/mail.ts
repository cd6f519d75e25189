import { queueMail } from '../../platform/outbox.js';
import type { Ctx } from '../../platform/context.js';
import { withTx } from '../../platform/context.js';
import { storeContactEmail } from '../contact/service.js';

/** Tells the store contact (the contact form's recipient) that a subscription was disabled after failing. */
export async function mailWebhookDisabled(ctx: Ctx, sub: { id: number; url: string; storeIds: number[] | null }): Promise<void> {
  const storeId = sub.storeIds?.[0] ?? ctx.store.storeId;
  const to = storeContactEmail(ctx, storeId);
  await withTx(ctx, (tx) =>
    queueMail(tx, {
      to,
      storeId,
      template: 'webhooks/subscription_disabled',
      subject: `Webhook subscription ${sub.id} was disabled`,
      text: [
        `Deliveries to ${sub.url} have failed without a break for too long, so webhook subscription ${sub.id} was disabled.`,
        'No more events are sent to it. Once the receiver works again, switch the subscription back on',
        `(PUT /api/rest/v2/webhooks/${sub.id} with {"active": true}); its pending deliveries are then retried.`,
      ].join('\n'),
    }),
  );
}
