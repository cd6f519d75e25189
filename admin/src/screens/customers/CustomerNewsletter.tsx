/**
 * A customer's newsletter subscriptions (one per store view at most): their status, and subscribed or
 * unsubscribed by staff at once, without a confirmation mail.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Row } from '../../api/client';
import { collection } from '../../api/lists';
import { useSession } from '../../auth/session';
import { ErrorNote, Notice, Spinner, useStoreViews } from '../../components/ui';
import { when } from '../sales/common';
import type { Customer } from './AccountFields';
import { Section, nameOf, useSubmit } from './shared';

type Subscriber = Row<'/api/rest/v2/newsletter/subscribers'>;

export function CustomerNewsletter({ customer }: { customer: Customer }) {
  const { t } = useTranslation();
  const session = useSession();
  const qc = useQueryClient();
  const stores = useStoreViews();
  const action = useSubmit();
  const key = ['customer-newsletter', customer.id];
  const subs = useQuery({
    queryKey: key,
    queryFn: async () =>
      collection<Subscriber>(
        await unwrap(api.GET('/api/rest/v2/newsletter/subscribers', { params: { query: { customerId: customer.id, itemsPerPage: 50 } } })),
      ).items,
  });
  const refresh = async () => {
    await qc.invalidateQueries({ queryKey: key });
    await qc.invalidateQueries({ queryKey: ['customers', customer.id] });
    await qc.invalidateQueries({ queryKey: ['grid', 'newsletter'] });
  };
  const setStatus = (s: Subscriber, status: 'subscribed' | 'unsubscribed') =>
    void action.run(async () => {
      await unwrap(api.PUT('/api/rest/v2/newsletter/subscribers/{id}', { params: { path: { id: s.id } }, body: { status } }));
      await refresh();
      return status === 'subscribed' ? t('customers.newsletter.subscribedDone') : t('customers.newsletter.unsubscribedDone');
    });
  const subscribe = () =>
    void action.run(async () => {
      await unwrap(api.POST('/api/rest/v2/newsletter/subscribers', { body: { customerId: customer.id } }));
      await refresh();
      return t('customers.newsletter.subscribedDone');
    });
  const canWrite = session.can('newsletter', 'write');
  const list = subs.data ?? [];

  return (
    <Section
      title={t('customers.tabs.newsletter')}
      actions={
        session.can('newsletter', 'create') &&
        !list.some((s) => s.isSubscribed) && (
          <button type="button" className="primary" disabled={action.busy} onClick={subscribe}>
            {t('customers.newsletter.subscribe')}
          </button>
        )
      }
    >
      <ErrorNote error={action.error ?? subs.error} />
      {action.done && <Notice>{action.done}</Notice>}
      {subs.isPending ? (
        <Spinner />
      ) : list.length === 0 ? (
        <p className="cm-muted">{t('customers.newsletter.none')}</p>
      ) : (
        <table>
          <caption className="sr-only">{t('customers.tabs.newsletter')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('customers.newsletter.store')}</th>
              <th scope="col">{t('customers.newsletter.status')}</th>
              <th scope="col">{t('customers.newsletter.changedAt')}</th>
              {canWrite && <th scope="col">{t('customers.newsletter.action')}</th>}
            </tr>
          </thead>
          <tbody>
            {list.map((s) => (
              <tr key={s.id}>
                <td>{nameOf(stores, s.storeId)}</td>
                <td>
                  <span className={`cm-badge ${s.isSubscribed ? 'on' : 'off'}`}>
                    {t(`marketing.newsletter.statuses.${s.status}`, { defaultValue: s.status })}
                  </span>
                </td>
                <td>{when(s.changeStatusAt)}</td>
                {canWrite && (
                  <td>
                    {s.isSubscribed ? (
                      <button type="button" disabled={action.busy} onClick={() => setStatus(s, 'unsubscribed')}>
                        {t('customers.newsletter.unsubscribe')}
                      </button>
                    ) : (
                      <button type="button" disabled={action.busy} onClick={() => setStatus(s, 'subscribed')}>
                        {t('customers.newsletter.subscribe')}
                      </button>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}
