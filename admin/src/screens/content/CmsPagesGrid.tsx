/** The CMS pages grid: search, sort, filters (status, store view, URL key), enable/disable/delete in bulk. */
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Row } from '../../api/client';
import { collection } from '../../api/lists';
import { useSession } from '../../auth/session';
import { DataGrid, type GridColumn } from '../../components/DataGrid';
import { PageHeader } from '../../components/ui';
import { formatDate } from '../../i18n';
import { StatusBadge, listParams, storeNames, useContentFilters, useStatusBulkActions } from './shared';

type Page = Row<'/api/rest/v2/cms-pages'>;

export function CmsPagesGrid() {
  const { t } = useTranslation();
  const session = useSession();
  const f = useContentFilters();
  const columns: GridColumn<Page>[] = [
    { id: 'title', header: t('content.fields.title'), cell: (p) => p.title, sort: 'title' },
    {
      id: 'identifier',
      header: t('content.fields.urlKey'),
      cell: (p) => p.identifier,
      sort: 'identifier',
      filter: { param: 'identifier', type: 'text' },
    },
    {
      id: 'stores',
      header: t('content.stores.label'),
      cell: (p) => storeNames(p.stores, f.stores, t('content.stores.all')),
      filter: f.store,
    },
    {
      id: 'status',
      header: t('content.status.label'),
      cell: (p) => <StatusBadge active={p.isActive} />,
      csv: (p) => p.status,
      sort: 'isActive',
      filter: f.active,
    },
    {
      id: 'createdAt',
      header: t('content.fields.createdAt'),
      cell: (p) => formatDate(p.createdAt),
      csv: (p) => p.createdAt,
      sort: 'createdAt',
      hidden: true,
    },
    {
      id: 'updatedAt',
      header: t('content.fields.updatedAt'),
      cell: (p) => formatDate(p.updatedAt),
      csv: (p) => p.updatedAt,
      sort: 'updatedAt',
    },
  ];
  const bulk = useStatusBulkActions<Page>({
    canWrite: session.can('cms-pages', 'write'),
    canDelete: session.can('cms-pages', 'delete'),
    update: (id, isActive) => unwrap(api.PUT('/api/rest/v2/cms-pages/{id}', { params: { path: { id } }, body: { isActive } })),
    remove: (id) => unwrap(api.DELETE('/api/rest/v2/cms-pages/{id}', { params: { path: { id } } })),
  });
  return (
    <>
      <PageHeader
        title={t('content.pages.title')}
        actions={
          session.can('cms-pages', 'create') && (
            <Link to="/cms-pages/new" className="button primary">
              {t('content.pages.new')}
            </Link>
          )
        }
      />
      <DataGrid<Page>
        id="cms-pages"
        label={t('content.pages.title')}
        columns={columns}
        rowKey={(p) => p.id}
        rowLink={(p) => (
          <Link to="/cms-pages/$pageId" params={{ pageId: String(p.id) }}>
            {p.title}
          </Link>
        )}
        searchable
        defaultSort={{ sort: 'title', order: 'asc' }}
        bulkActions={bulk}
        exportName="cms-pages"
        fetchPage={async (q) =>
          collection<Page>(await unwrap(api.GET('/api/rest/v2/cms-pages', { params: { query: { scope: 'all', ...listParams(q) } } })))
        }
      />
    </>
  );
}
