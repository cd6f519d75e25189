/**
 * The parts of an order's page: the order and its customer, addresses, payment and shipping, the lines with how far
 * each got, the totals, its invoices, shipments and credit memos, and its history with the comment form.
 */
import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Row } from '../../api/client';
import { useSession } from '../../auth/session';
import { CheckboxField, ErrorNote, TextArea, useUnsavedChanges } from '../../components/ui';
import { formatMoney, formatNumber } from '../../i18n';
import { AddressBlock, Comments, Facts, InvoicePdfButton, StateBadge, Totals, useAction, when } from '../sales/common';
import type { OrderDetail, Shipment } from './rules';

type Invoice = Row<'/api/rest/v2/orders/{orderId}/invoices'>;
type CreditMemo = Row<'/api/rest/v2/orders/{orderId}/credit-memos'>;

export function OrderFacts({ order }: { order: OrderDetail }) {
  const { t } = useTranslation();
  const name = [order.customerFirstname, order.customerLastname].filter(Boolean).join(' ');
  return (
    <div className="panels">
      <section className="panel" aria-labelledby="order-info">
        <h2 id="order-info">{t('orders.orderInfo')}</h2>
        <Facts
          rows={[
            [t('orders.date'), when(order.createdAt)],
            [t('orders.storeView'), order.storeName],
            [t('orders.status'), order.statusLabel],
            [t('orders.placedFrom'), order.remoteIp],
          ]}
        />
      </section>
      <section className="panel" aria-labelledby="order-customer">
        <h2 id="order-customer">{t('orders.account')}</h2>
        <Facts
          rows={[
            [t('orders.customer'), name || undefined],
            [t('orders.email'), <a href={`mailto:${order.customerEmail}`}>{order.customerEmail}</a>],
            [t('orders.customerType'), order.customerIsGuest ? t('orders.guest') : t('orders.registered')],
            [t('orders.customerNote'), order.customerNote],
          ]}
        />
      </section>
      <section className="panel" aria-labelledby="order-billing">
        <h2 id="order-billing">{t('orders.billingAddress')}</h2>
        <AddressBlock address={order.billingAddress} />
      </section>
      <section className="panel" aria-labelledby="order-shipping">
        <h2 id="order-shipping">{t('orders.shippingAddress')}</h2>
        <AddressBlock address={order.isVirtual ? undefined : order.shippingAddress} />
      </section>
      <section className="panel" aria-labelledby="order-payment">
        <h2 id="order-payment">{t('orders.payment')}</h2>
        <Facts
          rows={[
            [t('orders.paymentMethod'), order.paymentMethodTitle],
            [t('orders.currency'), order.currency],
          ]}
        />
      </section>
      <section className="panel" aria-labelledby="order-delivery">
        <h2 id="order-delivery">{t('orders.shippingMethod')}</h2>
        <Facts
          rows={[
            [t('orders.shippingMethod'), order.isVirtual ? t('orders.noShipping') : (order.shippingDescription ?? order.shippingMethod)],
            [t('orders.shippingAmount'), formatMoney(order.prices.shippingAmount, order.currency)],
          ]}
        />
      </section>
    </div>
  );
}

