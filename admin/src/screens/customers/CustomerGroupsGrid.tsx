/** Customer groups: searched by code, sorted by id, code and tax class; deleted in bulk (their customers move to the default group). */
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Row } from '../../api/client';
import { collection } from '../../api/lists';
import { useSession } from '../../auth/session';
import { DataGrid, type BulkAction, type GridColumn } from '../../components/DataGrid';
import { PageHeader } from '../../components/ui';
import { gridQuery } from './shared';

type Group = Row<'/api/rest/v2/customer-groups'>;

export function CustomerGroupsGrid() {
  const { t } = useTranslation();
  const session = useSession();
  const columns: GridColumn<Group>[] = [
    { id: 'code', header: t('customers.groups.code'), cell: (g) => g.code, sort: 'code' },
    { id: 'id', header: t('customers.groups.id'), cell: (g) => String(g.id), sort: 'id' },
    { id: 'taxClass', header: t('customers.groups.taxClass'), cell: (g) => g.taxClassName ?? String(g.taxClassId), sort: 'taxClassId' },
  ];
  const bulk: BulkAction<Group>[] = session.can('customer-groups', 'delete')
    ? [
        {
          label: t('customers.groups.bulkDelete'),
          confirm: t('customers.groups.bulkDeleteConfirm'),
          run: async (rows) => {
            for (const g of rows) await unwrap(api.DELETE('/api/rest/v2/customer-groups/{id}', { params: { path: { id: g.id } } }));
          },
        },
      ]
    : [];
  return (
    <>
      <PageHeader
        title={t('customers.groups.title')}
        actions={
          session.can('customer-groups', 'create') && (
            <Link to="/customer-groups/new" className="button primary">
              {t('customers.groups.new')}
            </Link>
          )
        }
      />
      <DataGrid<Group>
        id="customer-groups"
        label={t('customers.groups.title')}
        columns={columns}
        rowKey={(g) => g.id}
        rowLink={(g) => (
          <Link to="/customer-groups/$groupId" params={{ groupId: String(g.id) }}>
            {g.code}
          </Link>
        )}
        searchable
        defaultSort={{ sort: 'code', order: 'asc' }}
        bulkActions={bulk}
        exportName="customer-groups"
        fetchPage={async (q) =>
          collection<Group>(await unwrap(api.GET('/api/rest/v2/customer-groups', { params: { query: gridQuery(q) } })))
        }
      />
    </>
  );
}
