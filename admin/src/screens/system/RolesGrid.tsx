/** Roles, of staff users or of API users: name, holders and permissions; roles nobody holds deleted in bulk. */
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Row } from '../../api/client';
import { collection } from '../../api/lists';
import { useSession } from '../../auth/session';
import { DataGrid, type GridColumn } from '../../components/DataGrid';
import { PageHeader } from '../../components/ui';
import { when } from './common';
import { ApiTabs } from './ApiTabs';
import './system.css';

type StaffRole = Row<'/api/rest/v2/admin-roles'>;
type ApiRole = Row<'/api/rest/v2/api-roles'>;
type Role = StaffRole | ApiRole;

function summary(t: (k: string, o?: Record<string, unknown>) => string, permissions: string[]): string {
  if (permissions.includes('all')) return t('system.roles.allPermissions');
  if (!permissions.length) return t('system.roles.noPermissions');
  const resources = new Set(permissions.map((p) => p.split('/')[0]));
  return t('system.roles.resourceCount', { count: resources.size });
}

export function RolesGrid({ kind }: { kind: 'staff' | 'api' }) {
  const { t } = useTranslation();
  const session = useSession();
  const staff = kind === 'staff';
  const title = staff ? t('system.roles.title') : t('system.apiRoles.title');
  const columns: GridColumn<Role>[] = [
    { id: 'name', header: t('system.roles.name'), cell: (r) => r.name },
    {
      id: 'holders',
      header: staff ? t('system.roles.users') : t('system.apiRoles.holders'),
      cell: (r) =>
        'clientCount' in r ? t('system.apiRoles.holderCount', { users: r.userCount, clients: r.clientCount }) : String(r.userCount),
      csv: (r) => String(r.userCount),
      align: staff ? 'end' : undefined,
    },
    {
      id: 'permissions',
      header: t('system.roles.permissions'),
      cell: (r) => summary(t, r.permissions),
      csv: (r) => r.permissions.join(' '),
    },
    { id: 'createdAt', header: t('system.created'), cell: (r) => when(r.createdAt), csv: (r) => r.createdAt, hidden: true },
  ];
  const bulk = session.can('admin-roles', 'delete')
    ? [
        {
          label: t('common.delete'),
          confirm: t('system.roles.deleteSelectedConfirm'),
          run: async (rows: Role[]) => {
            for (const r of rows) {
              if (staff) await unwrap(api.DELETE('/api/rest/v2/admin-roles/{id}', { params: { path: { id: r.id } } }));
              else await unwrap(api.DELETE('/api/rest/v2/api-roles/{id}', { params: { path: { id: r.id } } }));
            }
          },
        },
      ]
    : [];
  return (
    <>
      <PageHeader
        title={title}
        actions={
          session.can('admin-roles', 'create') &&
          (staff ? (
            <Link className="button sys-primary" to="/admin-roles/new">
              {t('system.roles.new')}
            </Link>
          ) : (
            <Link className="button sys-primary" to="/api-users/roles/new">
              {t('system.apiRoles.new')}
            </Link>
          ))
        }
      />
      {!staff && <ApiTabs />}
      <DataGrid<Role>
        id={staff ? 'admin-roles' : 'api-roles'}
        label={title}
        columns={columns}
        rowKey={(r) => r.id}
        rowLink={(r) =>
          staff ? (
            <Link to="/admin-roles/$roleId" params={{ roleId: String(r.id) }}>
              {r.name}
            </Link>
          ) : (
            <Link to="/api-users/roles/$roleId" params={{ roleId: String(r.id) }}>
              {r.name}
            </Link>
          )
        }
        searchable={!staff}
        bulkActions={bulk}
        exportName={staff ? 'staff-roles' : 'api-roles'}
        fetchPage={async (q) => {
          const query = { page: q.page, itemsPerPage: q.pageSize };
          return staff
            ? collection<Role>(await unwrap(api.GET('/api/rest/v2/admin-roles', { params: { query } })))
            : collection<Role>(await unwrap(api.GET('/api/rest/v2/api-roles', { params: { query: { ...query, search: q.search } } })));
        }}
      />
    </>
  );
}
