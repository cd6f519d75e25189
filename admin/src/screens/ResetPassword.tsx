/** The mailed reset link's page: a new password for the account the link was sent for. */
import { useState } from 'react';
import { Link, useSearch } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import { ErrorNote, Notice, TextField } from '../components/ui';

export function ResetPassword() {
  const { t } = useTranslation();
  const { token } = useSearch({ from: '/reset-password' });
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<unknown>();
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  return (
    <main className="auth-page">
      <form
        className="auth-card"
        onSubmit={async (e) => {
          e.preventDefault();
          if (password !== repeat) {
            setError(new Error(t('reset.mismatch')));
            return;
          }
          setBusy(true);
          setError(undefined);
          try {
            await unwrap(api.POST('/api/rest/v2/admin-users/password-reset/confirm', { body: { token: token ?? '', password } }));
            setDone(true);
          } catch (err) {
            setError(err);
          } finally {
            setBusy(false);
          }
        }}
      >
        <h1>{t('reset.title')}</h1>
        {!token && <ErrorNote error={new Error(t('reset.noToken'))} />}
        <ErrorNote error={error} />
        {done ? (
          <>
            <Notice>{t('reset.done')}</Notice>
            <Link to="/sign-in">{t('signIn.backToSignIn')}</Link>
          </>
        ) : (
          <>
            <TextField
              label={t('reset.newPassword')}
              name="password"
              type="password"
              operationId="adminUsers.passwordResetConfirm"
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              required
              error={error}
            />
            <TextField
              label={t('reset.repeat')}
              name="repeat"
              type="password"
              autoComplete="new-password"
              value={repeat}
              onChange={(e) => setRepeat(e.target.value)}
              required
            />
            <button type="submit" className="primary" disabled={busy || !token}>
              {t('reset.submit')}
            </button>
          </>
        )}
      </form>
    </main>
  );
}
