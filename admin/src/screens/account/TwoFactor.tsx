/**
 * The signed-in user's TOTP second factor: set up with a secret and its otpauth URI (or its QR code), turned on
 * with a first code (the recovery codes are shown once), new recovery codes, turned off with the password or a code.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { useSession } from '../../auth/session';
import { ErrorNote, Notice, TextField } from '../../components/ui';
import { ShownOnce } from '../system/common';
import { QrCode } from './QrCode';

export function TwoFactor() {
  const { t } = useTranslation();
  const session = useSession();
  const enabled = !!session.user?.twofaEnabled;
  const [setup, setSetup] = useState<{ secret: string; uri: string }>();
  const [code, setCode] = useState('');
  const [offPassword, setOffPassword] = useState('');
  const [offCode, setOffCode] = useState('');
  const [codes, setCodes] = useState<string[]>();
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

  function enable(e: FormEvent) {
    e.preventDefault();
    void act(async () => {
      const r = await unwrap(api.POST('/api/rest/v2/admin-users/me/twofa/enable', { body: { code: code.trim() } }));
      setSetup(undefined);
      setCode('');
      setCodes(r.recoveryCodes);
      await session.reload();
      return t('account.twofa.enabled');
    });
  }

  function disable(e: FormEvent) {
    e.preventDefault();
    void act(async () => {
      await unwrap(
        api.POST('/api/rest/v2/admin-users/me/twofa/disable', {
          body: offCode.trim() ? { code: offCode.trim() } : { currentPassword: offPassword },
        }),
      );
      setOffCode('');
      setOffPassword('');
      await session.reload();
      return t('account.twofa.disabled');
    });
  }

  return (
    <section className="panel" aria-labelledby="twofa-title">
      <h2 id="twofa-title">{t('account.twofa.title')}</h2>
      {codes && (
        <ShownOnce
          title={t('account.twofa.recoveryTitle')}
          note={t('account.twofa.recoveryNote')}
          values={codes}
          onClose={() => setCodes(undefined)}
        />
      )}
      {done && <Notice>{done}</Notice>}
      <ErrorNote error={error} />
      <p>{enabled ? t('account.twofa.isOn') : t('account.twofa.isOff')}</p>
      {!enabled && !setup && (
        <button
          type="button"
          className="primary"
          disabled={busy}
          onClick={() =>
            void act(async () => {
              setSetup(await unwrap(api.POST('/api/rest/v2/admin-users/me/twofa/setup', { body: {} })));
              return undefined;
            })
          }
        >
          {t('account.twofa.setUp')}
        </button>
      )}
      {!enabled && setup && (
        <form onSubmit={enable} className="twofa-setup" aria-label={t('account.twofa.setUpTitle')}>
          <p>{t('account.twofa.scan')}</p>
          <QrCode text={setup.uri} label={t('account.twofa.qrLabel')} />
          <dl className="sys-facts">
            <dt>{t('account.twofa.secret')}</dt>
            <dd>
              <code data-testid="totp-secret">{setup.secret}</code>
            </dd>
            <dt>{t('account.twofa.uri')}</dt>
            <dd>
              <code className="wrap">{setup.uri}</code>
            </dd>
          </dl>
          <TextField
            label={t('account.twofa.code')}
            name="code"
            operationId="adminUsers.twofaEnable"
            error={error}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            autoComplete="one-time-code"
            inputMode="numeric"
            required
          />
          <div className="form-actions">
            <button type="submit" className="primary" disabled={busy}>
              {t('account.twofa.turnOn')}
            </button>
            <button type="button" onClick={() => setSetup(undefined)} disabled={busy}>
              {t('common.cancel')}
            </button>
          </div>
        </form>
      )}
      {enabled && (
        <>
          <div className="form-actions">
            <button
              type="button"
              disabled={busy}
              onClick={() =>
                window.confirm(t('account.twofa.regenerateConfirm')) &&
                void act(async () => {
                  const r = await unwrap(api.POST('/api/rest/v2/admin-users/me/twofa/recovery-codes', { body: {} }));
                  setCodes(r.recoveryCodes);
                  return undefined;
                })
              }
            >
              {t('account.twofa.regenerate')}
            </button>
          </div>
          <form onSubmit={disable} className="twofa-off" aria-label={t('account.twofa.turnOffTitle')}>
            <h3>{t('account.twofa.turnOffTitle')}</h3>
            <p className="sys-muted">{t('account.twofa.turnOffHint')}</p>
            <div className="form-grid">
              <TextField
                label={t('account.currentPassword')}
                name="currentPassword"
                type="password"
                error={error}
                value={offPassword}
                onChange={(e) => setOffPassword(e.target.value)}
                autoComplete="current-password"
              />
              <TextField
                label={t('account.twofa.codeOrRecovery')}
                name="code"
                error={error}
                value={offCode}
                onChange={(e) => setOffCode(e.target.value)}
                autoComplete="one-time-code"
              />
            </div>
            <button type="submit" className="danger" disabled={busy || (!offPassword && !offCode.trim())}>
              {t('account.twofa.turnOff')}
            </button>
          </form>
        </>
      )}
    </section>
  );
}
