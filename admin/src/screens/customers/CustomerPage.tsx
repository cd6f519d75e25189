/**
 * A customer's page: the account (edited and saved), the address book, orders, carts, wishlist and newsletter
 * subscription, each in a tab the role may read; a password reset link sent and the account deleted from the header.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { useSession } from '../../auth/session';
import { ErrorNote, Notice, PageHeader, Spinner } from '../../components/ui';
import { when } from '../sales/common';
import { TabPanel, Tabs } from '../catalog/shared';
import { AccountFields, accountBody, accountDraft, type AccountDraft, type Customer } from './AccountFields';
import { CustomerAddresses } from './CustomerAddresses';
import { CustomerCarts, CustomerOrders, CustomerWishlist } from './CustomerActivity';
import { CustomerNewsletter } from './CustomerNewsletter';
import { Facts, Section, YesNoBadge, useLeaveGuard, useSubmit } from './shared';

export function CustomerPage({ customerId }: { customerId: number }) {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [tab, setTab] = useState('account');
  const action = useSubmit();
  const customer = useQuery({
    queryKey: ['customers', customerId],
    queryFn: () => unwrap(api.GET('/api/rest/v2/customers/{id}', { params: { path: { id: customerId } } })),
  });
  if (customer.isPending) return <Spinner />;
  if (customer.error) return <ErrorNote error={customer.error} />;
  const c = customer.data;

  const tabs = [
    { id: 'account', label: t('customers.tabs.account') },
    ...(session.can('addresses', 'read') ? [{ id: 'addresses', label: t('customers.tabs.addresses') }] : []),
    ...(session.can('orders', 'read') ? [{ id: 'orders', label: t('customers.tabs.orders') }] : []),
    ...(session.can('carts', 'read') ? [{ id: 'carts', label: t('customers.tabs.carts') }] : []),
    ...(session.can('wishlists', 'read') ? [{ id: 'wishlist', label: t('customers.tabs.wishlist') }] : []),
    ...(session.can('newsletter', 'read') ? [{ id: 'newsletter', label: t('customers.tabs.newsletter') }] : []),
  ];
  const current = tabs.find((x) => x.id === tab) ?? tabs[0];

  function sendReset() {
    if (!window.confirm(t('customers.reset.confirm', { email: c.email }))) return;
    void action.run(async () => {
      await unwrap(api.POST('/api/rest/v2/customers/{id}/password-reset', { params: { path: { id: customerId } } }));
      return t('customers.reset.sent', { email: c.email });
    });
  }

  function remove() {
    if (!window.confirm(t('customers.deleteConfirm', { name: c.fullName }))) return;
    void action.run(async () => {
      await unwrap(api.DELETE('/api/rest/v2/customers/{id}', { params: { path: { id: customerId } } }));
      await qc.invalidateQueries({ queryKey: ['grid', 'customers'] });
      await navigate({ to: '/customers' });
    });
  }

  return (
    <>
      <PageHeader
        title={t('customers.page.title', { name: c.fullName })}
        actions={
          <>
            <Link to="/customers" className="button">
              {t('common.back')}
            </Link>
            {session.can('customers', 'write') && (
              <button type="button" disabled={action.busy || !c.isActive} onClick={sendReset}>
                {t('customers.reset.send')}
              </button>
            )}
            {session.can('customers', 'delete') && (
              <button type="button" className="danger" disabled={action.busy} onClick={remove}>
                {t('common.delete')}
              </button>
            )}
          </>
        }
      >
        <YesNoBadge on={c.isActive} yes={t('customers.status.active')} no={t('customers.status.inactive')} />
      </PageHeader>
      <ErrorNote error={action.error} />
      {action.done && <Notice>{action.done}</Notice>}
      <Facts
        label={t('customers.page.facts')}
        rows={[
          [t('customers.fields.id'), String(c.id)],
          [t('customers.fields.createdAt'), when(c.createdAt)],
          [t('customers.fields.createdIn'), c.createdIn],
          [t('customers.fields.confirmed'), c.isConfirmed ? t('common.yes') : t('common.no')],
          [t('customers.fields.subscribed'), c.isSubscribed ? t('common.yes') : t('common.no')],
        ]}
      />
      <Tabs label={t('customers.tabs.label')} tabs={tabs} value={current.id} onChange={setTab} />
      {/* the account form stays mounted behind the other tabs, so that its unsaved changes survive a look at them */}
      <div role="tabpanel" aria-label={tabs[0].label} className="tab-panel" hidden={current.id !== 'account'}>
        <AccountForm customer={c} />
      </div>
      {current.id !== 'account' && (
        <TabPanel label={current.label}>
          {current.id === 'addresses' && <CustomerAddresses customer={c} />}
          {current.id === 'orders' && <CustomerOrders customerId={c.id} />}
          {current.id === 'carts' && <CustomerCarts customerId={c.id} />}
          {current.id === 'wishlist' && <CustomerWishlist customerId={c.id} />}
          {current.id === 'newsletter' && <CustomerNewsletter customer={c} />}
        </TabPanel>
      )}
    </>
  );
}

/** The account fields, saved with PUT /customers/{id}. */
function AccountForm({ customer }: { customer: Customer }) {
  const { t } = useTranslation();
  const session = useSession();
  const qc = useQueryClient();
  const [initial, setInitial] = useState(() => accountDraft(customer));
  const [draft, setDraft] = useState(initial);
  const submit = useSubmit();
  useEffect(() => {
    const d = accountDraft(customer);
    setInitial(d);
    setDraft(d);
  }, [customer]);
  const dirty = JSON.stringify(draft) !== JSON.stringify(initial);
  useLeaveGuard(dirty);
  const canSave = session.can('customers', 'write');
  const set = <K extends keyof AccountDraft>(k: K, v: AccountDraft[K]) => setDraft((d) => ({ ...d, [k]: v }));

  function save(e: FormEvent) {
    e.preventDefault();
    void submit.run(async () => {
      const saved = await unwrap(
        api.PUT('/api/rest/v2/customers/{id}', { params: { path: { id: customer.id } }, body: accountBody(draft) }),
      );
      qc.setQueryData(['customers', customer.id], saved);
      await qc.invalidateQueries({ queryKey: ['grid', 'customers'] });
      return t('common.saved');
    });
  }

  return (
    <form className="cm-form" onSubmit={save} aria-label={t('customers.sections.account')}>
      <ErrorNote error={submit.error} />
      {submit.done && <Notice>{submit.done}</Notice>}
      <Section title={t('customers.sections.account')}>
        <AccountFields draft={draft} set={set} error={submit.error} operationId="customers.update" isNew={false} disabled={!canSave} />
      </Section>
      {canSave && (
        <div className="form-actions">
          <button type="submit" className="primary" disabled={submit.busy || !dirty}>
            {t('common.save')}
          </button>
        </div>
      )}
    </form>
  );
}
