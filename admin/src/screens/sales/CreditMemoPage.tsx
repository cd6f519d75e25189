/** A credit memo's page: its order and invoice, state, lines (back to stock or not), refunded amounts and comments. */
import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { useSession } from '../../auth/session';
import { ErrorNote, PageHeader, Spinner } from '../../components/ui';
import { Comments, DocLines, Facts, StateBadge, Totals, when } from './common';

export function CreditMemoPage({ creditMemoId }: { creditMemoId: string }) {
  const { t } = useTranslation();
  const session = useSession();
  const id = /^\d{1,10}$/.test(creditMemoId) ? Number(creditMemoId) : 0;
  const memo = useQuery({
    queryKey: ['creditMemo', id],
    queryFn: () => unwrap(api.GET('/api/rest/v2/credit-memos/{id}', { params: { path: { id } } })),
    enabled: id > 0,
  });
  if (!id) return <ErrorNote error={new Error(t('sales.creditMemoNotFound'))} />;
  if (memo.isPending) return <Spinner />;
  if (memo.error || !memo.data) return <ErrorNote error={memo.error} />;
  const m = memo.data;
  const c = m.currency;
  const stocked = new Map(m.items.map((i) => [i.id, i.backToStock]));
  return (
    <div className="sales-page">
      <p className="breadcrumb">
        <Link to="/credit-memos">{t('sales.backToCreditMemos')}</Link>
      </p>
      <PageHeader title={t('sales.creditMemoNumber', { number: m.incrementId })}>
        <StateBadge label={t(`sales.memoState.${m.state}`, { defaultValue: m.state })} tone={m.state === 'refunded' ? 'ok' : undefined} />
      </PageHeader>
      <div className="panels">
        <section className="panel" aria-labelledby="memo-info">
          <h2 id="memo-info">{t('sales.creditMemoInfo')}</h2>
          <Facts
            rows={[
              [
                t('sales.order'),
                session.can('orders') ? (
                  <Link to="/orders/$orderId" params={{ orderId: String(m.orderId) }}>
                    {m.orderIncrementId}
                  </Link>
                ) : (
                  m.orderIncrementId
                ),
              ],
              [
                t('sales.invoice'),
                m.invoiceId && session.can('invoices') ? (
                  <Link to="/invoices/$invoiceId" params={{ invoiceId: String(m.invoiceId) }}>
                    {t('sales.viewInvoice')}
                  </Link>
                ) : undefined,
              ],
              [t('sales.date'), when(m.createdAt)],
              [t('sales.emailSent'), m.emailSent ? t('common.yes') : t('common.no')],
            ]}
          />
        </section>
        <section className="panel" aria-labelledby="memo-totals">
          <h2 id="memo-totals">{t('sales.totals')}</h2>
          <Totals
            label={t('sales.totals')}
            currency={c}
            strong={[t('sales.refunded')]}
            rows={[
              [t('sales.subtotal'), m.subtotal],
              [t('sales.shipping'), m.shippingAmount],
              [t('sales.discount'), m.discountAmount || undefined],
              [t('sales.tax'), m.taxAmount],
              [t('sales.adjustmentRefund'), m.adjustmentPositive],
              [t('sales.adjustmentFee'), m.adjustmentNegative ? -m.adjustmentNegative : 0],
              [t('sales.refunded'), m.grandTotal],
            ]}
          />
        </section>
      </div>
      <section className="panel" aria-labelledby="memo-items">
        <h2 id="memo-items">{t('sales.items')}</h2>
        <DocLines
          label={t('sales.items')}
          lines={m.items}
          currency={c}
          extra={(l) => (stocked.get(l.id) ? t('sales.backToStock') : t('sales.notBackToStock'))}
        />
      </section>
      <section className="panel" aria-labelledby="memo-comments">
        <h2 id="memo-comments">{t('sales.comments')}</h2>
        <Comments label={t('sales.comments')} entries={m.comments} />
      </section>
    </div>
  );
}
