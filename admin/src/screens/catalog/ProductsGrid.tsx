/**
 * The products grid: every product with its type, status, visibility, stock and price, in a chosen store view
 * (names and status as that store view has them), searched by SKU or name, sorted and filtered by the API;
 * enable, disable or delete the selected products.
 */
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { collection, filterQuery } from '../../api/lists';
import { useSession } from '../../auth/session';
import { DataGrid, type BulkAction, type GridColumn } from '../../components/DataGrid';
import { PageHeader } from '../../components/ui';
import { formatDate, formatMoney, formatNumber } from '../../i18n';
import { PRODUCT_TYPES, VISIBILITIES, inStore, useStoreWebsites, type ProductRow } from './shared';
import './catalog.css';

export function ProductsGrid() {
  const { t } = useTranslation();
  const { can } = useSession();
  const stores = useStoreWebsites();
  const columns: GridColumn<ProductRow>[] = [
    { id: 'name', header: t('catalog.products.name'), cell: (p) => p.name, sort: 'name' },
    { id: 'sku', header: t('catalog.products.sku'), cell: (p) => p.sku, sort: 'sku', filter: { param: 'sku', type: 'text' } },
    { id: 'id', header: t('catalog.products.id'), cell: (p) => String(p.id), sort: 'entity_id', hidden: true, align: 'end' },
    {
      id: 'type',
      header: t('catalog.products.type'),
      cell: (p) => t(`catalog.type.${p.type}`, { defaultValue: p.type }),
      csv: (p) => p.type,
      sort: 'type',
      filter: { param: 'type', type: 'select', options: PRODUCT_TYPES.map((v) => ({ value: v, label: t(`catalog.type.${v}`) })) },
    },
    {
      id: 'status',
      header: t('catalog.products.status'),
      cell: (p) => <span className={`badge status-${p.status}`}>{t(`catalog.status.${p.status}`, { defaultValue: p.status })}</span>,
      csv: (p) => p.status,
      sort: 'status',
      filter: {
        param: 'status',
        type: 'select',
        options: ['enabled', 'disabled'].map((v) => ({ value: v, label: t(`catalog.status.${v}`) })),
      },
    },
    {
      id: 'visibility',
      header: t('catalog.products.visibility'),
      cell: (p) => t(`catalog.visibility.${p.visibility}`, { defaultValue: p.visibility }),
      csv: (p) => p.visibility,
      sort: 'visibility',
      filter: {
        param: 'visibility',
        type: 'select',
        options: VISIBILITIES.map((v) => ({ value: v, label: t(`catalog.visibility.${v}`) })),
      },
    },
    {
      id: 'stock',
      header: t('catalog.products.stock'),
      cell: (p) => t(`catalog.stock.${p.stockStatus}`, { defaultValue: p.stockStatus }),
      csv: (p) => p.stockStatus,
      filter: {
        param: 'stockStatus',
        type: 'select',
        options: ['in_stock', 'out_of_stock'].map((v) => ({ value: v, label: t(`catalog.stock.${v}`) })),
      },
    },
    {
      id: 'qty',
      header: t('catalog.products.qty'),
      cell: (p) => formatNumber(p.stockQty),
      csv: (p) => (p.stockQty === undefined ? '' : String(p.stockQty)),
      align: 'end',
    },
    {
      id: 'price',
      header: t('catalog.products.price'),
      cell: (p) => formatMoney(p.price, p.currency),
      csv: (p) => (p.price === undefined ? '' : String(p.price)),
      sort: 'price',
      filter: { param: 'priceMin', type: 'number' },
      align: 'end',
    },
    {
      id: 'store',
      header: t('catalog.products.storeView'),
      cell: (p) =>
        stores
          .filter((s) => p.websiteIds?.includes(s.websiteId))
          .map((s) => s.name)
          .join(', '),
      filter: { param: 'store', type: 'select', options: stores.map((s) => ({ value: s.code, label: s.name })) },
      hidden: true,
    },
    {
      id: 'updatedAt',
      header: t('catalog.products.updatedAt'),
      cell: (p) => formatDate(p.updatedAt),
      csv: (p) => p.updatedAt,
      sort: 'updated_at',
      hidden: true,
    },
    {
      id: 'createdAt',
      header: t('catalog.products.createdAt'),
      cell: (p) => formatDate(p.createdAt),
      csv: (p) => p.createdAt,
      sort: 'created_at',
      filter: { param: 'createdFrom', type: 'date' },
    },
  ];

  const setStatus = (status: 'enabled' | 'disabled') => async (rows: ProductRow[]) => {
    for (const p of rows) await unwrap(api.PUT('/api/rest/v2/products/{id}', { params: { path: { id: p.id } }, body: { status } }));
  };
  const bulk: BulkAction<ProductRow>[] = [];
  if (can('products', 'write')) {
    bulk.push({ label: t('catalog.products.enable'), run: setStatus('enabled') });
    bulk.push({ label: t('catalog.products.disable'), run: setStatus('disabled') });
  }
  if (can('products', 'delete')) {
    bulk.push({
      label: t('catalog.products.delete'),
      confirm: t('catalog.products.confirmDelete'),
      run: async (rows) => {
        for (const p of rows) await unwrap(api.DELETE('/api/rest/v2/products/{id}', { params: { path: { id: p.id } } }));
      },
    });
  }

  return (
    <>
      <PageHeader
        title={t('catalog.products.title')}
        actions={
          can('products', 'create') ? (
            <Link to="/products/new" className="button primary">
              {t('catalog.products.add')}
            </Link>
          ) : undefined
        }
      />
      <DataGrid<ProductRow>
        id="products"
        label={t('catalog.products.title')}
        columns={columns}
        rowKey={(p) => p.id}
        rowLink={(p) => (
          <Link to="/products/$productId" params={{ productId: String(p.id) }}>
            {p.name}
          </Link>
        )}
        searchable
        bulkActions={bulk}
        exportName="products"
        fetchPage={async (q) => {
          const { store = '', ...filters } = q.filters;
          return collection<ProductRow>(
            await unwrap(
              api.GET('/api/rest/v2/products', {
                params: {
                  query: {
                    page: q.page,
                    itemsPerPage: q.pageSize,
                    ...(q.search ? { search: q.search } : {}),
                    ...(q.sort ? { sortBy: q.sort as 'name', sortDir: q.order } : {}),
                    ...filterQuery(filters, ['priceMin']),
                  },
                },
                ...inStore(store),
              }),
            ),
          );
        }}
      />
    </>
  );
}
