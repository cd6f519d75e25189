/** API users: the integrations signing in with a key; searched, filtered by role and status, sorted; (de)activated in bulk. */
import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Row } from '../../api/client';
import { collection, filterQuery } from '../../api/lists';
import { useSession } from '../../auth/session';
import { DataGrid, type BulkAction, type GridColumn } from '../../components/DataGrid';
import { PageHeader } from '../../components/ui';
import { ActiveBadge, useStoreNames, when } from './common';
import { ApiTabs } from './ApiTabs';
import './system.css';

type ApiUser = Row<'/api/rest/v2/api-users'>;

export function useApiRoles(enabled = true) {
  return useQuery({
    queryKey: ['api-roles', 'all'],
    queryFn: async () =>
      collection<Row<'/api/rest/v2/api-roles'>>(
        await unwrap(api.GET('/api/rest/v2/api-roles', { params: { query: { itemsPerPage: 100 } } })),
      ).items,
    enabled,
  });
}

export function ApiUsersGrid() {
  const { t } = useTranslation();
  const session = useSession();
  const roles = useApiRoles(session.can('admin-roles'));
  const storeNames = useStoreNames();
  const columns: GridColumn<ApiUser>[] = [
    { id: 'username', header: t('system.users.username'), cell: (u) => u.username, sort: 'username' },
    { id: 'email', header: t('system.users.email'), cell: (u) => u.email ?? '', sort: 'email' },
    {
      id: 'role',
      header: t('system.users.role'),
      cell: (u) => u.role,
      filter: roles.data
        ? { param: 'roleId', type: 'select', options: roles.data.map((r) => ({ value: String(r.id), label: r.name })) }
        : undefined,
    },
    {
      id: 'status',
      header: t('system.users.status'),
      cell: (u) => <ActiveBadge active={u.isActive} />,
      csv: (u) => (u.isActive ? 'active' : 'inactive'),
      filter: {
        param: 'isActive',
        type: 'select',
        options: [
          { value: 'true', label: t('system.active') },
          { value: 'false', label: t('system.inactive') },
        ],
      },
    },
    { id: 'stores', header: t('system.storeViews'), cell: (u) => storeNames(u.allowedStoreIds) },
    { id: 'createdAt', header: t('system.created'), cell: (u) => when(u.createdAt), csv: (u) => u.createdAt, sort: 'createdAt' },
    {
      id: 'updatedAt',
      header: t('system.updated'),
      cell: (u) => when(u.updatedAt),
      csv: (u) => u.updatedAt,
      sort: 'updatedAt',
      hidden: true,
    },
  ];
  const setActive = (isActive: boolean) => async (rows: ApiUser[]) => {
    for (const u of rows) await unwrap(api.PUT('/api/rest/v2/api-users/{id}', { params: { path: { id: u.id } }, body: { isActive } }));
  };
  const bulk: BulkAction<ApiUser>[] = session.can('admin-users', 'write')
    ? [
        { label: t('system.users.deactivate'), run: setActive(false), confirm: t('system.apiUsers.deactivateConfirm') },
        { label: t('system.users.activate'), run: setActive(true) },
      ]
    : [];
  return (
    <>
      <PageHeader
        title={t('system.apiUsers.title')}
        actions={
          session.can('admin-users', 'create') && (
            <Link className="button sys-primary" to="/api-users/new">
              {t('system.apiUsers.new')}
            </Link>
          )
        }
      />
      <ApiTabs />
      <DataGrid<ApiUser>
        id="api-users"
        label={t('system.apiUsers.title')}
        columns={columns}
        rowKey={(u) => u.id}
        rowLink={(u) => (
          <Link to="/api-users/$apiUserId" params={{ apiUserId: String(u.id) }}>
            {u.username}
          </Link>
        )}
        searchable
        bulkActions={bulk}
        defaultSort={{ sort: 'username', order: 'asc' }}
        exportName="api-users"
        fetchPage={async (q) =>
          collection<ApiUser>(
            await unwrap(
              api.GET('/api/rest/v2/api-users', {
                params: {
                  query: {
                    page: q.page,
                    itemsPerPage: q.pageSize,
                    search: q.search,
                    sortBy: q.sort as 'username' | 'email' | 'createdAt' | 'updatedAt' | undefined,
                    sortDir: q.order,
                    ...filterQuery(q.filters, ['roleId']),
                    ...(q.filters.isActive ? { isActive: q.filters.isActive === 'true' } : {}),
                  },
                },
              }),
            ),
          )
        }
      />
    </>
  );
}
