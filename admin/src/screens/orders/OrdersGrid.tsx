/** The orders grid: every order, newest first, filtered by number, customer email, status, state, store view and date. */
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Row } from '../../api/client';
import { collection, filterQuery } from '../../api/lists';
import { DataGrid, type GridColumn } from '../../components/DataGrid';
import { PageHeader, useStoreViews } from '../../components/ui';
import { formatDate, formatMoney } from '../../i18n';

type Order = Row<'/api/rest/v2/orders'>;

const STATES = ['new', 'pending_payment', 'processing', 'complete', 'closed', 'canceled', 'holded', 'payment_review'];

export function OrdersGrid() {
  const { t } = useTranslation();
  const stores = useStoreViews();
  const columns: GridColumn<Order>[] = [
    { id: 'incrementId', header: t('orders.number'), cell: (o) => o.incrementId, filter: { param: 'incrementId', type: 'text' } },
    {
      id: 'createdAt',
      header: t('orders.date'),
      cell: (o) => formatDate(o.createdAt),
      csv: (o) => o.createdAt,
      filter: { param: 'createdFrom', type: 'date' },
    },
    {
      id: 'customer',
      header: t('orders.customer'),
      cell: (o) => `${o.customerFirstname ?? ''} ${o.customerLastname ?? ''}`.trim(),
    },
    { id: 'email', header: t('orders.email'), cell: (o) => o.customerEmail ?? '', filter: { param: 'emailLike', type: 'text' } },
    {
      id: 'store',
      header: t('orders.storeView'),
      cell: (o) => o.storeName ?? String(o.storeId),
      filter: { param: 'storeId', type: 'select', options: stores.map((s) => ({ value: String(s.id), label: s.name })) },
      hidden: stores.length < 2,
    },
    {
      id: 'state',
      header: t('orders.stateColumn'),
      cell: (o) => t(`orders.state.${o.state}`, { defaultValue: o.state }),
      filter: {
        param: 'state',
        type: 'select',
        options: STATES.map((s) => ({ value: s, label: t(`orders.state.${s}`, { defaultValue: s }) })),
      },
    },
    { id: 'status', header: t('orders.status'), cell: (o) => o.statusLabel ?? o.status, filter: { param: 'status', type: 'text' } },
    {
      id: 'grandTotal',
      header: t('orders.grandTotal'),
      cell: (o) => formatMoney(o.prices.grandTotal, o.currency),
      csv: (o) => String(o.prices.grandTotal),
      align: 'end',
    },
  ];
  return (
    <>
      <PageHeader title={t('orders.title')} />
      <DataGrid<Order>
        id="orders"
        label={t('orders.title')}
        columns={columns}
        rowKey={(o) => o.id}
        rowLink={(o) => (
          <Link to={'/orders/$orderId' as never} params={{ orderId: String(o.id) } as never}>
            {o.incrementId}
          </Link>
        )}
        exportName="orders"
        fetchPage={async (q) =>
          collection<Order>(
            await unwrap(
              api.GET('/api/rest/v2/orders', {
                params: { query: { page: q.page, itemsPerPage: q.pageSize, ...filterQuery(q.filters, ['storeId']) } },
              }),
            ),
          )
        }
      />
    </>
  );
}
