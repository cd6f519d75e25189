/**
 * The parts of a product that depend on its type: a configurable product's super attributes and variants, a
 * grouped product's products, a bundle's options and their selections, a downloadable product's links.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Row } from '../../../api/client';
import { collection } from '../../../api/lists';
import { useSession } from '../../../auth/session';
import { CheckboxField, ErrorNote, Notice, SelectField, TextField, useUnsavedChanges } from '../../../components/ui';
import { formatMoney } from '../../../i18n';
import { ProductPicker, SortableList, type Attribute } from '../shared';
import type { Product } from './fields';

/** The tab title of a type's own part, if it has one. */
export function typeTab(type: string): string | undefined {
  return {
    configurable: 'catalog.product.tabConfigurable',
    grouped: 'catalog.product.tabGrouped',
    bundle: 'catalog.product.tabBundle',
    downloadable: 'catalog.product.tabDownloadable',
  }[type];
}

export function TypeSection({ product, attributes }: { product: Product; attributes: Map<string, Attribute> }) {
  if (product.type === 'configurable') return <Configurable product={product} attributes={attributes} />;
  if (product.type === 'grouped') return <Grouped productId={product.id} />;
  if (product.type === 'bundle') return <Bundle productId={product.id} />;
  if (product.type === 'downloadable') return <Downloadable productId={product.id} />;
  return null;
}

