/** The credit memos' event: a credit memo (refund) created, with the memo as the back office reads it. */
import { defineEvents } from '../../platform/events.js';
import { CreditMemo } from './schemas.js';

export const creditMemoEvents = defineEvents({
  'creditmemo.created': { description: 'A credit memo (refund) was created', payload: CreditMemo },
});
