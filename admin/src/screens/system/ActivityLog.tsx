/** The activity log: every back-office write, newest first, filtered by who, what and when; and one entry's page. */
import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Row } from '../../api/client';
import { collection, filterQuery } from '../../api/lists';
import { DataGrid, type GridColumn } from '../../components/DataGrid';
import { ErrorNote, PageHeader, Spinner, useStoreViews } from '../../components/ui';
import { when } from './common';
import './system.css';

type Entry = Row<'/api/rest/v2/activity-log'>;
const PRINCIPALS = ['admin_user', 'api_user', 'oauth_client'] as const;
const PROTOCOLS = ['rest', 'graphql', 'mcp', 'soap'] as const;

export function ActivityLogGrid() {
  const { t } = useTranslation();
  const stores = useStoreViews();
  const storeName = (id?: number) => (id === undefined ? '' : (stores.find((s) => s.id === id)?.name ?? String(id)));
  const columns: GridColumn<Entry>[] = [
    {
      id: 'createdAt',
      header: t('system.changedFrom'),
      cell: (e) => when(e.createdAt),
      csv: (e) => e.createdAt,
      filter: { param: 'from', type: 'date' },
    },
    {
      id: 'until',
      header: t('system.changedUntil'),
      cell: (e) => when(e.createdAt),
      csv: (e) => e.createdAt,
      filter: { param: 'to', type: 'date' },
      hidden: true,
    },
    { id: 'username', header: t('system.activity.user'), cell: (e) => e.username, filter: { param: 'username', type: 'text' } },
    {
      id: 'principal',
      header: t('system.activity.principal'),
      cell: (e) => t(`system.principals.${e.principal}`, { defaultValue: e.principal }),
      csv: (e) => e.principal,
      filter: { param: 'principal', type: 'select', options: PRINCIPALS.map((p) => ({ value: p, label: t(`system.principals.${p}`) })) },
    },
    {
      id: 'operation',
      header: t('system.activity.operation'),
      cell: (e) => <code>{e.operation}</code>,
      csv: (e) => e.operation,
      filter: { param: 'operation', type: 'text' },
    },
    {
      id: 'resource',
      header: t('system.activity.resource'),
      cell: (e) => [e.resource, e.resourceId].filter(Boolean).join(' '),
      filter: { param: 'resource', type: 'text' },
    },
    {
      id: 'resourceId',
      header: t('system.activity.resourceId'),
      cell: (e) => e.resourceId ?? '',
      filter: { param: 'resourceId', type: 'text' },
      hidden: true,
    },
    {
      id: 'protocol',
      header: t('system.activity.protocol'),
      cell: (e) => e.protocol.toUpperCase(),
      filter: { param: 'protocol', type: 'select', options: PROTOCOLS.map((p) => ({ value: p, label: p.toUpperCase() })) },
    },
    {
      id: 'store',
      header: t('system.activity.storeView'),
      cell: (e) => storeName(e.storeId),
      filter: { param: 'storeId', type: 'select', options: stores.map((s) => ({ value: String(s.id), label: s.name })) },
      hidden: stores.length < 2,
    },
    { id: 'ip', header: t('system.activity.ip'), cell: (e) => e.ip ?? '', hidden: true },
  ];
  return (
    <>
      <PageHeader title={t('system.activity.title')} />
      <DataGrid<Entry>
        id="activity-log"
        label={t('system.activity.title')}
        columns={columns}
        rowKey={(e) => e.id}
        rowLink={(e) => (
          <Link to="/activity-log/$entryId" params={{ entryId: String(e.id) }}>
            {when(e.createdAt)}
          </Link>
        )}
        exportName="activity-log"
        fetchPage={async (q) =>
          collection<Entry>(
            await unwrap(
              api.GET('/api/rest/v2/activity-log', {
                params: {
                  query: { page: q.page, itemsPerPage: q.pageSize, ...(filterQuery(q.filters, ['storeId']) as Record<string, never>) },
                },
              }),
            ),
          )
        }
      />
    </>
  );
}

export function ActivityEntry({ entryId }: { entryId: string }) {
  const { t } = useTranslation();
  const stores = useStoreViews();
  const entry = useQuery({
    queryKey: ['activity-log', entryId],
    queryFn: () => unwrap(api.GET('/api/rest/v2/activity-log/{id}', { params: { path: { id: Number(entryId) } } })),
  });
  if (entry.isPending) return <Spinner />;
  if (entry.error) return <ErrorNote error={entry.error} />;
  const e = entry.data;
  return (
    <>
      <PageHeader
        title={t('system.activity.entryTitle', { operation: e.operation, id: e.id })}
        actions={<Link to="/activity-log">{t('system.activity.backToLog')}</Link>}
      />
      <section className="panel" aria-labelledby="entry-facts">
        <h2 id="entry-facts">{t('system.activity.what')}</h2>
        <dl className="sys-facts">
          <dt>{t('system.activity.when')}</dt>
          <dd>{when(e.createdAt)}</dd>
          <dt>{t('system.activity.user')}</dt>
          <dd>
            {e.username} ({t(`system.principals.${e.principal}`, { defaultValue: e.principal })} {e.principalId})
          </dd>
          <dt>{t('system.activity.operation')}</dt>
          <dd>
            <code>{e.operation}</code>
          </dd>
          <dt>{t('system.activity.request')}</dt>
          <dd>
            <code>
              {e.method} {e.path ?? ''}
            </code>{' '}
            ({e.protocol.toUpperCase()})
          </dd>
          <dt>{t('system.activity.resource')}</dt>
          <dd>{[e.resource, e.resourceId].filter(Boolean).join(' ') || '—'}</dd>
          <dt>{t('system.activity.storeView')}</dt>
          <dd>{e.storeId === undefined ? '—' : (stores.find((s) => s.id === e.storeId)?.name ?? e.storeId)}</dd>
          <dt>{t('system.activity.ip')}</dt>
          <dd>{e.ip ?? '—'}</dd>
        </dl>
      </section>
      <section className="panel" aria-labelledby="entry-fields">
        <h2 id="entry-fields">{t('system.activity.fields')}</h2>
        {e.fields === undefined ? <p>{t('system.activity.noFields')}</p> : <pre className="json">{JSON.stringify(e.fields, null, 2)}</pre>}
      </section>
    </>
  );
}
