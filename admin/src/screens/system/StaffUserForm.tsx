/**
 * A staff user: created with a password, or changed (name, email, language, role, store views, active, a new
 * password); unlocked after failed sign-ins, sent a password reset link, its passkeys removed, deleted.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Answer } from '../../api/client';
import { useSession } from '../../auth/session';
import {
  CheckboxField,
  ErrorNote,
  fieldError,
  Notice,
  PageHeader,
  SelectField,
  Spinner,
  TextField,
  useUnsavedChanges,
} from '../../components/ui';
import { ActiveBadge, Badge, StoreViewsField, confirmed, useLocaleOptions, when } from './common';
import { useStaffRoles } from './StaffUsersGrid';
import './system.css';

type StaffUser = Answer<'/api/rest/v2/admin-users/{id}', 'get'>;

interface Draft {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  locale: string;
  roleId: string;
  isActive: boolean;
  allowedStoreIds: number[] | null;
  password: string;
}

const EMPTY: Draft = {
  username: '',
  email: '',
  firstName: '',
  lastName: '',
  locale: 'en_US',
  roleId: '',
  isActive: true,
  allowedStoreIds: null,
  password: '',
};

function draftOf(u: StaffUser): Draft {
  return {
    username: u.username,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    locale: u.locale,
    roleId: String(u.roleId),
    isActive: u.isActive,
    allowedStoreIds: u.allowedStoreIds ?? null,
    password: '',
  };
}

export function StaffUserForm({ userId }: { userId?: string }) {
  const id = userId ? Number(userId) : undefined;
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const roles = useStaffRoles();
  const locales = useLocaleOptions();
  const user = useQuery({
    queryKey: ['admin-users', id],
    queryFn: () => unwrap(api.GET('/api/rest/v2/admin-users/{id}', { params: { path: { id: id! } } })),
    enabled: id !== undefined,
  });
  const [initial, setInitial] = useState<Draft>(EMPTY);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [error, setError] = useState<unknown>();
  const [done, setDone] = useState<string>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (user.data) {
      setInitial(draftOf(user.data));
      setDraft(draftOf(user.data));
    }
  }, [user.data]);
  const dirty = JSON.stringify(draft) !== JSON.stringify(initial);
  useUnsavedChanges(dirty && !busy);

  const canWrite = session.can('admin-users', id === undefined ? 'create' : 'write');
  const self = id !== undefined && session.user?.id === id;
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setDraft((d) => ({ ...d, [k]: v }));
  const op = id === undefined ? 'adminUsers.create' : 'adminUsers.update';

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

  function save(e: FormEvent) {
    e.preventDefault();
    void act(async () => {
      const body = {
        username: draft.username.trim(),
        email: draft.email.trim(),
        firstName: draft.firstName,
        lastName: draft.lastName,
        locale: draft.locale,
        roleId: Number(draft.roleId),
        isActive: draft.isActive,
        allowedStoreIds: draft.allowedStoreIds?.length ? draft.allowedStoreIds : null,
      };
      if (id === undefined) {
        const created = await unwrap(api.POST('/api/rest/v2/admin-users', { body: { ...body, password: draft.password } }));
        setInitial(draft);
        await qc.invalidateQueries({ queryKey: ['grid', 'admin-users'] });
        await navigate({ to: '/admin-users/$userId', params: { userId: String(created.id) }, replace: true });
        return t('system.users.created');
      }
      const saved = await unwrap(
        api.PUT('/api/rest/v2/admin-users/{id}', {
          params: { path: { id } },
          body: { ...body, ...(draft.password ? { password: draft.password } : {}) },
        }),
      );
      qc.setQueryData(['admin-users', id], saved);
      await qc.invalidateQueries({ queryKey: ['grid', 'admin-users'] });
      return t('common.saved');
    });
  }

  if (id !== undefined && user.isPending) return <Spinner />;
  if (id !== undefined && user.error) return <ErrorNote error={user.error} />;
  const u = user.data;
  const title = u ? t('system.users.editTitle', { name: u.username }) : t('system.users.new');
  return (
    <>
      <PageHeader
        title={title}
        actions={
          u && (
            <>
              {u.locked && session.can('admin-users', 'write') && (
                <button
                  type="button"
                  disabled={busy}
                  onClick={() =>
                    void act(async () => {
                      qc.setQueryData(
                        ['admin-users', id],
                        await unwrap(api.PUT('/api/rest/v2/admin-users/{id}', { params: { path: { id: u.id } }, body: { unlock: true } })),
                      );
                      return t('system.users.unlocked');
                    })
                  }
                >
                  {t('system.users.unlock')}
                </button>
              )}
              {session.can('admin-users', 'write') && (
                <button
                  type="button"
                  disabled={busy}
                  onClick={() =>
                    void act(async () => {
                      await unwrap(api.POST('/api/rest/v2/admin-users/{id}/password-reset', { params: { path: { id: u.id } }, body: {} }));
                      return t('system.users.resetSent', { email: u.email });
                    })
                  }
                >
                  {t('system.users.sendReset')}
                </button>
              )}
              {session.can('admin-users', 'delete') && !self && (
                <button
                  type="button"
                  className="danger"
                  disabled={busy}
                  onClick={() =>
                    confirmed(t('system.users.deleteConfirm', { name: u.username })) &&
                    void act(async () => {
                      await unwrap(api.DELETE('/api/rest/v2/admin-users/{id}', { params: { path: { id: u.id } } }));
                      setInitial(draft);
                      await qc.invalidateQueries({ queryKey: ['grid', 'admin-users'] });
                      await navigate({ to: '/admin-users' });
                      return undefined;
                    })
                  }
                >
                  {t('common.delete')}
                </button>
              )}
            </>
          )
        }
      />
      {done && <Notice>{done}</Notice>}
      <ErrorNote error={error} />
      {u && (
        <section className="panel" aria-labelledby="user-standing">
          <h2 id="user-standing">{t('system.users.standing')}</h2>
          <dl className="sys-facts">
            <dt>{t('system.users.status')}</dt>
            <dd>
              <ActiveBadge active={u.isActive} />{' '}
              {u.locked && <Badge tone="warn">{t('system.users.lockedUntil', { at: when(u.lockedUntil) })}</Badge>}
            </dd>
            <dt>{t('system.users.secondFactor')}</dt>
            <dd>
              {[u.twofaEnabled ? t('system.users.totp') : '', u.passkeys ? t('system.users.passkeyCount', { count: u.passkeys }) : '']
                .filter(Boolean)
                .join(', ') || t('system.users.none')}
            </dd>
            <dt>{t('system.users.lastLogin')}</dt>
            <dd>{when(u.lastLoginAt) || t('system.users.never')}</dd>
            <dt>{t('system.users.loginCount')}</dt>
            <dd>{u.loginCount}</dd>
            <dt>{t('system.users.failedLogins')}</dt>
            <dd>{u.failedLogins}</dd>
          </dl>
        </section>
      )}
      <form className="panel" onSubmit={save} aria-labelledby="user-form-title">
        <h2 id="user-form-title">{t('system.users.account')}</h2>
        <fieldset disabled={!canWrite || busy} className="sys-plain">
          <div className="form-grid">
            <TextField
              label={t('system.users.username')}
              name="username"
              operationId={op}
              error={error}
              value={draft.username}
              onChange={(e) => set('username', e.target.value)}
              required
              autoComplete="off"
            />
            <TextField
              label={t('system.users.email')}
              name="email"
              type="email"
              operationId={op}
              error={error}
              value={draft.email}
              onChange={(e) => set('email', e.target.value)}
              required
              autoComplete="off"
            />
            <TextField
              label={t('system.users.firstName')}
              name="firstName"
              operationId={op}
              error={error}
              value={draft.firstName}
              onChange={(e) => set('firstName', e.target.value)}
            />
            <TextField
              label={t('system.users.lastName')}
              name="lastName"
              operationId={op}
              error={error}
              value={draft.lastName}
              onChange={(e) => set('lastName', e.target.value)}
            />
            <SelectField
              label={t('system.users.locale')}
              name="locale"
              error={error}
              value={draft.locale}
              onChange={(e) => set('locale', e.target.value)}
              options={locales.some((l) => l.value === draft.locale) ? locales : [...locales, { value: draft.locale, label: draft.locale }]}
            />
            <SelectField
              label={t('system.users.role')}
              name="roleId"
              error={error}
              value={draft.roleId}
              onChange={(e) => set('roleId', e.target.value)}
              required
              options={[
                { value: '', label: t('system.users.chooseRole') },
                ...(roles.data ?? []).map((r) => ({ value: String(r.id), label: r.name })),
              ]}
            />
            <TextField
              label={id === undefined ? t('system.users.password') : t('system.users.newPassword')}
              name="password"
              type="password"
              operationId={op}
              error={error}
              value={draft.password}
              onChange={(e) => set('password', e.target.value)}
              required={id === undefined}
              minLength={8}
              autoComplete="new-password"
              hint={id === undefined ? t('system.users.passwordHint') : t('system.users.newPasswordHint')}
            />
          </div>
          <CheckboxField
            label={t('system.users.isActive')}
            name="isActive"
            checked={draft.isActive}
            disabled={self}
            onChange={(e) => set('isActive', e.target.checked)}
          />
          <StoreViewsField
            value={draft.allowedStoreIds}
            onChange={(v) => set('allowedStoreIds', v)}
            error={fieldError(error, 'allowedStoreIds')}
          />
          <div className="form-actions">
            <button type="submit" className="primary" disabled={!canWrite || busy || (id !== undefined && !dirty)}>
              {id === undefined ? t('common.create') : t('common.save')}
            </button>
          </div>
        </fieldset>
      </form>
      {u && session.can('admin-users', 'read') && <UserPasskeys userId={u.id} />}
    </>
  );
}

/** The passkeys of another staff user: listed, and removed by an admin who may change staff users. */
function UserPasskeys({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const session = useSession();
  const qc = useQueryClient();
  const [error, setError] = useState<unknown>();
  const keys = useQuery({
    queryKey: ['admin-users', userId, 'passkeys'],
    queryFn: async () =>
      (await unwrap(api.GET('/api/rest/v2/admin-users/{id}/passkeys', { params: { path: { id: userId } } }))) as unknown as {
        member?: { id: number; name: string; createdAt: string; lastUsedAt?: string }[];
      },
  });
  const rows = keys.data?.member ?? [];
  return (
    <section className="panel" aria-labelledby="user-passkeys">
      <h2 id="user-passkeys">{t('account.passkeys.title')}</h2>
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
                  {session.can('admin-users', 'write') && (
                    <button
                      type="button"
                      className="danger"
                      aria-label={t('account.passkeys.removeNamed', { name: k.name })}
                      onClick={async () => {
                        if (!confirmed(t('account.passkeys.removeConfirm', { name: k.name }))) return;
                        setError(undefined);
                        try {
                          await unwrap(
                            api.DELETE('/api/rest/v2/admin-users/{id}/passkeys/{passkeyId}', {
                              params: { path: { id: userId, passkeyId: k.id } },
                            }),
                          );
                          await qc.invalidateQueries({ queryKey: ['admin-users', userId] });
                        } catch (err) {
                          setError(err);
                        }
                      }}
                    >
                      {t('account.passkeys.remove')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
