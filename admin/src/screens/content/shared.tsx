/**
 * What the content screens share: the store views a piece of content is shown in, its status, the grid filters
 * and bulk actions of the content lists, and the load/save/delete cycle of a content form.
 */
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useBlocker } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { BulkAction, GridFilter, ListQuery } from '../../components/DataGrid';
import { fieldError, useStoreViews, type StoreView } from '../../components/ui';
import './content.css';

/** Store id 0: every store view. */
export const ALL_STORES = 0;

/** The store views content is shown in: every one, or those chosen (at least one). */
export function StoresField(props: { value: number[]; onChange: (ids: number[]) => void; error?: unknown }) {
  const { t } = useTranslation();
  const stores = useStoreViews();
  const every = props.value.includes(ALL_STORES);
  const message = fieldError(props.error, 'stores');
  return (
    <fieldset className="content-stores" aria-describedby={message ? 'content-stores-error' : undefined}>
      <legend>{t('content.stores.label')}</legend>
      <label className="checkbox">
        <input type="checkbox" checked={every} onChange={(e) => props.onChange(e.target.checked ? [ALL_STORES] : [])} />
        {t('content.stores.all')}
      </label>
      {!every &&
        stores.map((s) => (
          <label key={s.id} className="checkbox">
            <input
              type="checkbox"
              checked={props.value.includes(s.id)}
              onChange={(e) => props.onChange(e.target.checked ? [...props.value, s.id] : props.value.filter((id) => id !== s.id))}
            />
            {s.name}
          </label>
        ))}
      {message && (
        <small id="content-stores-error" className="field-error">
          {message}
        </small>
      )}
    </fieldset>
  );
}

/** The store views of a row, by name ("All store views" for 0). */
export function storeNames(ids: readonly number[], stores: StoreView[], all: string): string {
  if (ids.includes(ALL_STORES)) return all;
  return ids.map((id) => stores.find((s) => s.id === id)?.name ?? String(id)).join(', ');
}

export function StatusBadge({ active }: { active: boolean }) {
  const { t } = useTranslation();
  return (
    <span className={`content-badge ${active ? 'on' : 'off'}`}>{active ? t('content.status.enabled') : t('content.status.disabled')}</span>
  );
}

/** The grid filters every content list takes: active and store view. */
export function useContentFilters(): { active: GridFilter; store: GridFilter; stores: StoreView[] } {
  const { t } = useTranslation();
  const stores = useStoreViews();
  return {
    stores,
    active: {
      param: 'isActive',
      type: 'select',
      options: [
        { value: 'true', label: t('content.status.enabled') },
        { value: 'false', label: t('content.status.disabled') },
      ],
    },
    store: {
      param: 'storeId',
      type: 'select',
      options: [{ value: '0', label: t('content.stores.all') }, ...stores.map((s) => ({ value: String(s.id), label: s.name }))],
    },
  };
}

/** A grid's query as the content lists take it: the search only from 3 characters on (the API's minimum), the sort. */
export function listParams(q: ListQuery, numeric: string[] = ['storeId']): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = { page: q.page, itemsPerPage: q.pageSize };
  for (const [k, v] of Object.entries(q.filters)) {
    if (v === '') continue;
    out[k] = v === 'true' ? true : v === 'false' ? false : numeric.includes(k) && /^\d+$/.test(v) ? Number(v) : v;
  }
  if (q.search && q.search.length >= 3) out.search = q.search;
  if (q.sort) {
    out.sortBy = q.sort;
    out.sortDir = q.order ?? 'asc';
  }
  return out;
}

/** Enable, disable and delete the selected rows, as the role allows. */
export function useStatusBulkActions<R extends { id: number }>(opts: {
  canWrite: boolean;
  canDelete: boolean;
  update: (id: number, isActive: boolean) => Promise<unknown>;
  remove: (id: number) => Promise<unknown>;
}): BulkAction<R>[] {
  const { t } = useTranslation();
  const out: BulkAction<R>[] = [];
  if (opts.canWrite) {
    out.push(
      { label: t('content.bulk.enable'), run: (rows) => each(rows, (r) => opts.update(r.id, true)) },
      { label: t('content.bulk.disable'), run: (rows) => each(rows, (r) => opts.update(r.id, false)) },
    );
  }
  if (opts.canDelete) {
    out.push({
      label: t('content.bulk.delete'),
      confirm: t('content.bulk.deleteConfirm'),
      run: (rows) => each(rows, (r) => opts.remove(r.id)),
    });
  }
  return out;
}

/** One request after the other (the first failure stops and is shown). */
async function each<R>(rows: R[], fn: (r: R) => Promise<unknown>): Promise<void> {
  for (const r of rows) await fn(r);
}

