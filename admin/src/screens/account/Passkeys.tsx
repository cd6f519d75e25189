/** The signed-in user's passkeys: registered in this browser (WebAuthn), listed, removed. */
import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { startRegistration } from '@simplewebauthn/browser';
import { useTranslation } from 'react-i18next';
import { ApiError, api, unwrap, type Row } from '../../api/client';
import { collection } from '../../api/lists';
import { useSession } from '../../auth/session';
import { ErrorNote, Notice, TextField } from '../../components/ui';
import { when } from '../system/common';

type Passkey = Row<'/api/rest/v2/admin-users/me/passkeys'>;

export function Passkeys() {
  const { t } = useTranslation();
  const session = useSession();
  const qc = useQueryClient();
  const keys = useQuery({
    queryKey: ['account', 'passkeys'],
    queryFn: async () => collection<Passkey>(await unwrap(api.GET('/api/rest/v2/admin-users/me/passkeys'))).items,
  });
  const [name, setName] = useState('');
  const [error, setError] = useState<unknown>();
  const [done, setDone] = useState<string>();
  const [busy, setBusy] = useState(false);
  const supported = typeof window !== 'undefined' && 'PublicKeyCredential' in window;

  async function act(fn: () => Promise<string | undefined>) {
    setBusy(true);
    setError(undefined);
    setDone(undefined);
    try {
      setDone(await fn());
      await qc.invalidateQueries({ queryKey: ['account', 'passkeys'] });
      await session.reload();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  function register(e: FormEvent) {
    e.preventDefault();
    void act(async () => {
      const options = await unwrap(api.POST('/api/rest/v2/admin-users/me/passkeys/options', { body: {} }));
      let response;
      try {
        response = await startRegistration({ optionsJSON: options as never });
      } catch {
        throw new Error(t('account.passkeys.failed'));
      }
      await unwrap(api.POST('/api/rest/v2/admin-users/me/passkeys', { body: { name: name.trim(), response: response as never } }));
      setName('');
      return t('account.passkeys.added');
    });
  }

  const rows = keys.data ?? [];
  return (
    <section className="panel" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">{t('account.passkeys.title')}</h2>
      <p className="sys-muted">{t('account.passkeys.about')}</p>
      {done && <Notice>{done}</Notice>}
      <ErrorNote error={error ?? keys.error} />
      {rows.length === 0 ? (
        <p>{t('account.passkeys.none')}</p>
      ) : (
        <table>
          <caption className="sr-only">{t('account.passkeys.title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('account.passkeys.name')}</th>
              <th scope="col">{t('system.created')}</th>
              <th scope="col">{t('account.passkeys.lastUsed')}</th>
              <th scope="col">
                <span className="sr-only">{t('system.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((k) => (
              <tr key={k.id}>
                <td>{k.name}</td>
                <td>{when(k.createdAt)}</td>
                <td>{when(k.lastUsedAt) || t('system.users.never')}</td>
                <td>
                  <button
                    type="button"
                    className="danger"
                    disabled={busy}
                    aria-label={t('account.passkeys.removeNamed', { name: k.name })}
                    onClick={() =>
                      window.confirm(t('account.passkeys.removeConfirm', { name: k.name })) &&
                      void act(async () => {
                        await unwrap(
                          api.DELETE('/api/rest/v2/admin-users/me/passkeys/{passkeyId}', { params: { path: { passkeyId: k.id } } }),
                        );
                        return t('account.passkeys.removed');
                      })
                    }
                  >
                    {t('account.passkeys.remove')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {supported ? (
        <form onSubmit={register} className="sys-inline-form" aria-label={t('account.passkeys.add')}>
          <TextField
            label={t('account.passkeys.newName')}
            name="name"
            operationId="adminUsers.passkeyRegister"
            error={error instanceof ApiError ? error : undefined}
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
            hint={t('account.passkeys.nameHint')}
          />
          <button type="submit" disabled={busy || !name.trim()}>
            {t('account.passkeys.add')}
          </button>
        </form>
      ) : (
        <p>{t('account.passkeys.unsupported')}</p>
      )}
    </section>
  );
}
