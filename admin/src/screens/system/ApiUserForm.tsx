/**
 * An API user: created (its key is shown once, then only its hash is kept), changed (name, email, role, store
 * views, active), given a new key (the old one and its tokens stop working), deleted.
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
import { ShownOnce, StoreViewsField, confirmed, handOver, handedOver, letGo, when } from './common';
import { ApiTabs } from './ApiTabs';
import { useApiRoles } from './ApiUsersGrid';
import './system.css';

type ApiUser = Answer<'/api/rest/v2/api-users/{id}', 'get'>;

interface Draft {
  username: string;
  email: string;
  roleId: string;
  isActive: boolean;
  allowedStoreIds: number[] | null;
}

const EMPTY: Draft = { username: '', email: '', roleId: '', isActive: true, allowedStoreIds: null };

const draftOf = (u: ApiUser): Draft => ({
  username: u.username,
  email: u.email ?? '',
  roleId: String(u.roleId),
  isActive: u.isActive,
  allowedStoreIds: u.allowedStoreIds ?? null,
});

export function ApiUserForm({ apiUserId }: { apiUserId?: string }) {
  const id = apiUserId ? Number(apiUserId) : undefined;
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const roles = useApiRoles(session.can('admin-roles'));
  const user = useQuery({
    queryKey: ['api-users', id],
    queryFn: () => unwrap(api.GET('/api/rest/v2/api-users/{id}', { params: { path: { id: id! } } })),
    enabled: id !== undefined,
  });
  const [initial, setInitial] = useState<Draft>(EMPTY);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [error, setError] = useState<unknown>();
  const [done, setDone] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [key, setKey] = useState<string | undefined>(() => (id !== undefined ? handedOver(`api-user-key-${id}`)?.[0] : undefined));
  useEffect(() => {
    if (user.data) {
      setInitial(draftOf(user.data));
      setDraft(draftOf(user.data));
    }
  }, [user.data]);
  const dirty = JSON.stringify(draft) !== JSON.stringify(initial);
  useUnsavedChanges(dirty && !busy);
  const canWrite = session.can('admin-users', id === undefined ? 'create' : 'write');
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setDraft((d) => ({ ...d, [k]: v }));
  const op = id === undefined ? 'apiUsers.create' : 'apiUsers.update';

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
        email: draft.email.trim() || null,
        roleId: Number(draft.roleId),
        isActive: draft.isActive,
        allowedStoreIds: draft.allowedStoreIds?.length ? draft.allowedStoreIds : null,
      };
      if (id === undefined) {
        const created = await unwrap(api.POST('/api/rest/v2/api-users', { body }));
        const { apiKey, ...rest } = created;
        setInitial(draft);
        qc.setQueryData(['api-users', created.id], rest);
        if (apiKey) handOver(`api-user-key-${created.id}`, [apiKey]);
        await qc.invalidateQueries({ queryKey: ['grid', 'api-users'] });
        await navigate({ to: '/api-users/$apiUserId', params: { apiUserId: String(created.id) }, replace: true });
        return t('system.apiUsers.created');
      }
      qc.setQueryData(['api-users', id], await unwrap(api.PUT('/api/rest/v2/api-users/{id}', { params: { path: { id } }, body })));
      await qc.invalidateQueries({ queryKey: ['grid', 'api-users'] });
      return t('common.saved');
    });
  }

  if (id !== undefined && user.isPending) return <Spinner />;
  if (id !== undefined && user.error) return <ErrorNote error={user.error} />;
  const u = user.data;
  const title = u ? t('system.apiUsers.editTitle', { name: u.username }) : t('system.apiUsers.new');
  const roleOptions = roles.data
    ? roles.data.map((r) => ({ value: String(r.id), label: r.name }))
    : u
      ? [{ value: String(u.roleId), label: u.role }]
      : [];
  return (
    <>
      <PageHeader
        title={title}
        actions={
          u && (
            <>
              {session.can('admin-users', 'write') && (
                <button
                  type="button"
                  disabled={busy}
                  onClick={() =>
                    confirmed(t('system.apiUsers.resetKeyConfirm', { name: u.username })) &&
                    void act(async () => {
                      const answer = await unwrap(
                        api.POST('/api/rest/v2/api-users/{id}/key', { params: { path: { id: u.id } }, body: {} }),
                      );
                      setKey(answer.apiKey);
                      return t('system.apiUsers.keyReset');
                    })
                  }
                >
                  {t('system.apiUsers.resetKey')}
                </button>
              )}
              {session.can('admin-users', 'delete') && (
                <button
                  type="button"
                  className="danger"
                  disabled={busy}
                  onClick={() =>
                    confirmed(t('system.apiUsers.deleteConfirm', { name: u.username })) &&
                    void act(async () => {
                      await unwrap(api.DELETE('/api/rest/v2/api-users/{id}', { params: { path: { id: u.id } } }));
                      setInitial(draft);
                      await qc.invalidateQueries({ queryKey: ['grid', 'api-users'] });
                      await navigate({ to: '/api-users' });
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
      <ApiTabs />
      {key && (
        <ShownOnce
          title={t('system.apiUsers.keyTitle')}
          note={t('system.apiUsers.keyNote')}
          values={[key]}
          onClose={() => {
            letGo(`api-user-key-${id}`);
            setKey(undefined);
          }}
        />
      )}
      {done && <Notice>{done}</Notice>}
      <ErrorNote error={error} />
      {u && <p className="sys-muted">{t('system.apiUsers.dates', { created: when(u.createdAt), updated: when(u.updatedAt) })}</p>}
      <form className="panel" onSubmit={save} aria-label={title}>
        <fieldset className="sys-plain" disabled={!canWrite || busy}>
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
              error={error}
              value={draft.email}
              onChange={(e) => set('email', e.target.value)}
              autoComplete="off"
            />
            <SelectField
              label={t('system.users.role')}
              name="roleId"
              error={error}
              value={draft.roleId}
              onChange={(e) => set('roleId', e.target.value)}
              required
              options={[{ value: '', label: t('system.users.chooseRole') }, ...roleOptions]}
            />
          </div>
          <CheckboxField
            label={t('system.users.isActive')}
            name="isActive"
            checked={draft.isActive}
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
    </>
  );
}
