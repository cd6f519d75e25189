/**
 * What the sales importers share: serialized values (PHP serialize() in Magento 1 and OpenMage, JSON in Maho),
 * fast upserts, reading children of a batch of parents, how Magento's parent and child items (configurable
 * and bundle lines) become the single line an order item is here, numbering, and verification.
 */
import { sql } from 'drizzle-orm';
import { rows } from '../../platform/db.js';
import { dec, type Decimal } from '../../platform/money.js';
import { imported, sinceWhere, type ImportContext } from '../context.js';
import { decimal, int, str, type SourceRow } from '../source.js';

export { readAhead } from '../source.js';

// ---- values ----

/** A money or quantity column that may not be null: the source's decimal, or 0. */
export const money = (v: unknown): string => decimal(v) ?? '0';

/**
 * A discount: Magento stores the discount of an order, invoice or credit memo as a negative amount (of an item
 * as a positive one); here discounts are positive amounts that are subtracted.
 */
export const discount = (v: unknown): string => money(v).replace(/^-/, '');

/** A decimal string with 4 places (what NUMERIC(…, 4) holds). */
export const fixed = (d: Decimal): string => d.toFixed(4);

/**
 * A PHP serialize() or JSON value as plain data (PHP arrays with keys 0…n-1 become arrays, others objects);
 * undefined when the text is neither.
 */
export function unserialize(v: unknown): unknown {
  const s = str(v);
  if (!s) return undefined;
  const t = s.trim();
  if (t.startsWith('{') || t.startsWith('[')) {
    try {
      return JSON.parse(t);
    } catch {
      return undefined;
    }
  }
  if (!/^[abidsNO]:/.test(t)) return undefined;
  try {
    const p = new PhpReader(Buffer.from(t, 'utf8'));
    return p.value();
  } catch {
    return undefined;
  }
}

/** Bytes of PHP's serialize() format the reader looks for. */
const QUOTE = 0x22;
const COLON = 0x3a;
const SEMICOLON = 0x3b;
const OPEN = 0x7b;
const CLOSE = 0x7d;
const MINUS = 0x2d;

/** Reads PHP's serialize() format byte by byte (string lengths count bytes), making no string it does not return. */
class PhpReader {
  private i = 0;

  constructor(private readonly b: Buffer) {}

  /** the text up to the next `byte`, which is passed over */
  private until(byte: number): string {
    const end = this.b.indexOf(byte, this.i);
    if (end < 0) throw new Error('truncated');
    const out = this.b.toString('utf8', this.i, end);
    this.i = end + 1;
    return out;
  }

  /** a whole number up to the next `byte`, which is passed over; anything else is read as text */
  private int(byte: number): number {
    const b = this.b;
    let at = this.i;
    const negative = b[at] === MINUS;
    if (negative) at++;
    const first = at;
    let n = 0;
    while (at < b.length && b[at] >= 0x30 && b[at] <= 0x39 && at - first < 15) n = n * 10 + (b[at++] - 0x30);
    if (at === first || b[at] !== byte) return Number(this.until(byte));
    this.i = at + 1;
    return negative ? -n : n;
  }

  private expect(byte: number): void {
    if (this.b[this.i] !== byte) throw new Error(`expected ${String.fromCharCode(byte)} at ${this.i}`);
    this.i++;
  }

  value(): unknown {
    const type = this.b[this.i];
    this.i += 2;
    switch (type) {
      case 0x4e: // N
        return null;
      case 0x62: // b
        return this.int(SEMICOLON) === 1;
      case 0x69: // i
        return this.int(SEMICOLON);
      case 0x64: // d
        return Number(this.until(SEMICOLON));
      case 0x73: {
        // s
        const len = this.int(COLON);
        this.expect(QUOTE);
        if (this.i + len > this.b.length) throw new Error('truncated');
        const out = this.b.toString('utf8', this.i, this.i + len);
        this.i += len;
        this.expect(QUOTE);
        this.expect(SEMICOLON);
        return out;
      }
      case 0x61: // a
        return this.entries(this.int(COLON));
      case 0x4f: {
        // O: the class name's length, the name, then the properties as an array's entries
        this.until(COLON);
        this.i += 1;
        this.until(QUOTE);
        this.expect(COLON);
        return this.entries(this.int(COLON));
      }
      default:
        throw new Error(`unknown type ${type === undefined ? 'at the end' : String.fromCharCode(type)}`);
    }
  }

