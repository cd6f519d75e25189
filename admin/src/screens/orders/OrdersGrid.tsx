/**
 * The orders grid: every order, newest first unless sorted otherwise (date, number, grand total, status, state),
 * searched by number, customer name or email, filtered by number, email, status, state, store view, customer and
 * dates; cancel, hold and release the selected orders; CSV export.
 */
import { Link } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Row } from '../../api/client';
import { collection, filterQuery } from '../../api/lists';
import { useSession } from '../../auth/session';
import { DataGrid, type BulkAction, type GridColumn, type ListQuery } from '../../components/DataGrid';
import { PageHeader, useStoreViews } from '../../components/ui';
import { formatDate, formatMoney } from '../../i18n';
import { utc } from '../sales/common';
import { runLifecycle, type LifecycleAction } from './LifecycleDialog';

type Order = Row<'/api/rest/v2/orders'>;
type SortKey = 'createdAt' | 'updatedAt' | 'incrementId' | 'grandTotal' | 'status' | 'state';

const STATES = ['new', 'pending_payment', 'processing', 'complete', 'closed', 'canceled', 'holded', 'payment_review'];
const STATUSES = ['pending', 'pending_payment', 'processing', 'complete', 'closed', 'canceled', 'holded', 'payment_review', 'fraud'];

export function fetchOrders(q: ListQuery) {
  return api.GET('/api/rest/v2/orders', {
    params: {
      query: {
        page: q.page,
        itemsPerPage: q.pageSize,
        ...(q.search ? { search: q.search } : {}),
        ...(q.sort ? { sortBy: q.sort as SortKey, sortDir: q.order ?? 'desc' } : {}),
        ...filterQuery(q.filters, ['storeId', 'customerId']),
      },
    },
  });
}

export function OrdersGrid() {
  const { t } = useTranslation();
  const session = useSession();
  const qc = useQueryClient();
  const stores = useStoreViews();

  /**
   * One lifecycle action on each selected order, one after the other: those the order's state refuses are named
   * in one message, the others are done (and the grid reads them again either way).
   */
  const bulk = (action: LifecycleAction): BulkAction<Order> => ({
    label: t(`orders.bulk.${action}`),
    confirm: t(`orders.bulk.${action}Confirm`),
    run: async (rows) => {
      const failed: string[] = [];
      for (const o of rows) {
        try {
          await runLifecycle(action, o.id);
        } catch (err) {
          failed.push(t('orders.bulk.failedOne', { number: o.incrementId, message: err instanceof Error ? err.message : '' }));
        }
      }
      await qc.invalidateQueries({ queryKey: ['grid', 'orders'] });
      if (failed.length) throw new Error(t('orders.bulk.failed', { count: failed.length, list: failed.join(' ') }));
    },
  });

  const columns: GridColumn<Order>[] = [
    {
      id: 'incrementId',
      header: t('orders.number'),
      cell: (o) => o.incrementId,
      sort: 'incrementId',
      filter: { param: 'incrementId', type: 'text' },
    },
    {
      id: 'createdAt',
      header: t('orders.date'),
      cell: (o) => formatDate(utc(o.createdAt)),
      csv: (o) => o.createdAt,
      sort: 'createdAt',
      filter: { param: 'createdFrom', type: 'date' },
    },
    {
      id: 'customer',
      header: t('orders.customer'),
      cell: (o) => `${o.customerFirstname ?? ''} ${o.customerLastname ?? ''}`.trim(),
    },
    { id: 'email', header: t('orders.email'), cell: (o) => o.customerEmail ?? '', filter: { param: 'emailLike', type: 'text' } },
    {
      id: 'customerId',
      header: t('orders.customerId'),
      cell: (o) => (o.customerId ? String(o.customerId) : t('orders.guest')),
      csv: (o) => (o.customerId ? String(o.customerId) : ''),
      filter: { param: 'customerId', type: 'number' },
      hidden: true,
    },
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
      sort: 'state',
      filter: {
        param: 'state',
        type: 'select',
        options: STATES.map((s) => ({ value: s, label: t(`orders.state.${s}`, { defaultValue: s }) })),
      },
    },
    {
      id: 'status',
      header: t('orders.status'),
      cell: (o) => o.statusLabel ?? o.status,
      sort: 'status',
      filter: {
        param: 'status',
        type: 'select',
        options: STATUSES.map((s) => ({ value: s, label: t(`orders.statusName.${s}`) })),
      },
    },
    {
      id: 'updatedAt',
      header: t('orders.updated'),
      cell: (o) => formatDate(utc(o.updatedAt)),
      csv: (o) => o.updatedAt,
      sort: 'updatedAt',
      filter: { param: 'updatedSince', type: 'date' },
      hidden: true,
    },
    {
      id: 'grandTotal',
      header: t('orders.grandTotal'),
      cell: (o) => formatMoney(o.prices.grandTotal, o.currency),
      csv: (o) => String(o.prices.grandTotal),
      sort: 'grandTotal',
      align: 'end',
    },
  ];
  const write = session.can('orders', 'write');
  return (
    <>
      <PageHeader title={t('orders.title')} />
      <DataGrid<Order>
        id="orders"
        label={t('orders.title')}
        columns={columns}
        searchable
        defaultSort={{ sort: 'createdAt', order: 'desc' }}
        rowKey={(o) => o.id}
        rowLink={(o) => (
          <Link to="/orders/$orderId" params={{ orderId: String(o.id) }}>
            {o.incrementId}
          </Link>
        )}
        bulkActions={write ? [bulk('cancel'), bulk('hold'), bulk('unhold')] : undefined}
        exportName="orders"
        fetchPage={async (q) => collection<Order>(await unwrap(fetchOrders(q)))}
      />
    </>
  );
}
