/** Webhook subscriptions: where events go, which events, their health; filtered by status and event, (de)activated or deleted in bulk. */
import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Row } from '../../api/client';
import { collection } from '../../api/lists';
import { useSession } from '../../auth/session';
import { DataGrid, type BulkAction, type GridColumn } from '../../components/DataGrid';
import { PageHeader } from '../../components/ui';
import { Badge, when } from './common';
import './system.css';

type Webhook = Row<'/api/rest/v2/webhooks'>;

/** The events a subscription may name, read once. */
export function useEventTypes() {
  return useQuery({
    queryKey: ['webhooks', 'events'],
    queryFn: async () => collection<{ type: string; description: string }>(await unwrap(api.GET('/api/rest/v2/webhooks/events'))).items,
    staleTime: 10 * 60_000,
  });
}

export function WebhookStatus({ hook }: { hook: Webhook }) {
  const { t } = useTranslation();
  if (hook.disabledAt) return <Badge tone="warn">{t('system.webhooks.disabled')}</Badge>;
  if (!hook.active) return <Badge tone="muted">{t('system.inactive')}</Badge>;
  if (hook.failingSince) return <Badge tone="warn">{t('system.webhooks.failing')}</Badge>;
  return <Badge tone="ok">{t('system.active')}</Badge>;
}

export function WebhooksGrid() {
  const { t } = useTranslation();
  const session = useSession();
  const events = useEventTypes();
  const columns: GridColumn<Webhook>[] = [
    { id: 'url', header: t('system.webhooks.url'), cell: (h) => h.url },
    { id: 'description', header: t('system.webhooks.description'), cell: (h) => h.description ?? '' },
    {
      id: 'events',
      header: t('system.webhooks.events'),
      cell: (h) => h.events.join(', '),
      filter: {
        param: 'event',
        type: 'select',
        options: (events.data ?? []).map((e) => ({ value: e.type, label: e.type })),
      },
    },
    {
      id: 'status',
      header: t('system.users.status'),
      cell: (h) => <WebhookStatus hook={h} />,
      csv: (h) => (h.disabledAt ? 'disabled' : h.active ? 'active' : 'inactive'),
      filter: {
        param: 'active',
        type: 'select',
        options: [
          { value: 'true', label: t('system.active') },
          { value: 'false', label: t('system.inactive') },
        ],
      },
    },
    { id: 'stores', header: t('system.storeViews'), cell: (h) => h.storeCodes?.join(', ') ?? t('system.everyStoreView') },
    { id: 'createdAt', header: t('system.created'), cell: (h) => when(h.createdAt), csv: (h) => h.createdAt, hidden: true },
  ];
  const setActive = (active: boolean) => async (rows: Webhook[]) => {
    for (const h of rows) await unwrap(api.PUT('/api/rest/v2/webhooks/{id}', { params: { path: { id: h.id } }, body: { active } }));
  };
  const bulk: BulkAction<Webhook>[] = [
    ...(session.can('webhooks', 'write')
      ? [
          { label: t('system.webhooks.activate'), run: setActive(true) },
          { label: t('system.webhooks.deactivate'), run: setActive(false) },
        ]
      : []),
    ...(session.can('webhooks', 'delete')
      ? [
          {
            label: t('common.delete'),
            confirm: t('system.webhooks.deleteSelectedConfirm'),
            run: async (rows: Webhook[]) => {
              for (const h of rows) await unwrap(api.DELETE('/api/rest/v2/webhooks/{id}', { params: { path: { id: h.id } } }));
            },
          },
        ]
      : []),
  ];
  return (
    <>
      <PageHeader
        title={t('system.webhooks.title')}
        actions={
          session.can('webhooks', 'create') && (
            <Link className="button sys-primary" to="/webhooks/new">
              {t('system.webhooks.new')}
            </Link>
          )
        }
      />
      <DataGrid<Webhook>
        id="webhooks"
        label={t('system.webhooks.title')}
        columns={columns}
        rowKey={(h) => h.id}
        rowLink={(h) => (
          <Link to="/webhooks/$webhookId" params={{ webhookId: String(h.id) }}>
            {h.url}
          </Link>
        )}
        bulkActions={bulk}
        exportName="webhooks"
        fetchPage={async (q) =>
          collection<Webhook>(
            await unwrap(
              api.GET('/api/rest/v2/webhooks', {
                params: {
                  query: {
                    page: q.page,
                    itemsPerPage: q.pageSize,
                    ...(q.filters.event ? { event: q.filters.event } : {}),
                    ...(q.filters.active ? { active: q.filters.active === 'true' } : {}),
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
