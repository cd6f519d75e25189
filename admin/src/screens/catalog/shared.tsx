/**
 * What the catalog screens share: tabs, a list reordered by drag and drop or by keyboard, the attribute and
 * attribute set reads, a product picker, and the request options of a store view.
 */
import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Row } from '../../api/client';
import { collection } from '../../api/lists';

export const PRODUCT_TYPES = ['simple', 'configurable', 'grouped', 'bundle', 'virtual', 'downloadable'] as const;
export const VISIBILITIES = ['not_visible', 'catalog', 'search', 'catalog_search'] as const;

/** Request options of a read or write in a store view ("" the default scope). */
export function inStore(code: string): { headers?: Record<string, string> } {
  return code ? { headers: { 'X-Store-Code': code } } : {};
}

export type Attribute = Row<'/api/rest/v2/product-attributes'>;

/** The store views with the website each belongs to. */
export function useStoreWebsites() {
  return (
    useQuery({
      queryKey: ['catalog', 'stores-websites'],
      staleTime: 300_000,
      queryFn: async () =>
        collection<{ id: number; code: string; name: string; websiteId: number }>(await unwrap(api.GET('/api/rest/v2/stores'))).items,
    }).data ?? []
  );
}
export type AttributeSet = Row<'/api/rest/v2/attribute-sets'>;

/** Every attribute (a store has tens, a few pages of 100), by code. */
export function useAttributes() {
  return useQuery({
    queryKey: ['catalog', 'attributes', 'all'],
    staleTime: 60_000,
    queryFn: async () => {
      const all: Attribute[] = [];
      for (let page = 1; page < 50; page++) {
        const r = collection<Attribute>(
          await unwrap(api.GET('/api/rest/v2/product-attributes', { params: { query: { page, itemsPerPage: 100 } } })),
        );
        all.push(...r.items);
        if (all.length >= r.total || r.items.length === 0) break;
      }
      return new Map(all.map((a) => [a.attributeCode, a]));
    },
  });
}

export function useAttributeSets() {
  return useQuery({
    queryKey: ['catalog', 'attribute-sets', 'all'],
    staleTime: 60_000,
    queryFn: async () =>
      collection<AttributeSet>(await unwrap(api.GET('/api/rest/v2/attribute-sets', { params: { query: { itemsPerPage: 100 } } }))).items,
  });
}

