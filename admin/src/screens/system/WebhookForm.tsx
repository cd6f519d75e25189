/**
 * A webhook subscription: its address, events, store views and state; the signing secret shown once at creation
 * and at each rotation; a ping; and its deliveries, redelivered in bulk or one by one from a delivery's page.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Answer, type Row } from '../../api/client';
import { collection } from '../../api/lists';
import { useSession } from '../../auth/session';
import { DataGrid, type GridColumn } from '../../components/DataGrid';
import {
  CheckboxField,
  ErrorNote,
  fieldError,
  Notice,
  PageHeader,
  Spinner,
  TextArea,
  TextField,
  useStoreViews,
  useUnsavedChanges,
} from '../../components/ui';
import { Badge, ShownOnce, confirmed, handOver, handedOver, letGo, when } from './common';
import { EventPicker } from './EventPicker';
import { WebhookStatus, useEventTypes } from './WebhooksGrid';
import './system.css';

type Webhook = Answer<'/api/rest/v2/webhooks/{id}', 'get'>;
type Delivery = Row<'/api/rest/v2/webhooks/{id}/deliveries'>;

interface Draft {
  url: string;
  description: string;
  events: string[];
  active: boolean;
  storeCodes: string[] | null;
}

const EMPTY: Draft = { url: '', description: '', events: [], active: true, storeCodes: null };
const draftOf = (h: Webhook): Draft => ({
  url: h.url,
  description: h.description ?? '',
  events: h.events,
  active: h.active,
  storeCodes: h.storeCodes ?? null,
});

export function DeliveryStatus({ status }: { status: string }) {
  const { t } = useTranslation();
  return (
    <Badge tone={status === 'succeeded' ? 'ok' : status === 'failed' ? 'warn' : 'muted'}>
      {t(`system.webhooks.status.${status}`, { defaultValue: status })}
    </Badge>
  );
}

export function WebhookForm({ webhookId }: { webhookId?: string }) {
  const id = webhookId ? Number(webhookId) : undefined;
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const events = useEventTypes();
  const stores = useStoreViews();
  const hook = useQuery({
    queryKey: ['webhooks', id],
    queryFn: () => unwrap(api.GET('/api/rest/v2/webhooks/{id}', { params: { path: { id: id! } } })),
    enabled: id !== undefined,
  });
  const [initial, setInitial] = useState<Draft>(EMPTY);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [error, setError] = useState<unknown>();
  const [done, setDone] = useState<string>();
  const [busy, setBusy] = useState(false);
  const secretKey = `webhook-secret-${id}`;
  const [secret, setSecret] = useState<string | undefined>(() => handedOver(secretKey)?.[0]);
  useEffect(() => {
    if (hook.data) {
      setInitial(draftOf(hook.data));
      setDraft(draftOf(hook.data));
    }
  }, [hook.data]);
  const dirty = JSON.stringify(draft) !== JSON.stringify(initial);
  useUnsavedChanges(dirty && !busy);
  const canWrite = session.can('webhooks', id === undefined ? 'create' : 'write');
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setDraft((d) => ({ ...d, [k]: v }));

  async function act(fn: () => Promise<string | undefined>) {
    setBusy(true);
    setError(undefined);
    setDone(undefined);
    try {
      setDone(await fn());
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  function save(e: FormEvent) {
    e.preventDefault();
    void act(async () => {
      const body = {
        url: draft.url.trim(),
        description: draft.description.trim() || null,
        events: draft.events,
        active: draft.active,
        storeCodes: draft.storeCodes?.length ? draft.storeCodes : null,
      };
      if (id === undefined) {
        const created = await unwrap(api.POST('/api/rest/v2/webhooks', { body }));
        setInitial(draft);
        if (created.secret) handOver(`webhook-secret-${created.id}`, [created.secret]);
        await qc.invalidateQueries({ queryKey: ['grid', 'webhooks'] });
        await navigate({ to: '/webhooks/$webhookId', params: { webhookId: String(created.id) }, replace: true });
        return undefined;
      }
      qc.setQueryData(['webhooks', id], await unwrap(api.PUT('/api/rest/v2/webhooks/{id}', { params: { path: { id } }, body })));
      await qc.invalidateQueries({ queryKey: ['grid', 'webhooks'] });
      return t('common.saved');
    });
  }

  if (id !== undefined && hook.isPending) return <Spinner />;
  if (id !== undefined && hook.error) return <ErrorNote error={hook.error} />;
  const h = hook.data;
  const title = h ? t('system.webhooks.editTitle', { url: h.url }) : t('system.webhooks.new');
  return (
    <>
      <PageHeader
        title={title}
        actions={
          h && (
            <>
              {session.can('webhooks', 'write') && (
                <>
                  <button
                    type="button"
                    disabled={busy}
                    onClick={() =>
                      void act(async () => {
                        const d = await unwrap(api.POST('/api/rest/v2/webhooks/{id}/ping', { params: { path: { id: h.id } } }));
                        await qc.invalidateQueries({ queryKey: ['grid', `webhook-deliveries-${h.id}`] });
                        return d.status === 'succeeded'
                          ? t('system.webhooks.pingOk', { code: d.lastStatusCode ?? '' })
                          : t('system.webhooks.pingFailed', { error: d.lastError ?? d.lastStatusCode ?? '' });
                      })
                    }
                  >
                    {t('system.webhooks.ping')}
                  </button>
                  <button
                    type="button"
                    disabled={busy}
                    onClick={() =>
                      confirmed(t('system.webhooks.rotateConfirm')) &&
                      void act(async () => {
                        const r = await unwrap(api.POST('/api/rest/v2/webhooks/{id}/rotate-secret', { params: { path: { id: h.id } } }));
                        const { secret: s, ...rest } = r;
                        qc.setQueryData(['webhooks', h.id], rest);
                        setSecret(s);
                        return t('system.webhooks.rotated');
                      })
                    }
                  >
                    {t('system.webhooks.rotate')}
                  </button>
                </>
              )}
              {session.can('webhooks', 'delete') && (
                <button
                  type="button"
                  className="danger"
                  disabled={busy}
                  onClick={() =>
                    confirmed(t('system.webhooks.deleteConfirm', { url: h.url })) &&
                    void act(async () => {
                      await unwrap(api.DELETE('/api/rest/v2/webhooks/{id}', { params: { path: { id: h.id } } }));
                      setInitial(draft);
                      await qc.invalidateQueries({ queryKey: ['grid', 'webhooks'] });
                      await navigate({ to: '/webhooks' });
                      return undefined;
                    })
                  }
                >
                  {t('common.delete')}
                </button>
              )}
            </>
          )
        }
      />
      {secret && (
        <ShownOnce
          title={t('system.webhooks.secretTitle')}
          note={t('system.webhooks.secretNote')}
          values={[secret]}
          onClose={() => {
            letGo(secretKey);
            setSecret(undefined);
          }}
        />
      )}
      {done && <Notice>{done}</Notice>}
      <ErrorNote error={error} />
      {h && (
        <section className="panel" aria-labelledby="hook-health">
          <h2 id="hook-health">{t('system.webhooks.health')}</h2>
          <dl className="sys-facts">
            <dt>{t('system.users.status')}</dt>
            <dd>
              <WebhookStatus hook={h} />
            </dd>
            {h.failingSince && (
              <>
                <dt>{t('system.webhooks.failingSince')}</dt>
                <dd>{when(h.failingSince)}</dd>
              </>
            )}
            {h.disabledAt && (
              <>
                <dt>{t('system.webhooks.disabledAt')}</dt>
                <dd>
                  {when(h.disabledAt)} {h.disabledReason}
                </dd>
              </>
            )}
            {h.previousSecretExpiresAt && (
              <>
                <dt>{t('system.webhooks.previousSecret')}</dt>
                <dd>{when(h.previousSecretExpiresAt)}</dd>
              </>
            )}
          </dl>
        </section>
      )}
      <form className="panel" onSubmit={save} aria-label={title}>
        <fieldset className="sys-plain" disabled={!canWrite || busy}>
          <TextField
            label={t('system.webhooks.url')}
            name="url"
            type="url"
            operationId="webhooks.create"
            error={error}
            value={draft.url}
            onChange={(e) => set('url', e.target.value)}
            required
            hint={t('system.webhooks.urlHint')}
          />
          <TextArea
            label={t('system.webhooks.description')}
            name="description"
            error={error}
            value={draft.description}
            maxLength={1000}
            rows={2}
            onChange={(e) => set('description', e.target.value)}
          />
          <CheckboxField
            label={t('system.active')}
            name="active"
            checked={draft.active}
            onChange={(e) => set('active', e.target.checked)}
          />
          <EventPicker
            types={events.data ?? []}
            value={draft.events}
            onChange={(v) => set('events', v)}
            error={fieldError(error, 'events')}
          />
          <fieldset className="store-views-field">
            <legend>{t('system.storeViews')}</legend>
            <label className="checkbox">
              <input
                type="checkbox"
                checked={draft.storeCodes === null}
                onChange={(e) => set('storeCodes', e.target.checked ? null : [])}
              />
              {t('system.everyStoreView')}
            </label>
            {draft.storeCodes !== null &&
              stores.map((s) => (
                <label key={s.code} className="checkbox">
                  <input
                    type="checkbox"
                    checked={draft.storeCodes!.includes(s.code)}
                    onChange={(e) =>
                      set('storeCodes', e.target.checked ? [...draft.storeCodes!, s.code] : draft.storeCodes!.filter((c) => c !== s.code))
                    }
                  />
                  {s.name}
                </label>
              ))}
            {fieldError(error, 'storeCodes') && <small className="field-error">{fieldError(error, 'storeCodes')}</small>}
          </fieldset>
          <div className="form-actions">
            <button type="submit" className="primary" disabled={!canWrite || busy || (id !== undefined && !dirty)}>
              {id === undefined ? t('common.create') : t('common.save')}
            </button>
          </div>
        </fieldset>
      </form>
      {h && <Deliveries hookId={h.id} />}
    </>
  );
}

function Deliveries({ hookId }: { hookId: number }) {
  const { t } = useTranslation();
  const session = useSession();
  const events = useEventTypes();
  const columns: GridColumn<Delivery>[] = [
    { id: 'createdAt', header: t('system.created'), cell: (d) => when(d.createdAt), csv: (d) => d.createdAt },
    {
      id: 'event',
      header: t('system.webhooks.event'),
      cell: (d) => d.event,
      filter: { param: 'event', type: 'select', options: (events.data ?? []).map((e) => ({ value: e.type, label: e.type })) },
    },
    { id: 'resource', header: t('system.webhooks.resource'), cell: (d) => `${d.resourceType} ${d.resourceId}` },
    {
      id: 'status',
      header: t('system.users.status'),
      cell: (d) => <DeliveryStatus status={d.status} />,
      csv: (d) => d.status,
      filter: {
        param: 'status',
        type: 'select',
        options: ['pending', 'succeeded', 'failed'].map((s) => ({ value: s, label: t(`system.webhooks.status.${s}`) })),
      },
    },
    { id: 'attempts', header: t('system.webhooks.attempts'), cell: (d) => String(d.attempts), align: 'end' },
    { id: 'code', header: t('system.webhooks.lastCode'), cell: (d) => (d.lastStatusCode ?? d.lastError ?? '').toString() },
    {
      id: 'deliveredAt',
      header: t('system.webhooks.deliveredAt'),
      cell: (d) => when(d.deliveredAt),
      csv: (d) => d.deliveredAt ?? '',
      hidden: true,
    },
  ];
  return (
    <section aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">{t('system.webhooks.deliveries')}</h2>
      <DataGrid<Delivery>
        id={`webhook-deliveries-${hookId}`}
        label={t('system.webhooks.deliveries')}
        columns={columns}
        rowKey={(d) => d.id}
        rowLink={(d) => (
          <Link to="/webhooks/$webhookId/deliveries/$deliveryId" params={{ webhookId: String(hookId), deliveryId: String(d.id) }}>
            {when(d.createdAt)}
          </Link>
        )}
        bulkActions={
          session.can('webhooks', 'write')
            ? [
                {
                  label: t('system.webhooks.redeliver'),
                  run: async (rows) => {
                    for (const d of rows) {
                      await unwrap(
                        api.POST('/api/rest/v2/webhooks/{id}/deliveries/{deliveryId}/redeliver', {
                          params: { path: { id: hookId, deliveryId: d.id } },
                        }),
                      );
                    }
                  },
                },
              ]
            : []
        }
        exportName={`webhook-${hookId}-deliveries`}
        fetchPage={async (q) =>
          collection<Delivery>(
            await unwrap(
              api.GET('/api/rest/v2/webhooks/{id}/deliveries', {
                params: {
                  path: { id: hookId },
                  query: {
                    page: q.page,
                    itemsPerPage: q.pageSize,
                    ...(q.filters.event ? { event: q.filters.event } : {}),
                    ...(q.filters.status ? { status: q.filters.status as 'pending' | 'succeeded' | 'failed' } : {}),
                  },
                },
              }),
            ),
          )
        }
      />
    </section>
  );
}
