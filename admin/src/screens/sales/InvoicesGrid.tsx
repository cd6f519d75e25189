/**
 * The invoices grid: every invoice, newest first unless sorted otherwise (date, number, grand total, state),
 * searched by invoice or order number, customer name or email, filtered by number, order number, state, store view
 * and dates; the PDFs of the selected invoices downloaded; CSV export.
 */
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Row } from '../../api/client';
import { collection, filterQuery } from '../../api/lists';
import { useSession } from '../../auth/session';
import { DataGrid, type GridColumn } from '../../components/DataGrid';
import { PageHeader, useStoreViews } from '../../components/ui';
import { formatDate, formatMoney } from '../../i18n';
import { saveDownload, utc } from './common';

type Invoice = Row<'/api/rest/v2/invoices'>;
type SortKey = 'createdAt' | 'incrementId' | 'grandTotal' | 'state';
const STATES = ['open', 'paid', 'canceled'] as const;

export function InvoicesGrid() {
  const { t } = useTranslation();
  const session = useSession();
  const stores = useStoreViews();
  const columns: GridColumn<Invoice>[] = [
    {
      id: 'incrementId',
      header: t('sales.invoiceNo'),
      cell: (i) => i.incrementId,
      sort: 'incrementId',
      filter: { param: 'incrementId', type: 'text' },
    },
    {
      id: 'createdAt',
      header: t('sales.date'),
      cell: (i) => formatDate(utc(i.createdAt)),
      csv: (i) => i.createdAt,
      sort: 'createdAt',
      filter: { param: 'createdFrom', type: 'date' },
    },
    {
      id: 'order',
      header: t('sales.orderNo'),
      cell: (i) =>
        session.can('orders') ? (
          <Link to="/orders/$orderId" params={{ orderId: String(i.orderId) }}>
            {i.orderIncrementId}
          </Link>
        ) : (
          i.orderIncrementId
        ),
      csv: (i) => i.orderIncrementId,
      filter: { param: 'orderIncrementId', type: 'text' },
    },
    {
      id: 'state',
      header: t('sales.state'),
      cell: (i) => t(`sales.invoiceState.${i.stateName}`),
      csv: (i) => i.stateName,
      sort: 'state',
      filter: { param: 'state', type: 'select', options: STATES.map((s) => ({ value: s, label: t(`sales.invoiceState.${s}`) })) },
    },
    {
      id: 'store',
      header: t('sales.storeView'),
      cell: (i) => stores.find((s) => s.id === i.storeId)?.name ?? String(i.storeId),
      filter: { param: 'storeId', type: 'select', options: stores.map((s) => ({ value: String(s.id), label: s.name })) },
      hidden: stores.length < 2,
    },
    {
      id: 'totalQty',
      header: t('sales.totalQty'),
      cell: (i) => String(i.totalQty),
      align: 'end',
      hidden: true,
    },
    {
      id: 'grandTotal',
      header: t('sales.grandTotal'),
      cell: (i) => formatMoney(i.grandTotal, i.currency),
      csv: (i) => String(i.grandTotal),
      sort: 'grandTotal',
      align: 'end',
    },
  ];
  return (
    <>
      <PageHeader title={t('sales.invoices')} />
      <DataGrid<Invoice>
        id="invoices"
        label={t('sales.invoices')}
        columns={columns}
        searchable
        defaultSort={{ sort: 'createdAt', order: 'desc' }}
        rowKey={(i) => i.id}
        rowLink={(i) => (
          <Link to="/invoices/$invoiceId" params={{ invoiceId: String(i.id) }}>
            {i.incrementId}
          </Link>
        )}
        bulkActions={[
          {
            label: t('sales.downloadPdfs'),
            run: async (rows) => {
              for (const i of rows) await saveDownload(`/orders/${i.orderId}/invoices/${i.id}/pdf`, `invoice_${i.incrementId}.pdf`);
            },
          },
        ]}
        exportName="invoices"
        fetchPage={async (q) =>
          collection<Invoice>(
            await unwrap(
              api.GET('/api/rest/v2/invoices', {
                params: {
                  query: {
                    page: q.page,
                    itemsPerPage: q.pageSize,
                    ...(q.search ? { search: q.search } : {}),
                    ...(q.sort ? { sortBy: q.sort as SortKey, sortDir: q.order ?? 'desc' } : {}),
                    ...filterQuery(q.filters, ['storeId']),
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
