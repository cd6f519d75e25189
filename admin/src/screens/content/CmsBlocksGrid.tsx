/** The CMS blocks grid: search, sort, filters (status, store view, identifier), enable/disable/delete in bulk. */
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Row } from '../../api/client';
import { collection } from '../../api/lists';
import { useSession } from '../../auth/session';
import { DataGrid, type GridColumn } from '../../components/DataGrid';
import { PageHeader } from '../../components/ui';
import { formatDate } from '../../i18n';
import { StatusBadge, listParams, storeNames, useContentFilters, useStatusBulkActions } from './shared';

type Block = Row<'/api/rest/v2/cms-blocks'>;

export function CmsBlocksGrid() {
  const { t } = useTranslation();
  const session = useSession();
  const f = useContentFilters();
  const columns: GridColumn<Block>[] = [
    { id: 'title', header: t('content.fields.title'), cell: (b) => b.title, sort: 'title' },
    {
      id: 'identifier',
      header: t('content.fields.identifier'),
      cell: (b) => b.identifier,
      sort: 'identifier',
      filter: { param: 'identifier', type: 'text' },
    },
    {
      id: 'stores',
      header: t('content.stores.label'),
      cell: (b) => storeNames(b.stores, f.stores, t('content.stores.all')),
      filter: f.store,
    },
    {
      id: 'status',
      header: t('content.status.label'),
      cell: (b) => <StatusBadge active={b.isActive} />,
      csv: (b) => b.status,
      sort: 'isActive',
      filter: f.active,
    },
    {
      id: 'createdAt',
      header: t('content.fields.createdAt'),
      cell: (b) => formatDate(b.createdAt),
      csv: (b) => b.createdAt,
      sort: 'createdAt',
      hidden: true,
    },
    {
      id: 'updatedAt',
      header: t('content.fields.updatedAt'),
      cell: (b) => formatDate(b.updatedAt),
      csv: (b) => b.updatedAt,
      sort: 'updatedAt',
    },
  ];
  const bulk = useStatusBulkActions<Block>({
    canWrite: session.can('cms-blocks', 'write'),
    canDelete: session.can('cms-blocks', 'delete'),
    update: (id, isActive) => unwrap(api.PUT('/api/rest/v2/cms-blocks/{id}', { params: { path: { id } }, body: { isActive } })),
    remove: (id) => unwrap(api.DELETE('/api/rest/v2/cms-blocks/{id}', { params: { path: { id } } })),
  });
  return (
    <>
      <PageHeader
        title={t('content.blocks.title')}
        actions={
          session.can('cms-blocks', 'create') && (
            <Link to="/cms-blocks/new" className="button primary">
              {t('content.blocks.new')}
            </Link>
          )
        }
      />
      <DataGrid<Block>
        id="cms-blocks"
        label={t('content.blocks.title')}
        columns={columns}
        rowKey={(b) => b.id}
        rowLink={(b) => (
          <Link to="/cms-blocks/$blockId" params={{ blockId: String(b.id) }}>
            {b.title}
          </Link>
        )}
        searchable
        defaultSort={{ sort: 'title', order: 'asc' }}
        bulkActions={bulk}
        exportName="cms-blocks"
        fetchPage={async (q) =>
          collection<Block>(await unwrap(api.GET('/api/rest/v2/cms-blocks', { params: { query: { scope: 'all', ...listParams(q) } } })))
        }
      />
    </>
  );
}
