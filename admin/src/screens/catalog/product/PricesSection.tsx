/** A product's tier prices (a price from a quantity on) and group prices (a price per customer group), each saved as a set. */
import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../../api/client';
import { collection } from '../../../api/lists';
import { useSession } from '../../../auth/session';
import { ErrorNote, Notice, useUnsavedChanges } from '../../../components/ui';
import { useStoreWebsites } from '../shared';

interface PriceRow {
  customerGroupId: string;
  websiteId: string;
  qty: string;
  price: string;
}

function useGroupsAndWebsites() {
  const groups = useQuery({
    queryKey: ['catalog', 'customer-groups'],
    staleTime: 300_000,
    retry: false,
    queryFn: async () =>
      collection<{ id: number; code: string }>(
        await unwrap(api.GET('/api/rest/v2/customer-groups', { params: { query: { itemsPerPage: 100 } } })),
      ).items,
  });
  const stores = useStoreWebsites();
  const websites = [...new Set(stores.map((s) => s.websiteId))].filter((w) => typeof w === 'number');
  return { groups: groups.data ?? [], websites };
}

export function PricesSection({ productId }: { productId: number }) {
  return (
    <>
      <PriceTable productId={productId} kind="tier" />
      <PriceTable productId={productId} kind="group" />
    </>
  );
}

function PriceTable({ productId, kind }: { productId: number; kind: 'tier' | 'group' }) {
  const { t } = useTranslation();
  const { can } = useSession();
  const qc = useQueryClient();
  const { groups, websites } = useGroupsAndWebsites();
  const key = ['catalog', 'product', productId, `${kind}-prices`];
  const read = useQuery({
    queryKey: key,
    queryFn: async () => {
      const data =
        kind === 'tier'
          ? await unwrap(api.GET('/api/rest/v2/products/{productId}/tier-prices', { params: { path: { productId } } }))
          : await unwrap(api.GET('/api/rest/v2/products/{productId}/group-prices', { params: { path: { productId } } }));
      return collection<{ customerGroupId: number | 'all'; websiteId: number; qty?: number; price: number }>(data).items.map(
        (r): PriceRow => ({
          customerGroupId: String(r.customerGroupId),
          websiteId: String(r.websiteId),
          qty: String(r.qty ?? 1),
          price: String(r.price),
        }),
      );
    },
  });
  const [rows, setRows] = useState<PriceRow[]>([]);
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (read.data) setRows(read.data);
  }, [read.data]);
  const dirty = !!read.data && JSON.stringify(rows) !== JSON.stringify(read.data);
  useUnsavedChanges(dirty);
  const title = kind === 'tier' ? t('catalog.prices.tierTitle') : t('catalog.prices.groupTitle');
  const writable = can('products', 'write');

  async function save() {
    setError(undefined);
    setSaved(false);
    const items = rows.map((r) => ({
      customerGroupId: r.customerGroupId === 'all' ? ('all' as const) : Number(r.customerGroupId),
      websiteId: Number(r.websiteId),
      price: Number(r.price),
      ...(kind === 'tier' ? { qty: Number(r.qty) } : {}),
    }));
    try {
      if (kind === 'tier') {
        await unwrap(
          api.PUT('/api/rest/v2/products/{productId}/tier-prices', {
            params: { path: { productId } },
            body: items as { qty: number; price: number }[],
          }),
        );
      } else {
        await unwrap(api.PUT('/api/rest/v2/products/{productId}/group-prices', { params: { path: { productId } }, body: items }));
      }
      await qc.invalidateQueries({ queryKey: key });
      setSaved(true);
    } catch (err) {
      setError(err);
    }
  }
  const set = (i: number, patch: Partial<PriceRow>) => setRows((rs) => rs.map((r, j) => (j === i ? { ...r, ...patch } : r)));

  return (
    <section className="panel" aria-label={title}>
      <h2>{title}</h2>
      <ErrorNote error={read.error ?? error} />
      <table className="sub-table">
        <caption className="sr-only">{title}</caption>
        <thead>
          <tr>
            <th scope="col">{t('catalog.prices.website')}</th>
            <th scope="col">{t('catalog.prices.group')}</th>
            {kind === 'tier' && <th scope="col">{t('catalog.prices.qty')}</th>}
            <th scope="col">{t('catalog.prices.price')}</th>
            <th scope="col">
              <span className="sr-only">{t('catalog.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i}>
              <td>
                <select
                  aria-label={t('catalog.prices.websiteOf', { n: i + 1 })}
                  value={r.websiteId}
                  onChange={(e) => set(i, { websiteId: e.target.value })}
                >
                  <option value="0">{t('catalog.prices.allWebsites')}</option>
                  {websites.map((w) => (
                    <option key={w} value={String(w)}>
                      {t('catalog.prices.websiteN', { id: w })}
                    </option>
                  ))}
                </select>
              </td>
              <td>
                <select
                  aria-label={t('catalog.prices.groupOf', { n: i + 1 })}
                  value={r.customerGroupId}
                  onChange={(e) => set(i, { customerGroupId: e.target.value })}
                >
                  <option value="all">{t('catalog.prices.allGroups')}</option>
                  {groups.map((g) => (
                    <option key={g.id} value={String(g.id)}>
                      {g.code}
                    </option>
                  ))}
                </select>
              </td>
              {kind === 'tier' && (
                <td>
                  <input
                    aria-label={t('catalog.prices.qtyOf', { n: i + 1 })}
                    type="number"
                    min={0}
                    step="any"
                    required
                    value={r.qty}
                    onChange={(e) => set(i, { qty: e.target.value })}
                  />
                </td>
              )}
              <td>
                <input
                  aria-label={t('catalog.prices.priceOf', { n: i + 1 })}
                  type="number"
                  min={0}
                  step="0.01"
                  required
                  value={r.price}
                  onChange={(e) => set(i, { price: e.target.value })}
                />
              </td>
              <td>
                {writable && (
                  <button type="button" className="danger" onClick={() => setRows((rs) => rs.filter((_, j) => j !== i))}>
                    {t('catalog.remove')}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {saved && !dirty && <Notice>{t('common.saved')}</Notice>}
      {writable && (
        <div className="form-actions">
          <button type="button" onClick={() => setRows((rs) => [...rs, { customerGroupId: 'all', websiteId: '0', qty: '2', price: '' }])}>
            {kind === 'tier' ? t('catalog.prices.addTier') : t('catalog.prices.addGroup')}
          </button>
          <button type="button" className="primary" disabled={!dirty} onClick={save}>
            {kind === 'tier' ? t('catalog.prices.saveTier') : t('catalog.prices.saveGroup')}
          </button>
        </div>
      )}
    </section>
  );
}