export function OrderLines({ order }: { order: OrderDetail }) {
  const { t } = useTranslation();
  const c = order.currency;
  return (
    <section className="panel" aria-labelledby="order-items">
      <h2 id="order-items">{t('orders.items')}</h2>
      <div className="grid-scroll">
        <table>
          <caption className="sr-only">{t('orders.items')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('sales.product')}</th>
              <th scope="col" className="num">
                {t('sales.price')}
              </th>
              <th scope="col">{t('orders.quantities')}</th>
              <th scope="col" className="num">
                {t('sales.tax')}
              </th>
              <th scope="col" className="num">
                {t('sales.discount')}
              </th>
              <th scope="col" className="num">
                {t('sales.rowTotal')}
              </th>
            </tr>
          </thead>
          <tbody>
            {order.items.map((i) => (
              <tr key={i.id}>
                <td>
                  {i.name}
                  <br />
                  <small>{i.sku}</small>
                </td>
                <td className="num">{formatMoney(i.price, c)}</td>
                <td>
                  <ul className="order-qty" aria-label={t('orders.quantitiesOf', { name: i.name })}>
                    <li>{t('orders.qtyOrdered', { n: formatNumber(i.qtyOrdered) })}</li>
                    {i.qtyInvoiced > 0 && <li>{t('orders.qtyInvoiced', { n: formatNumber(i.qtyInvoiced) })}</li>}
                    {i.qtyShipped > 0 && <li>{t('orders.qtyShipped', { n: formatNumber(i.qtyShipped) })}</li>}
                    {i.qtyRefunded > 0 && <li>{t('orders.qtyRefunded', { n: formatNumber(i.qtyRefunded) })}</li>}
                    {i.qtyCanceled > 0 && <li>{t('orders.qtyCanceled', { n: formatNumber(i.qtyCanceled) })}</li>}
                  </ul>
                </td>
                <td className="num">{formatMoney(i.taxAmount ?? 0, c)}</td>
                <td className="num">{formatMoney(i.discountAmount ?? 0, c)}</td>
                <td className="num">{formatMoney(i.rowTotal, c)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export function OrderTotals({ order }: { order: OrderDetail }) {
  const { t } = useTranslation();
  const p = order.prices;
  const opt = (v: number) => (v ? v : undefined);
  return (
    <section className="panel" aria-labelledby="order-totals">
      <h2 id="order-totals">{t('orders.totals')}</h2>
      <Totals
        label={t('orders.totals')}
        currency={order.currency}
        strong={[t('orders.grandTotal'), t('orders.totalDue')]}
        rows={[
          [t('sales.subtotal'), p.subtotal],
          [t('sales.shipping'), p.shippingAmount],
          [t('sales.discount'), opt(p.discountAmount)],
          [t('sales.tax'), p.taxAmount],
          [t('orders.giftcards'), opt(p.giftcardAmount)],
          [t('orders.grandTotal'), p.grandTotal],
          [t('orders.totalInvoiced'), p.totalInvoiced],
          [t('orders.totalPaid'), p.totalPaid],
          [t('orders.totalRefunded'), p.totalRefunded],
          [t('orders.totalCanceled'), opt(p.totalCanceled)],
          [t('orders.totalDue'), p.totalDue],
        ]}
      />
    </section>
  );
}

/** The invoices, shipments and credit memos of the order, each linking to its page (where the role may read it). */
export function OrderDocuments(props: { order: OrderDetail; invoices?: Invoice[]; creditMemos?: CreditMemo[] }) {
  const { t } = useTranslation();
  const session = useSession();
  const { order } = props;
  const shipments = order.shipments as Shipment[];
  const c = order.currency;
  return (
    <div className="panels">
      {props.invoices && (
        <section className="panel" aria-labelledby="order-invoices">
          <h2 id="order-invoices">{t('sales.invoices')}</h2>
          {props.invoices.length === 0 ? (
            <p className="muted">{t('orders.noInvoices')}</p>
          ) : (
            <ul className="doc-list">
              {props.invoices.map((inv) => (
                <li key={inv.id}>
                  <Link to="/invoices/$invoiceId" params={{ invoiceId: String(inv.id) }}>
                    {t('sales.invoiceNumber', { number: inv.incrementId })}
                  </Link>
                  <StateBadge label={t(`sales.invoiceState.${inv.stateName}`)} />
                  <span>{formatMoney(inv.grandTotal, c)}</span>
                  <InvoicePdfButton orderId={order.id} invoiceId={inv.id} incrementId={inv.incrementId} />
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
      <section className="panel" aria-labelledby="order-shipments">
        <h2 id="order-shipments">{t('sales.shipments')}</h2>
        {shipments.length === 0 ? (
          <p className="muted">{t('orders.noShipments')}</p>
        ) : (
          <ul className="doc-list">
            {shipments.map((s) => (
              <li key={s.id}>
                {session.can('shipments') ? (
                  <Link to="/shipments/$shipmentId" params={{ shipmentId: String(s.id) }}>
                    {t('sales.shipmentNumber', { number: s.incrementId })}
                  </Link>
                ) : (
                  <span>{t('sales.shipmentNumber', { number: s.incrementId })}</span>
                )}
                <span>{t('sales.totalQtyN', { n: formatNumber(s.totalQty) })}</span>
                {s.tracks.map((tr) => (
                  <span key={tr.id} className="track">
                    {t('sales.trackLine', { title: tr.title, number: tr.trackNumber })}
                  </span>
                ))}
              </li>
            ))}
          </ul>
        )}
      </section>
      {props.creditMemos && (
        <section className="panel" aria-labelledby="order-memos">
          <h2 id="order-memos">{t('sales.creditMemos')}</h2>
          {props.creditMemos.length === 0 ? (
            <p className="muted">{t('orders.noCreditMemos')}</p>
          ) : (
            <ul className="doc-list">
              {props.creditMemos.map((m) => (
                <li key={m.id}>
                  <Link to="/credit-memos/$creditMemoId" params={{ creditMemoId: String(m.id) }}>
                    {t('sales.creditMemoNumber', { number: m.incrementId })}
                  </Link>
                  <StateBadge label={t(`sales.memoState.${m.state}`, { defaultValue: m.state })} />
                  <span>{formatMoney(m.grandTotal, c)}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}

/** The status history, newest first, and (for a role that may write orders) the comment form. */
export function OrderHistory(props: { order: OrderDetail; canComment: boolean; onDone: (message: string) => void }) {
  const { t } = useTranslation();
  const { order } = props;
  const [comment, setComment] = useState('');
  const [notify, setNotify] = useState(false);
  const [visible, setVisible] = useState(false);
  const [blank, setBlank] = useState(false);
  useUnsavedChanges(comment.trim() !== '');
  const send = useAction(async () => {
    setBlank(!comment.trim());
    if (!comment.trim()) return;
    await unwrap(
      api.POST('/api/rest/v2/orders/{id}/comments', {
        params: { path: { id: order.id } },
        body: { comment: comment.trim(), notifyCustomer: notify, visibleOnFront: visible },
      }),
    );
    setComment('');
    setNotify(false);
    setVisible(false);
    props.onDone(t('orders.commentAdded'));
  });
  return (
    <section className="panel" aria-labelledby="order-history">
      <h2 id="order-history">{t('orders.history')}</h2>
      {props.canComment && (
        <form
          className="comment-form"
          onSubmit={(e) => {
            e.preventDefault();
            void send.go();
          }}
        >
          <TextArea
            label={t('orders.comment')}
            name="comment"
            value={comment}
            rows={3}
            maxLength={10000}
            required
            onChange={(e) => setComment(e.target.value)}
            error={send.error}
          />
          {blank && (
            <p className="field-error" role="alert">
              {t('orders.commentRequired')}
            </p>
          )}
          <CheckboxField
            label={t('orders.notifyCustomer')}
            name="notifyCustomer"
            checked={notify}
            onChange={(e) => setNotify(e.target.checked)}
          />
          <CheckboxField
            label={t('orders.visibleOnFront')}
            name="visibleOnFront"
            checked={visible}
            onChange={(e) => setVisible(e.target.checked)}
          />
          <ErrorNote error={send.error} />
          <div className="form-actions">
            <button type="submit" className="primary" disabled={send.busy}>
              {t('orders.addComment')}
            </button>
          </div>
        </form>
      )}
      <Comments
        label={t('orders.history')}
        entries={order.statusHistory}
        status={(s) => t(`orders.statusName.${s}`, { defaultValue: s })}
      />
    </section>
  );
}
