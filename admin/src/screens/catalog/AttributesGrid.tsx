/** Product attributes: found by code or label; each opens its page. */
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { collection } from '../../api/lists';
import { useSession } from '../../auth/session';
import { DataGrid, type GridColumn } from '../../components/DataGrid';
import { PageHeader } from '../../components/ui';
import type { Attribute } from './shared';
import './catalog.css';

export function AttributesGrid() {
  const { t } = useTranslation();
  const { can } = useSession();
  const yes = (v: boolean) => (v ? t('common.yes') : t('common.no'));
  const columns: GridColumn<Attribute>[] = [
    { id: 'code', header: t('catalog.attributes.code'), cell: (a) => a.attributeCode, sort: 'code' },
    { id: 'label', header: t('catalog.attributes.label'), cell: (a) => a.frontendLabel, sort: 'label' },
    {
      id: 'input',
      header: t('catalog.attributes.input'),
      cell: (a) => t(`catalog.attributes.inputs.${a.frontendInput}`, { defaultValue: a.frontendInput }),
      csv: (a) => a.frontendInput,
      sort: 'frontend_input',
    },
    {
      id: 'scope',
      header: t('catalog.attributes.scope'),
      cell: (a) => t(`catalog.attributes.scopes.${a.scope}`),
      csv: (a) => a.scope,
      sort: 'scope',
    },
    { id: 'required', header: t('catalog.attributes.isRequired'), cell: (a) => yes(a.isRequired) },
    { id: 'userDefined', header: t('catalog.attributes.isUserDefined'), cell: (a) => yes(a.isUserDefined) },
    { id: 'filterable', header: t('catalog.attributes.isFilterable'), cell: (a) => yes(a.isFilterable > 0) },
    { id: 'searchable', header: t('catalog.attributes.isSearchable'), cell: (a) => yes(a.isSearchable), hidden: true },
    { id: 'options', header: t('catalog.attributes.optionCount'), cell: (a) => String(a.options.length), align: 'end' },
  ];
  return (
    <>
      <PageHeader
        title={t('catalog.attributes.title')}
        actions={
          can('product-attributes', 'create') ? (
            <Link to="/attributes/$attributeId" params={{ attributeId: 'new' }} className="button primary">
              {t('catalog.attributes.add')}
            </Link>
          ) : undefined
        }
      />
      <DataGrid<Attribute>
        id="attributes"
        label={t('catalog.attributes.title')}
        columns={columns}
        rowKey={(a) => a.id}
        rowLink={(a) => (
          <Link to="/attributes/$attributeId" params={{ attributeId: String(a.id) }}>
            {a.attributeCode}
          </Link>
        )}
        searchable
        exportName="attributes"
        fetchPage={async (q) =>
          collection<Attribute>(
            await unwrap(
              api.GET('/api/rest/v2/product-attributes', {
                params: {
                  query: {
                    page: q.page,
                    itemsPerPage: q.pageSize,
                    ...(q.search ? { search: q.search } : {}),
                    ...(q.sort ? { sortBy: q.sort as 'code', sortDir: q.order } : {}),
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
