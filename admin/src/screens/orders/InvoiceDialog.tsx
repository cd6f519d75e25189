/** Invoicing an order: all or some of what is left of each line, captured offline (paid) or left open, with a comment. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { CheckboxField, SelectField, TextArea, useUnsavedChanges } from '../../components/ui';
import { ActionDialog, useAction } from '../sales/common';
import { QtyTable, chosenLines, startQuantities, type Quantities } from './QtyTable';
import { leftToInvoice, type OrderDetail } from './rules';

export function InvoiceDialog(props: { order: OrderDetail; onClose: () => void; onDone: (message: string) => void }) {
  const { t } = useTranslation();
  const lines = props.order.items.filter((l) => leftToInvoice(l) > 0);
  const start = startQuantities(lines, leftToInvoice);
  const [qty, setQty] = useState<Quantities>(start);
  const [capture, setCapture] = useState<'offline' | 'not_capture'>('offline');
  const [comment, setComment] = useState('');
  const [notify, setNotify] = useState(false);
  const [sent, setSent] = useState<number[]>([]);
  const [nothing, setNothing] = useState(false);
  const dirty = comment !== '' || lines.some((l) => qty[l.id] !== start[l.id]);
  useUnsavedChanges(dirty);
  const action = useAction(async () => {
    const items = chosenLines(lines, qty, leftToInvoice);
    if (!items) return;
    setNothing(items.length === 0);
    if (!items.length) return;
    setSent(items.map((i) => i.orderItemId));
    const invoice = await unwrap(
      api.POST('/api/rest/v2/orders/{orderId}/invoices', {
        params: { path: { orderId: props.order.id } },
        body: { items, capture, notifyCustomer: notify, ...(comment.trim() ? { comment: comment.trim() } : {}) },
      }),
    );
    props.onDone(t('orders.invoiced', { number: invoice.incrementId }));
  });
  return (
    <ActionDialog
      open
      wide
      onOpenChange={(open) => !open && props.onClose()}
      title={t('orders.invoiceTitle', { number: props.order.incrementId })}
      description={t('orders.invoiceHint')}
      submitLabel={t('orders.submitInvoice')}
      busy={action.busy}
      error={action.error}
      onSubmit={() => void action.go()}
    >
      <QtyTable
        caption={t('orders.itemsToInvoice')}
        fieldLabel="orders.qtyToInvoice"
        lines={lines}
        left={leftToInvoice}
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
      <SelectField
        label={t('orders.capture')}
        name="capture"
        value={capture}
        onChange={(e) => setCapture(e.target.value as 'offline' | 'not_capture')}
        options={[
          { value: 'offline', label: t('orders.captureOffline') },
          { value: 'not_capture', label: t('orders.captureNot') },
        ]}
        error={action.error}
      />
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
