/**
 * The credit memos grid: every credit memo, newest first, paged by the API (which offers no filter, search or sort
 * on this list), with the order, state and amount of each; CSV export.
 */
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Row } from '../../api/client';
import { collection } from '../../api/lists';
import { useSession } from '../../auth/session';
import { DataGrid, type GridColumn } from '../../components/DataGrid';
import { PageHeader, useStoreViews } from '../../components/ui';
import { formatDate, formatMoney } from '../../i18n';
import { utc } from './common';

type CreditMemo = Row<'/api/rest/v2/credit-memos'>;

export function CreditMemosGrid() {
  const { t } = useTranslation();
  const session = useSession();
  const stores = useStoreViews();
  const columns: GridColumn<CreditMemo>[] = [
    { id: 'incrementId', header: t('sales.creditMemoNo'), cell: (m) => m.incrementId },
    { id: 'createdAt', header: t('sales.date'), cell: (m) => formatDate(utc(m.createdAt)), csv: (m) => m.createdAt },
    {
      id: 'order',
      header: t('sales.orderNo'),
      cell: (m) =>
        session.can('orders') ? (
          <Link to="/orders/$orderId" params={{ orderId: String(m.orderId) }}>
            {m.orderIncrementId}
          </Link>
        ) : (
          m.orderIncrementId
        ),
      csv: (m) => m.orderIncrementId,
    },
    {
      id: 'state',
      header: t('sales.state'),
      cell: (m) => t(`sales.memoState.${m.state}`, { defaultValue: m.state }),
      csv: (m) => m.state,
    },
    {
      id: 'store',
      header: t('sales.storeView'),
      cell: (m) => stores.find((s) => s.id === m.storeId)?.name ?? String(m.storeId),
      hidden: stores.length < 2,
    },
    {
      id: 'grandTotal',
      header: t('sales.refunded'),
      cell: (m) => formatMoney(m.grandTotal, m.currency),
      csv: (m) => String(m.grandTotal),
      align: 'end',
    },
  ];
  return (
    <>
      <PageHeader title={t('sales.creditMemos')} />
      <DataGrid<CreditMemo>
        id="credit-memos"
        label={t('sales.creditMemos')}
        columns={columns}
        rowKey={(m) => m.id}
        rowLink={(m) => (
          <Link to="/credit-memos/$creditMemoId" params={{ creditMemoId: String(m.id) }}>
            {m.incrementId}
          </Link>
        )}
        exportName="credit-memos"
        fetchPage={async (q) =>
          collection<CreditMemo>(
            await unwrap(api.GET('/api/rest/v2/credit-memos', { params: { query: { page: q.page, itemsPerPage: q.pageSize } } })),
          )
        }
      />
    </>
  );
}