export interface EntityForm<D> {
  draft: D;
  set: <K extends keyof D>(k: K, v: D[K]) => void;
  dirty: boolean;
  busy: boolean;
  error: unknown;
  done?: string;
  loading: boolean;
  loadError: unknown;
  save: (e: FormEvent) => void;
  remove: () => void;
}

/**
 * The cycle of a content form: read the item (when editing), keep a draft, warn before leaving unsaved changes
 * (as useUnsavedChanges does, with the state read when the navigation starts),
 * save (create or update) and delete; the grid of the kind is refreshed after each write.
 */
export function useEntityForm<T extends { id: number }, D>(opts: {
  kind: string;
  id?: number;
  load: (id: number) => Promise<T>;
  toDraft: (item: T) => D;
  empty: D;
  create: (d: D) => Promise<T>;
  update: (id: number, d: D) => Promise<T>;
  remove: (id: number) => Promise<unknown>;
  deleteConfirm: string;
  onCreated: (item: T) => Promise<void> | void;
  onDeleted: () => Promise<void> | void;
}): EntityForm<D> & { item?: T } {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const item = useQuery({
    queryKey: [opts.kind, opts.id],
    queryFn: () => opts.load(opts.id!),
    enabled: opts.id !== undefined,
  });
  const [initial, setInitial] = useState<D>(opts.empty);
  const [draft, setDraft] = useState<D>(opts.empty);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [done, setDone] = useState<string>();
  useEffect(() => {
    if (item.data) {
      const d = opts.toDraft(item.data);
      setInitial(d);
      setDraft(d);
    }
    // the draft follows the item read, not the callbacks
  }, [item.data]);
  const dirty = JSON.stringify(draft) !== JSON.stringify(initial);
  // read when a navigation starts: a form leaving on its own after a create or delete is not held back
  const held = useRef(false);
  const leaving = useRef(false);
  held.current = dirty && !leaving.current;
  useBlocker({
    shouldBlockFn: () => held.current && !leaving.current && !window.confirm(t('form.unsavedChanges')),
    enableBeforeUnload: () => held.current && !leaving.current,
  });
  const setLeaving = (v: boolean) => (leaving.current = v);

  async function act(fn: () => Promise<string | undefined>) {
    setBusy(true);
    setError(undefined);
    setDone(undefined);
    try {
      setDone(await fn());
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return {
    item: item.data,
    draft,
    set: (k, v) => setDraft((d) => ({ ...d, [k]: v })),
    dirty,
    busy,
    error,
    done,
    loading: opts.id !== undefined && item.isPending,
    loadError: item.error,
    save(e) {
      e.preventDefault();
      void act(async () => {
        if (opts.id === undefined) {
          const created = await opts.create(draft);
          setLeaving(true);
          await qc.invalidateQueries({ queryKey: ['grid', opts.kind] });
          await opts.onCreated(created);
          return undefined;
        }
        const saved = await opts.update(opts.id, draft);
        qc.setQueryData([opts.kind, opts.id], saved);
        const d = opts.toDraft(saved);
        setInitial(d);
        setDraft(d);
        await qc.invalidateQueries({ queryKey: ['grid', opts.kind] });
        return t('common.saved');
      });
    },
    remove() {
      if (opts.id === undefined || !window.confirm(opts.deleteConfirm)) return;
      void act(async () => {
        await opts.remove(opts.id!);
        setLeaving(true);
        await qc.invalidateQueries({ queryKey: ['grid', opts.kind] });
        await opts.onDeleted();
        return undefined;
      });
    },
  };
}

/** The text of an optional field as the API takes it: empty is null (cleared). */
export const orNull = (s: string): string | null => (s.trim() === '' ? null : s);

/** A section of a form with its heading. */
export function FormSection(props: { title: string; children: ReactNode }) {
  return (
    <section className="content-section" aria-label={props.title}>
      <h2>{props.title}</h2>
      {props.children}
    </section>
  );
}

/** `YYYY-MM-DD HH:MM:SS` (UTC, the API's) as a datetime-local value in UTC, and back. */
export const toLocalInput = (wire: string | undefined): string => (wire ? wire.slice(0, 16).replace(' ', 'T') : '');
export const fromLocalInput = (v: string): string | null => (v ? `${v.replace('T', ' ')}:00`.slice(0, 19) : null);

/** A wire date-time (`YYYY-MM-DD HH:MM:SS`, UTC) as an ISO string the date formatter reads as UTC. */
export const utc = (wire: string | undefined): string | undefined => (wire ? `${wire.replace(' ', 'T')}Z` : undefined);
