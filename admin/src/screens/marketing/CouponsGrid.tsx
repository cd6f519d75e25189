/**
 * Coupons with their rules: searched by code or rule name, filtered by code, discount type and state, sorted by
 * code, rule, amount, uses, dates and priority; enabled, disabled and deleted in bulk; CSV export.
 */
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Row } from '../../api/client';
import { collection } from '../../api/lists';
import { useSession } from '../../auth/session';
import { DataGrid, type BulkAction, type GridColumn } from '../../components/DataGrid';
import { PageHeader } from '../../components/ui';
import { formatMoney, formatNumber } from '../../i18n';
import { YesNoBadge, boolOptions, gridQuery } from '../customers/shared';
import { DISCOUNT_TYPES, formatDay } from './shared';

type Coupon = Row<'/api/rest/v2/coupons'>;

/** The amount as its type means it: a percentage, money, or the Y of buy X get Y. */
export function discountText(c: { discountType: string; discountAmount: number }): string {
  if (c.discountType === 'percent') return `${formatNumber(c.discountAmount)} %`;
  if (c.discountType === 'buy_x_get_y') return formatNumber(c.discountAmount);
  return formatMoney(c.discountAmount);
}

export function CouponsGrid() {
  const { t } = useTranslation();
  const session = useSession();
  const columns: GridColumn<Coupon>[] = [
    { id: 'code', header: t('marketing.coupons.code'), cell: (c) => c.code, sort: 'code', filter: { param: 'code', type: 'text' } },
    { id: 'rule', header: t('marketing.coupons.ruleName'), cell: (c) => c.ruleName, sort: 'ruleName' },
    {
      id: 'type',
      header: t('marketing.coupons.discountType'),
      cell: (c) => t(`marketing.coupons.types.${c.discountType}`, { defaultValue: c.discountType }),
      csv: (c) => c.discountType,
      filter: {
        param: 'discountType',
        type: 'select',
        options: DISCOUNT_TYPES.map((d) => ({ value: d, label: t(`marketing.coupons.types.${d}`) })),
      },
    },
    {
      id: 'amount',
      header: t('marketing.coupons.discountAmount'),
      cell: discountText,
      csv: (c) => String(c.discountAmount),
      sort: 'discountAmount',
      align: 'end',
    },
    {
      id: 'status',
      header: t('marketing.coupons.status'),
      cell: (c) => <YesNoBadge on={c.isActive} yes={t('marketing.status.enabled')} no={t('marketing.status.disabled')} />,
      csv: (c) => (c.isActive ? 'enabled' : 'disabled'),
      filter: { param: 'isActive', type: 'select', options: boolOptions(t('marketing.status.enabled'), t('marketing.status.disabled')) },
    },
    {
      id: 'used',
      header: t('marketing.coupons.timesUsed'),
      cell: (c) => (c.usageLimit ? `${formatNumber(c.timesUsed)} / ${formatNumber(c.usageLimit)}` : formatNumber(c.timesUsed)),
      csv: (c) => String(c.timesUsed),
      sort: 'timesUsed',
      align: 'end',
    },
    {
      id: 'from',
      header: t('marketing.coupons.fromDate'),
      cell: (c) => formatDay(c.fromDate),
      csv: (c) => c.fromDate ?? '',
      sort: 'fromDate',
    },
    { id: 'to', header: t('marketing.coupons.toDate'), cell: (c) => formatDay(c.toDate), csv: (c) => c.toDate ?? '', sort: 'toDate' },
    {
      id: 'priority',
      header: t('marketing.coupons.sortOrder'),
      cell: (c) => String(c.sortOrder),
      sort: 'sortOrder',
      hidden: true,
      align: 'end',
    },
  ];
  const bulk: BulkAction<Coupon>[] = [];
  if (session.can('coupons', 'write'))
    for (const isActive of [true, false])
      bulk.push({
        label: isActive ? t('marketing.bulk.enable') : t('marketing.bulk.disable'),
        run: async (rows) => {
          for (const c of rows) await unwrap(api.PUT('/api/rest/v2/coupons/{id}', { params: { path: { id: c.id } }, body: { isActive } }));
        },
      });
  if (session.can('coupons', 'delete'))
    bulk.push({
      label: t('marketing.bulk.delete'),
      confirm: t('marketing.coupons.bulkDeleteConfirm'),
      run: async (rows) => {
        for (const c of rows) await unwrap(api.DELETE('/api/rest/v2/coupons/{id}', { params: { path: { id: c.id } } }));
      },
    });
  return (
    <>
      <PageHeader
        title={t('marketing.coupons.title')}
        actions={
          session.can('coupons', 'create') && (
            <Link to="/coupons/new" className="button primary">
              {t('marketing.coupons.new')}
            </Link>
          )
        }
      />
      <DataGrid<Coupon>
        id="coupons"
        label={t('marketing.coupons.title')}
        columns={columns}
        rowKey={(c) => c.id}
        rowLink={(c) => (
          <Link to="/coupons/$couponId" params={{ couponId: String(c.id) }}>
            {c.code}
          </Link>
        )}
        searchable
        bulkActions={bulk}
        exportName="coupons"
        fetchPage={async (q) => collection<Coupon>(await unwrap(api.GET('/api/rest/v2/coupons', { params: { query: gridQuery(q) } })))}
      />
    </>
  );
}
