/** The blog posts grid: search, sort, filters (status, store view, category), enable/disable/delete in bulk. */
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Row } from '../../api/client';
import { collection } from '../../api/lists';
import { useSession } from '../../auth/session';
import { DataGrid, type GridColumn } from '../../components/DataGrid';
import { PageHeader } from '../../components/ui';
import { formatDate } from '../../i18n';
import { categoryLabel, useBlogCategories } from './blogCategories';
import { StatusBadge, listParams, storeNames, useContentFilters, useStatusBulkActions, utc } from './shared';

type Post = Row<'/api/rest/v2/blog-posts'>;

export function BlogPostsGrid() {
  const { t } = useTranslation();
  const session = useSession();
  const f = useContentFilters();
  const categories = useBlogCategories();
  const columns: GridColumn<Post>[] = [
    { id: 'title', header: t('content.fields.title'), cell: (p) => p.title, sort: 'title' },
    { id: 'urlKey', header: t('content.fields.urlKey'), cell: (p) => p.urlKey, sort: 'urlKey' },
    {
      id: 'publishDate',
      header: t('content.fields.publishDate'),
      cell: (p) => formatDate(utc(p.publishDate)),
      csv: (p) => p.publishDate ?? '',
      sort: 'publishDate',
    },
    {
      id: 'categories',
      header: t('content.fields.categories'),
      cell: (p) => p.categoryIds.map((id) => categories.find((c) => c.id === id)?.name ?? String(id)).join(', '),
      filter: {
        param: 'categoryId',
        type: 'select',
        options: categories.map((c) => ({ value: String(c.id), label: categoryLabel(c, categories) })),
      },
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
      id: 'updatedAt',
      header: t('content.fields.updatedAt'),
      cell: (p) => formatDate(utc(p.updatedAt)),
      csv: (p) => p.updatedAt,
      sort: 'updatedAt',
      hidden: true,
    },
  ];
  const bulk = useStatusBulkActions<Post>({
    canWrite: session.can('blog-posts', 'write'),
    canDelete: session.can('blog-posts', 'delete'),
    update: (id, isActive) => unwrap(api.PUT('/api/rest/v2/blog-posts/{id}', { params: { path: { id } }, body: { isActive } })),
    remove: (id) => unwrap(api.DELETE('/api/rest/v2/blog-posts/{id}', { params: { path: { id } } })),
  });
  return (
    <>
      <PageHeader
        title={t('content.posts.title')}
        actions={
          session.can('blog-posts', 'create') && (
            <Link to="/blog-posts/new" className="button primary">
              {t('content.posts.new')}
            </Link>
          )
        }
      />
      <DataGrid<Post>
        id="blog-posts"
        label={t('content.posts.title')}
        columns={columns}
        rowKey={(p) => p.id}
        rowLink={(p) => (
          <Link to="/blog-posts/$postId" params={{ postId: String(p.id) }}>
            {p.title}
          </Link>
        )}
        searchable
        defaultSort={{ sort: 'publishDate', order: 'desc' }}
        bulkActions={bulk}
        exportName="blog-posts"
        fetchPage={async (q) =>
          collection<Post>(
            await unwrap(
              api.GET('/api/rest/v2/blog-posts', { params: { query: { scope: 'all', ...listParams(q, ['storeId', 'categoryId']) } } }),
            ),
          )
        }
      />
    </>
  );
}
