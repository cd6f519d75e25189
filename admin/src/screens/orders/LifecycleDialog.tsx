/** Canceling an order, putting it on hold or releasing it: asked first, with an optional reason kept in its history. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { TextArea } from '../../components/ui';
import { ActionDialog, useAction } from '../sales/common';
import type { OrderDetail } from './rules';

export type LifecycleAction = 'cancel' | 'hold' | 'unhold';

/** POST /orders/{id}/cancel, /hold or /unhold with an optional reason; answers the order as it now is. */
export function runLifecycle(action: LifecycleAction, orderId: number, reason?: string) {
  const init = { params: { path: { id: orderId } }, body: reason ? { reason } : {} };
  switch (action) {
    case 'cancel':
      return unwrap(api.POST('/api/rest/v2/orders/{id}/cancel', init));
    case 'hold':
      return unwrap(api.POST('/api/rest/v2/orders/{id}/hold', init));
    case 'unhold':
      return unwrap(api.POST('/api/rest/v2/orders/{id}/unhold', init));
  }
}

export function LifecycleDialog(props: {
  action: LifecycleAction;
  order: OrderDetail;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const a = props.action;
  const run = useAction(async () => {
    await runLifecycle(a, props.order.id, reason.trim() || undefined);
    props.onDone(t(`orders.${a}Done`, { number: props.order.incrementId }));
  });
  return (
    <ActionDialog
      open
      onOpenChange={(open) => !open && props.onClose()}
      title={t(`orders.${a}Title`, { number: props.order.incrementId })}
      description={t(`orders.${a}Hint`)}
      submitLabel={t(`orders.${a}Submit`)}
      danger={a === 'cancel'}
      busy={run.busy}
      error={run.error}
      onSubmit={() => void run.go()}
    >
      <TextArea
        label={t('orders.reasonOptional')}
        name="reason"
        value={reason}
        maxLength={1000}
        rows={3}
        onChange={(e) => setReason(e.target.value)}
        error={run.error}
      />
    </ActionDialog>
  );
}
