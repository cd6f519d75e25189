/** A role of staff users or of API users: its name and its permission tree; deleted once nobody holds it. */
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { useSession } from '../../auth/session';
import { ErrorNote, fieldError, Notice, PageHeader, Spinner, TextField, useUnsavedChanges } from '../../components/ui';
import { confirmed } from './common';
import { ApiTabs } from './ApiTabs';
import { PermissionTree } from './PermissionTree';
import { grantsOf, permissionsOf, type Grants } from './permissions';
import './system.css';

interface RoleData {
  id: number;
  name: string;
  permissions: string[];
  userCount: number;
  clientCount?: number;
}

function getRole(staff: boolean, id: number): Promise<RoleData> {
  return staff
    ? unwrap(api.GET('/api/rest/v2/admin-roles/{id}', { params: { path: { id } } }))
    : unwrap(api.GET('/api/rest/v2/api-roles/{id}', { params: { path: { id } } }));
}

function saveRole(staff: boolean, id: number | undefined, body: { name: string; permissions: string[] }): Promise<RoleData> {
  if (id === undefined) {
    return staff ? unwrap(api.POST('/api/rest/v2/admin-roles', { body })) : unwrap(api.POST('/api/rest/v2/api-roles', { body }));
  }
  return staff
    ? unwrap(api.PUT('/api/rest/v2/admin-roles/{id}', { params: { path: { id } }, body }))
    : unwrap(api.PUT('/api/rest/v2/api-roles/{id}', { params: { path: { id } }, body }));
}

export function RoleForm({ kind, roleId }: { kind: 'staff' | 'api'; roleId?: string }) {
  const staff = kind === 'staff';
  const id = roleId ? Number(roleId) : undefined;
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const role = useQuery({ queryKey: [kind, 'role', id], queryFn: () => getRole(staff, id!), enabled: id !== undefined });
  const [initial, setInitial] = useState({ name: '', permissions: [] as string[] });
  const [name, setName] = useState('');
  const [grants, setGrants] = useState<Grants>({ all: false, byResource: {} });
  const [error, setError] = useState<unknown>();
  const [done, setDone] = useState<string>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (role.data) {
      const g = grantsOf(role.data.permissions);
      setInitial({ name: role.data.name, permissions: permissionsOf(g) });
      setName(role.data.name);
      setGrants(g);
    }
  }, [role.data]);
  const permissions = permissionsOf(grants);
  const dirty = name !== initial.name || JSON.stringify(permissions) !== JSON.stringify(initial.permissions);
  useUnsavedChanges(dirty && !busy);
  const canWrite = session.can('admin-roles', id === undefined ? 'create' : 'write');
  const list = staff ? '/admin-roles' : '/api-users/roles';

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
      const saved = await saveRole(staff, id, { name: name.trim(), permissions });
      setInitial({ name: saved.name, permissions: permissionsOf(grantsOf(saved.permissions)) });
      await qc.invalidateQueries({ queryKey: ['grid', staff ? 'admin-roles' : 'api-roles'] });
      await qc.invalidateQueries({ queryKey: [staff ? 'admin-roles' : 'api-roles', 'all'] });
      if (id === undefined) {
        await navigate({
          to: staff ? '/admin-roles/$roleId' : '/api-users/roles/$roleId',
          params: { roleId: String(saved.id) },
          replace: true,
        });
        return t('system.roles.created');
      }
      qc.setQueryData([kind, 'role', id], saved);
      return t('common.saved');
    });
  }

  if (id !== undefined && role.isPending) return <Spinner />;
  if (id !== undefined && role.error) return <ErrorNote error={role.error} />;
  const r = role.data;
  const title = r
    ? t(staff ? 'system.roles.editTitle' : 'system.apiRoles.editTitle', { name: r.name })
    : t(staff ? 'system.roles.new' : 'system.apiRoles.new');
  return (
    <>
      <PageHeader
        title={title}
        actions={
          r &&
          session.can('admin-roles', 'delete') && (
            <button
              type="button"
              className="danger"
              disabled={busy}
              onClick={() =>
                confirmed(t('system.roles.deleteConfirm', { name: r.name })) &&
                void act(async () => {
                  if (staff) await unwrap(api.DELETE('/api/rest/v2/admin-roles/{id}', { params: { path: { id: r.id } } }));
                  else await unwrap(api.DELETE('/api/rest/v2/api-roles/{id}', { params: { path: { id: r.id } } }));
                  setInitial({ name, permissions });
                  await qc.invalidateQueries({ queryKey: ['grid', staff ? 'admin-roles' : 'api-roles'] });
                  await navigate({ to: list });
                  return undefined;
                })
              }
            >
              {t('common.delete')}
            </button>
          )
        }
      />
      {!staff && <ApiTabs />}
      {done && <Notice>{done}</Notice>}
      <ErrorNote error={error} />
      {r && (
        <p className="sys-muted">
          {r.clientCount !== undefined
            ? t('system.apiRoles.holderCount', { users: r.userCount, clients: r.clientCount })
            : t('system.roles.heldBy', { count: r.userCount })}
        </p>
      )}
      <form className="panel" onSubmit={save} aria-label={title}>
        <fieldset className="sys-plain" disabled={!canWrite || busy}>
          <TextField
            label={t('system.roles.name')}
            name="name"
            operationId={staff ? 'adminRoles.create' : 'apiRoles.create'}
            error={error}
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
          />
          <PermissionTree value={grants} onChange={setGrants} />
          {fieldError(error, 'permissions') && <p className="field-error">{fieldError(error, 'permissions')}</p>}
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
