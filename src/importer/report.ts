/**
 * What an import did, per entity: source rows found, rows imported (new), updated (changed since the last
 * run), unchanged, and skipped with their reasons; notes on single rows imported otherwise than the source has
 * them (renamed, moved, a file refused); then the verification checks comparing source and target.
 */

export interface EntityStats {
  entity: string;
  found: number;
  imported: number;
  updated: number;
  unchanged: number;
  skipped: number;
  /** reason → how many, and up to five source ids */
  skips: Map<string, { count: number; samples: string[] }>;
  ms: number;
}

export interface Check {
  name: string;
  source: string;
  target: string;
  ok: boolean;
}

export interface Note {
  entity: string;
  sourceId: string;
  message: string;
}

/** Notes printed in the terminal report (all of them are in the JSON one). */
const NOTES_SHOWN = 50;

export class Report {
  readonly entities: EntityStats[] = [];
  readonly checks: Check[] = [];
  readonly notes: Note[] = [];

  entity(name: string): EntityStats {
    let e = this.entities.find((x) => x.entity === name);
    if (!e) {
      e = { entity: name, found: 0, imported: 0, updated: 0, unchanged: 0, skipped: 0, skips: new Map(), ms: 0 };
      this.entities.push(e);
    }
    return e;
  }

  /** Counts a skipped source row with its reason. */
  skip(stats: EntityStats, sourceId: unknown, reason: string): void {
    stats.skipped++;
    let s = stats.skips.get(reason);
    if (!s) stats.skips.set(reason, (s = { count: 0, samples: [] }));
    s.count++;
    if (s.samples.length < 5) s.samples.push(String(sourceId));
  }

  /** Tells what happened to one source row that was imported otherwise than the source has it. */
  note(stats: EntityStats, sourceId: unknown, message: string): void {
    this.notes.push({ entity: stats.entity, sourceId: String(sourceId), message });
  }

  check(name: string, source: string | number, target: string | number): void {
    this.checks.push({ name, source: String(source), target: String(target), ok: String(source) === String(target) });
  }

  get ok(): boolean {
    return this.checks.every((c) => c.ok);
  }

  /** The report as text lines for the terminal. */
  lines(): string[] {
    const out: string[] = [];
    const head = ['entity', 'found', 'imported', 'updated', 'unchanged', 'skipped', 'rows/s'];
    const rows = this.entities.map((e) => [
      e.entity,
      String(e.found),
      String(e.imported),
      String(e.updated),
      String(e.unchanged),
      String(e.skipped),
      e.ms > 0 ? String(Math.round((e.found * 1000) / e.ms)) : '-',
    ]);
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const fmt = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
    out.push(fmt(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(fmt));
    const skipped = this.entities.filter((e) => e.skips.size);
    if (skipped.length) {
      out.push('', 'Skipped:');
      for (const e of skipped) {
        for (const [reason, s] of e.skips)
          out.push(`  ${e.entity}: ${s.count} × ${reason} (source ids ${s.samples.join(', ')}${s.count > s.samples.length ? ', …' : ''})`);
      }
    }
    if (this.notes.length) {
      out.push('', 'Notes:');
      for (const n of this.notes.slice(0, NOTES_SHOWN)) out.push(`  ${n.entity} ${n.sourceId}: ${n.message}`);
      if (this.notes.length > NOTES_SHOWN) out.push(`  … and ${this.notes.length - NOTES_SHOWN} more (all of them in the JSON report)`);
    }
    if (this.checks.length) {
      out.push('', 'Verification (source = target):');
      for (const c of this.checks) out.push(`  ${c.ok ? 'ok  ' : 'DIFF'}  ${c.name}: ${c.source}${c.ok ? '' : ` ≠ ${c.target}`}`);
    }
    return out;
  }

  toJSON(): unknown {
    return {
      entities: this.entities.map((e) => ({ ...e, skips: Object.fromEntries(e.skips) })),
      notes: this.notes,
      checks: this.checks,
      ok: this.ok,
    };
  }
}

/** A progress line per entity on a terminal (rewritten in place), or a line every few seconds elsewhere. */
export class Progress {
  private last = 0;

  constructor(
    private readonly write: ((line: string) => void) | undefined,
    private readonly tty = false,
  ) {}

  update(entity: string, done: number, total: number, startedAt: number, final = false): void {
    if (!this.write) return;
    const now = Date.now();
    if (!final && now - this.last < (this.tty ? 200 : 5000)) return;
    this.last = now;
    const rate = Math.round((done * 1000) / Math.max(1, now - startedAt));
    const pct = total > 0 ? Math.min(100, Math.floor((done * 100) / total)) : 100;
    const width = 24;
    const bar = '#'.repeat(Math.round((pct * width) / 100)).padEnd(width, '.');
    const line = `${entity.padEnd(22)} [${bar}] ${String(done).padStart(8)} / ${String(total).padEnd(8)} ${String(rate).padStart(7)} rows/s`;
    this.write(this.tty ? `\r${line}${final ? '\n' : ''}` : `${line}\n`);
  }
}
