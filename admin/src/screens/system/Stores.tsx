/**
 * Websites, stores and store views as the API answers them (read only: the API has no writes for them), and a
 * store view's page with its addresses, locale and currencies, leading to its configuration scope.
 */
import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Row } from '../../api/client';
import { collection } from '../../api/lists';
import { useSession } from '../../auth/session';
import { DataGrid, type GridColumn } from '../../components/DataGrid';
import { ErrorNote, PageHeader, Spinner } from '../../components/ui';
import { ActiveBadge, Badge } from './common';
import './system.css';

type Store = Row<'/api/rest/v2/stores'>;

function useAllStores() {
  return useQuery({
    queryKey: ['stores', 'scopes'],
    queryFn: async () => collection<Store>(await unwrap(api.GET('/api/rest/v2/stores'))).items,
    staleTime: 5 * 60_000,
  });
}

function matches(s: Store, text: string): boolean {
  const q = text.toLowerCase();
  return [s.code, s.name, s.websiteName, s.websiteCode, s.groupName].some((v) => v.toLowerCase().includes(q));
}

const SORTS: Record<string, (s: Store) => string | number> = {
  id: (s) => s.id,
  code: (s) => s.code,
  name: (s) => s.name,
  website: (s) => s.websiteName,
};

export function StoresGrid() {
  const { t } = useTranslation();
  const all = useAllStores();
  const websites = [...new Map((all.data ?? []).map((s) => [s.websiteId, s.websiteName])).entries()];
  const columns: GridColumn<Store>[] = [
    { id: 'name', header: t('system.stores.storeView'), cell: (s) => s.name, sort: 'name' },
    { id: 'code', header: t('system.stores.code'), cell: (s) => <code>{s.code}</code>, csv: (s) => s.code, sort: 'code' },
    { id: 'id', header: t('system.stores.id'), cell: (s) => String(s.id), sort: 'id', align: 'end', hidden: true },
    {
      id: 'website',
      header: t('system.stores.website'),
      cell: (s) => s.websiteName,
      sort: 'website',
      filter: { param: 'websiteId', type: 'select', options: websites.map(([id, name]) => ({ value: String(id), label: name })) },
    },
    { id: 'group', header: t('system.stores.store'), cell: (s) => s.groupName },
    { id: 'locale', header: t('system.stores.locale'), cell: (s) => s.locale },
    { id: 'currency', header: t('system.stores.currency'), cell: (s) => s.currency.default },
    {
      id: 'status',
      header: t('system.users.status'),
      cell: (s) => (
        <>
          <ActiveBadge active={s.isActive} /> {s.isDefault && <Badge>{t('system.stores.default')}</Badge>}
        </>
      ),
      csv: (s) => (s.isActive ? 'active' : 'inactive'),
    },
    { id: 'baseUrl', header: t('system.stores.baseUrl'), cell: (s) => s.baseUrl, hidden: true },
  ];
  return (
    <>
      <PageHeader title={t('system.stores.title')} />
      <ErrorNote error={all.error} />
      <DataGrid<Store>
        id="stores"
        label={t('system.stores.title')}
        columns={columns}
        rowKey={(s) => s.id}
        rowLink={(s) => (
          <Link to="/stores/$storeId" params={{ storeId: String(s.id) }}>
            {s.name}
          </Link>
        )}
        searchable
        defaultSort={{ sort: 'website', order: 'asc' }}
        exportName="store-views"
        fetchPage={async (q) => {
          // the API answers every store view at once: a shop has a handful, paged and sorted here
          const stores = collection<Store>(await unwrap(api.GET('/api/rest/v2/stores'))).items.filter(
            (s) => (!q.search || matches(s, q.search)) && (!q.filters.websiteId || String(s.websiteId) === q.filters.websiteId),
          );
          const key = SORTS[q.sort ?? 'website'] ?? SORTS.website;
          const dir = q.order === 'desc' ? -1 : 1;
          stores.sort((a, b) => (key(a) < key(b) ? -dir : key(a) > key(b) ? dir : a.id - b.id));
          return { items: stores.slice((q.page - 1) * q.pageSize, q.page * q.pageSize), total: stores.length };
        }}
      />
    </>
  );
}

export function StorePage({ storeId }: { storeId: string }) {
  const { t } = useTranslation();
  const session = useSession();
  const store = useQuery({
    queryKey: ['stores', Number(storeId)],
    queryFn: () => unwrap(api.GET('/api/rest/v2/stores/{id}', { params: { path: { id: Number(storeId) } } })),
  });
  if (store.isPending) return <Spinner />;
  if (store.error) return <ErrorNote error={store.error} />;
  const s = store.data;
  return (
    <>
      <PageHeader
        title={t('system.stores.viewTitle', { name: s.name })}
        actions={
          <>
            <Link to="/stores">{t('system.stores.backToStores')}</Link>
            {session.can('configuration') && (
              <Link className="button sys-link" to="/configuration" search={{ scope: 'stores', scopeId: s.id }}>
                {t('system.stores.configure')}
              </Link>
            )}
          </>
        }
      />
      <div className="panels">
        <section className="panel" aria-labelledby="store-view">
          <h2 id="store-view">{t('system.stores.storeView')}</h2>
          <dl className="sys-facts">
            <dt>{t('system.stores.id')}</dt>
            <dd>{s.id}</dd>
            <dt>{t('system.stores.code')}</dt>
            <dd>
              <code>{s.code}</code>
            </dd>
            <dt>{t('system.users.status')}</dt>
            <dd>
              <ActiveBadge active={s.isActive} /> {s.isDefault && <Badge>{t('system.stores.default')}</Badge>}
            </dd>
            <dt>{t('system.stores.locale')}</dt>
            <dd>{s.locale}</dd>
            <dt>{t('system.stores.currency')}</dt>
            <dd>{t('system.stores.currencies', { base: s.currency.base, display: s.currency.default })}</dd>
          </dl>
        </section>
        <section className="panel" aria-labelledby="store-where">
          <h2 id="store-where">{t('system.stores.structure')}</h2>
          <dl className="sys-facts">
            <dt>{t('system.stores.website')}</dt>
            <dd>
              {s.websiteName} (<code>{s.websiteCode}</code>, {s.websiteId})
            </dd>
            <dt>{t('system.stores.store')}</dt>
            <dd>
              {s.groupName} ({s.groupId})
            </dd>
            <dt>{t('system.stores.rootCategory')}</dt>
            <dd>{s.rootCategoryId}</dd>
          </dl>
        </section>
        <section className="panel" aria-labelledby="store-urls">
          <h2 id="store-urls">{t('system.stores.urls')}</h2>
          <dl className="sys-facts">
            <dt>{t('system.stores.baseUrl')}</dt>
            <dd>{s.baseUrl}</dd>
            <dt>{t('system.stores.linkUrl')}</dt>
            <dd>{s.baseLinkUrl}</dd>
            <dt>{t('system.stores.mediaUrl')}</dt>
            <dd>{s.baseMediaUrl}</dd>
          </dl>
        </section>
      </div>
    </>
  );
}
