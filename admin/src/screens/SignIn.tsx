/**
 * Sign-in: user name and password, then, for a user who has them, a TOTP code (or a recovery code) or a passkey.
 * A forgotten password asks for the mailed reset link.
 */
import { useState, type FormEvent } from 'react';
import { Navigate, useNavigate, useSearch } from '@tanstack/react-router';
import { startAuthentication } from '@simplewebauthn/browser';
import { useTranslation } from 'react-i18next';
import { ApiError, api, unwrap } from '../api/client';
import { useSession } from '../auth/session';
import { ErrorNote, Notice, TextField } from '../components/ui';

export function SignIn() {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const search = useSearch({ from: '/sign-in' });
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [methods, setMethods] = useState<string[]>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [forgot, setForgot] = useState(false);
  const [sent, setSent] = useState(false);

  if (session.state === 'signedIn') return <Navigate to={(search.redirect ?? '/') as never} replace />;

  async function attempt(extra: { twofaCode?: string; passkey?: unknown }) {
    setBusy(true);
    setError(undefined);
    try {
      await session.signIn({ username, password, ...extra });
      await navigate({ to: (search.redirect ?? '/') as never, replace: true });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'twofa_required') {
        setMethods(Array.isArray(err.details.methods) ? (err.details.methods as string[]) : ['totp']);
      } else setError(err);
    } finally {
      setBusy(false);
    }
  }

  async function usePasskey() {
    setError(undefined);
    try {
      const options = await unwrap(api.POST('/api/rest/v2/auth/passkey/options', { body: { username } }));
      const assertion = await startAuthentication({ optionsJSON: options as never });
      await attempt({ passkey: assertion });
    } catch (err) {
      setError(err instanceof ApiError ? err : new Error(t('signIn.passkeyFailed')));
    }
  }

  async function requestReset(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await unwrap(
        api.POST('/api/rest/v2/admin-users/password-reset', {
          body: username.includes('@') ? { email: username.trim() } : { username: username.trim() },
        }),
      );
      setSent(true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  if (forgot) {
    return (
      <main className="auth-page">
        <form className="auth-card" onSubmit={requestReset}>
          <h1>{t('signIn.resetTitle')}</h1>
          {sent ? <Notice>{t('signIn.resetSent')}</Notice> : null}
          <ErrorNote error={error} />
          <TextField
            label={t('signIn.usernameOrEmail')}
            name="username"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            required
            autoComplete="username"
          />
          <button type="submit" className="primary" disabled={busy}>
            {t('signIn.sendResetLink')}
          </button>
          <button type="button" className="link" onClick={() => setForgot(false)}>
            {t('signIn.backToSignIn')}
          </button>
        </form>
      </main>
    );
  }

  return (
    <main className="auth-page">
      <form
        className="auth-card"
        onSubmit={(e) => {
          e.preventDefault();
          void attempt(methods ? { twofaCode: code.trim() } : {});
        }}
      >
        <h1>{t('signIn.title')}</h1>
        <ErrorNote error={error} />
        {!methods ? (
          <>
            <TextField
              label={t('signIn.username')}
              name="username"
              operationId="auth.adminLogin"
              value={username}
              onChange={(e) => setUsername(e.target.value)}
              autoComplete="username"
              autoFocus
            />
            <TextField
              label={t('signIn.password')}
              name="password"
              type="password"
              operationId="auth.adminLogin"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              autoComplete="current-password"
            />
            <button type="submit" className="primary" disabled={busy}>
              {t('signIn.submit')}
            </button>
            <button type="button" className="link" onClick={() => setForgot(true)}>
              {t('signIn.forgotPassword')}
            </button>
          </>
        ) : (
          <>
            <p>{t('signIn.secondFactor')}</p>
            {methods.includes('totp') && (
              <>
                <TextField
                  label={t('signIn.code')}
                  name="twofa_code"
                  value={code}
                  onChange={(e) => setCode(e.target.value)}
                  autoComplete="one-time-code"
                  inputMode="text"
                  hint={t('signIn.codeHint')}
                  required
                  autoFocus
                />
                <button type="submit" className="primary" disabled={busy}>
                  {t('signIn.verify')}
                </button>
              </>
            )}
            {methods.includes('passkey') && (
              <button type="button" onClick={() => void usePasskey()} disabled={busy}>
                {t('signIn.usePasskey')}
              </button>
            )}
            <button
              type="button"
              className="link"
              onClick={() => {
                setMethods(undefined);
                setCode('');
              }}
            >
              {t('signIn.backToSignIn')}
            </button>
          </>
        )}
      </form>
    </main>
  );
}
