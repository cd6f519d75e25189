/**
 * A shipment's page: its order, lines, tracking numbers and comments; adding and removing tracking numbers and
 * adding a comment (optionally mailed to the customer), as the user's role allows.
 */
import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { useSession } from '../../auth/session';
import { CheckboxField, ErrorNote, Notice, PageHeader, Spinner, TextArea, useUnsavedChanges } from '../../components/ui';
import { formatNumber } from '../../i18n';
import { TrackRows, newTrack, tracksToSend, type TrackDraft } from '../orders/ShipDialog';
import { Comments, Facts, useAction, when } from './common';

export function ShipmentPage({ shipmentId }: { shipmentId: string }) {
  const { t } = useTranslation();
  const session = useSession();
  const qc = useQueryClient();
  const id = /^\d{1,10}$/.test(shipmentId) ? Number(shipmentId) : 0;
  const [done, setDone] = useState<string>();
  const [tracks, setTracks] = useState<TrackDraft[]>(() => [newTrack()]);
  const [missing, setMissing] = useState(false);
  const [comment, setComment] = useState('');
  const [notify, setNotify] = useState(false);
  const [visible, setVisible] = useState(false);
  useUnsavedChanges(comment.trim() !== '' || tracks.some((x) => x.trackNumber.trim() !== ''));
  const shipment = useQuery({
    queryKey: ['shipment', id],
    queryFn: () => unwrap(api.GET('/api/rest/v2/shipments/{id}', { params: { path: { id } } })),
    enabled: id > 0,
  });
  const refresh = async (message: string) => {
    setDone(message);
    await Promise.all([
      qc.invalidateQueries({ queryKey: ['shipment', id] }),
      qc.invalidateQueries({ queryKey: ['order', shipment.data?.orderId] }),
      qc.invalidateQueries({ queryKey: ['grid'] }),
    ]);
  };
  const addTracks = useAction(async () => {
    const rows = tracks.filter((x) => x.trackNumber.trim() || x.title.trim());
    setMissing(rows.length === 0 || rows.some((x) => !x.trackNumber.trim()));
    if (rows.length === 0 || rows.some((x) => !x.trackNumber.trim())) return;
    for (const body of tracksToSend(rows)) await unwrap(api.POST('/api/rest/v2/shipments/{id}/tracks', { params: { path: { id } }, body }));
    setTracks([newTrack()]);
    await refresh(t('sales.tracksAdded'));
  });
  const removeTrack = useAction(async (trackId: number, number: string) => {
    await unwrap(api.DELETE('/api/rest/v2/shipments/{id}/tracks/{trackId}', { params: { path: { id, trackId } } }));
    await refresh(t('sales.trackRemoved', { number }));
  });
  const addComment = useAction(async () => {
    await unwrap(
      api.POST('/api/rest/v2/shipments/{id}/comments', {
        params: { path: { id } },
        body: { comment: comment.trim(), notifyCustomer: notify, visibleOnFront: visible },
      }),
    );
    setComment('');
    setNotify(false);
    setVisible(false);
    await refresh(t('sales.commentAdded'));
  });
  if (!id) return <ErrorNote error={new Error(t('sales.shipmentNotFound'))} />;
  if (shipment.isPending) return <Spinner />;
  if (shipment.error || !shipment.data) return <ErrorNote error={shipment.error} />;
  const s = shipment.data;
  const canDelete = session.can('shipments', 'delete');
  return (
    <div className="sales-page">
      <p className="breadcrumb">
        <Link to="/shipments">{t('sales.backToShipments')}</Link>
      </p>
      <PageHeader title={t('sales.shipmentNumber', { number: s.incrementId })} />
      {done && <Notice>{done}</Notice>}
      <section className="panel" aria-labelledby="shipment-info">
        <h2 id="shipment-info">{t('sales.shipmentInfo')}</h2>
        <Facts
          rows={[
            [
              t('sales.order'),
              session.can('orders') ? (
                <Link to="/orders/$orderId" params={{ orderId: String(s.orderId) }}>
                  {s.orderIncrementId}
                </Link>
              ) : (
                s.orderIncrementId
              ),
            ],
            [t('sales.date'), when(s.createdAt)],
            [t('sales.totalQty'), formatNumber(s.totalQty)],
            [t('sales.emailSent'), s.emailSent ? t('common.yes') : t('common.no')],
          ]}
        />
      </section>
      <section className="panel" aria-labelledby="shipment-items">
        <h2 id="shipment-items">{t('sales.items')}</h2>
        <table>
          <caption className="sr-only">{t('sales.items')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('sales.product')}</th>
              <th scope="col">{t('sales.sku')}</th>
              <th scope="col" className="num">
                {t('sales.qty')}
              </th>
            </tr>
          </thead>
          <tbody>
            {s.items.map((i) => (
              <tr key={i.id}>
                <td>{i.name}</td>
                <td>{i.sku}</td>
                <td className="num">{formatNumber(i.qty)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="panel" aria-labelledby="shipment-tracks">
        <h2 id="shipment-tracks">{t('sales.trackingNumbers')}</h2>
        {s.tracks.length === 0 ? (
          <p className="muted">{t('sales.noTracks')}</p>
        ) : (
          <table>
            <caption className="sr-only">{t('sales.trackingNumbers')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('sales.carrier')}</th>
                <th scope="col">{t('sales.trackTitle')}</th>
                <th scope="col">{t('sales.trackNumber')}</th>
                {canDelete && <th scope="col">{t('sales.more')}</th>}
              </tr>
            </thead>
            <tbody>
              {s.tracks.map((tr) => (
                <tr key={tr.id}>
                  <td>{t(`orders.carriers.${tr.carrier}`, { defaultValue: tr.carrier })}</td>
                  <td>{tr.title}</td>
                  <td>{tr.trackNumber}</td>
                  {canDelete && (
                    <td>
                      <button
                        type="button"
                        className="danger"
                        disabled={removeTrack.busy}
                        aria-label={t('sales.removeTrackOf', { number: tr.trackNumber })}
                        onClick={() => {
                          if (window.confirm(t('sales.removeTrackConfirm', { number: tr.trackNumber })))
                            void removeTrack.go(tr.id, tr.trackNumber);
                        }}
                      >
                        {t('sales.remove')}
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <ErrorNote error={removeTrack.error} />
        {session.can('shipments', 'create') && (
          <form
            className="track-form"
            onSubmit={(e) => {
              e.preventDefault();
              void addTracks.go();
            }}
          >
            <TrackRows tracks={tracks} onChange={setTracks} error={addTracks.error} missing={missing} />
            <ErrorNote error={addTracks.error} />
            <div className="form-actions">
              <button type="submit" className="primary" disabled={addTracks.busy}>
                {t('sales.saveTracks')}
              </button>
            </div>
          </form>
        )}
      </section>
      <section className="panel" aria-labelledby="shipment-comments">
        <h2 id="shipment-comments">{t('sales.comments')}</h2>
        {session.can('shipments', 'write') && (
          <form
            className="comment-form"
            onSubmit={(e) => {
              e.preventDefault();
              if (comment.trim()) void addComment.go();
            }}
          >
            <TextArea
              label={t('sales.comment')}
              name="comment"
              value={comment}
              rows={3}
              maxLength={65535}
              required
              onChange={(e) => setComment(e.target.value)}
              error={addComment.error}
            />
            <CheckboxField
              label={t('sales.notifyCustomer')}
              name="notifyCustomer"
              checked={notify}
              onChange={(e) => setNotify(e.target.checked)}
            />
            <CheckboxField
              label={t('sales.showOnFront')}
              name="visibleOnFront"
              checked={visible}
              onChange={(e) => setVisible(e.target.checked)}
            />
            <ErrorNote error={addComment.error} />
            <div className="form-actions">
              <button type="submit" className="primary" disabled={addComment.busy}>
                {t('sales.addComment')}
              </button>
            </div>
          </form>
        )}
        <Comments label={t('sales.comments')} entries={s.comments} />
      </section>
    </div>
  );
}
