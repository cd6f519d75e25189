/**
 * Refunding an order (a credit memo, offline): what is invoiced and not yet refunded of each line, back to stock or
 * not, the shipping to refund, an adjustment refund and an adjustment fee, and a comment.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { CheckboxField, TextArea, TextField, useUnsavedChanges } from '../../components/ui';
import { formatMoney } from '../../i18n';
import { ActionDialog, useAction } from '../sales/common';
import { QtyTable, chosenLines, type Quantities } from './QtyTable';
import { leftToRefund, qtyOf, type OrderDetail } from './rules';

type Money = 'shippingAmount' | 'adjustmentPositive' | 'adjustmentNegative';

export function RefundDialog(props: { order: OrderDetail; onClose: () => void; onDone: (message: string) => void }) {
  const { t } = useTranslation();
  const lines = props.order.items.filter((l) => leftToRefund(l) > 0);
  const [qty, setQty] = useState<Quantities>(() => Object.fromEntries(lines.map((l) => [l.id, String(leftToRefund(l))])));
  const [stock, setStock] = useState<Record<number, boolean>>({});
  const [money, setMoney] = useState<Record<Money, string>>({ shippingAmount: '', adjustmentPositive: '', adjustmentNegative: '' });
  const [comment, setComment] = useState('');
  const [notify, setNotify] = useState(false);
  const [sent, setSent] = useState<number[]>([]);
  const [bad, setBad] = useState<Money[]>([]);
  const [nothing, setNothing] = useState(false);
  const p = props.order.prices;
  const currency = props.order.currency;
  const dirty =
    comment !== '' ||
    Object.values(money).some((v) => v !== '') ||
    Object.values(stock).some(Boolean) ||
    lines.some((l) => qty[l.id] !== String(leftToRefund(l)));
  useUnsavedChanges(dirty);
  const action = useAction(async () => {
    const items = chosenLines(lines, qty, leftToRefund);
    const wrong = (Object.keys(money) as Money[]).filter((k) => {
      const v = qtyOf(money[k]);
      return !Number.isFinite(v) || v < 0;
    });
    setBad(wrong);
    if (!items || wrong.length) return;
    // the API reads no line as every line: at least one is chosen here
    setNothing(items.length === 0);
    if (!items.length) return;
    setSent(items.map((i) => i.orderItemId));
    const amounts = Object.fromEntries(
      (Object.keys(money) as Money[]).filter((k) => money[k].trim() !== '').map((k) => [k, qtyOf(money[k])]),
    );
    const memo = await unwrap(
      api.POST('/api/rest/v2/orders/{orderId}/credit-memos', {
        params: { path: { orderId: props.order.id } },
        body: {
          items: items.map((i) => ({ ...i, backToStock: !!stock[i.orderItemId] })),
          ...amounts,
          notifyCustomer: notify,
          offlineRefund: true,
          ...(comment.trim() ? { comment: comment.trim() } : {}),
        },
      }),
    );
    props.onDone(t('orders.refunded', { number: memo.incrementId, amount: formatMoney(memo.grandTotal, currency) }));
  });
  const moneyField = (name: Money, label: string, hint?: string) => (
    <TextField
      label={label}
      name={name}
      type="number"
      inputMode="decimal"
      min={0}
      step="0.01"
      value={money[name]}
      hint={hint}
      onChange={(e) => setMoney((m) => ({ ...m, [name]: e.target.value }))}
      error={action.error}
    />
  );
  return (
    <ActionDialog
      open
      wide
      onOpenChange={(open) => !open && props.onClose()}
      title={t('orders.refundTitle', { number: props.order.incrementId })}
      description={t('orders.refundHint', { paid: formatMoney(p.totalPaid, currency), refunded: formatMoney(p.totalRefunded, currency) })}
      submitLabel={t('orders.submitRefund')}
      busy={action.busy}
      error={action.error}
      onSubmit={() => void action.go()}
    >
      <QtyTable
        caption={t('orders.itemsToRefund')}
        fieldLabel="orders.qtyToRefund"
        lines={lines}
        left={leftToRefund}
        qty={qty}
        onChange={setQty}
        error={action.error}
        sent={sent}
        extraHeader={t('orders.backToStock')}
        extra={(l) => (
          <input
            type="checkbox"
            aria-label={t('orders.backToStockOf', { name: l.name })}
            checked={!!stock[l.id]}
            onChange={(e) => setStock((s) => ({ ...s, [l.id]: e.target.checked }))}
          />
        )}
      />
      {nothing && (
        <p className="field-error" role="alert">
          {t('orders.nothingChosen')}
        </p>
      )}
      <div className="form-grid">
        {moneyField('shippingAmount', t('orders.refundShipping'), t('orders.refundShippingHint'))}
        {moneyField('adjustmentPositive', t('orders.adjustmentRefund'))}
        {moneyField('adjustmentNegative', t('orders.adjustmentFee'))}
      </div>
      {bad.length > 0 && (
        <p className="field-error" role="alert">
          {t('orders.amountInvalid')}
        </p>
      )}
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
