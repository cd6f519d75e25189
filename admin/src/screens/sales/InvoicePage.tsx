/**
 * An invoice's page: its order, state, lines, totals and comments, its PDF, and what its state and the user's role
 * allow: capture or cancel an open invoice, void one paid by a capture.
 */
import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { useSession } from '../../auth/session';
import { ErrorNote, Notice, PageHeader, Spinner } from '../../components/ui';
import { ActionDialog, Comments, DocLines, Facts, InvoicePdfButton, StateBadge, Totals, useAction, when } from './common';

type InvoiceAction = 'capture' | 'void' | 'cancel';

function runInvoiceAction(action: InvoiceAction, id: number) {
  const init = { params: { path: { id } } };
  switch (action) {
    case 'capture':
      return unwrap(api.POST('/api/rest/v2/invoices/{id}/capture', init));
    case 'void':
      return unwrap(api.POST('/api/rest/v2/invoices/{id}/void', init));
    case 'cancel':
      return unwrap(api.POST('/api/rest/v2/invoices/{id}/cancel', init));
  }
}

export function InvoicePage({ invoiceId }: { invoiceId: string }) {
  const { t } = useTranslation();
  const session = useSession();
  const qc = useQueryClient();
  const id = /^\d{1,10}$/.test(invoiceId) ? Number(invoiceId) : 0;
  const [dialog, setDialog] = useState<InvoiceAction>();
  const [done, setDone] = useState<string>();
  const invoice = useQuery({
    queryKey: ['invoice', id],
    queryFn: () => unwrap(api.GET('/api/rest/v2/invoices/{id}', { params: { path: { id } } })),
    enabled: id > 0,
  });
  const action = useAction(async (a: InvoiceAction) => {
    const after = await runInvoiceAction(a, id);
    setDialog(undefined);
    setDone(t(`sales.invoiceDone.${a}`, { number: after.incrementId }));
    await Promise.all([
      qc.invalidateQueries({ queryKey: ['invoice', id] }),
      qc.invalidateQueries({ queryKey: ['order', after.orderId] }),
      qc.invalidateQueries({ queryKey: ['grid'] }),
    ]);
  });
  if (!id) return <ErrorNote error={new Error(t('sales.invoiceNotFound'))} />;
  if (invoice.isPending) return <Spinner />;
  if (invoice.error || !invoice.data) return <ErrorNote error={invoice.error} />;
  const inv = invoice.data;
  const write = session.can('invoices', 'write');
  const actions: InvoiceAction[] = [];
  if (write && inv.stateName === 'open') actions.push('capture', 'cancel');
  if (write && inv.stateName === 'paid' && inv.canVoidFlag) actions.push('void');
  const c = inv.currency;
  return (
    <div className="sales-page">
      <p className="breadcrumb">
        <Link to="/invoices">{t('sales.backToInvoices')}</Link>
      </p>
      <PageHeader
        title={t('sales.invoiceNumber', { number: inv.incrementId })}
        actions={
          <>
            {session.can('invoices') && (
              <InvoicePdfButton orderId={inv.orderId} invoiceId={inv.id} incrementId={inv.incrementId} label={t('sales.downloadPdf')} />
            )}
            {actions.map((a) => (
              <button
                key={a}
                type="button"
                className={a === 'capture' ? 'primary' : 'danger'}
                onClick={() => {
                  action.reset();
                  setDone(undefined);
                  setDialog(a);
                }}
              >
                {t(`sales.invoiceAction.${a}`)}
              </button>
            ))}
          </>
        }
      >
        <StateBadge
          label={t(`sales.invoiceState.${inv.stateName}`)}
          tone={inv.stateName === 'paid' ? 'ok' : inv.stateName === 'canceled' ? 'stop' : 'warn'}
        />
      </PageHeader>
      {done && <Notice>{done}</Notice>}
      <div className="panels">
        <section className="panel" aria-labelledby="invoice-info">
          <h2 id="invoice-info">{t('sales.invoiceInfo')}</h2>
          <Facts
            rows={[
              [
                t('sales.order'),
                session.can('orders') ? (
                  <Link to="/orders/$orderId" params={{ orderId: String(inv.orderId) }}>
                    {inv.orderIncrementId}
                  </Link>
                ) : (
                  inv.orderIncrementId
                ),
              ],
              [t('sales.date'), when(inv.createdAt)],
              [t('sales.transactionId'), inv.transactionId],
              [t('sales.emailSent'), inv.emailSent ? t('common.yes') : t('common.no')],
            ]}
          />
        </section>
        <section className="panel" aria-labelledby="invoice-totals">
          <h2 id="invoice-totals">{t('sales.totals')}</h2>
          <Totals
            label={t('sales.totals')}
            currency={c}
            strong={[t('sales.grandTotal')]}
            rows={[
              [t('sales.subtotal'), inv.subtotal],
              [t('sales.shipping'), inv.shippingAmount],
              [t('sales.discount'), inv.discountAmount || undefined],
              [t('sales.tax'), inv.taxAmount],
              [t('sales.giftcards'), inv.giftcardAmount || undefined],
              [t('sales.grandTotal'), inv.grandTotal],
            ]}
          />
        </section>
      </div>
      <section className="panel" aria-labelledby="invoice-items">
        <h2 id="invoice-items">{t('sales.items')}</h2>
        <DocLines label={t('sales.items')} lines={inv.items} currency={c} />
      </section>
      <section className="panel" aria-labelledby="invoice-comments">
        <h2 id="invoice-comments">{t('sales.comments')}</h2>
        <Comments label={t('sales.comments')} entries={inv.comments} />
      </section>
      {dialog && (
        <ActionDialog
          open
          onOpenChange={(open) => !open && setDialog(undefined)}
          title={t(`sales.invoiceAction.${dialog}`)}
          description={t(`sales.invoiceConfirm.${dialog}`, { number: inv.incrementId })}
          submitLabel={t(`sales.invoiceAction.${dialog}`)}
          danger={dialog !== 'capture'}
          busy={action.busy}
          error={action.error}
          onSubmit={() => void action.go(dialog)}
        />
      )}
    </div>
  );
}
