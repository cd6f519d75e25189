/**
 * The shipments grid: every shipment, newest first, paged by the API (which offers no filter, search or sort on
 * this list), with the order, quantity and tracking numbers of each; CSV export.
 */
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Row } from '../../api/client';
import { collection } from '../../api/lists';
import { useSession } from '../../auth/session';
import { DataGrid, type GridColumn } from '../../components/DataGrid';
import { PageHeader, useStoreViews } from '../../components/ui';
import { formatDate, formatNumber } from '../../i18n';
import { utc } from './common';

type Shipment = Row<'/api/rest/v2/shipments'>;

export function ShipmentsGrid() {
  const { t } = useTranslation();
  const session = useSession();
  const stores = useStoreViews();
  const tracks = (s: Shipment) => s.tracks.map((x) => t('sales.trackLine', { title: x.title, number: x.trackNumber })).join(', ');
  const columns: GridColumn<Shipment>[] = [
    { id: 'incrementId', header: t('sales.shipmentNo'), cell: (s) => s.incrementId },
    { id: 'createdAt', header: t('sales.date'), cell: (s) => formatDate(utc(s.createdAt)), csv: (s) => s.createdAt },
    {
      id: 'order',
      header: t('sales.orderNo'),
      cell: (s) =>
        session.can('orders') ? (
          <Link to="/orders/$orderId" params={{ orderId: String(s.orderId) }}>
            {s.orderIncrementId}
          </Link>
        ) : (
          s.orderIncrementId
        ),
      csv: (s) => s.orderIncrementId,
    },
    {
      id: 'store',
      header: t('sales.storeView'),
      cell: (s) => stores.find((x) => x.id === s.storeId)?.name ?? String(s.storeId),
      hidden: stores.length < 2,
    },
    { id: 'tracks', header: t('sales.trackingNumbers'), cell: tracks },
    { id: 'totalQty', header: t('sales.totalQty'), cell: (s) => formatNumber(s.totalQty), csv: (s) => String(s.totalQty), align: 'end' },
  ];
  return (
    <>
      <PageHeader title={t('sales.shipments')} />
      <DataGrid<Shipment>
        id="shipments"
        label={t('sales.shipments')}
        columns={columns}
        rowKey={(s) => s.id}
        rowLink={(s) => (
          <Link to="/shipments/$shipmentId" params={{ shipmentId: String(s.id) }}>
            {s.incrementId}
          </Link>
        )}
        exportName="shipments"
        fetchPage={async (q) =>
          collection<Shipment>(
            await unwrap(api.GET('/api/rest/v2/shipments', { params: { query: { page: q.page, itemsPerPage: q.pageSize } } })),
          )
        }
      />
    </>
  );
}
