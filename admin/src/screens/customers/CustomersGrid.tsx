/**
 * The customers grid: searched by name or email, filtered by email, names, telephone, group, website, state and
 * the dates of creation and change, sorted by name, email, group, website and dates; (de)activated in bulk; CSV export.
 */
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Row } from '../../api/client';
import { collection } from '../../api/lists';
import { useSession } from '../../auth/session';
import { DataGrid, type BulkAction, type GridColumn } from '../../components/DataGrid';
import { PageHeader } from '../../components/ui';
import { formatDate } from '../../i18n';
import { utc } from '../sales/common';
import { YesNoBadge, boolOptions, gridQuery, nameOf, useCustomerGroups, useWebsites } from './shared';

type Customer = Row<'/api/rest/v2/customers'>;

export function CustomersGrid() {
  const { t } = useTranslation();
  const session = useSession();
  const groups = useCustomerGroups();
  const websites = useWebsites();
  const groupName = (id: number) => groups.find((g) => g.id === id)?.code ?? String(id);
  const columns: GridColumn<Customer>[] = [
    { id: 'name', header: t('customers.fields.name'), cell: (c) => c.fullName, sort: 'name' },
    { id: 'email', header: t('customers.fields.email'), cell: (c) => c.email, sort: 'email', filter: { param: 'email', type: 'text' } },
    {
      id: 'firstname',
      header: t('customers.fields.firstname'),
      cell: (c) => c.firstname,
      sort: 'firstname',
      filter: { param: 'firstname', type: 'text' },
      hidden: true,
    },
    {
      id: 'lastname',
      header: t('customers.fields.lastname'),
      cell: (c) => c.lastname,
      sort: 'lastname',
      filter: { param: 'lastname', type: 'text' },
      hidden: true,
    },
    {
      id: 'telephone',
      header: t('customers.fields.telephone'),
      cell: (c) => (c.defaultBillingAddress ?? c.addresses[0])?.telephone ?? '',
      filter: { param: 'telephone', type: 'text' },
      hidden: true,
    },
    {
      id: 'group',
      header: t('customers.fields.group'),
      cell: (c) => groupName(c.groupId),
      sort: 'group',
      filter: { param: 'groupId', type: 'select', options: groups.map((g) => ({ value: String(g.id), label: g.code })) },
    },
    {
      id: 'website',
      header: t('customers.fields.website'),
      cell: (c) => nameOf(websites, c.websiteId),
      sort: 'websiteId',
      filter: { param: 'websiteId', type: 'select', options: websites.map((w) => ({ value: String(w.id), label: w.name })) },
    },
    {
      id: 'country',
      header: t('customers.fields.country'),
      cell: (c) => c.defaultBillingAddress?.countryId ?? '',
      hidden: true,
    },
    {
      id: 'status',
      header: t('customers.fields.status'),
      cell: (c) => <YesNoBadge on={c.isActive} yes={t('customers.status.active')} no={t('customers.status.inactive')} />,
      csv: (c) => (c.isActive ? 'active' : 'inactive'),
      filter: { param: 'isActive', type: 'select', options: boolOptions(t('customers.status.active'), t('customers.status.inactive')) },
    },
    {
      id: 'createdAt',
      header: t('customers.fields.createdAt'),
      cell: (c) => formatDate(utc(c.createdAt)),
      csv: (c) => c.createdAt,
      sort: 'createdAt',
      // the API's createdFrom: created on or after the date chosen
      filter: { param: 'createdFrom', type: 'date' },
    },
    {
      id: 'updatedAt',
      header: t('customers.fields.updatedAt'),
      cell: (c) => formatDate(utc(c.updatedAt)),
      csv: (c) => c.updatedAt,
      sort: 'updatedAt',
      filter: { param: 'updatedSince', type: 'date' },
      hidden: true,
    },
  ];
  const bulk: BulkAction<Customer>[] = session.can('customers', 'write')
    ? [true, false].map((isActive) => ({
        label: isActive ? t('customers.bulk.activate') : t('customers.bulk.deactivate'),
        confirm: isActive ? undefined : t('customers.bulk.deactivateConfirm'),
        run: async (rows: Customer[]) => {
          for (const c of rows)
            await unwrap(api.PUT('/api/rest/v2/customers/{id}', { params: { path: { id: c.id } }, body: { isActive } }));
        },
      }))
    : [];
  return (
    <>
      <PageHeader
        title={t('customers.grid.title')}
        actions={
          session.can('customers', 'create') && (
            <Link to="/customers/new" className="button primary">
              {t('customers.grid.new')}
            </Link>
          )
        }
      />
      <DataGrid<Customer>
        id="customers"
        label={t('customers.grid.title')}
        columns={columns}
        rowKey={(c) => c.id}
        rowLink={(c) => (
          <Link to="/customers/$customerId" params={{ customerId: String(c.id) }}>
            {c.fullName}
          </Link>
        )}
        searchable
        defaultSort={{ sort: 'createdAt', order: 'desc' }}
        bulkActions={bulk}
        exportName="customers"
        fetchPage={async (q) =>
          collection<Customer>(
            await unwrap(api.GET('/api/rest/v2/customers', { params: { query: gridQuery(q, ['groupId', 'websiteId']) } })),
          )
        }
      />
    </>
  );
}
