/** What a customer did in the shop: their orders, their carts (open and ordered) and their wishlist. */
import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Row } from '../../api/client';
import { collection } from '../../api/lists';
import { DataGrid, type GridColumn } from '../../components/DataGrid';
import { ErrorNote, Spinner, useStoreViews } from '../../components/ui';
import { formatMoney, formatNumber } from '../../i18n';
import { StateBadge, when } from '../sales/common';
import { Section, YesNoBadge, boolOptions, nameOf, rowsOf } from './shared';

type Order = Row<'/api/rest/v2/orders'>;
type OrderSort = 'createdAt' | 'updatedAt' | 'incrementId' | 'grandTotal' | 'status' | 'state';

export function CustomerOrders({ customerId }: { customerId: number }) {
  const { t } = useTranslation();
  const columns: GridColumn<Order>[] = [
    { id: 'number', header: t('customers.orders.number'), cell: (o) => o.incrementId, sort: 'incrementId' },
    { id: 'createdAt', header: t('customers.orders.date'), cell: (o) => when(o.createdAt), csv: (o) => o.createdAt, sort: 'createdAt' },
    { id: 'store', header: t('customers.orders.store'), cell: (o) => o.storeName },
    {
      id: 'status',
      header: t('customers.orders.status'),
      cell: (o) => <StateBadge label={o.statusLabel} />,
      csv: (o) => o.status,
      sort: 'status',
    },
    {
      id: 'total',
      header: t('customers.orders.total'),
      cell: (o) => formatMoney(o.prices.grandTotal ?? undefined, o.currency),
      csv: (o) => String(o.prices.grandTotal ?? ''),
      sort: 'grandTotal',
      align: 'end',
    },
  ];
  return (
    <DataGrid<Order>
      id={`customer-orders-${customerId}`}
      label={t('customers.tabs.orders')}
      columns={columns}
      rowKey={(o) => o.id}
      rowLink={(o) => (
        <Link to="/orders/$orderId" params={{ orderId: String(o.id) }}>
          {o.incrementId}
        </Link>
      )}
      defaultSort={{ sort: 'createdAt', order: 'desc' }}
      exportName={`customer-${customerId}-orders`}
      fetchPage={async (q) =>
        collection<Order>(
          await unwrap(
            api.GET('/api/rest/v2/orders', {
              params: {
                query: {
                  customerId,
                  page: q.page,
                  itemsPerPage: q.pageSize,
                  ...(q.sort ? { sortBy: q.sort as OrderSort, sortDir: q.order ?? 'desc' } : {}),
                },
              },
            }),
          ),
        )
      }
    />
  );
}

type Cart = Row<'/api/rest/v2/carts'>;

export function CustomerCarts({ customerId }: { customerId: number }) {
  const { t } = useTranslation();
  const stores = useStoreViews();
  const columns: GridColumn<Cart>[] = [
    { id: 'id', header: t('customers.carts.id'), cell: (c) => String(c.id) },
    { id: 'store', header: t('customers.carts.store'), cell: (c) => nameOf(stores, c.storeId) },
    {
      id: 'state',
      header: t('customers.carts.state'),
      cell: (c) => <YesNoBadge on={c.isActive} yes={t('customers.carts.open')} no={t('customers.carts.ordered')} />,
      csv: (c) => (c.isActive ? 'open' : 'ordered'),
      filter: { param: 'isActive', type: 'select', options: boolOptions(t('customers.carts.open'), t('customers.carts.ordered')) },
    },
    {
      id: 'items',
      header: t('customers.carts.items'),
      cell: (c) => c.items.map((i) => `${formatNumber(i.qty)} × ${i.name}`).join(', '),
    },
    {
      id: 'total',
      header: t('customers.carts.total'),
      cell: (c) => formatMoney(c.prices.grandTotal ?? undefined, c.currency),
      csv: (c) => String(c.prices.grandTotal ?? ''),
      align: 'end',
    },
    { id: 'updatedAt', header: t('customers.carts.updatedAt'), cell: (c) => when(c.updatedAt), csv: (c) => c.updatedAt },
  ];
  return (
    <DataGrid<Cart>
      id={`customer-carts-${customerId}`}
      label={t('customers.tabs.carts')}
      columns={columns}
      rowKey={(c) => c.id}
      exportName={`customer-${customerId}-carts`}
      fetchPage={async (q) =>
        collection<Cart>(
          await unwrap(
            api.GET('/api/rest/v2/carts', {
              params: {
                query: {
                  customerId,
                  page: q.page,
                  itemsPerPage: q.pageSize,
                  ...(q.filters.isActive ? { isActive: q.filters.isActive === 'true' } : {}),
                },
              },
            }),
          ),
        )
      }
    />
  );
}

type WishlistItem = Row<'/api/rest/v2/customers/{customerId}/wishlist'>;

export function CustomerWishlist({ customerId }: { customerId: number }) {
  const { t } = useTranslation();
  const list = useQuery({
    queryKey: ['customer-wishlist', customerId],
    queryFn: async () =>
      rowsOf<WishlistItem>(await unwrap(api.GET('/api/rest/v2/customers/{customerId}/wishlist', { params: { path: { customerId } } }))),
  });
  return (
    <Section title={t('customers.tabs.wishlist')}>
      <ErrorNote error={list.error} />
      {list.isPending ? (
        <Spinner />
      ) : !list.data?.length ? (
        <p className="cm-muted">{t('customers.wishlist.empty')}</p>
      ) : (
        <div className="grid-scroll">
          <table>
            <caption className="sr-only">{t('customers.tabs.wishlist')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('customers.wishlist.product')}</th>
                <th scope="col">{t('customers.wishlist.sku')}</th>
                <th scope="col" className="num">
                  {t('customers.wishlist.qty')}
                </th>
                <th scope="col" className="num">
                  {t('customers.wishlist.price')}
                </th>
                <th scope="col">{t('customers.wishlist.stock')}</th>
                <th scope="col">{t('customers.wishlist.addedAt')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((w) => (
                <tr key={w.id}>
                  <td>
                    <Link to="/products/$productId" params={{ productId: String(w.productId) }}>
                      {w.productName}
                    </Link>
                    {w.description && <small> {w.description}</small>}
                  </td>
                  <td>{w.productSku}</td>
                  <td className="num">{formatNumber(w.qty)}</td>
                  <td className="num">{formatMoney(w.productFinalPrice ?? w.productPrice)}</td>
                  <td>
                    <YesNoBadge on={w.inStock} yes={t('customers.wishlist.inStock')} no={t('customers.wishlist.outOfStock')} />
                  </td>
                  <td>{when(w.addedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}
