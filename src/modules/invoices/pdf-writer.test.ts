/**
 * The PDF helpers the invoice PDF is built with (src/platform/pdf.ts): text the standard fonts can show, a
 * table that runs over several pages with its header on each, and the same bytes for the same document.
 */
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { pdfSafe, renderPdf, type PdfWriter } from '../../platform/pdf.js';

function hasPdftotext(): boolean {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function pdfText(pdf: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile('pdftotext', ['-layout', '-', '-'], { encoding: 'utf8' }, (err, stdout) =>
      err ? reject(err) : resolve(stdout),
    );
    child.stdin!.end(pdf);
  });
}

const created = new Date('2026-01-02T03:04:05Z');

function draw(rows: number) {
  return (pdf: PdfWriter) => {
    pdf.title('Sample Store');
    pdf.keyValues([
      ['Number', 'A-1'],
      ['Date', '2026-01-02'],
    ]);
    pdf.blocks([
      { title: 'Left', lines: ['one', 'two'] },
      { title: 'Right', lines: ['three'] },
    ]);
    pdf.table(
      [
        { header: 'Line', width: 3 },
        { header: 'Amount', width: 1, align: 'right' },
      ],
      Array.from({ length: rows }, (_, i) => [`Row ${i + 1}`, `${i + 1}.00 USD`]),
    );
    pdf.totals([{ label: 'Grand total', value: '99.00 USD', bold: true }]);
  };
}

describe('PDF helpers', () => {
  test('pdfSafe keeps Latin-1 and WinAnsi, reduces other letters to their base, replaces the rest', () => {
    assert.equal(pdfSafe('Größe €5 – “ok”'), 'Größe €5 – “ok”');
    assert.equal(pdfSafe('Łódź Čapek'), 'Lódz Capek');
    assert.equal(pdfSafe('日本 ✓'), '?? ?');
    assert.equal(pdfSafe('a\u0000b\tc\nd'), 'ab c\nd');
  });

  test('a long table continues on further pages, each with the header; the same input gives the same bytes', async (t) => {
    const a = await renderPdf({ title: 'Sample', createdAt: created }, draw(120));
    const b = await renderPdf({ title: 'Sample', createdAt: created }, draw(120));
    assert.equal(a.subarray(0, 5).toString('latin1'), '%PDF-');
    assert.ok(a.equals(b), 'deterministic');
    if (!hasPdftotext()) {
      t.skip('pdftotext is not installed');
      return;
    }
    const text = await pdfText(a);
    const pages = text.split('\f').filter((p) => p.trim());
    assert.ok(pages.length >= 3, `${pages.length} pages`);
    for (const p of pages) assert.match(p, /Line\s+Amount/, 'the header on every page');
    for (const n of [1, 60, 120]) assert.match(text, new RegExp(`Row ${n}\\s+${n}\\.00 USD`));
    assert.match(pages.at(-1)!, /Grand total\s+99\.00 USD/);
    assert.match(pages[0], /Sample Store/);
    assert.match(pages[0], /Left\s+Right/);
  });
});