function useRun(invalidate: unknown[]) {
  const qc = useQueryClient();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const run = async (fn: () => Promise<unknown>) => {
    setError(undefined);
    setBusy(true);
    try {
      await fn();
      await qc.invalidateQueries({ queryKey: invalidate });
      return true;
    } catch (err) {
      setError(err);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, run };
}

// ---- configurable ----

function Configurable({ product, attributes }: { product: Product; attributes: Map<string, Attribute> }) {
  const { t } = useTranslation();
  const { can } = useSession();
  const productId = product.id;
  const { error, busy, run } = useRun(['catalog', 'product', productId]);
  const read = useQuery({
    queryKey: ['catalog', 'product', productId, 'configurable'],
    queryFn: async () =>
      collection<{ superAttributes: string[]; childProductIds: number[] }>(
        await unwrap(api.GET('/api/rest/v2/products/{productId}/configurable', { params: { path: { productId } } })),
      ).items[0],
  });
  const candidates = [...attributes.values()].filter((a) => a.isConfigurable);
  const [superAttrs, setSuperAttrs] = useState<string[]>([]);
  useEffect(() => setSuperAttrs(read.data?.superAttributes ?? []), [read.data]);
  const dirty = !!read.data && JSON.stringify(superAttrs) !== JSON.stringify(read.data.superAttributes);
  useUnsavedChanges(dirty);
  const writable = can('products', 'write');
  const optionLabel = (code: string, id: number) => attributes.get(code)?.options.find((o) => o.value === String(id))?.label ?? String(id);

  return (
    <>
      <fieldset className="panel">
        <legend>{t('catalog.configurable.superAttributes')}</legend>
        {candidates.map((a) => (
          <CheckboxField
            key={a.attributeCode}
            label={a.frontendLabel}
            name={`super-${a.attributeCode}`}
            disabled={!writable}
            checked={superAttrs.includes(a.attributeCode)}
            onChange={(e) => setSuperAttrs((s) => (e.target.checked ? [...s, a.attributeCode] : s.filter((c) => c !== a.attributeCode)))}
          />
        ))}
        {writable && (
          <div className="form-actions">
            <button
              type="button"
              className="primary"
              disabled={!dirty || busy}
              onClick={() =>
                run(() =>
                  unwrap(
                    api.PUT('/api/rest/v2/products/{productId}/configurable', {
                      params: { path: { productId } },
                      body: { superAttributes: superAttrs },
                    }),
                  ),
                )
              }
            >
              {t('catalog.configurable.saveAttributes')}
            </button>
          </div>
        )}
      </fieldset>
      <section className="panel" aria-label={t('catalog.configurable.variants')}>
        <h2>{t('catalog.configurable.variants')}</h2>
        <ErrorNote error={read.error ?? error} />
        <table className="sub-table">
          <caption className="sr-only">{t('catalog.configurable.variants')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('catalog.products.sku')}</th>
              <th scope="col">{t('catalog.products.name')}</th>
              {(read.data?.superAttributes ?? []).map((c) => (
                <th key={c} scope="col">
                  {attributes.get(c)?.frontendLabel ?? c}
                </th>
              ))}
              <th scope="col">{t('catalog.products.price')}</th>
              <th scope="col">{t('catalog.products.stock')}</th>
              <th scope="col">
                <span className="sr-only">{t('catalog.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {(product.variants ?? []).map((v) => (
              <tr key={v.id}>
                <td>{v.sku}</td>
                <td>{v.name}</td>
                {(read.data?.superAttributes ?? []).map((c) => (
                  <td key={c}>{v.attributes[c] !== undefined ? optionLabel(c, v.attributes[c]) : ''}</td>
                ))}
                <td>{formatMoney(v.price, product.currency)}</td>
                <td>{v.inStock ? t('catalog.stock.in_stock') : t('catalog.stock.out_of_stock')}</td>
                <td>
                  {writable && (
                    <button
                      type="button"
                      className="link"
                      aria-label={t('catalog.removeOne', { name: v.sku })}
                      onClick={() =>
                        run(() =>
                          unwrap(
                            api.DELETE('/api/rest/v2/products/{productId}/configurable/children/{childId}', {
                              params: { path: { productId, childId: v.id } },
                            }),
                          ),
                        )
                      }
                    >
                      {t('catalog.remove')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {writable && (
          <ProductPicker
            label={t('catalog.configurable.addVariant')}
            exclude={[productId, ...(read.data?.childProductIds ?? [])]}
            onPick={(p) =>
              void run(() =>
                unwrap(
                  api.POST('/api/rest/v2/products/{productId}/configurable/children', {
                    params: { path: { productId } },
                    body: { childId: p.id },
                  }),
                ),
              )
            }
          />
        )}
      </section>
    </>
  );
}

// ---- grouped ----

interface GroupedChild {
  childProductId: number;
  childProductSku: string;
  childProductName: string;
  qty: number;
}

function Grouped({ productId }: { productId: number }) {
  const { t } = useTranslation();
  const { can } = useSession();
  const key = ['catalog', 'product', productId, 'grouped'];
  const { error, busy, run } = useRun(['catalog', 'product', productId]);
  const read = useQuery({
    queryKey: key,
    queryFn: async () =>
      collection<GroupedChild>(await unwrap(api.GET('/api/rest/v2/products/{productId}/grouped', { params: { path: { productId } } })))
        .items,
  });
  const [list, setList] = useState<GroupedChild[]>([]);
  const [saved, setSaved] = useState(false);
  useEffect(() => setList(read.data ?? []), [read.data]);
  const dirty = !!read.data && JSON.stringify(list) !== JSON.stringify(read.data);
  useUnsavedChanges(dirty);
  const writable = can('products', 'write');
  return (
    <section className="panel" aria-label={t('catalog.grouped.title')}>
      <h2>{t('catalog.grouped.title')}</h2>
      <ErrorNote error={read.error ?? error} />
      <SortableList
        label={t('catalog.grouped.title')}
        items={list}
        disabled={!writable}
        itemKey={(c) => c.childProductId}
        itemName={(c) => c.childProductName}
        onReorder={setList}
        render={(c) => (
          <span className="linked">
            {c.childProductName} <small>({c.childProductSku})</small>
            <label>
              {t('catalog.grouped.qty')}
              <input
                type="number"
                min={0}
                step="any"
                value={c.qty}
                disabled={!writable}
                onChange={(e) =>
                  setList((l) => l.map((x) => (x.childProductId === c.childProductId ? { ...x, qty: Number(e.target.value) } : x)))
                }
              />
            </label>
            {writable && (
              <button
                type="button"
                className="link"
                aria-label={t('catalog.removeOne', { name: c.childProductName })}
                onClick={() => setList((l) => l.filter((x) => x.childProductId !== c.childProductId))}
              >
                {t('catalog.remove')}
              </button>
            )}
          </span>
        )}
      />
      {writable && (
        <>
          <ProductPicker
            label={t('catalog.grouped.add')}
            exclude={[productId, ...list.map((c) => c.childProductId)]}
            onPick={(p) => setList((l) => [...l, { childProductId: p.id, childProductSku: p.sku, childProductName: p.name, qty: 0 }])}
          />
          <div className="form-actions">
            <button
              type="button"
              className="primary"
              disabled={!dirty || busy}
              onClick={async () =>
                setSaved(
                  await run(() =>
                    unwrap(
                      api.PUT('/api/rest/v2/products/{productId}/grouped', {
                        params: { path: { productId } },
                        body: list.map((c, i) => ({ childProductId: c.childProductId, qty: c.qty, position: i + 1 })),
                      }),
                    ),
                  ),
                )
              }
            >
              {t('catalog.grouped.save')}
            </button>
          </div>
        </>
      )}
      {saved && !dirty && <Notice>{t('common.saved')}</Notice>}
    </section>
  );
}

// ---- bundle ----

type BundleOption = Row<'/api/rest/v2/products/{productId}/bundle-options'>;
const BUNDLE_TYPES = ['select', 'radio', 'checkbox', 'multi'] as const;

function Bundle({ productId }: { productId: number }) {
  const { t } = useTranslation();
  const { can } = useSession();
  const key = ['catalog', 'product', productId];
  const { error, busy, run } = useRun(key);
  const read = useQuery({
    queryKey: [...key, 'bundle-options'],
    queryFn: async () =>
      collection<BundleOption>(
        await unwrap(api.GET('/api/rest/v2/products/{productId}/bundle-options', { params: { path: { productId } } })),
      ).items,
  });
  const [form, setForm] = useState({ title: '', type: 'select' as (typeof BUNDLE_TYPES)[number], required: true });
  const writable = can('products', 'write');
  const options = read.data ?? [];
  const selectionsOf = (o: BundleOption) =>
    o.selections.map((s) => ({
      productId: s.productId,
      qty: s.qty,
      isDefault: s.isDefault,
      canChangeQty: s.canChangeQty,
      position: s.position,
    }));
  const updateOption = (id: number, body: Record<string, unknown>) =>
    unwrap(api.PUT('/api/rest/v2/products/{productId}/bundle-options/{id}', { params: { path: { productId, id } }, body }));

  async function add(e: FormEvent) {
    e.preventDefault();
    const ok = await run(() =>
      unwrap(
        api.POST('/api/rest/v2/products/{productId}/bundle-options', {
          params: { path: { productId } },
          body: { ...form, position: options.length + 1 },
        }),
      ),
    );
    if (ok) setForm({ title: '', type: 'select', required: true });
  }
  return (
    <section className="panel" aria-label={t('catalog.bundle.title')}>
      <h2>{t('catalog.bundle.title')}</h2>
      <ErrorNote error={read.error ?? error} />
      <SortableList
        label={t('catalog.bundle.title')}
        items={options}
        disabled={!writable || busy}
        itemKey={(o) => o.id}
        itemName={(o) => o.title}
        onReorder={(next) =>
          void run(async () => {
            for (const [i, o] of next.entries()) if (o.position !== i + 1) await updateOption(o.id, { position: i + 1 });
          })
        }
        render={(o) => (
          <div className="bundle-option">
            <p>
              <strong>{o.title}</strong> · {t(`catalog.bundle.type.${o.type}`)} {o.required ? `· ${t('catalog.options.required')}` : ''}
              {writable && (
                <button
                  type="button"
                  className="link"
                  aria-label={t('catalog.removeOne', { name: o.title })}
                  onClick={() =>
                    window.confirm(t('catalog.bundle.confirmRemove', { name: o.title })) &&
                    void run(() =>
                      unwrap(
                        api.DELETE('/api/rest/v2/products/{productId}/bundle-options/{id}', { params: { path: { productId, id: o.id } } }),
                      ),
                    )
                  }
                >
                  {t('catalog.remove')}
                </button>
              )}
            </p>
            <ul>
              {o.selections.map((s) => (
                <li key={s.selectionId}>
                  {s.name} ({s.sku}) × {s.qty} {s.isDefault ? `· ${t('catalog.bundle.default')}` : ''}
                  {writable && (
                    <button
                      type="button"
                      className="link"
                      aria-label={t('catalog.removeOne', { name: `${o.title}: ${s.name}` })}
                      onClick={() =>
                        void run(() => updateOption(o.id, { selections: selectionsOf(o).filter((x) => x.productId !== s.productId) }))
                      }
                    >
                      {t('catalog.remove')}
                    </button>
                  )}
                </li>
              ))}
            </ul>
            {writable && (
              <ProductPicker
                label={t('catalog.bundle.addSelection', { name: o.title })}
                exclude={o.selections.map((s) => s.productId)}
                onPick={(p) => void run(() => updateOption(o.id, { selections: [...selectionsOf(o), { productId: p.id, qty: 1 }] }))}
              />
            )}
          </div>
        )}
      />
      {writable && (
        <form onSubmit={add} aria-label={t('catalog.bundle.add')}>
          <h3>{t('catalog.bundle.add')}</h3>
          <div className="form-grid">
            <TextField
              label={t('catalog.bundle.optionTitle')}
              name="title"
              operationId="products.bundleOptions.create"
              error={error}
              value={form.title}
              onChange={(e) => setForm((f) => ({ ...f, title: e.target.value }))}
            />
            <SelectField
              label={t('catalog.bundle.optionType')}
              name="type"
              value={form.type}
              onChange={(e) => setForm((f) => ({ ...f, type: e.target.value as (typeof BUNDLE_TYPES)[number] }))}
              options={BUNDLE_TYPES.map((v) => ({ value: v, label: t(`catalog.bundle.type.${v}`) }))}
            />
            <CheckboxField
              label={t('catalog.options.required')}
              name="required"
              checked={form.required}
              onChange={(e) => setForm((f) => ({ ...f, required: e.target.checked }))}
            />
          </div>
          <div className="form-actions">
            <button type="submit" className="primary" disabled={busy}>
              {t('catalog.bundle.addButton')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

// ---- downloadable ----

type DownloadLink = Row<'/api/rest/v2/products/{productId}/downloadable-links'>;

function Downloadable({ productId }: { productId: number }) {
  const { t } = useTranslation();
  const { can } = useSession();
  const key = ['catalog', 'product', productId];
  const { error, busy, run } = useRun(key);
  const read = useQuery({
    queryKey: [...key, 'downloadable-links'],
    queryFn: async () =>
      collection<DownloadLink>(
        await unwrap(api.GET('/api/rest/v2/products/{productId}/downloadable-links', { params: { path: { productId } } })),
      ).items,
  });
  const [form, setForm] = useState({ title: '', price: '0', linkUrl: '', numberOfDownloads: '0' });
  const writable = can('products', 'write');
  async function add(e: FormEvent) {
    e.preventDefault();
    const ok = await run(() =>
      unwrap(
        api.POST('/api/rest/v2/products/{productId}/downloadable-links', {
          params: { path: { productId } },
          body: {
            title: form.title,
            price: Number(form.price || 0),
            linkType: 'url',
            linkUrl: form.linkUrl,
            numberOfDownloads: Number(form.numberOfDownloads || 0),
            sortOrder: (read.data?.length ?? 0) + 1,
          },
        }),
      ),
    );
    if (ok) setForm({ title: '', price: '0', linkUrl: '', numberOfDownloads: '0' });
  }
  return (
    <section className="panel" aria-label={t('catalog.downloadable.title')}>
      <h2>{t('catalog.downloadable.title')}</h2>
      <ErrorNote error={read.error ?? error} />
      <ul className="option-list">
        {(read.data ?? []).map((l) => (
          <li key={l.id}>
            <strong>{l.title}</strong> · {formatMoney(l.price)} · {l.linkUrl ?? l.linkFile ?? ''} ·{' '}
            {l.numberOfDownloads
              ? t('catalog.downloadable.downloads', { count: l.numberOfDownloads })
              : t('catalog.downloadable.unlimited')}
            {writable && (
              <button
                type="button"
                className="link"
                aria-label={t('catalog.removeOne', { name: l.title })}
                onClick={() =>
                  void run(() =>
                    unwrap(
                      api.DELETE('/api/rest/v2/products/{productId}/downloadable-links/{id}', {
                        params: { path: { productId, id: l.id } },
                      }),
                    ),
                  )
                }
              >
                {t('catalog.remove')}
              </button>
            )}
          </li>
        ))}
      </ul>
      {writable && (
        <form onSubmit={add} aria-label={t('catalog.downloadable.add')}>
          <h3>{t('catalog.downloadable.add')}</h3>
          <div className="form-grid">
            <TextField
              label={t('catalog.downloadable.linkTitle')}
              name="title"
              operationId="products.downloadableLinks.create"
              error={error}
              value={form.title}
              onChange={(e) => setForm((f) => ({ ...f, title: e.target.value }))}
            />
            <TextField
              label={t('catalog.downloadable.url')}
              name="linkUrl"
              type="url"
              required
              operationId="products.downloadableLinks.create"
              error={error}
              value={form.linkUrl}
              onChange={(e) => setForm((f) => ({ ...f, linkUrl: e.target.value }))}
            />
            <TextField
              label={t('catalog.downloadable.price')}
              name="price"
              type="number"
              min={0}
              step="0.01"
              error={error}
              value={form.price}
              onChange={(e) => setForm((f) => ({ ...f, price: e.target.value }))}
            />
            <TextField
              label={t('catalog.downloadable.maxDownloads')}
              name="numberOfDownloads"
              type="number"
              min={0}
              step={1}
              error={error}
              value={form.numberOfDownloads}
              onChange={(e) => setForm((f) => ({ ...f, numberOfDownloads: e.target.value }))}
            />
          </div>
          <div className="form-actions">
            <button type="submit" className="primary" disabled={busy}>
              {t('catalog.downloadable.addButton')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