/** Tabs as the ARIA pattern has them: arrow keys move between tabs, the panel follows the chosen one. */
export function Tabs(props: { label: string; tabs: { id: string; label: string }[]; value: string; onChange: (id: string) => void }) {
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});
  const base = useId();
  function onKey(e: KeyboardEvent, i: number) {
    const n = props.tabs.length;
    const next =
      e.key === 'ArrowRight' ? (i + 1) % n : e.key === 'ArrowLeft' ? (i - 1 + n) % n : e.key === 'Home' ? 0 : e.key === 'End' ? n - 1 : -1;
    if (next < 0) return;
    e.preventDefault();
    const id = props.tabs[next].id;
    props.onChange(id);
    refs.current[id]?.focus();
  }
  return (
    <div className="tabs" role="tablist" aria-label={props.label}>
      {props.tabs.map((tab, i) => (
        <button
          key={tab.id}
          ref={(el) => {
            refs.current[tab.id] = el;
          }}
          type="button"
          role="tab"
          id={`${base}-${tab.id}`}
          aria-selected={props.value === tab.id}
          tabIndex={props.value === tab.id ? 0 : -1}
          onClick={() => props.onChange(tab.id)}
          onKeyDown={(e) => onKey(e, i)}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}

export function TabPanel(props: { label: string; children: ReactNode }) {
  return (
    <div role="tabpanel" aria-label={props.label} className="tab-panel">
      {props.children}
    </div>
  );
}

export function move<T>(list: T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= list.length || to >= list.length) return list;
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

/**
 * A list reordered by dragging an item onto another (the browser's drag and drop) or with the item's move up and
 * move down buttons; each move is announced. `render` draws an item's content.
 */
export function SortableList<T>(props: {
  label: string;
  items: T[];
  itemKey: (item: T) => string | number;
  itemName: (item: T) => string;
  render: (item: T, index: number) => ReactNode;
  onReorder: (items: T[]) => void;
  disabled?: boolean;
  className?: string;
}) {
  const { t } = useTranslation();
  const [dragging, setDragging] = useState<number>();
  const [over, setOver] = useState<number>();
  const [said, setSaid] = useState('');
  function reorder(from: number, to: number) {
    if (from === to) return;
    const item = props.items[from];
    props.onReorder(move(props.items, from, to));
    setSaid(t('catalog.dnd.moved', { name: props.itemName(item), position: to + 1, count: props.items.length }));
  }
  return (
    <>
      <ul className={`sortable ${props.className ?? ''}`} aria-label={props.label}>
        {props.items.map((item, i) => (
          <li
            key={props.itemKey(item)}
            draggable={!props.disabled}
            data-over={over === i || undefined}
            data-dragging={dragging === i || undefined}
            onDragStart={(e) => {
              setDragging(i);
              e.dataTransfer.effectAllowed = 'move';
              e.dataTransfer.setData('text/plain', String(i));
            }}
            onDragOver={(e) => {
              e.preventDefault();
              setOver(i);
            }}
            onDragLeave={() => setOver((o) => (o === i ? undefined : o))}
            onDrop={(e) => {
              e.preventDefault();
              const from = dragging ?? Number(e.dataTransfer.getData('text/plain'));
              setDragging(undefined);
              setOver(undefined);
              if (Number.isInteger(from)) reorder(from, i);
            }}
            onDragEnd={() => {
              setDragging(undefined);
              setOver(undefined);
            }}
          >
            <span className="drag-handle" aria-hidden="true">
              ⠿
            </span>
            <div className="sortable-body">{props.render(item, i)}</div>
            <span className="sortable-moves">
              <button
                type="button"
                disabled={props.disabled || i === 0}
                aria-label={t('catalog.dnd.moveUp', { name: props.itemName(item) })}
                onClick={() => reorder(i, i - 1)}
              >
                ↑
              </button>
              <button
                type="button"
                disabled={props.disabled || i === props.items.length - 1}
                aria-label={t('catalog.dnd.moveDown', { name: props.itemName(item) })}
                onClick={() => reorder(i, i + 1)}
              >
                ↓
              </button>
            </span>
          </li>
        ))}
      </ul>
      <p className="sr-only" aria-live="polite">
        {said}
      </p>
    </>
  );
}

export type ProductRow = Row<'/api/rest/v2/products'>;

/** Finds products by SKU or name and answers the one chosen. */
export function ProductPicker(props: { label: string; onPick: (p: ProductRow) => void; type?: string; exclude?: number[] }) {
  const { t } = useTranslation();
  const id = useId();
  const [term, setTerm] = useState('');
  const [search, setSearch] = useState('');
  const found = useQuery({
    queryKey: ['catalog', 'picker', search, props.type],
    enabled: search.length > 0,
    queryFn: async () =>
      collection<ProductRow>(
        await unwrap(
          api.GET('/api/rest/v2/products', {
            params: { query: { search, itemsPerPage: 10, ...(props.type ? { type: props.type } : {}) } },
          }),
        ),
      ).items,
  });
  const list = (found.data ?? []).filter((p) => !props.exclude?.includes(p.id));
  return (
    <div className="picker">
      <label htmlFor={id}>{props.label}</label>
      <div className="picker-row">
        <input
          id={id}
          type="search"
          value={term}
          placeholder={t('catalog.picker.placeholder')}
          onChange={(e) => setTerm(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              setSearch(term.trim());
            }
          }}
        />
        <button type="button" onClick={() => setSearch(term.trim())}>
          {t('catalog.picker.find')}
        </button>
      </div>
      {search && (
        <ul className="picker-results" aria-label={t('catalog.picker.results')}>
          {list.map((p) => (
            <li key={p.id}>
              <span>
                {p.name} <small>({p.sku})</small>
              </span>
              <button type="button" onClick={() => props.onPick(p)} aria-label={t('catalog.picker.add', { name: p.name })}>
                {t('catalog.picker.addShort')}
              </button>
            </li>
          ))}
          {!found.isFetching && list.length === 0 && <li>{t('grid.empty')}</li>}
        </ul>
      )}
    </div>
  );
}

/** A product image's address on this server (the media files are served beside the API). */
export function mediaPath(file: string): string {
  return `/media/catalog/product${file.startsWith('/') ? '' : '/'}${file}`;
}

/** Reads a chosen file as base64 (without the data: prefix). */
export function fileToBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result).replace(/^data:[^,]*,/, ''));
    r.onerror = () => reject(r.error ?? new Error('read failed'));
    r.readAsDataURL(file);
  });
}
