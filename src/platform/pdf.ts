/**
 * PDF documents on pdfkit, knowing nothing of the domain: a document rendered into a Buffer, and a writer with
 * the few building blocks business documents need (title, text, label/value rows, side-by-side blocks, a
 * table that continues on the next page with its header, a totals column). Text uses the standard Helvetica
 * fonts (WinAnsi): characters they cannot show are reduced to their base letter or replaced by "?".
 * pdfkit is loaded on first use, so processes that never render a PDF do not pay for it.
 */
import type PDFDocumentType from 'pdfkit';

type Doc = PDFKit.PDFDocument;

export interface PdfMeta {
  title: string;
  author?: string;
  subject?: string;
  /** the document's creation date; a fixed one makes the same content give the same bytes */
  createdAt?: Date;
}

export type PdfAlign = 'left' | 'right' | 'center';

export interface PdfColumn {
  header: string;
  /** share of the text width, relative to the other columns' */
  width: number;
  align?: PdfAlign;
}

export interface PdfBlock {
  title: string;
  lines: string[];
}

const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const TEXT_SIZE = 9;

/** Characters WinAnsi has beyond Latin-1. */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
/** Letters that Unicode does not decompose into a base letter and a mark. */
const LETTERS: Record<string, string> = {
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Ħ: 'H',
  ħ: 'h',
  ı: 'i',
  Ŀ: 'L',
  ŀ: 'l',
  Ŧ: 'T',
  ŧ: 't',
  Ŋ: 'N',
  ŋ: 'n',
  ĸ: 'k',
};

/** Text the standard fonts can show: accents outside Latin-1 dropped, other characters as "?". */
export function pdfSafe(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code === 9 || code === 10) out += ch === '\t' ? ' ' : ch;
    else if (code < 32 || (code >= 127 && code < 160)) continue;
    else if (code < 256 || WIN_ANSI_EXTRA.has(ch)) out += ch;
    else if (LETTERS[ch]) out += LETTERS[ch];
    else {
      const base = ch.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
      out += [...base].every((c) => c.codePointAt(0)! < 256) && base ? base : '?';
    }
  }
  return out;
}

/** Draws on a pdfkit document, top to bottom, adding pages as needed. */
export class PdfWriter {
  constructor(readonly doc: Doc) {}

  private get left(): number {
    return this.doc.page.margins.left;
  }

  /** The width between the margins. */
  get width(): number {
    return this.doc.page.width - this.doc.page.margins.left - this.doc.page.margins.right;
  }

  private get bottom(): number {
    return this.doc.page.height - this.doc.page.margins.bottom;
  }

  /** Starts a new page unless `height` more points fit on this one. */
  ensureSpace(height: number): void {
    if (this.doc.y + height > this.bottom) this.doc.addPage();
  }

  /** Vertical space of `lines` text lines. */
  gap(lines = 1): this {
    this.doc.moveDown(lines);
    return this;
  }

  title(text: string, size = 18): this {
    this.doc.font(BOLD).fontSize(size).text(pdfSafe(text), this.left, this.doc.y, { width: this.width });
    this.doc.font(FONT).fontSize(TEXT_SIZE);
    return this;
  }

  text(text: string, opts: { bold?: boolean; size?: number; align?: PdfAlign } = {}): this {
    const size = opts.size ?? TEXT_SIZE;
    this.doc.font(opts.bold ? BOLD : FONT).fontSize(size);
    this.ensureSpace(this.doc.heightOfString(pdfSafe(text), { width: this.width }));
    this.doc.text(pdfSafe(text), this.left, this.doc.y, { width: this.width, align: opts.align ?? 'left' });
    this.doc.font(FONT).fontSize(TEXT_SIZE);
    return this;
  }

  /** Label and value pairs, one a line, the labels in bold in a column of their own. */
  keyValues(rows: [string, string][], labelWidth = 120): this {
    const doc = this.doc.fontSize(TEXT_SIZE);
    for (const [label, value] of rows) {
      const v = pdfSafe(value);
      const h = Math.max(doc.font(FONT).heightOfString(v, { width: this.width - labelWidth }), doc.currentLineHeight(true));
      this.ensureSpace(h);
      const y = doc.y;
      doc.font(BOLD).text(pdfSafe(label), this.left, y, { width: labelWidth - 8 });
      doc.font(FONT).text(v, this.left + labelWidth, y, { width: this.width - labelWidth });
      doc.y = y + h + 2;
    }
    doc.x = this.left;
    return this;
  }

