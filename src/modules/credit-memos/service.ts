/**
 * Credit memos (refunds): the public functions of the module. Creating one is a use case of its own
 * (use-cases/create-credit-memo.ts, with the money in amounts.ts); reads and the wire shape are in read.ts.
 */
export { createCreditMemo } from './use-cases/create-credit-memo.js';
export { getCreditMemo, listCreditMemosOfOrder } from './read.js';
export type { CreditMemoCreateInput, CreditMemoDto } from './schemas.js';
