/**
 * Rows in PostgreSQL's COPY text format, for the importer's first loads (see `upsert` in context.ts), and the
 * array literal both COPY and the upserts' JSON use for array columns.
 */

/** A JS array as a PostgreSQL array literal (of numbers or plain strings). */
export function arrayLiteral(list: unknown[]): string {
  return `{${list.map((x) => (x === null || x === undefined ? 'NULL' : `"${String(x).replace(/[\\"]/g, '\\$&')}"`)).join(',')}}`;
}

const BACKSLASH = 0x5c;
export const TAB = 0x09;
export const NEWLINE = 0x0a;
const RETURN = 0x0d;
/** what follows a backslash for each character COPY escapes */
const ESCAPE_LETTER: Record<number, number> = { [BACKSLASH]: BACKSLASH, [TAB]: 0x74, [NEWLINE]: 0x6e, [RETURN]: 0x72 };
const ESCAPED = /[\\\t\n\r]/g;
const escapeOf = (c: string) => `\\${String.fromCharCode(ESCAPE_LETTER[c.charCodeAt(0)])}`;

/**
 * Buffers of batches COPY has finished with, for the next batches: a batch's buffer lives while its rows are in
 * flight, long enough to outlive a young-generation collection, so a new one per batch would wait for a full
 * collection to be freed (tens of megabytes of them, on wide tables). A few are kept: write-behind has one batch
 * in flight while the next is built.
 */
const spareBuffers: Buffer[] = [];
const SPARE_BUFFERS = 3;

/**
 * Rows in COPY's text format, written value by value into a growing buffer: a batch makes no string per line or
 * per batch (which, large, V8 would keep until its next full collection), only the values' own.
 */
export class CopyText {
  private buf = spareBuffers.pop() ?? Buffer.allocUnsafe(1 << 16);
  private at = 0;

  /** gives the buffer back for another batch, once the rows it holds are sent and taken */
  release(): void {
    if (spareBuffers.length < SPARE_BUFFERS) spareBuffers.push(this.buf);
  }

  private room(bytes: number): void {
    if (this.at + bytes <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + bytes));
    this.buf.copy(next, 0, 0, this.at);
    this.buf = next;
  }

  /**
   * A field's text, with backslash, tab, newline and return escaped. Short ASCII text (most values) is copied
   * a character at a time, which costs less than a call into Buffer's encoder per value.
   */
  text(s: string): void {
    const n = s.length;
    if (n <= 64) {
      // at most two bytes per character: an escape
      this.room(2 * n);
      const buf = this.buf;
      let at = this.at;
      let i = 0;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        if (c === BACKSLASH || c === TAB || c === NEWLINE || c === RETURN) {
          buf[at++] = BACKSLASH;
          buf[at++] = ESCAPE_LETTER[c];
        } else buf[at++] = c;
      }
      this.at = at;
      if (i === n) return;
      s = s.slice(i);
    }
    const escaped = s.replace(ESCAPED, escapeOf);
    // at most three bytes of UTF-8 per UTF-16 unit
    this.room(3 * escaped.length);
    this.at += this.buf.write(escaped, this.at);
  }

  /** one byte: a tab between fields, a newline after a row */
  byte(b: number): void {
    this.room(1);
    this.buf[this.at++] = b;
  }

  /** a whole number from 0 below 10^width, in `width` digits (zero-padded) */
  private digits(n: number, width: number): void {
    this.room(width);
    for (let i = width - 1; i >= 0; i--) {
      this.buf[this.at + i] = 0x30 + (n % 10);
      n = Math.floor(n / 10);
    }
    this.at += width;
  }

  /** a number as String() spells it; whole numbers (most: ids, counts) without making the string */
  private number(x: number): void {
    if (!Number.isSafeInteger(x)) return this.text(String(x));
    if (x < 0) this.byte(0x2d); // -
    const n = Math.abs(x);
    let width = 1;
    for (let m = n; m >= 10; m = Math.floor(m / 10)) width++;
    this.digits(n, width);
  }

  /** a time as toISOString() spells it (YYYY-MM-DDTHH:MM:SS.mmmZ), written digit by digit */
  private time(d: Date): void {
    const year = d.getUTCFullYear();
    // an invalid date throws there, as it did; years beyond four digits are spelled otherwise
    if (!(year >= 0 && year <= 9999)) return this.text(d.toISOString());
    this.digits(year, 4);
    this.byte(0x2d);
    this.digits(d.getUTCMonth() + 1, 2);
    this.byte(0x2d);
    this.digits(d.getUTCDate(), 2);
    this.byte(0x54); // T
    this.digits(d.getUTCHours(), 2);
    this.byte(0x3a);
    this.digits(d.getUTCMinutes(), 2);
    this.byte(0x3a);
    this.digits(d.getUTCSeconds(), 2);
    this.byte(0x2e);
    this.digits(d.getUTCMilliseconds(), 3);
    this.byte(0x5a); // Z
  }

  /** one value, read by the column's type as the upsert's JSON would have been */
  value(x: unknown, kind: CopyKind): void {
    // a missing value in a json column is JSON's null there too (a date is its ISO text, as JSON.stringify gives it)
    if (kind === 'json') this.text(JSON.stringify(x ?? null));
    else if (x === null || x === undefined || (typeof x === 'number' && !Number.isFinite(x))) {
      this.byte(BACKSLASH);
      this.byte(0x4e); // N: null
    } else if (typeof x === 'string') this.text(x);
    else if (typeof x === 'number') this.number(x);
    else if (typeof x === 'boolean') this.text(x ? 'true' : 'false');
    else if (x instanceof Date) this.time(x);
    else if (kind === 'array' && Array.isArray(x)) this.text(arrayLiteral(x));
    else this.text(JSON.stringify(x));
  }

  done(): Buffer {
    return this.buf.subarray(0, this.at);
  }
}

export type CopyKind = 'json' | 'array' | 'plain';
