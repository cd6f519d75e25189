/**
 * The grid every list screen uses (TanStack Table, headless): pages, sorting and filters are the API's (the
 * server pages, sorts and filters; the grid only asks), with free-text search, a column choice remembered per
 * grid in this browser, row selection for bulk actions and a CSV export of every row the filters match.
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type RowSelectionState,
  type VisibilityState,
} from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { ErrorNote } from './ui';

export interface ListQuery {
  page: number;
  pageSize: number;
  sort?: string;
  order?: 'asc' | 'desc';
  search?: string;
  filters: Record<string, string>;
}

export interface ListResult<Row> {
  items: Row[];
  total: number;
}

export interface GridFilter {
  /** the query parameter the API filters on */
  param: string;
  type: 'text' | 'select' | 'date' | 'number';
  options?: { value: string; label: string }[];
}

export interface GridColumn<Row> {
  id: string;
  /** the column's title (already translated) */
  header: string;
  cell: (row: Row) => ReactNode;
  /** the API's sort key, when the API sorts by this column */
  sort?: string;
  filter?: GridFilter;
  /** the cell as CSV text (default: the cell when it is text) */
  csv?: (row: Row) => string;
  /** hidden until chosen */
  hidden?: boolean;
  align?: 'end';
}

export interface BulkAction<Row> {
  label: string;
  run: (rows: Row[]) => Promise<unknown>;
  /** asked before running (already translated) */
  confirm?: string;
}

export interface DataGridProps<Row> {
  /** names the grid: its column choice is remembered under it */
  id: string;
  /** accessible name of the table (translated) */
  label: string;
  columns: GridColumn<Row>[];
  fetchPage: (q: ListQuery) => Promise<ListResult<Row>>;
  rowKey: (row: Row) => string | number;
  /** where a row leads (its first cell becomes a link) */
  rowLink?: (row: Row) => ReactNode;
  bulkActions?: BulkAction<Row>[];
  /** the grid searches by free text */
  searchable?: boolean;
  /** sort when none is chosen */
  defaultSort?: { sort: string; order: 'asc' | 'desc' };
  pageSize?: number;
  /** a name for the exported file */
  exportName?: string;
  toolbar?: ReactNode;
}

const PAGE_SIZES = [20, 50, 100];
const EXPORT_LIMIT = 10_000;

function storedColumns(id: string): VisibilityState | undefined {
  try {
    const raw = localStorage.getItem(`grid.${id}.columns`);
    return raw ? (JSON.parse(raw) as VisibilityState) : undefined;
  } catch {
    return undefined;
  }
}

