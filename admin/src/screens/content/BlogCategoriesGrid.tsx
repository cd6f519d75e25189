/** The blog categories grid: search, sort, filters (status, store view, parent), enable/disable/delete in bulk. */
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Row } from '../../api/client';
import { collection } from '../../api/lists';
import { useSession } from '../../auth/session';
import { DataGrid, type GridColumn } from '../../components/DataGrid';
import { PageHeader } from '../../components/ui';
import { formatNumber } from '../../i18n';
import { categoryLabel, useBlogCategories } from './blogCategories';
import { StatusBadge, listParams, storeNames, useContentFilters, useStatusBulkActions } from './shared';

type Category = Row<'/api/rest/v2/blog-categories'>;

export function BlogCategoriesGrid() {
  const { t } = useTranslation();
  const session = useSession();
  const f = useContentFilters();
  const all = useBlogCategories();
  const columns: GridColumn<Category>[] = [
    { id: 'name', header: t('content.fields.name'), cell: (c) => c.name, sort: 'name' },
    { id: 'urlKey', header: t('content.fields.urlKey'), cell: (c) => c.urlKey, sort: 'urlKey' },
    {
      id: 'parent',
      header: t('content.fields.parent'),
      cell: (c) => {
        const p = all.find((x) => x.id === c.parentId);
        return p ? categoryLabel(p, all) : '';
      },
      filter: {
        param: 'parentId',
        type: 'select',
        options: [
          { value: '0', label: t('content.categories.topLevel') },
          ...all.map((c) => ({ value: String(c.id), label: categoryLabel(c, all) })),
        ],
      },
    },
    {
      id: 'position',
      header: t('content.fields.position'),
      cell: (c) => formatNumber(c.position),
      csv: (c) => String(c.position),
      sort: 'position',
      align: 'end',
    },
    {
      id: 'level',
      header: t('content.fields.level'),
      cell: (c) => formatNumber(c.level),
      csv: (c) => String(c.level),
      sort: 'level',
      align: 'end',
      hidden: true,
    },
    {
      id: 'stores',
      header: t('content.stores.label'),
      cell: (c) => storeNames(c.stores, f.stores, t('content.stores.all')),
      filter: f.store,
    },
    {
      id: 'status',
      header: t('content.status.label'),
      cell: (c) => <StatusBadge active={c.isActive} />,
      csv: (c) => String(c.isActive),
      sort: 'isActive',
      filter: f.active,
    },
  ];
  const bulk = useStatusBulkActions<Category>({
    canWrite: session.can('blog-categories', 'write'),
    canDelete: session.can('blog-categories', 'delete'),
    update: (id, isActive) => unwrap(api.PUT('/api/rest/v2/blog-categories/{id}', { params: { path: { id } }, body: { isActive } })),
    remove: (id) => unwrap(api.DELETE('/api/rest/v2/blog-categories/{id}', { params: { path: { id } } })),
  });
  return (
    <>
      <PageHeader
        title={t('content.categories.title')}
        actions={
          session.can('blog-categories', 'create') && (
            <Link to="/blog-categories/new" className="button primary">
              {t('content.categories.new')}
            </Link>
          )
        }
      />
      <DataGrid<Category>
        id="blog-categories"
        label={t('content.categories.title')}
        columns={columns}
        rowKey={(c) => c.id}
        rowLink={(c) => (
          <Link to="/blog-categories/$categoryId" params={{ categoryId: String(c.id) }}>
            {c.name}
          </Link>
        )}
        searchable
        defaultSort={{ sort: 'position', order: 'asc' }}
        bulkActions={bulk}
        exportName="blog-categories"
        fetchPage={async (q) =>
          collection<Category>(
            await unwrap(
              api.GET('/api/rest/v2/blog-categories', { params: { query: { scope: 'all', ...listParams(q, ['storeId', 'parentId']) } } }),
            ),
          )
        }
      />
    </>
  );
}
