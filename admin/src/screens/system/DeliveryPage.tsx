/** One webhook delivery: the event, its state and the log of every attempt; sent again on demand. */
import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { useSession } from '../../auth/session';
import { ErrorNote, Notice, PageHeader, Spinner } from '../../components/ui';
import { when } from './common';
import { DeliveryStatus } from './WebhookForm';
import './system.css';

export function DeliveryPage({ webhookId, deliveryId }: { webhookId: string; deliveryId: string }) {
  const { t } = useTranslation();
  const session = useSession();
  const qc = useQueryClient();
  const path = { id: Number(webhookId), deliveryId: Number(deliveryId) };
  const key = ['webhooks', path.id, 'deliveries', path.deliveryId];
  const delivery = useQuery({
    queryKey: key,
    queryFn: () => unwrap(api.GET('/api/rest/v2/webhooks/{id}/deliveries/{deliveryId}', { params: { path } })),
  });
  const [error, setError] = useState<unknown>();
  const [done, setDone] = useState<string>();
  const [busy, setBusy] = useState(false);
  if (delivery.isPending) return <Spinner />;
  if (delivery.error) return <ErrorNote error={delivery.error} />;
  const d = delivery.data;
  return (
    <>
      <PageHeader
        title={t('system.webhooks.deliveryTitle', { event: d.event, id: d.id })}
        actions={
          <>
            <Link to="/webhooks/$webhookId" params={{ webhookId }}>
              {t('system.webhooks.backToSubscription')}
            </Link>
            {session.can('webhooks', 'write') && (
              <button
                type="button"
                className="primary"
                disabled={busy}
                onClick={async () => {
                  setBusy(true);
                  setError(undefined);
                  setDone(undefined);
                  try {
                    const again = await unwrap(
                      api.POST('/api/rest/v2/webhooks/{id}/deliveries/{deliveryId}/redeliver', { params: { path } }),
                    );
                    qc.setQueryData(key, again);
                    await qc.invalidateQueries({ queryKey: ['grid', `webhook-deliveries-${path.id}`] });
                    setDone(
                      t('system.webhooks.redelivered', {
                        status: t(`system.webhooks.status.${again.status}`, { defaultValue: again.status }),
                      }),
                    );
                  } catch (err) {
                    setError(err);
                  } finally {
                    setBusy(false);
                  }
                }}
              >
                {t('system.webhooks.redeliver')}
              </button>
            )}
          </>
        }
      />
      {done && <Notice>{done}</Notice>}
      <ErrorNote error={error} />
      <section className="panel" aria-labelledby="delivery-facts">
        <h2 id="delivery-facts">{t('system.webhooks.delivery')}</h2>
        <dl className="sys-facts">
          <dt>{t('system.webhooks.event')}</dt>
          <dd>
            <code>{d.event}</code> ({d.eventId})
          </dd>
          <dt>{t('system.webhooks.resource')}</dt>
          <dd>
            {d.resourceType} {d.resourceId}
          </dd>
          <dt>{t('system.users.status')}</dt>
          <dd>
            <DeliveryStatus status={d.status} />
          </dd>
          <dt>{t('system.created')}</dt>
          <dd>{when(d.createdAt)}</dd>
          <dt>{t('system.webhooks.deliveredAt')}</dt>
          <dd>{when(d.deliveredAt) || '—'}</dd>
          {d.nextAttemptAt && (
            <>
              <dt>{t('system.webhooks.nextAttempt')}</dt>
              <dd>{when(d.nextAttemptAt)}</dd>
            </>
          )}
        </dl>
      </section>
      <section className="panel" aria-labelledby="delivery-attempts">
        <h2 id="delivery-attempts">{t('system.webhooks.attemptLog')}</h2>
        <div className="grid-scroll">
          <table>
            <caption className="sr-only">{t('system.webhooks.attemptLog')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('system.webhooks.attempt')}</th>
                <th scope="col">{t('system.created')}</th>
                <th scope="col">{t('system.webhooks.lastCode')}</th>
                <th scope="col">{t('system.webhooks.duration')}</th>
                <th scope="col">{t('system.webhooks.answer')}</th>
              </tr>
            </thead>
            <tbody>
              {(d.attemptLog ?? []).map((a) => (
                <tr key={a.attempt}>
                  <td className="num">{a.attempt}</td>
                  <td>{when(a.createdAt)}</td>
                  <td>{a.statusCode ?? a.error ?? ''}</td>
                  <td className="num">{t('system.webhooks.ms', { ms: a.durationMs })}</td>
                  <td>
                    <code className="answer">{a.response ?? ''}</code>
                  </td>
                </tr>
              ))}
              {!d.attemptLog?.length && (
                <tr>
                  <td colSpan={5}>{t('system.webhooks.noAttempts')}</td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}
