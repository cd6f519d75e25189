/**
 * Rows written from one JSON parameter: `INSERT INTO t (cols) SELECT cols FROM json_populate_recordset(NULL::t,
 * $1::json)`. The statement's text is the same whatever the number of rows and their values, so it is built once
 * and PostgreSQL prepares it once per connection (`statement`), where a multi-row VALUES list is built, sent and
 * parsed again for every write, one parameter per value. Hot writes with many columns (placing an order) use it.
 *
 * The JSON holds the rows under their column names with the values the driver would send (a Date as its ISO
 * text, a decimal as its string); JSON and JSONB columns hold their value itself. PostgreSQL reads each field
 * with the column's own input function, arrays and JSON included.
 */
import { getTableColumns, is, SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';

type Columns<T extends PgTable> = T['_']['columns'];

/** The columns an insert gives: all but the database-numbered (serial) and generated ones. */
function insertedColumns<T extends PgTable>(table: T): [string, PgColumn][] {
  return Object.entries(getTableColumns(table)).filter(
    ([, col]) => col.columnType !== 'PgSerial' && col.columnType !== 'PgBigSerial53' && !col.generated,
  ) as [string, PgColumn][];
}

const JSON_TYPES = new Set(['PgJson', 'PgJsonb']);

/** A row under its column names, with the values the driver would send (JSON columns: the value itself). */
function encodeRow(cols: [string, PgColumn][], row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, col] of cols) {
    const v = row[key];
    if (v === undefined || v === null) continue;
    if (is(v, SQL)) throw new Error(`json-rows: ${key} is an SQL expression; give it with set`);
    out[col.name] = JSON_TYPES.has(col.columnType) ? v : col.mapToDriverValue(v);
  }
  return out;
}

/**
 * The JSON text of `rows` for `insertFromJson` over `table`: every inserted column of each row under its
 * column name (a key missing from a row is NULL). A value that is an SQL expression is refused: give it with
 * `set` instead.
 */
export function jsonRows<T extends PgTable>(table: T, rows: readonly Partial<T['$inferInsert']>[]): string {
  const cols = insertedColumns(table);
  return JSON.stringify(rows.map((row) => encodeRow(cols, row as Record<string, unknown>)));
}

/** The JSON text of one row for `updateFromJson` over `table`. */
export function jsonRow<T extends PgTable>(table: T, row: Partial<T['$inferInsert']>): string {
  return JSON.stringify(encodeRow(insertedColumns(table), row as Record<string, unknown>));
}

/**
 * An UPDATE of `columns` to the values of the row `jsonRow(table, …)` made, given as the placeholder
 * `placeholder`, where `where` holds: fixed text whatever the values, as insertFromJson's.
 */
export function updateFromJson<T extends PgTable>(table: T, placeholder: string, columns: (keyof Columns<T> & string)[], where: SQL): SQL {
  const all = getTableColumns(table) as Record<string, PgColumn>;
  const names = columns.map((key) => sql.identifier(all[key].name));
  return sql`UPDATE ${table} SET (${sql.join(names, sql`, `)}) = (SELECT ${sql.join(
    names.map((n) => sql`x.${n}`),
    sql`, `,
  )} FROM json_populate_record(NULL::${table}, ${sql.placeholder(placeholder)}::json) AS x) WHERE ${where}`;
}

export interface JsonInsertOptions<T extends PgTable> {
  /** the columns to insert (default: every column but serial and generated ones); the others take their defaults */
  columns?: (keyof Columns<T> & string)[];
  /** columns whose value is an expression instead of the JSON's (it may name the JSON's row as `x`) */
  set?: Partial<Record<keyof Columns<T>, SQL>>;
  /** a RETURNING list */
  returning?: SQL;
}

/**
 * The INSERT of the rows `jsonRows(table, …)` made, given as the placeholder `placeholder` (a JSON array).
 * Rows are inserted in the array's order, so serial ids follow it. A column left out of `columns` takes its
 * default; a column inserted whose row has no value for it is NULL.
 */
export function insertFromJson<T extends PgTable>(table: T, placeholder: string, opts: JsonInsertOptions<T> = {}): SQL {
  const set = (opts.set ?? {}) as Record<string, SQL | undefined>;
  const only = opts.columns && new Set<string>(opts.columns);
  const cols = insertedColumns(table).filter(([key]) => !only || only.has(key));
  const names = sql.join(
    cols.map(([, col]) => sql.identifier(col.name)),
    sql`, `,
  );
  const values = sql.join(
    cols.map(([key, col]) => set[key] ?? sql`x.${sql.identifier(col.name)}`),
    sql`, `,
  );
  const from = sql`json_populate_recordset(NULL::${table}, ${sql.placeholder(placeholder)}::json) WITH ORDINALITY AS x`;
  return sql`INSERT INTO ${table} (${names}) SELECT ${values} FROM ${from} ORDER BY x.ordinality${
    opts.returning ? sql` RETURNING ${opts.returning}` : sql``
  }`;
}