function csvCell(v: string): string {
  // a leading = + - @ would be read as a formula by a spreadsheet
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\n\r;]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function DataGrid<Row>(props: DataGridProps<Row>) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(props.pageSize ?? 20);
  const [sort, setSort] = useState(props.defaultSort);
  const [search, setSearch] = useState('');
  const [typed, setTyped] = useState('');
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [selection, setSelection] = useState<RowSelectionState>({});
  const [visibility, setVisibility] = useState<VisibilityState>(
    () => storedColumns(props.id) ?? Object.fromEntries(props.columns.filter((c) => c.hidden).map((c) => [c.id, false])),
  );
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<unknown>();

  useEffect(() => {
    localStorage.setItem(`grid.${props.id}.columns`, JSON.stringify(visibility));
  }, [props.id, visibility]);
  // typing settles for a moment before the server is asked
  useEffect(() => {
    const h = setTimeout(() => {
      setSearch(typed.trim());
      setPage(1);
    }, 300);
    return () => clearTimeout(h);
  }, [typed]);

  const query: ListQuery = { page, pageSize, sort: sort?.sort, order: sort?.order, search: search || undefined, filters };
  const result = useQuery({
    queryKey: ['grid', props.id, query],
    queryFn: () => props.fetchPage(query),
    placeholderData: keepPreviousData,
  });
  const rows = result.data?.items ?? [];
  const total = result.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / pageSize));

  const columns = useMemo<ColumnDef<Row>[]>(
    () => [
      ...(props.bulkActions?.length
        ? [
            {
              id: '_select',
              header: ({ table }) => (
                <input
                  type="checkbox"
                  aria-label={t('grid.selectAll')}
                  checked={table.getIsAllRowsSelected()}
                  onChange={table.getToggleAllRowsSelectedHandler()}
                />
              ),
              cell: ({ row }) => (
                <input
                  type="checkbox"
                  aria-label={t('grid.selectRow', { id: String(props.rowKey(row.original)) })}
                  checked={row.getIsSelected()}
                  onChange={row.getToggleSelectedHandler()}
                />
              ),
              enableHiding: false,
            } satisfies ColumnDef<Row>,
          ]
        : []),
      ...props.columns.map((c, i) => ({
        id: c.id,
        header: c.header,
        cell: ({ row }: { row: { original: Row } }) => (i === 0 && props.rowLink ? props.rowLink(row.original) : c.cell(row.original)),
      })),
    ],
    [props, t],
  );

  const table = useReactTable({
    data: rows,
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (r) => String(props.rowKey(r)),
    manualPagination: true,
    manualSorting: true,
    manualFiltering: true,
    pageCount: pages,
    state: { rowSelection: selection, columnVisibility: visibility },
    onRowSelectionChange: setSelection,
    onColumnVisibilityChange: setVisibility,
  });
  const selected = table.getSelectedRowModel().rows.map((r) => r.original);

  function setFilter(param: string, value: string) {
    setFilters((f) => {
      const next = { ...f };
      if (value === '') delete next[param];
      else next[param] = value;
      return next;
    });
    setPage(1);
  }

  function toggleSort(key: string) {
    setSort((s) => (s?.sort === key ? { sort: key, order: s.order === 'asc' ? 'desc' : 'asc' } : { sort: key, order: 'asc' }));
    setPage(1);
  }

  async function runBulk(action: BulkAction<Row>) {
    if (action.confirm && !window.confirm(action.confirm)) return;
    setBusy(true);
    setActionError(undefined);
    try {
      await action.run(selected);
      setSelection({});
      await qc.invalidateQueries({ queryKey: ['grid', props.id] });
    } catch (err) {
      setActionError(err);
    } finally {
      setBusy(false);
    }
  }

  async function exportCsv() {
    setBusy(true);
    setActionError(undefined);
    try {
      const shown = props.columns.filter((c) => visibility[c.id] !== false);
      const lines = [shown.map((c) => csvCell(c.header)).join(',')];
      const size = 100;
      for (let p = 1; (p - 1) * size < Math.min(total, EXPORT_LIMIT); p++) {
        const chunk = await props.fetchPage({ ...query, page: p, pageSize: size });
        for (const r of chunk.items) {
          lines.push(
            shown
              .map((c) => {
                const v = c.csv ? c.csv(r) : c.cell(r);
                return csvCell(typeof v === 'string' || typeof v === 'number' ? String(v) : '');
              })
              .join(','),
          );
        }
        if (chunk.items.length < size) break;
      }
      const url = URL.createObjectURL(new Blob([`${lines.join('\r\n')}\r\n`], { type: 'text/csv;charset=utf-8' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = `${props.exportName ?? props.id}.csv`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (err) {
      setActionError(err);
    } finally {
      setBusy(false);
    }
  }

  const filtered = props.columns.filter((c) => c.filter);
  return (
    <section className="grid" aria-label={props.label}>
      <div className="grid-toolbar">
        {props.searchable && (
          <input
            type="search"
            className="grid-search"
            aria-label={t('grid.search')}
            placeholder={t('grid.search')}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
          />
        )}
        {props.toolbar}
        <details className="grid-columns">
          <summary>{t('grid.columns')}</summary>
          <fieldset>
            <legend className="sr-only">{t('grid.columns')}</legend>
            {props.columns.map((c) => (
              <label key={c.id}>
                <input
                  type="checkbox"
                  checked={visibility[c.id] !== false}
                  onChange={(e) => setVisibility((v) => ({ ...v, [c.id]: e.target.checked }))}
                />
                {c.header}
              </label>
            ))}
          </fieldset>
        </details>
        <button type="button" onClick={exportCsv} disabled={busy || total === 0}>
          {t('grid.exportCsv')}
        </button>
      </div>
      {filtered.length > 0 && (
        <div className="grid-filters" role="group" aria-label={t('grid.filters')}>
          {filtered.map((c) => (
            <FilterControl key={c.id} label={c.header} filter={c.filter!} value={filters[c.filter!.param] ?? ''} onChange={setFilter} />
          ))}
        </div>
      )}
      {props.bulkActions?.length ? (
        <div className="grid-bulk" role="group" aria-label={t('grid.bulkActions')}>
          <span aria-live="polite">{t('grid.selected', { count: selected.length })}</span>
          {props.bulkActions.map((a) => (
            <button key={a.label} type="button" disabled={busy || selected.length === 0} onClick={() => runBulk(a)}>
              {a.label}
            </button>
          ))}
        </div>
      ) : null}
      <ErrorNote error={actionError ?? result.error} />
      <div className="grid-scroll">
        <table aria-busy={result.isFetching} aria-rowcount={total}>
          <caption className="sr-only">{props.label}</caption>
          <thead>
            {table.getHeaderGroups().map((hg) => (
              <tr key={hg.id}>
                {hg.headers.map((h) => {
                  const col = props.columns.find((c) => c.id === h.column.id);
                  const active = col?.sort && sort?.sort === col.sort;
                  return (
                    <th
                      key={h.id}
                      scope="col"
                      aria-sort={active ? (sort!.order === 'asc' ? 'ascending' : 'descending') : undefined}
                      className={col?.align === 'end' ? 'num' : undefined}
                    >
                      {col?.sort ? (
                        <button type="button" className="sort" onClick={() => toggleSort(col.sort!)}>
                          {flexRender(h.column.columnDef.header, h.getContext())}
                          <span aria-hidden="true">{active ? (sort!.order === 'asc' ? ' ▲' : ' ▼') : ''}</span>
                        </button>
                      ) : (
                        flexRender(h.column.columnDef.header, h.getContext())
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {table.getRowModel().rows.map((r) => (
              <tr key={r.id} aria-selected={r.getIsSelected() || undefined}>
                {r.getVisibleCells().map((c) => {
                  const col = props.columns.find((x) => x.id === c.column.id);
                  return (
                    <td key={c.id} className={col?.align === 'end' ? 'num' : undefined}>
                      {flexRender(c.column.columnDef.cell, c.getContext())}
                    </td>
                  );
                })}
              </tr>
            ))}
            {!result.isPending && rows.length === 0 && (
              <tr>
                <td colSpan={table.getVisibleLeafColumns().length}>{t('grid.empty')}</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <nav className="grid-pager" aria-label={t('grid.pages')}>
        <span>{t('grid.total', { count: total })}</span>
        <button type="button" onClick={() => setPage(1)} disabled={page <= 1}>
          {t('grid.first')}
        </button>
        <button type="button" onClick={() => setPage((p) => Math.max(1, p - 1))} disabled={page <= 1}>
          {t('grid.previous')}
        </button>
        <span>{t('grid.pageOf', { page, pages })}</span>
        <button type="button" onClick={() => setPage((p) => Math.min(pages, p + 1))} disabled={page >= pages}>
          {t('grid.next')}
        </button>
        <label>
          {t('grid.pageSize')}
          <select
            value={pageSize}
            onChange={(e) => {
              setPageSize(Number(e.target.value));
              setPage(1);
            }}
          >
            {PAGE_SIZES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      </nav>
    </section>
  );
}

function FilterControl(props: { label: string; filter: GridFilter; value: string; onChange: (param: string, v: string) => void }) {
  const { t } = useTranslation();
  const { filter } = props;
  const [draft, setDraft] = useState(props.value);
  useEffect(() => setDraft(props.value), [props.value]);
  if (filter.type === 'select') {
    return (
      <label>
        {props.label}
        <select value={props.value} onChange={(e) => props.onChange(filter.param, e.target.value)}>
          <option value="">{t('grid.any')}</option>
          {filter.options?.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </label>
    );
  }
  return (
    <label>
      {props.label}
      <input
        type={filter.type === 'date' ? 'date' : filter.type === 'number' ? 'number' : 'text'}
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={() => draft !== props.value && props.onChange(filter.param, draft.trim())}
        onKeyDown={(e) => {
          if (e.key === 'Enter') props.onChange(filter.param, draft.trim());
        }}
      />
    </label>
  );
}