  private entries(n: number): unknown {
    this.expect(OPEN);
    const keys: (string | number)[] = [];
    const values: unknown[] = [];
    let list = true;
    for (let k = 0; k < n; k++) {
      const key = this.value() as string | number;
      if (key !== k) list = false;
      keys.push(key);
      values.push(this.value());
    }
    this.expect(CLOSE);
    return list ? values : Object.fromEntries(keys.map((k, idx) => [String(k), values[idx]]));
  }
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Values of a PHP array that may have come out as a list or as an object with numeric keys. */
export function listOf(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (isRecord(v)) return Object.values(v);
  return [];
}

// ---- writing ----

/** The type a JSON text value is cast to for a column (serial columns are integers). */
/** The rows of a parent table in key order, a batch at a time (only those changed since --since where it keeps updated_at). */
export function parentBatches(ctx: ImportContext, table: string, columns = 'entity_id', size?: number): AsyncGenerator<SourceRow[]> {
  const since = sinceWhere(ctx, table);
  return ctx.source.batches({ from: table, key: 'entity_id', columns, where: since.where, params: since.params, size });
}

/**
 * A select list of the named columns the source's table has (a column an older schema lacks reads as missing, as
 * with `*`): reading only what is used keeps wide tables (sales_flat_order has over a hundred columns) cheap.
 */
export function columnList(ctx: ImportContext, table: string, columns: string[]): string {
  const found = columns.filter((c) => ctx.source.hasColumn(table, c));
  return found.length ? found.map((c) => `\`${c}\``).join(', ') : '*';
}

/** Rows of a child table whose parent is one of `ids` (a batch of consecutive keys), grouped by parent. */
export async function childrenOf(
  ctx: ImportContext,
  table: string,
  parentKey: string,
  ids: number[],
  key = 'entity_id',
  columns = '*',
): Promise<Map<number, SourceRow[]>> {
  const out = new Map<number, SourceRow[]>();
  if (!ids.length || !ctx.source.hasTable(table)) return out;
  const wanted = new Set(ids);
  // a key range rather than a long IN list: batches are consecutive keys
  const found = await ctx.source.query(`SELECT ${columns} FROM ${table} WHERE ${parentKey} BETWEEN ? AND ? ORDER BY ${key}`, [
    Math.min(...ids),
    Math.max(...ids),
  ]);
  for (const r of found) {
    const k = Number(r[parentKey]);
    if (!wanted.has(k)) continue;
    let g = out.get(k);
    if (!g) out.set(k, (g = []));
    g.push(r);
  }
  return out;
}

/** Source rows of a child table read through its parent's batches (see parentBatches), for the progress bar. */
export async function countChildren(ctx: ImportContext, parentTable: string, childTable: string, parentKey: string): Promise<number> {
  if (!ctx.source.hasTable(childTable) || !ctx.source.hasTable(parentTable)) return 0;
  const since = sinceWhere(ctx, parentTable, 'updated_at', 'p');
  if (!since.where) return ctx.source.count(childTable);
  const [row] = await ctx.source.query<{ n: string | number }>(
    `SELECT COUNT(*) AS n FROM ${childTable} c JOIN ${parentTable} p ON p.entity_id = c.${parentKey} WHERE ${since.where}`,
    since.params,
  );
  return Number(row?.n ?? 0);
}

// ---- parent and child items ----

/** Magento's product_calculations and shipment_type values. */
const CALCULATE_CHILD = 0;
const SHIPMENT_SEPARATELY = 1;

/**
 * An order line as Magento keeps it: a top-level item, and for a configurable or bundle product its child
 * items. Here the line is one order item (the parent's id): a configurable's child becomes its
 * childProductId, a bundle's children its stock parts.
 */
export interface SourceLine {
  id: number;
  item: SourceRow;
  children: SourceRow[];
  /** the money sits on the children (a bundle with dynamic price) */
  childrenCalculated: boolean;
  /** the children are shipped one by one (a bundle shipped separately) */
  shipSeparately: boolean;
}

/** The top-level items of one order with their children; a child whose parent is missing stands alone. */
export function linesOf(items: SourceRow[]): SourceLine[] {
  const byId = new Map(items.map((i) => [Number(i.item_id), i]));
  const lines = new Map<number, SourceLine>();
  for (const i of items) {
    const parentId = int(i.parent_item_id);
    if (parentId && byId.has(parentId)) continue;
    const options = optionsOf(i);
    lines.set(Number(i.item_id), {
      id: Number(i.item_id),
      item: i,
      children: [],
      childrenCalculated:
        options.product_calculations !== undefined &&
        options.product_calculations !== null &&
        Number(options.product_calculations) === CALCULATE_CHILD,
      shipSeparately: Number(options.shipment_type) === SHIPMENT_SEPARATELY,
    });
  }
  for (const i of items) {
    const parentId = int(i.parent_item_id);
    if (parentId && byId.has(parentId)) lines.get(parentId)?.children.push(i);
  }
  return [...lines.values()];
}

/** The product_options of an item, as an object ({} when none or unreadable). */
export function optionsOf(item: SourceRow): Record<string, unknown> {
  if (item.__options !== undefined) return item.__options as Record<string, unknown>;
  const parsed = unserialize(item.product_options);
  const out = isRecord(parsed) ? parsed : {};
  item.__options = out;
  return out;
}

/**
 * A child's quantity counter in units of its line: Magento counts a bundle's children in their own units
 * (qty per bundle × bundles).
 */
export function inLineUnits(childQty: unknown, child: SourceRow, line: SourceRow): Decimal {
  const childOrdered = dec(money(child.qty_ordered));
  const lineOrdered = dec(money(line.qty_ordered));
  if (childOrdered.isZero()) return dec(0);
  return dec(money(childQty)).mul(lineOrdered).div(childOrdered).toDecimalPlaces(4);
}

/** The smallest of some quantities (0 for none). */
export function least(list: Decimal[]): Decimal {
  return list.length ? list.reduce((a, b) => (b.lt(a) ? b : a)) : dec(0);
}

/** Sum of a column over rows, as a decimal. */
export function sum(list: SourceRow[], column: string): Decimal {
  return list.reduce((s, r) => s.add(money(r[column])), dec(0));
}

/**
 * The line each order item of some orders belongs to (a child's is its parent's), read from the source for
 * the orders of a batch of documents.
 */
export async function placementsOf(ctx: ImportContext, orderIds: number[]): Promise<Map<number, SourceLine>> {
  const out = new Map<number, SourceLine>();
  const ids = [...new Set(orderIds)];
  if (!ids.length) return out;
  const items = await ctx.source.query(
    `SELECT item_id, order_id, parent_item_id, qty_ordered, product_id, product_type, sku, name,
            CASE WHEN product_type = 'bundle' THEN product_options END AS product_options
       FROM sales_flat_order_item WHERE order_id IN (${ids.map(() => '?').join(', ')})`,
    ids,
  );
  const byOrder = new Map<number, SourceRow[]>();
  for (const i of items) {
    const k = Number(i.order_id);
    let g = byOrder.get(k);
    if (!g) byOrder.set(k, (g = []));
    g.push(i);
  }
  for (const group of byOrder.values()) {
    for (const line of linesOf(group)) {
      out.set(line.id, line);
      for (const c of line.children) out.set(Number(c.item_id), line);
    }
  }
  return out;
}

/**
 * The rows of one document (invoice, shipment or credit memo) for one order line, merged into one: the
 * line's own row where it carries the quantity and money, otherwise the children's rows summed, their
 * quantities counted in line units. `childrenCarry` says which it is for this kind of document.
 */
export function mergeDocumentRows(
  line: SourceLine,
  docRows: SourceRow[],
  childrenCarry: boolean,
  additive: string[],
): { line: SourceLine; representative: SourceRow; qty: Decimal; sums: Record<string, string> | undefined } {
  const own = docRows.find((r) => Number(r.order_item_id) === line.id);
  const children = docRows.filter((r) => Number(r.order_item_id) !== line.id);
  if ((!childrenCarry || !children.length) && own) return { line, representative: own, qty: dec(money(own.qty)), sums: undefined };
  const childItems = new Map(line.children.map((c) => [Number(c.item_id), c]));
  const qty = least(
    children.map((r) => {
      const c = childItems.get(Number(r.order_item_id));
      return c ? inLineUnits(r.qty, c, line.item) : dec(money(r.qty));
    }),
  );
  const sums = Object.fromEntries(additive.map((col) => [col, fixed(sum(children, col))]));
  return { line, representative: own ?? children[0], qty, sums };
}

/** Rows of a table this run reads (those changed since --since where it keeps updated_at). */
export function countSince(ctx: ImportContext, table: string): Promise<number> {
  if (!ctx.source.hasTable(table)) return Promise.resolve(0);
  const s = sinceWhere(ctx, table);
  return ctx.source.count(table, s.where, s.params);
}

// ---- numbering ----

/** Magento's entity type codes of the documents, as our sales_sequences names them too. */
export type DocumentKind = 'order' | 'invoice' | 'shipment' | 'creditmemo';

/**
 * Our numbering of a kind of document goes on after the imported numbers: a number here is the store id
 * followed by an 8-digit counter, as Magento's are by default, so the counter of each store view starts past
 * both the highest imported number of that form (of any store view's document) and the last number Magento
 * gave it (eav_entity_store, which also counts documents deleted since). Imported numbers of another form (a
 * custom prefix) cannot collide with ours and leave the counter alone. The counter never goes down.
 */
export async function continueNumbering(ctx: ImportContext, kind: DocumentKind, table: string): Promise<void> {
  const last = new Map<number, number>();
  const raise = (storeId: number, n: number) => {
    if (Number.isSafeInteger(n) && n > 0 && n <= 2147483647 && n > (last.get(storeId) ?? 0)) last.set(storeId, n);
  };
  // whatever store view a document is of: Magento may number all store views with one counter
  const imported = await rows<{ storeId: number; n: string }>(
    ctx.db,
    sql`SELECT s.id AS "storeId", max(substr(d.increment_id, length(s.id::text) + 1)::bigint)::text AS n
          FROM stores s JOIN ${sql.identifier(table)} d ON d.increment_id ~ ('^' || s.id::text || '[0-9]{8}$') GROUP BY s.id`,
  );
  for (const r of imported) raise(Number(r.storeId), Number(r.n));
  const stores = new Set((await rows<{ id: number }>(ctx.db, sql`SELECT id FROM stores`)).map((r) => Number(r.id)));
  for (const r of await magentoLastIds(ctx)) {
    const storeId = Number(r.store_id);
    const prefix = str(r.increment_prefix) ?? '';
    const lastId = str(r.increment_last_id) ?? '';
    if (r.code !== kind || !stores.has(storeId) || prefix !== String(storeId) || !lastId.startsWith(prefix)) continue;
    const rest = lastId.slice(prefix.length);
    if (/^\d{8}$/.test(rest)) raise(storeId, Number(rest));
  }
  if (!last.size) return;
  const values = [...last].map(([storeId, n]) => sql`(${kind}, ${storeId}::int, ${n}::int)`);
  await ctx.db.execute(
    sql`INSERT INTO sales_sequences (entity, store_id, last_value) VALUES ${sql.join(values, sql`, `)}
        ON CONFLICT (entity, store_id) DO UPDATE SET last_value = excluded.last_value WHERE sales_sequences.last_value < excluded.last_value`,
  );
}

async function magentoLastIds(ctx: ImportContext): Promise<SourceRow[]> {
  let found = ctx.memo.get('salesLastIds') as SourceRow[] | undefined;
  if (!found) {
    found =
      ctx.source.hasTable('eav_entity_store') && ctx.source.hasTable('eav_entity_type')
        ? await ctx.source.query(
            `SELECT t.entity_type_code AS code, s.store_id, s.increment_prefix, s.increment_last_id
               FROM eav_entity_store s JOIN eav_entity_type t ON t.entity_type_id = s.entity_type_id
              WHERE t.entity_type_code IN ('order', 'invoice', 'shipment', 'creditmemo')`,
          )
        : [];
    ctx.memo.set('salesLastIds', found);
  }
  return found;
}

// ---- verification ----

/** Source orders this server should hold: in imported store views, with a number (as orderSkip). */
export async function importableOrdersWhere(ctx: ImportContext, alias = 'o'): Promise<string> {
  const stores = (await rows<{ id: number }>(ctx.db, sql`SELECT id FROM stores`)).map((r) => Number(r.id));
  return `${alias}.store_id IN (${stores.length ? stores.join(', ') : 'NULL'}) AND ${alias}.increment_id IS NOT NULL AND TRIM(${alias}.increment_id) <> ''`;
}

/** Counts and money of imported rows of a table, beside the source's. */
export async function checkCounts(
  ctx: ImportContext,
  label: string,
  entity: string,
  targetTable: string,
  sourceSql: string,
  moneyColumn?: string,
): Promise<void> {
  const [s] = await ctx.source.query<{ n: string | number; total: string | null }>(sourceSql);
  const [t] = await rows<{ n: number; total: string | null }>(
    ctx.db,
    sql`SELECT count(*)::int AS n, ${moneyColumn ? sql`sum(t.${sql.identifier(moneyColumn)})::text` : sql`NULL::text`} AS total
          FROM ${sql.identifier(targetTable)} t WHERE ${imported(entity, sql`t.id`)}`,
  );
  ctx.report.check(label, Number(s?.n ?? 0), Number(t.n));
  if (moneyColumn) ctx.report.check(`${label}: sum of ${moneyColumn}`, fixed(dec(s?.total ?? 0)), fixed(dec(t.total ?? 0)));
}

export interface GiftMessage {
  sender: string;
  recipient: string;
  message: string;
}

/** Gift messages by id (an order's and its items'), where the source has them. */
export async function giftMessages(ctx: ImportContext, ids: unknown[]): Promise<Map<number, GiftMessage>> {
  const wanted = [...new Set(ids.map((i) => int(i)).filter((i): i is number => !!i))];
  if (!wanted.length || !ctx.source.hasTable('gift_message')) return new Map();
  const found = await ctx.source.query(
    `SELECT gift_message_id, sender, recipient, message FROM gift_message WHERE gift_message_id IN (${wanted.map(() => '?').join(', ')})`,
    wanted,
  );
  return new Map(
    found.map((m) => [
      Number(m.gift_message_id),
      { sender: str(m.sender) ?? '', recipient: str(m.recipient) ?? '', message: str(m.message) ?? '' },
    ]),
  );
}
