/**
 * Writing a placed order: checkout computes the order in memory as it stands once placed (drafts below), and
 * writeOrder writes it with its items and status history in one statement, together with the rows other
 * modules write with it (an invoice, mails, the cart closed), which name the new order and its items by the
 * SQL of writtenOrderId and writtenOrderItemId.
 */
import { sql, type SQL } from 'drizzle-orm';
import { statement, type Statement } from '../../platform/db.js';
import { insertFromJson, jsonRows } from '../../platform/json-rows.js';
import type { Ctx } from '../../platform/context.js';
import { historyRow, newRow, type OrderItemRow, type OrderRow } from './core.js';
import { orderItems, orders, orderStatusHistory } from './tables.js';

export type HistoryRow = ReturnType<typeof historyRow>;
export type StoredHistoryRow = typeof orderStatusHistory.$inferSelect;

/** A new order as it will be stored: every column not given takes its default (the id 0 until written). */
export function draftOrder(values: Partial<OrderRow>, now: Date): OrderRow {
  return newRow(orders, values, now);
}

/** A new order item as it will be stored (give it a stand-in id, its index + 1, until it is written). */
export function draftOrderItem(values: Partial<OrderItemRow>, now: Date): OrderItemRow {
  return newRow(orderItems, values, now);
}

/** The new order's id inside writeOrder's statement. */
export const writtenOrderId: SQL = sql`(SELECT id FROM o)`;

/** The id of the new order's item whose index (in the draft's order) is the SQL `index`, inside writeOrder's statement. */
export function writtenOrderItemId(index: SQL): SQL {
  return sql`(SELECT (array_agg(id ORDER BY id))[${index} + 1] FROM i)`;
}

/**
 * A row another module writes in the statement of the order: a named data-modifying part of its WITH. The
 * statement is built once per set of parts (by their names) and prepared once per connection, so `build` must
 * give the same SQL on every call: what changes from one order to the next goes in `values`, bound to
 * `sql.placeholder`s named after the part (`<name>_…`; rows as one JSON value, see insertFromJson).
 */
export interface AlongsideWrite {
  /** the part's name (lower case letters; not o, i or h, the order's own) */
  name: string;
  /** the statement (data-modifying or not), its values as placeholders */
  build: () => SQL;
  /** the placeholders' values */
  values: Record<string, unknown>;
  /** what the statement answers under the part's name (an expression over the parts: `(SELECT id FROM inv)`) */
  answer?: SQL;
  /** the part is run once, in full, before the parts that use it (`AS MATERIALIZED`: a locking read) */
  materialized?: boolean;
}

export interface OrderDraft {
  order: OrderRow;
  /** in insertion order */
  items: OrderItemRow[];
  /** oldest first */
  history: HistoryRow[];
}

export interface WrittenOrder {
  order: OrderRow;
  items: OrderItemRow[];
  /** newest first, as the order's reads show it */
  history: StoredHistoryRow[];
  /** what each alongside part with an `answer` answered, by its name */
  answers: Record<string, unknown>;
}

const OWN_PARTS = new Set(['o', 'i', 'h']);

type WrittenIds = { orderId: number; itemIds: number[]; historyIds: number[]; [name: string]: unknown };

/** writeOrder's statement for each set of alongside parts, by their names. */
const writeStatements = new Map<string, Statement<WrittenIds>>();

function writeStatement(alongside: AlongsideWrite[]): Statement<WrittenIds> {
  const key = alongside.map((a) => a.name).join('_');
  let found = writeStatements.get(key);
  if (found) return found;
  for (const a of alongside) {
    if (!/^[a-z]+$/.test(a.name) || OWN_PARTS.has(a.name)) throw new Error(`An order's alongside write may not be named ${a.name}`);
  }
  const orderId = { orderId: writtenOrderId };
  const parts = [
    sql`o AS (${insertFromJson(orders, 'o_rows', { returning: sql`id` })})`,
    sql`i AS (${insertFromJson(orderItems, 'i_rows', { set: orderId, returning: sql`id` })})`,
    sql`h AS (${insertFromJson(orderStatusHistory, 'h_rows', { set: orderId, returning: sql`id` })})`,
    ...alongside.map((a) => sql`${sql.raw(a.name)} AS ${a.materialized ? sql`MATERIALIZED ` : sql``}(${a.build()})`),
  ];
  const returned = alongside.filter((a) => a.answer).map((a) => sql`${a.answer} AS ${sql.identifier(a.name)}`);
  found = statement<WrittenIds>(
    `order_write_${key}`,
    () =>
      sql`WITH ${sql.join(parts, sql`, `)}
          SELECT ${sql.join(
            [
              sql`(SELECT id FROM o) AS "orderId"`,
              sql`(SELECT array_agg(id ORDER BY id) FROM i) AS "itemIds"`,
              sql`(SELECT array_agg(id ORDER BY id) FROM h) AS "historyIds"`,
              ...returned,
            ],
            sql`, `,
          )}`,
  );
  writeStatements.set(key, found);
  return found;
}

/**
 * Writes the drafted order, its items and its history, and `alongside`, in one statement (data-modifying
 * parts of one WITH), inside the caller's transaction. Answers with what was written, ids given.
 */
export async function writeOrder(ctx: Ctx, draft: OrderDraft, alongside: AlongsideWrite[]): Promise<WrittenOrder> {
  const [written] = await writeStatement(alongside).run(ctx.db, {
    o_rows: jsonRows(orders, [draft.order]),
    i_rows: jsonRows(orderItems, draft.items),
    h_rows: jsonRows(orderStatusHistory, draft.history),
    ...Object.assign({}, ...alongside.map((a) => a.values)),
  });
  const order = { ...draft.order, id: Number(written.orderId) };
  const items = draft.items.map((it, index) => ({ ...it, orderId: order.id, id: Number(written.itemIds[index]) }));
  const history = draft.history.map((h, index) => ({ ...h, orderId: order.id, id: Number(written.historyIds[index]) })).reverse();
  const answers = Object.fromEntries(alongside.filter((a) => a.answer).map((a) => [a.name, written[a.name]]));
  return { order, items, history, answers };
}
