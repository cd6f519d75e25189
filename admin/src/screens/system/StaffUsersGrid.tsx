/** Staff users: every back-office account, searched and filtered by role and status, sorted; (de)activated in bulk. */
import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Row } from '../../api/client';
import { collection, filterQuery } from '../../api/lists';
import { useSession } from '../../auth/session';
import { DataGrid, type BulkAction, type GridColumn } from '../../components/DataGrid';
import { PageHeader } from '../../components/ui';
import { ActiveBadge, Badge, useStoreNames, when } from './common';
import './system.css';

type StaffUser = Row<'/api/rest/v2/admin-users'>;

/** Every staff role (for filters and pickers): a shop has a handful. */
export function useStaffRoles() {
  return useQuery({
    queryKey: ['admin-roles', 'all'],
    queryFn: async () =>
      collection<Row<'/api/rest/v2/admin-roles'>>(
        await unwrap(api.GET('/api/rest/v2/admin-roles', { params: { query: { itemsPerPage: 100 } } })),
      ).items,
  });
}

export function StaffUsersGrid() {
  const { t } = useTranslation();
  const session = useSession();
  const roles = useStaffRoles();
  const storeNames = useStoreNames();
  const yesNo = [
    { value: 'true', label: t('system.active') },
    { value: 'false', label: t('system.inactive') },
  ];
  const columns: GridColumn<StaffUser>[] = [
    { id: 'username', header: t('system.users.username'), cell: (u) => u.username, sort: 'username' },
    { id: 'name', header: t('system.users.name'), cell: (u) => `${u.firstName} ${u.lastName}`.trim() },
    { id: 'email', header: t('system.users.email'), cell: (u) => u.email, sort: 'email' },
    {
      id: 'role',
      header: t('system.users.role'),
      cell: (u) => u.role,
      filter: { param: 'roleId', type: 'select', options: (roles.data ?? []).map((r) => ({ value: String(r.id), label: r.name })) },
    },
    {
      id: 'status',
      header: t('system.users.status'),
      cell: (u) => (
        <>
          <ActiveBadge active={u.isActive} /> {u.locked && <Badge tone="warn">{t('system.users.locked')}</Badge>}
        </>
      ),
      csv: (u) => (u.isActive ? 'active' : 'inactive'),
      filter: { param: 'isActive', type: 'select', options: yesNo },
    },
    {
      id: 'twofa',
      header: t('system.users.secondFactor'),
      cell: (u) =>
        [u.twofaEnabled ? t('system.users.totp') : '', u.passkeys ? t('system.users.passkeyCount', { count: u.passkeys }) : '']
          .filter(Boolean)
          .join(', ') || t('system.users.none'),
    },
    { id: 'stores', header: t('system.storeViews'), cell: (u) => storeNames(u.allowedStoreIds), hidden: true },
    {
      id: 'lastLoginAt',
      header: t('system.users.lastLogin'),
      cell: (u) => when(u.lastLoginAt),
      csv: (u) => u.lastLoginAt ?? '',
      sort: 'lastLoginAt',
    },
    {
      id: 'createdAt',
      header: t('system.created'),
      cell: (u) => when(u.createdAt),
      csv: (u) => u.createdAt,
      sort: 'createdAt',
      hidden: true,
    },
  ];
  const setActive = (isActive: boolean) => async (rows: StaffUser[]) => {
    for (const u of rows) {
      if (u.id === session.user?.id) continue;
      await unwrap(api.PUT('/api/rest/v2/admin-users/{id}', { params: { path: { id: u.id } }, body: { isActive } }));
    }
  };
  const bulk: BulkAction<StaffUser>[] = session.can('admin-users', 'write')
    ? [
        { label: t('system.users.deactivate'), run: setActive(false), confirm: t('system.users.deactivateConfirm') },
        { label: t('system.users.activate'), run: setActive(true) },
      ]
    : [];
  return (
    <>
      <PageHeader
        title={t('system.users.title')}
        actions={
          session.can('admin-users', 'create') && (
            <Link className="button sys-primary" to="/admin-users/new">
              {t('system.users.new')}
            </Link>
          )
        }
      />
      <DataGrid<StaffUser>
        id="admin-users"
        label={t('system.users.title')}
        columns={columns}
        rowKey={(u) => u.id}
        rowLink={(u) => (
          <Link to="/admin-users/$userId" params={{ userId: String(u.id) }}>
            {u.username}
          </Link>
        )}
        searchable
        bulkActions={bulk}
        defaultSort={{ sort: 'username', order: 'asc' }}
        exportName="staff-users"
        fetchPage={async (q) =>
          collection<StaffUser>(
            await unwrap(
              api.GET('/api/rest/v2/admin-users', {
                params: {
                  query: {
                    page: q.page,
                    itemsPerPage: q.pageSize,
                    search: q.search,
                    sortBy: q.sort as 'username' | 'email' | 'lastLoginAt' | 'createdAt' | undefined,
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