  /** Blocks of lines side by side (addresses, methods), each under a bold title. */
  blocks(blocks: PdfBlock[]): this {
    if (!blocks.length) return this;
    const doc = this.doc.fontSize(TEXT_SIZE);
    const gutter = 16;
    const w = (this.width - gutter * (blocks.length - 1)) / blocks.length;
    const bodies = blocks.map((b) => pdfSafe(b.lines.join('\n')));
    const titleH = doc.font(BOLD).currentLineHeight(true) + 3;
    const h = titleH + Math.max(...bodies.map((t) => (t ? doc.font(FONT).heightOfString(t, { width: w }) : 0)));
    this.ensureSpace(h);
    const y = doc.y;
    blocks.forEach((b, i) => {
      const x = this.left + i * (w + gutter);
      doc.font(BOLD).text(pdfSafe(b.title), x, y, { width: w });
      if (bodies[i]) doc.font(FONT).text(bodies[i], x, y + titleH, { width: w });
    });
    doc.x = this.left;
    doc.y = y + h + 4;
    return this;
  }

  private rule(y: number): void {
    this.doc
      .moveTo(this.left, y)
      .lineTo(this.left + this.width, y)
      .lineWidth(0.5)
      .strokeColor('#999999')
      .stroke();
  }

  /** A table under a bold header row; a row that does not fit starts a new page, which repeats the header. */
  table(columns: PdfColumn[], rows: string[][]): this {
    const doc = this.doc.fontSize(TEXT_SIZE);
    const pad = 4;
    const share = columns.reduce((s, c) => s + c.width, 0);
    const widths = columns.map((c) => (this.width * c.width) / share);
    const xs = widths.map((_, i) => this.left + widths.slice(0, i).reduce((s, w) => s + w, 0));
    const rowHeight = (cells: string[], font: string) =>
      Math.max(...cells.map((c, i) => doc.font(font).heightOfString(c || ' ', { width: widths[i] - pad * 2 }))) + pad * 2;
    const drawRow = (cells: string[], font: string, h: number) => {
      const y = doc.y;
      cells.forEach((c, i) => {
        doc.font(font).text(c, xs[i] + pad, y + pad, { width: widths[i] - pad * 2, align: columns[i].align ?? 'left' });
      });
      doc.y = y + h;
      this.rule(doc.y);
    };
    const header = columns.map((c) => pdfSafe(c.header));
    const headerH = rowHeight(header, BOLD);
    const drawHeader = () => {
      this.rule(doc.y);
      drawRow(header, BOLD, headerH);
    };
    this.ensureSpace(headerH * 2);
    drawHeader();
    for (const row of rows) {
      const cells = columns.map((_, i) => pdfSafe(row[i] ?? ''));
      const h = rowHeight(cells, FONT);
      if (doc.y + h > this.bottom) {
        doc.addPage();
        drawHeader();
      }
      drawRow(cells, FONT, h);
    }
    doc.font(FONT).x = this.left;
    doc.moveDown(0.5);
    return this;
  }

  /** Label and amount rows aligned to the right edge; `bold` rows (a grand total) stand out. */
  totals(rows: { label: string; value: string; bold?: boolean }[], width = 240): this {
    const doc = this.doc.fontSize(TEXT_SIZE);
    const x = this.left + this.width - width;
    for (const r of rows) {
      const font = r.bold ? BOLD : FONT;
      const h = doc.font(font).currentLineHeight(true) + 3;
      this.ensureSpace(h);
      const y = doc.y;
      doc.font(font).text(pdfSafe(r.label), x, y, { width: width * 0.55 });
      doc.font(font).text(pdfSafe(r.value), x + width * 0.55, y, { width: width * 0.45, align: 'right' });
      doc.y = y + h;
    }
    doc.font(FONT).x = this.left;
    return this;
  }
}

let pdfkit: Promise<typeof PDFDocumentType> | undefined;

/** Renders a document: `draw` fills it through a PdfWriter; resolves with the finished PDF. */
export async function renderPdf(meta: PdfMeta, draw: (pdf: PdfWriter) => void): Promise<Buffer> {
  const PDFDocument = await (pdfkit ??= import('pdfkit').then((m) => m.default));
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: {
      Title: pdfSafe(meta.title),
      ...(meta.author ? { Author: pdfSafe(meta.author) } : {}),
      ...(meta.subject ? { Subject: pdfSafe(meta.subject) } : {}),
      ...(meta.createdAt ? { CreationDate: meta.createdAt, ModDate: meta.createdAt } : {}),
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.font(FONT).fontSize(TEXT_SIZE);
  try {
    draw(new PdfWriter(doc));
  } finally {
    doc.end();
  }
  return done;
}
