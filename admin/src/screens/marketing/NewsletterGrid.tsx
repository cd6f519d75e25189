/**
 * Newsletter subscribers: searched by email, filtered by status, store view and whether they are customers, sorted;
 * an email subscribed at once (no confirmation mail); subscribed and unsubscribed in bulk; CSV export.
 */
import { useState, type FormEvent } from 'react';
import { Link } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Row } from '../../api/client';
import { collection } from '../../api/lists';
import { useSession } from '../../auth/session';
import { DataGrid, type BulkAction, type GridColumn } from '../../components/DataGrid';
import { ErrorNote, Notice, PageHeader, SelectField, TextField, useStoreViews } from '../../components/ui';
import { when } from '../sales/common';
import { Section, boolOptions, gridQuery, nameOf, useSubmit } from '../customers/shared';
import { SUBSCRIBER_STATUSES } from './shared';

type Subscriber = Row<'/api/rest/v2/newsletter/subscribers'>;

export function NewsletterGrid() {
  const { t } = useTranslation();
  const session = useSession();
  const qc = useQueryClient();
  const stores = useStoreViews();
  const columns: GridColumn<Subscriber>[] = [
    { id: 'email', header: t('marketing.newsletter.email'), cell: (s) => s.email, sort: 'email' },
    {
      id: 'status',
      header: t('marketing.newsletter.status'),
      cell: (s) => (
        <span className={`cm-badge ${s.isSubscribed ? 'on' : 'off'}`}>
          {t(`marketing.newsletter.statuses.${s.status}`, { defaultValue: s.status })}
        </span>
      ),
      csv: (s) => s.status,
      sort: 'status',
      filter: {
        param: 'status',
        type: 'select',
        options: SUBSCRIBER_STATUSES.map((v) => ({ value: v, label: t(`marketing.newsletter.statuses.${v}`) })),
      },
    },
    {
      id: 'store',
      header: t('marketing.newsletter.store'),
      cell: (s) => nameOf(stores, s.storeId),
      sort: 'storeId',
      filter: { param: 'storeId', type: 'select', options: stores.map((s) => ({ value: String(s.id), label: s.name })) },
    },
    {
      id: 'customer',
      header: t('marketing.newsletter.customer'),
      cell: (s) =>
        s.customerId ? (
          <Link to="/customers/$customerId" params={{ customerId: String(s.customerId) }}>
            {t('marketing.newsletter.customerLink', { id: s.customerId })}
          </Link>
        ) : (
          t('marketing.newsletter.guest')
        ),
      csv: (s) => (s.customerId ? String(s.customerId) : ''),
      sort: 'customerId',
      filter: {
        param: 'isCustomer',
        type: 'select',
        options: boolOptions(t('marketing.newsletter.customers'), t('marketing.newsletter.guests')),
      },
    },
    {
      id: 'changedAt',
      header: t('marketing.newsletter.changedAt'),
      cell: (s) => when(s.changeStatusAt),
      csv: (s) => s.changeStatusAt ?? '',
      sort: 'changeStatusAt',
      // the API's updatedSince: the status changed on or after the date chosen
      filter: { param: 'updatedSince', type: 'date' },
    },
  ];
  const bulk: BulkAction<Subscriber>[] = session.can('newsletter', 'write')
    ? (['unsubscribed', 'subscribed'] as const).map((status) => ({
        label: status === 'unsubscribed' ? t('marketing.newsletter.bulkUnsubscribe') : t('marketing.newsletter.bulkSubscribe'),
        confirm: status === 'unsubscribed' ? t('marketing.newsletter.bulkUnsubscribeConfirm') : undefined,
        run: async (rows: Subscriber[]) => {
          for (const s of rows)
            await unwrap(api.PUT('/api/rest/v2/newsletter/subscribers/{id}', { params: { path: { id: s.id } }, body: { status } }));
        },
      }))
    : [];
  return (
    <>
      <PageHeader title={t('marketing.newsletter.title')} />
      {session.can('newsletter', 'create') && <SubscribeForm onDone={() => qc.invalidateQueries({ queryKey: ['grid', 'newsletter'] })} />}
      <DataGrid<Subscriber>
        id="newsletter"
        label={t('marketing.newsletter.title')}
        columns={columns}
        rowKey={(s) => s.id}
        searchable
        defaultSort={{ sort: 'changeStatusAt', order: 'desc' }}
        bulkActions={bulk}
        exportName="newsletter-subscribers"
        fetchPage={async (q) =>
          collection<Subscriber>(
            await unwrap(api.GET('/api/rest/v2/newsletter/subscribers', { params: { query: gridQuery(q, ['storeId']) } })),
          )
        }
      />
    </>
  );
}

/** Subscribes an email in a store view at once. */
function SubscribeForm(props: { onDone: () => Promise<unknown> }) {
  const { t } = useTranslation();
  const stores = useStoreViews();
  const [email, setEmail] = useState('');
  const [storeId, setStoreId] = useState('');
  const submit = useSubmit();
  const store = storeId || String(stores[0]?.id ?? '');
  function save(e: FormEvent) {
    e.preventDefault();
    void submit.run(async () => {
      await unwrap(
        api.POST('/api/rest/v2/newsletter/subscribers', { body: { email: email.trim(), ...(store ? { storeId: Number(store) } : {}) } }),
      );
      await props.onDone();
      setEmail('');
      return t('marketing.newsletter.subscribed', { email: email.trim() });
    });
  }
  return (
    <Section title={t('marketing.newsletter.subscribeTitle')}>
      <form className="cm-inline-form" onSubmit={save} aria-label={t('marketing.newsletter.subscribeTitle')}>
        <TextField
          label={t('marketing.newsletter.email')}
          name="email"
          type="email"
          required
          operationId="newsletter.subscribers.create"
          error={submit.error}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <SelectField
          label={t('marketing.newsletter.store')}
          name="storeId"
          error={submit.error}
          value={store}
          onChange={(e) => setStoreId(e.target.value)}
          options={stores.map((s) => ({ value: String(s.id), label: s.name }))}
        />
        <button type="submit" className="primary" disabled={submit.busy}>
          {t('marketing.newsletter.subscribe')}
        </button>
      </form>
      <ErrorNote error={submit.error} />
      {submit.done && <Notice>{submit.done}</Notice>}
    </Section>
  );
}
