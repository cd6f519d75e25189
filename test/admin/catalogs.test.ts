/**
 * The back office's message catalogs: English and German hold the same keys (core and every area's file), and no
 * component writes a text of its own between its tags (every text comes from a catalog).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../admin/src');
const I18N = path.join(SRC, 'i18n');

function keys(value: unknown, prefix = ''): string[] {
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
  return [prefix];
}
const read = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;

function catalog(lang: string): string[] {
  const out = keys(read(path.join(I18N, `${lang}.json`)));
  const dir = path.join(I18N, lang);
  for (const f of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    if (f.endsWith('.json')) out.push(...keys(read(path.join(dir, f)), f.replace(/\.json$/, '')));
  }
  return out.sort();
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : p.endsWith('.tsx') ? [p] : [];
  });
}

describe('message catalogs', () => {
  test('German has every English key and no other', () => {
    const en = catalog('en');
    const de = catalog('de');
    assert.ok(en.length > 100, `only ${en.length} keys`);
    assert.deepEqual(
      de.filter((k) => !en.includes(k)),
      [],
      'keys only in German',
    );
    assert.deepEqual(
      en.filter((k) => !de.includes(k)),
      [],
      'keys missing in German',
    );
  });

  test('no component writes its own text between tags', () => {
    const offenders: string[] = [];
    for (const file of sources(SRC)) {
      const text = fs.readFileSync(file, 'utf8');
      // a JSX text child with a letter in it: `>Save<`, `> Orders </`
      for (const m of text.matchAll(/>\s*([^<>{}\n]*[A-Za-zÄÖÜäöüß][^<>{}\n]*?)\s*<\//g)) {
        offenders.push(`${path.relative(SRC, file)}: ${m[1].trim()}`);
      }
    }
    assert.deepEqual(offenders, []);
  });
});
