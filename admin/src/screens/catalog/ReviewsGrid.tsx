/** The reviews waiting for moderation and every other: searched, filtered, sorted; approved or rejected in bulk. */
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Row } from '../../api/client';
import { collection, filterQuery } from '../../api/lists';
import { useSession } from '../../auth/session';
import { DataGrid, type BulkAction, type GridColumn } from '../../components/DataGrid';
import { PageHeader, useStoreViews } from '../../components/ui';
import { formatDate } from '../../i18n';
import './catalog.css';

type Review = Row<'/api/rest/v2/reviews'>;
export const REVIEW_STATUSES = ['pending', 'approved', 'not_approved'] as const;

export function ReviewsGrid() {
  const { t } = useTranslation();
  const { can } = useSession();
  const stores = useStoreViews();
  const columns: GridColumn<Review>[] = [
    { id: 'title', header: t('catalog.reviews.reviewTitle'), cell: (r) => r.title, sort: 'title' },
    {
      id: 'createdAt',
      header: t('catalog.reviews.createdAt'),
      cell: (r) => formatDate(r.createdAt),
      csv: (r) => r.createdAt,
      sort: 'created_at',
      filter: { param: 'createdFrom', type: 'date' },
    },
    {
      id: 'status',
      header: t('catalog.reviews.status'),
      cell: (r) => <span className={`badge review-${r.status}`}>{t(`catalog.reviews.state.${r.status}`)}</span>,
      csv: (r) => r.status,
      sort: 'status',
      filter: {
        param: 'status',
        type: 'select',
        options: REVIEW_STATUSES.map((s) => ({ value: s, label: t(`catalog.reviews.state.${s}`) })),
      },
    },
    { id: 'nickname', header: t('catalog.reviews.nickname'), cell: (r) => r.nickname, sort: 'nickname' },
    {
      id: 'product',
      header: t('catalog.reviews.product'),
      cell: (r) => r.productName ?? String(r.productId),
      sort: 'product_id',
      filter: { param: 'productId', type: 'number' },
    },
    {
      id: 'rating',
      header: t('catalog.reviews.rating'),
      cell: (r) => (r.rating ? '★'.repeat(r.rating) : ''),
      csv: (r) => String(r.rating ?? ''),
    },
    {
      id: 'stores',
      header: t('catalog.reviews.storeViews'),
      cell: (r) => r.stores.map((id) => stores.find((s) => s.id === id)?.name ?? String(id)).join(', '),
      filter: { param: 'storeId', type: 'select', options: stores.map((s) => ({ value: String(s.id), label: s.name })) },
      hidden: stores.length < 2,
    },
    { id: 'detail', header: t('catalog.reviews.detail'), cell: (r) => r.detail, hidden: true },
  ];
  const setStatus = (status: (typeof REVIEW_STATUSES)[number]) => async (rows: Review[]) => {
    for (const r of rows) await unwrap(api.PUT('/api/rest/v2/reviews/{id}', { params: { path: { id: r.id } }, body: { status } }));
  };
  const bulk: BulkAction<Review>[] = can('reviews', 'write')
    ? [
        { label: t('catalog.reviews.approve'), run: setStatus('approved') },
        { label: t('catalog.reviews.reject'), run: setStatus('not_approved') },
        { label: t('catalog.reviews.backToPending'), run: setStatus('pending') },
      ]
    : [];
  return (
    <>
      <PageHeader title={t('catalog.reviews.title')} />
      <DataGrid<Review>
        id="reviews"
        label={t('catalog.reviews.title')}
        columns={columns}
        rowKey={(r) => r.id}
        rowLink={(r) => (
          <Link to="/reviews/$reviewId" params={{ reviewId: String(r.id) }}>
            {r.title}
          </Link>
        )}
        searchable
        bulkActions={bulk}
        defaultSort={{ sort: 'created_at', order: 'desc' }}
        exportName="reviews"
        fetchPage={async (q) =>
          collection<Review>(
            await unwrap(
              api.GET('/api/rest/v2/reviews', {
                params: {
                  query: {
                    page: q.page,
                    itemsPerPage: q.pageSize,
                    ...(q.search ? { search: q.search } : {}),
                    ...(q.sort ? { sortBy: q.sort as 'created_at', sortDir: q.order } : {}),
                    ...filterQuery(q.filters, ['productId', 'storeId']),
                  },
                },
              }),
            ),
          )
        }
      />
    </>
  );
}
