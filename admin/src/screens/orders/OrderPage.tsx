/**
 * An order's page: what was ordered and how far it got, its documents and history, and the actions its state and
 * the user's role allow (invoice, ship, refund, cancel, hold, release, comment; each invoice's PDF). Each action
 * is asked in a dialog; after it the page reads the order again and says what happened.
 */
import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Row } from '../../api/client';
import { collection } from '../../api/lists';
import { useSession } from '../../auth/session';
import { ErrorNote, Notice, PageHeader, Spinner } from '../../components/ui';
import { StateBadge } from '../sales/common';
import { InvoiceDialog } from './InvoiceDialog';
import { LifecycleDialog, type LifecycleAction } from './LifecycleDialog';
import { OrderDocuments, OrderFacts, OrderHistory, OrderLines, OrderTotals } from './OrderSections';
import { RefundDialog } from './RefundDialog';
import { allowedActions, type OrderAction } from './rules';
import { ShipDialog } from './ShipDialog';
import './orders.css';

type Invoice = Row<'/api/rest/v2/orders/{orderId}/invoices'>;
type CreditMemo = Row<'/api/rest/v2/orders/{orderId}/credit-memos'>;

/** The tone of an order state's badge. */
export function stateTone(state: string): 'ok' | 'warn' | 'stop' | undefined {
  if (state === 'complete' || state === 'closed') return 'ok';
  if (state === 'holded' || state === 'payment_review') return 'warn';
  if (state === 'canceled') return 'stop';
  return undefined;
}

const BUTTONS: OrderAction[] = ['invoice', 'ship', 'refund', 'hold', 'unhold', 'cancel'];

export function OrderPage({ orderId }: { orderId: string }) {
  const { t } = useTranslation();
  const session = useSession();
  const qc = useQueryClient();
  const id = /^\d{1,10}$/.test(orderId) ? Number(orderId) : 0;
  const [dialog, setDialog] = useState<OrderAction>();
  const [done, setDone] = useState<string>();
  const order = useQuery({
    queryKey: ['order', id],
    queryFn: () => unwrap(api.GET('/api/rest/v2/orders/{id}', { params: { path: { id } } })),
    enabled: id > 0,
  });
  const canInvoices = session.can('invoices');
  const canMemos = session.can('credit-memos');
  const invoices = useQuery({
    queryKey: ['order', id, 'invoices'],
    queryFn: async () =>
      collection<Invoice>(await unwrap(api.GET('/api/rest/v2/orders/{orderId}/invoices', { params: { path: { orderId: id } } }))).items,
    enabled: id > 0 && canInvoices,
  });
  const memos = useQuery({
    queryKey: ['order', id, 'creditMemos'],
    queryFn: async () =>
      collection<CreditMemo>(await unwrap(api.GET('/api/rest/v2/orders/{orderId}/credit-memos', { params: { path: { orderId: id } } })))
        .items,
    enabled: id > 0 && canMemos,
  });

  if (!id) return <ErrorNote error={new Error(t('orders.notFound'))} />;
  if (order.isPending) return <Spinner />;
  if (order.error || !order.data) return <ErrorNote error={order.error ?? new Error(t('orders.notFound'))} />;
  const o = order.data;
  const allowed = allowedActions(o, (r, op) => session.can(r, op));
  const stateLabel = t(`orders.state.${o.state}`, { defaultValue: o.state });

  async function finished(message: string) {
    setDialog(undefined);
    setDone(message);
    await Promise.all([qc.invalidateQueries({ queryKey: ['order', id] }), qc.invalidateQueries({ queryKey: ['grid'] })]);
  }
  const close = () => setDialog(undefined);

  return (
    <div className="order-page">
      <p className="breadcrumb">
        <Link to="/orders">{t('orders.backToOrders')}</Link>
      </p>
      <PageHeader
        title={t('orders.orderTitle', { number: o.incrementId })}
        actions={BUTTONS.filter((a) => allowed.has(a)).map((a) => (
          <button
            key={a}
            type="button"
            className={a === 'cancel' ? 'danger' : a === 'invoice' || a === 'ship' ? 'primary' : undefined}
            onClick={() => {
              setDone(undefined);
              setDialog(a);
            }}
          >
            {t(`orders.action.${a}`)}
          </button>
        ))}
      >
        <StateBadge label={stateLabel} tone={stateTone(o.state)} />
        {o.statusLabel !== stateLabel && <span className="muted">{o.statusLabel}</span>}
      </PageHeader>
      {done && <Notice>{done}</Notice>}
      <ErrorNote error={invoices.error ?? memos.error} />
      <OrderFacts order={o} />
      <OrderLines order={o} />
      <div className="order-columns">
        <OrderHistory order={o} canComment={allowed.has('comment')} onDone={(m) => void finished(m)} />
        <OrderTotals order={o} />
      </div>
      <OrderDocuments
        order={o}
        invoices={canInvoices ? (invoices.data ?? []) : undefined}
        creditMemos={canMemos ? (memos.data ?? []) : undefined}
      />
      {dialog === 'invoice' && <InvoiceDialog order={o} onClose={close} onDone={(m) => void finished(m)} />}
      {dialog === 'ship' && <ShipDialog order={o} onClose={close} onDone={(m) => void finished(m)} />}
      {dialog === 'refund' && <RefundDialog order={o} onClose={close} onDone={(m) => void finished(m)} />}
      {(dialog === 'cancel' || dialog === 'hold' || dialog === 'unhold') && (
        <LifecycleDialog action={dialog as LifecycleAction} order={o} onClose={close} onDone={(m) => void finished(m)} />
      )}
    </div>
  );
}
