/** Shipping an order: all or some of what is left of each line, with tracking numbers (carrier, title, number) and a comment. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api, unwrap } from '../../api/client';
import { CheckboxField, TextArea, useUnsavedChanges } from '../../components/ui';
import { ActionDialog, useAction } from '../sales/common';
import { QtyTable, chosenLines, startQuantities, type Quantities } from './QtyTable';
import { leftToShip, type OrderDetail } from './rules';

/** The carriers a tracking number can name (custom: any other). */
export const CARRIERS = ['custom', 'ups', 'usps', 'fedex', 'dhl'] as const;

export interface TrackDraft {
  key: number;
  carrierCode: string;
  title: string;
  trackNumber: string;
}

let nextKey = 1;
export const newTrack = (): TrackDraft => ({ key: nextKey++, carrierCode: 'custom', title: '', trackNumber: '' });

/** The tracking-number rows of a form: carrier, title and number each, added and removed by buttons. */
export function TrackRows(props: { tracks: TrackDraft[]; onChange: (t: TrackDraft[]) => void; error?: unknown; missing?: boolean }) {
  const { t } = useTranslation();
  const set = (key: number, patch: Partial<TrackDraft>) =>
    props.onChange(props.tracks.map((x) => (x.key === key ? { ...x, ...patch } : x)));
  const apiField = props.error instanceof ApiError ? props.error.field : undefined;
  return (
    <fieldset className="track-rows">
      <legend>{t('orders.trackingNumbers')}</legend>
      {props.tracks.map((tr, i) => {
        const n = i + 1;
        const numberError =
          props.missing && !tr.trackNumber.trim()
            ? t('orders.trackNumberRequired')
            : apiField?.startsWith(`tracks.${i}.`)
              ? (props.error as ApiError).message
              : undefined;
        return (
          <div key={tr.key} className="track-row" role="group" aria-label={t('orders.trackingNumberN', { n })}>
            <label>
              {t('orders.carrier')}
              <select value={tr.carrierCode} onChange={(e) => set(tr.key, { carrierCode: e.target.value })}>
                {CARRIERS.map((c) => (
                  <option key={c} value={c}>
                    {t(`orders.carriers.${c}`)}
                  </option>
                ))}
              </select>
            </label>
            <label>
              {t('orders.trackTitle')}
              <input value={tr.title} maxLength={255} onChange={(e) => set(tr.key, { title: e.target.value })} />
            </label>
            <label>
              {t('orders.trackNumber')}
              <input
                value={tr.trackNumber}
                maxLength={255}
                required
                aria-invalid={numberError ? true : undefined}
                aria-describedby={numberError ? `track-error-${tr.key}` : undefined}
                onChange={(e) => set(tr.key, { trackNumber: e.target.value })}
              />
              {numberError && (
                <small id={`track-error-${tr.key}`} className="field-error">
                  {numberError}
                </small>
              )}
            </label>
            <button
              type="button"
              aria-label={t('orders.removeTrackN', { n })}
              onClick={() => props.onChange(props.tracks.filter((x) => x.key !== tr.key))}
            >
              {t('orders.removeTrack')}
            </button>
          </div>
        );
      })}
      <button type="button" onClick={() => props.onChange([...props.tracks, newTrack()])}>
        {t('orders.addTrack')}
      </button>
    </fieldset>
  );
}

/** The tracks as the API takes them (a blank title is left to the API: the carrier's name). */
export function tracksToSend(tracks: TrackDraft[]) {
  return tracks.map((x) => ({
    carrierCode: x.carrierCode,
    ...(x.title.trim() ? { title: x.title.trim() } : {}),
    trackNumber: x.trackNumber.trim(),
  }));
}

export function ShipDialog(props: { order: OrderDetail; onClose: () => void; onDone: (message: string) => void }) {
  const { t } = useTranslation();
  const lines = props.order.items.filter((l) => leftToShip(l) > 0);
  const start = startQuantities(lines, leftToShip);
  const [qty, setQty] = useState<Quantities>(start);
  const [tracks, setTracks] = useState<TrackDraft[]>(() => [newTrack()]);
  const [comment, setComment] = useState('');
  const [notify, setNotify] = useState(false);
  const [sent, setSent] = useState<number[]>([]);
  const [nothing, setNothing] = useState(false);
  const [missing, setMissing] = useState(false);
  const dirty = comment !== '' || tracks.some((x) => x.trackNumber || x.title) || lines.some((l) => qty[l.id] !== start[l.id]);
  useUnsavedChanges(dirty);
  const action = useAction(async () => {
    const items = chosenLines(lines, qty, leftToShip);
    // a row left empty is dropped; a row with a title but no number is a mistake
    const rows = tracks.filter((x) => x.trackNumber.trim() || x.title.trim());
    setMissing(rows.some((x) => !x.trackNumber.trim()));
    if (!items || rows.some((x) => !x.trackNumber.trim())) return;
    setNothing(items.length === 0);
    if (!items.length) return;
    setSent(items.map((i) => i.orderItemId));
    const shipment = await unwrap(
      api.POST('/api/rest/v2/orders/{orderId}/shipments', {
        params: { path: { orderId: props.order.id } },
        body: {
          items,
          tracks: tracksToSend(rows),
          notifyCustomer: notify,
          ...(comment.trim() ? { comment: comment.trim() } : {}),
        },
      }),
    );
    props.onDone(t('orders.shipped', { number: shipment.incrementId }));
  });
  return (
    <ActionDialog
      open
      wide
      onOpenChange={(open) => !open && props.onClose()}
      title={t('orders.shipTitle', { number: props.order.incrementId })}
      description={t('orders.shipHint')}
      submitLabel={t('orders.submitShipment')}
      busy={action.busy}
      error={action.error}
      onSubmit={() => void action.go()}
    >
      <QtyTable
        caption={t('orders.itemsToShip')}
        fieldLabel="orders.qtyToShip"
        lines={lines}
        left={leftToShip}
        qty={qty}
        onChange={setQty}
        error={action.error}
        sent={sent}
      />
      {nothing && (
        <p className="field-error" role="alert">
          {t('orders.nothingChosen')}
        </p>
      )}
      <TrackRows tracks={tracks} onChange={setTracks} error={action.error} missing={missing} />
      <TextArea
        label={t('orders.commentOptional')}
        name="comment"
        value={comment}
        maxLength={65535}
        rows={3}
        onChange={(e) => setComment(e.target.value)}
        error={action.error}
      />
      <CheckboxField
        label={t('orders.notifyCustomer')}
        name="notifyCustomer"
        checked={notify}
        onChange={(e) => setNotify(e.target.checked)}
      />
    </ActionDialog>
  );
}
