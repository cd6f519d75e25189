/**
 * Gift cards: searched by code or recipient, filtered by status and website, sorted by code, balances and dates;
 * disabled and enabled again in bulk; CSV export.
 */
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Row } from '../../api/client';
import { collection } from '../../api/lists';
import { useSession } from '../../auth/session';
import { DataGrid, type BulkAction, type GridColumn } from '../../components/DataGrid';
import { PageHeader } from '../../components/ui';
import { formatMoney } from '../../i18n';
import { when } from '../sales/common';
import { gridQuery, nameOf, useWebsites } from '../customers/shared';
import { GIFTCARD_STATUSES } from './shared';

type GiftCard = Row<'/api/rest/v2/giftcards'>;

export function GiftCardStatus({ status }: { status: string }) {
  const { t } = useTranslation();
  return (
    <span className={`cm-badge ${status === 'active' ? 'on' : status === 'disabled' ? 'off' : 'warn'}`}>
      {t(`marketing.giftcards.statuses.${status}`, { defaultValue: status })}
    </span>
  );
}

export function GiftCardsGrid() {
  const { t } = useTranslation();
  const session = useSession();
  const websites = useWebsites();
  const columns: GridColumn<GiftCard>[] = [
    { id: 'code', header: t('marketing.giftcards.code'), cell: (g) => g.code, sort: 'code' },
    {
      id: 'status',
      header: t('marketing.giftcards.status'),
      cell: (g) => <GiftCardStatus status={g.status} />,
      csv: (g) => g.status,
      filter: {
        param: 'status',
        type: 'select',
        options: GIFTCARD_STATUSES.map((s) => ({ value: s, label: t(`marketing.giftcards.statuses.${s}`) })),
      },
    },
    {
      id: 'balance',
      header: t('marketing.giftcards.balance'),
      cell: (g) => formatMoney(g.balance, g.currencyCode),
      csv: (g) => String(g.balance),
      sort: 'balance',
      align: 'end',
    },
    {
      id: 'initialBalance',
      header: t('marketing.giftcards.initialBalance'),
      cell: (g) => formatMoney(g.initialBalance, g.currencyCode),
      csv: (g) => String(g.initialBalance),
      sort: 'initialBalance',
      align: 'end',
    },
    {
      id: 'websites',
      header: t('marketing.giftcards.websites'),
      cell: (g) => g.websiteIds.map((id) => nameOf(websites, id)).join(', '),
      filter: { param: 'websiteId', type: 'select', options: websites.map((w) => ({ value: String(w.id), label: w.name })) },
    },
    {
      id: 'recipient',
      header: t('marketing.giftcards.recipient'),
      cell: (g) => [g.recipientName, g.recipientEmail].filter(Boolean).join(' · '),
    },
    {
      id: 'expiresAt',
      header: t('marketing.giftcards.expiresAt'),
      cell: (g) => when(g.expiresAt),
      csv: (g) => g.expiresAt ?? '',
      sort: 'expiresAt',
    },
    {
      id: 'createdAt',
      header: t('marketing.giftcards.createdAt'),
      cell: (g) => when(g.createdAt),
      csv: (g) => g.createdAt,
      sort: 'createdAt',
    },
    {
      id: 'updatedAt',
      header: t('marketing.giftcards.updatedAt'),
      cell: (g) => when(g.updatedAt),
      csv: (g) => g.updatedAt,
      sort: 'updatedAt',
      hidden: true,
    },
  ];
  const bulk: BulkAction<GiftCard>[] = session.can('giftcards', 'write')
    ? (['active', 'disabled'] as const).map((status) => ({
        label: status === 'active' ? t('marketing.bulk.enable') : t('marketing.bulk.disable'),
        run: async (rows: GiftCard[]) => {
          for (const g of rows) await unwrap(api.PUT('/api/rest/v2/giftcards/{id}', { params: { path: { id: g.id } }, body: { status } }));
        },
      }))
    : [];
  return (
    <>
      <PageHeader
        title={t('marketing.giftcards.title')}
        actions={
          session.can('giftcards', 'create') && (
            <Link to="/giftcards/new" className="button primary">
              {t('marketing.giftcards.new')}
            </Link>
          )
        }
      />
      <DataGrid<GiftCard>
        id="giftcards"
        label={t('marketing.giftcards.title')}
        columns={columns}
        rowKey={(g) => g.id}
        rowLink={(g) => (
          <Link to="/giftcards/$giftcardId" params={{ giftcardId: String(g.id) }}>
            {g.code}
          </Link>
        )}
        searchable
        bulkActions={bulk}
        exportName="giftcards"
        fetchPage={async (q) =>
          collection<GiftCard>(await unwrap(api.GET('/api/rest/v2/giftcards', { params: { query: gridQuery(q, ['websiteId']) } })))
        }
      />
    </>
  );
}
