/**
 * The revocation declarations (EU right of withdrawal): newest first, searched by order number, email or name,
 * filtered by processing status, verification, store view, email and date; accepted or rejected in bulk.
 */
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Row } from '../../api/client';
import { collection } from '../../api/lists';
import { useSession } from '../../auth/session';
import { DataGrid, type BulkAction, type GridColumn } from '../../components/DataGrid';
import { PageHeader, useStoreViews } from '../../components/ui';
import { formatDate } from '../../i18n';
import { listParams, utc } from './shared';

type Revocation = Row<'/api/rest/v2/revocation-requests'>;

export const PROCESSED = ['accepted', 'rejected', 'info_requested'] as const;

export function RevocationStatus({ status }: { status?: string }) {
  const { t } = useTranslation();
  const s = status ?? 'pending';
  return <span className={`content-badge rv-${s}`}>{t(`content.revocations.status.${s}`, { defaultValue: s })}</span>;
}

export function RevocationsGrid() {
  const { t } = useTranslation();
  const session = useSession();
  const stores = useStoreViews();
  const columns: GridColumn<Revocation>[] = [
    { id: 'orderReference', header: t('content.revocations.order'), cell: (r) => r.orderReference, sort: 'orderReference' },
    {
      id: 'receivedAt',
      header: t('content.revocations.received'),
      cell: (r) => formatDate(utc(r.receivedAt)),
      csv: (r) => r.receivedAt,
      sort: 'receivedAt',
      filter: { param: 'createdFrom', type: 'date' },
    },
    { id: 'customerName', header: t('content.revocations.customer'), cell: (r) => r.customerName, sort: 'customerName' },
    { id: 'email', header: t('content.revocations.email'), cell: (r) => r.email, sort: 'email', filter: { param: 'email', type: 'text' } },
    {
      id: 'verified',
      header: t('content.revocations.verified'),
      cell: (r) => (r.verified ? t('common.yes') : t('common.no')),
      filter: {
        param: 'verified',
        type: 'select',
        options: [
          { value: 'true', label: t('common.yes') },
          { value: 'false', label: t('common.no') },
        ],
      },
    },
    {
      id: 'store',
      header: t('content.revocations.storeView'),
      cell: (r) => stores.find((s) => s.id === r.storeId)?.name ?? String(r.storeId),
      filter: { param: 'storeId', type: 'select', options: stores.map((s) => ({ value: String(s.id), label: s.name })) },
      hidden: stores.length < 2,
    },
    {
      id: 'processedStatus',
      header: t('content.revocations.statusLabel'),
      cell: (r) => <RevocationStatus status={r.processedStatus} />,
      csv: (r) => r.processedStatus ?? 'pending',
      sort: 'processedStatus',
      filter: {
        param: 'processedStatus',
        type: 'select',
        options: ['pending', ...PROCESSED].map((s) => ({ value: s, label: t(`content.revocations.status.${s}`) })),
      },
    },
    {
      id: 'processedAt',
      header: t('content.revocations.processedAt'),
      cell: (r) => formatDate(utc(r.processedAt)),
      csv: (r) => r.processedAt ?? '',
      sort: 'processedAt',
      hidden: true,
    },
  ];
  const bulk: BulkAction<Revocation>[] = session.can('revocation-requests', 'write')
    ? (['accepted', 'rejected'] as const).map((status) => ({
        label: t(`content.revocations.mark.${status}`),
        confirm: t('content.revocations.markConfirm', { status: t(`content.revocations.status.${status}`) }),
        run: async (rows: Revocation[]) => {
          for (const r of rows) {
            await unwrap(
              api.PUT('/api/rest/v2/revocation-requests/{id}', { params: { path: { id: r.id } }, body: { processedStatus: status } }),
            );
          }
        },
      }))
    : [];
  return (
    <>
      <PageHeader title={t('content.revocations.title')} />
      <DataGrid<Revocation>
        id="revocation-requests"
        label={t('content.revocations.title')}
        columns={columns}
        rowKey={(r) => r.id}
        rowLink={(r) => (
          <Link to="/revocation-requests/$requestId" params={{ requestId: String(r.id) }}>
            {r.orderReference}
          </Link>
        )}
        searchable
        defaultSort={{ sort: 'receivedAt', order: 'desc' }}
        bulkActions={bulk}
        exportName="revocation-requests"
        fetchPage={async (q) =>
          collection<Revocation>(
            await unwrap(api.GET('/api/rest/v2/revocation-requests', { params: { query: listParams(q, ['storeId']) } })),
          )
        }
      />
    </>
  );
}
