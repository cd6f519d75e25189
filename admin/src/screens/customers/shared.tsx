/**
 * What the customer and marketing screens share: the grids' query as these lists take it, the websites (from the
 * store views), the customer groups and the countries read once for pickers, and yes/no badges.
 */
import { useRef, useState, type ReactNode } from 'react';
import { useBlocker } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Row } from '../../api/client';
import { collection, filterQuery } from '../../api/lists';
import type { ListQuery } from '../../components/DataGrid';
import './customers.css';

/** A grid's query as the customer and marketing lists take it: page, size, search, sortBy/sortDir and the filters. */
export function gridQuery(q: ListQuery, numeric: string[] = []): Record<string, string | number> {
  return {
    page: q.page,
    itemsPerPage: q.pageSize,
    ...(q.search ? { search: q.search } : {}),
    ...(q.sort ? { sortBy: q.sort, sortDir: q.order ?? 'asc' } : {}),
    ...filterQuery(q.filters, numeric),
  };
}

export interface Website {
  id: number;
  name: string;
}

type Store = Row<'/api/rest/v2/stores'>;

/** The store views with their website (a shop has a few). */
export function useStores(): Store[] {
  return (
    useQuery({
      queryKey: ['stores', 'with-websites'],
      staleTime: 300_000,
      queryFn: async () => collection<Store>(await unwrap(api.GET('/api/rest/v2/stores'))).items,
    }).data ?? []
  );
}

/** The websites, as the store views name them (the API has no list of websites of its own). */
export function useWebsites(): Website[] {
  const seen = new Map<number, string>();
  for (const s of useStores()) if (!seen.has(s.websiteId)) seen.set(s.websiteId, s.websiteName);
  return [...seen].map(([id, name]) => ({ id, name }));
}

export type CustomerGroup = Row<'/api/rest/v2/customer-groups'>;

/** Every customer group (a shop has a handful), by code. */
export function useCustomerGroups(): CustomerGroup[] {
  return (
    useQuery({
      queryKey: ['customer-groups', 'all'],
      staleTime: 60_000,
      queryFn: async () =>
        collection<CustomerGroup>(await unwrap(api.GET('/api/rest/v2/customer-groups', { params: { query: { itemsPerPage: 100 } } })))
          .items,
    }).data ?? []
  );
}

export type Country = Row<'/api/rest/v2/countries'>;

/** The countries a store allows, with their regions. */
export function useCountries(): Country[] {
  return (
    useQuery({
      queryKey: ['countries'],
      staleTime: 600_000,
      queryFn: async () => collection<Country>(await unwrap(api.GET('/api/rest/v2/countries'))).items,
    }).data ?? []
  );
}

/** A name for an id among a list, or the id itself when the list does not hold it. */
export function nameOf(list: { id: number; name?: string; code?: string }[], id: number | undefined): string {
  if (id === undefined) return '';
  const found = list.find((x) => x.id === id);
  return found ? (found.name ?? found.code ?? String(id)) : String(id);
}

export function YesNoBadge(props: { on: boolean; yes: string; no: string }) {
  return <span className={`cm-badge ${props.on ? 'on' : 'off'}`}>{props.on ? props.yes : props.no}</span>;
}

/** The yes/no options of a grid's select filter, as the API's true/false. */
export function boolOptions(yes: string, no: string) {
  return [
    { value: 'true', label: yes },
    { value: 'false', label: no },
  ];
}

/** A number typed in a field, or null when empty. */
export const numOrNull = (s: string): number | null => (s.trim() === '' ? null : Number(s));

/** The text of an optional field as the API takes it: empty is null (cleared). */
export const textOrNull = (s: string): string | null => (s.trim() === '' ? null : s.trim());

/**
 * Asks before leaving unsaved changes (another screen, a reload, closing the tab), with the state read when the
 * navigation starts: a form that leaves on its own after saving calls `release()` first and is not held back.
 */
export function useLeaveGuard(dirty: boolean): { release: () => void } {
  const { t } = useTranslation();
  const held = useRef(false);
  const released = useRef(false);
  held.current = dirty && !released.current;
  useBlocker({
    shouldBlockFn: () => held.current && !released.current && !window.confirm(t('form.unsavedChanges')),
    enableBeforeUnload: () => held.current && !released.current,
  });
  return { release: () => (released.current = true) };
}

/** Runs a form's request: busy meanwhile, the API's refusal kept for the form, a message after success. */
export function useSubmit() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [done, setDone] = useState<string>();
  return {
    busy,
    error,
    done,
    clear: () => {
      setError(undefined);
      setDone(undefined);
    },
    async run(fn: () => Promise<string | undefined | void>): Promise<boolean> {
      setBusy(true);
      setError(undefined);
      setDone(undefined);
      try {
        const message = await fn();
        if (message) setDone(message);
        return true;
      } catch (err) {
        setError(err);
        return false;
      } finally {
        setBusy(false);
      }
    },
  };
}

/** A section of a page with its heading and, beside it, its actions. */
export function Section(props: { title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <section className="cm-section" aria-label={props.title}>
      <div className="cm-section-head">
        <h2>{props.title}</h2>
        {props.actions}
      </div>
      {props.children}
    </section>
  );
}

/** Label and value pairs; empty values are left out. */
export function Facts(props: { label?: string; rows: [string, ReactNode][] }) {
  return (
    <dl className="cm-facts" aria-label={props.label}>
      {props.rows
        .filter(([, v]) => v !== undefined && v !== null && v !== '')
        .map(([label, v]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{v}</dd>
          </div>
        ))}
    </dl>
  );
}

/** The rows of an unpaginated list, whether answered as a JSON-LD collection or a bare array. */
export function rowsOf<R>(data: unknown): R[] {
  return Array.isArray(data) ? (data as R[]) : collection<R>(data).items;
}
