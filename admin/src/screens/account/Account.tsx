/**
 * The signed-in user's own account: name, email (with the current password) and language; the password; the
 * TOTP second factor; passkeys; and signing out everywhere.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api, forgetToken, unwrap, ApiError } from '../../api/client';
import { useSession } from '../../auth/session';
import { ErrorNote, Notice, PageHeader, SelectField, TextField, useUnsavedChanges } from '../../components/ui';
import { useLocaleOptions } from '../system/common';
import { Passkeys } from './Passkeys';
import { TwoFactor } from './TwoFactor';
import './account.css';

function useAction() {
  const [error, setError] = useState<unknown>();
  const [done, setDone] = useState<string>();
  const [busy, setBusy] = useState(false);
  async function act(fn: () => Promise<string | undefined>) {
    setBusy(true);
    setError(undefined);
    setDone(undefined);
    try {
      setDone(await fn());
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  return { error, setError, done, busy, act };
}

export function Account() {
  const { t } = useTranslation();
  const session = useSession();
  const user = session.user!;
  return (
    <>
      <PageHeader title={t('account.title')}>
        <p className="sys-muted">{t('account.signedInAs', { username: user.username, role: user.role })}</p>
      </PageHeader>
      <div className="account-columns">
        <div>
          <Profile />
          <Password />
        </div>
        <div>
          <TwoFactor />
          <Passkeys />
          <Everywhere />
        </div>
      </div>
    </>
  );
}

function Profile() {
  const { t } = useTranslation();
  const session = useSession();
  const user = session.user!;
  const locales = useLocaleOptions();
  const start = { firstName: user.firstName, lastName: user.lastName, email: user.email, locale: user.locale };
  const [initial, setInitial] = useState(start);
  const [draft, setDraft] = useState(start);
  const [currentPassword, setCurrentPassword] = useState('');
  const { error, done, busy, act } = useAction();
  useEffect(() => {
    const fresh = { firstName: user.firstName, lastName: user.lastName, email: user.email, locale: user.locale };
    setInitial(fresh);
    setDraft(fresh);
  }, [user.firstName, user.lastName, user.email, user.locale]);
  const dirty = JSON.stringify(draft) !== JSON.stringify(initial);
  useUnsavedChanges(dirty && !busy);
  const emailChanged = draft.email.trim().toLowerCase() !== initial.email.toLowerCase();
  const set = (k: keyof typeof draft, v: string) => setDraft((d) => ({ ...d, [k]: v }));

  function save(e: FormEvent) {
    e.preventDefault();
    void act(async () => {
      await unwrap(
        api.PUT('/api/rest/v2/admin-users/me', {
          body: {
            firstName: draft.firstName,
            lastName: draft.lastName,
            locale: draft.locale,
            ...(emailChanged ? { email: draft.email.trim(), currentPassword } : {}),
          },
        }),
      );
      setCurrentPassword('');
      setInitial(draft);
      await session.reload();
      return t('common.saved');
    });
  }

  return (
    <form className="panel" onSubmit={save} aria-labelledby="profile-title">
      <h2 id="profile-title">{t('account.profile')}</h2>
      {done && <Notice>{done}</Notice>}
      <ErrorNote error={error} />
      <fieldset className="sys-plain" disabled={busy}>
        <div className="form-grid">
          <TextField
            label={t('system.users.firstName')}
            name="firstName"
            operationId="adminUsers.updateMe"
            error={error}
            value={draft.firstName}
            onChange={(e) => set('firstName', e.target.value)}
            autoComplete="given-name"
          />
          <TextField
            label={t('system.users.lastName')}
            name="lastName"
            operationId="adminUsers.updateMe"
            error={error}
            value={draft.lastName}
            onChange={(e) => set('lastName', e.target.value)}
            autoComplete="family-name"
          />
        </div>
        <TextField
          label={t('system.users.email')}
          name="email"
          type="email"
          operationId="adminUsers.updateMe"
          error={error}
          value={draft.email}
          onChange={(e) => set('email', e.target.value)}
          autoComplete="email"
          required
        />
        {emailChanged && (
          <TextField
            label={t('account.currentPassword')}
            name="currentPassword"
            type="password"
            error={error}
            value={currentPassword}
            onChange={(e) => setCurrentPassword(e.target.value)}
            autoComplete="current-password"
            required
            hint={t('account.emailNeedsPassword')}
          />
        )}
        <SelectField
          label={t('system.users.locale')}
          name="locale"
          error={error}
          value={draft.locale}
          onChange={(e) => set('locale', e.target.value)}
          options={locales.some((l) => l.value === draft.locale) ? locales : [...locales, { value: draft.locale, label: draft.locale }]}
        />
        <button type="submit" className="primary" disabled={busy || !dirty}>
          {t('common.save')}
        </button>
      </fieldset>
    </form>
  );
}

function Password() {
  const { t } = useTranslation();
  const session = useSession();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const { error, setError, done, busy, act } = useAction();
  useUnsavedChanges(!!(current || next || repeat) && !busy);

  function save(e: FormEvent) {
    e.preventDefault();
    if (next !== repeat) {
      setError(new ApiError(400, 'bad_request', t('reset.mismatch'), { field: 'repeat' }));
      return;
    }
    void act(async () => {
      await unwrap(api.PUT('/api/rest/v2/admin-users/me', { body: { password: next, currentPassword: current } }));
      setCurrent('');
      setNext('');
      setRepeat('');
      // the change ended every session of the account, this one too: sign in again with the new password
      const username = session.user!.username;
      try {
        await session.signIn({ username, password: next });
      } catch {
        forgetToken();
        await session.signOut();
      }
      return t('account.passwordChanged');
    });
  }

  return (
    <form className="panel" onSubmit={save} aria-labelledby="password-title">
      <h2 id="password-title">{t('account.password')}</h2>
      {done && <Notice>{done}</Notice>}
      <ErrorNote error={error} />
      <fieldset className="sys-plain" disabled={busy}>
        <TextField
          label={t('account.currentPassword')}
          name="currentPassword"
          type="password"
          error={error}
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
          autoComplete="current-password"
          required
        />
        <TextField
          label={t('reset.newPassword')}
          name="password"
          type="password"
          operationId="adminUsers.updateMe"
          error={error}
          value={next}
          onChange={(e) => setNext(e.target.value)}
          autoComplete="new-password"
          minLength={8}
          required
          hint={t('system.users.passwordHint')}
        />
        <TextField
          label={t('reset.repeat')}
          name="repeat"
          type="password"
          error={error}
          value={repeat}
          onChange={(e) => setRepeat(e.target.value)}
          autoComplete="new-password"
          required
        />
        <button type="submit" className="primary" disabled={busy}>
          {t('account.changePassword')}
        </button>
        <p className="sys-muted">{t('account.passwordEndsSessions')}</p>
      </fieldset>
    </form>
  );
}

function Everywhere() {
  const { t } = useTranslation();
  const session = useSession();
  const { error, busy, act } = useAction();
  return (
    <section className="panel" aria-labelledby="everywhere-title">
      <h2 id="everywhere-title">{t('account.everywhere.title')}</h2>
      <p>{t('account.everywhere.about')}</p>
      <ErrorNote error={error} />
      <button
        type="button"
        className="danger"
        disabled={busy}
        onClick={() =>
          window.confirm(t('account.everywhere.confirm')) &&
          void act(async () => {
            await unwrap(api.POST('/api/rest/v2/admin-users/me/sign-out-everywhere', { body: {} }));
            await session.signOut();
            return undefined;
          })
        }
      >
        {t('account.everywhere.button')}
      </button>
    </section>
  );
}
