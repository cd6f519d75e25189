/**
 * A new customer account made by staff. Without a password typed, the account gets a random one and the customer
 * is mailed a link to choose their own (staff never learn it).
 */
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { ErrorNote, PageHeader, TextField } from '../../components/ui';
import { AccountFields, EMPTY_ACCOUNT, accountBody, type AccountDraft } from './AccountFields';
import { Section, useLeaveGuard, useSubmit } from './shared';

/** A password no one knows, of every character class a password policy may ask for. */
function randomPassword(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return `${btoa(String.fromCharCode(...bytes)).replace(/[^A-Za-z0-9]/g, '')}aA1!`;
}

export function CustomerCreate() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [draft, setDraft] = useState<AccountDraft>(EMPTY_ACCOUNT);
  const [password, setPassword] = useState('');
  const [created, setCreated] = useState<{ id: number }>();
  const submit = useSubmit();
  const dirty = JSON.stringify(draft) !== JSON.stringify(EMPTY_ACCOUNT) || password !== '';
  const guard = useLeaveGuard(dirty);
  const set = <K extends keyof AccountDraft>(k: K, v: AccountDraft[K]) => setDraft((d) => ({ ...d, [k]: v }));

  function save(e: FormEvent) {
    e.preventDefault();
    void submit.run(async () => {
      const chosen = password !== '';
      // made already when only the reset link failed: not made twice
      const made =
        created ??
        (await unwrap(
          api.POST('/api/rest/v2/customers', {
            body: { ...accountBody(draft), websiteId: Number(draft.websiteId), password: chosen ? password : randomPassword() },
          }),
        ));
      setCreated(made);
      // an inactive account gets no link (the API refuses it); staff send one from its page once it is active
      if (!chosen && draft.isActive)
        await unwrap(api.POST('/api/rest/v2/customers/{id}/password-reset', { params: { path: { id: made.id } } }));
      guard.release();
      await qc.invalidateQueries({ queryKey: ['grid', 'customers'] });
      await navigate({ to: '/customers/$customerId', params: { customerId: String(made.id) }, replace: true });
    });
  }

  return (
    <>
      <PageHeader
        title={t('customers.create.title')}
        actions={
          <Link to="/customers" className="button">
            {t('common.back')}
          </Link>
        }
      />
      <form className="cm-form" onSubmit={save} aria-label={t('customers.create.title')}>
        <ErrorNote error={submit.error} />
        <Section title={t('customers.sections.account')}>
          <AccountFields draft={draft} set={set} error={submit.error} operationId="customers.register" isNew />
        </Section>
        <Section title={t('customers.sections.password')}>
          <TextField
            label={t('customers.fields.password')}
            name="password"
            type="password"
            autoComplete="new-password"
            operationId="customers.register"
            error={submit.error}
            hint={t('customers.create.passwordHint')}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </Section>
        <div className="form-actions">
          <button type="submit" className="primary" disabled={submit.busy}>
            {t('customers.create.submit')}
          </button>
        </div>
      </form>
    </>
  );
}
