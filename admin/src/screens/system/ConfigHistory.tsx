/** The history of configuration changes: who changed which path at which scope, from what to what; filtered by path and time. */
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Row } from '../../api/client';
import { collection } from '../../api/lists';
import { DataGrid, type GridColumn } from '../../components/DataGrid';
import { PageHeader, useStoreViews } from '../../components/ui';
import { when } from './common';
import './system.css';

type Change = Row<'/api/rest/v2/configuration/history'>;

export function ConfigHistory() {
  const { t } = useTranslation();
  const stores = useStoreViews();
  const scopeOf = (c: Change) =>
    c.scope === 'stores'
      ? (stores.find((s) => s.id === c.scopeId)?.name ?? `${t('system.config.scopeNames.stores')} ${c.scopeId}`)
      : c.scope === 'websites'
        ? `${t('system.config.scopeNames.websites')} ${c.scopeId}`
        : t('system.config.scopeNames.default');
  const columns: GridColumn<Change>[] = [
    {
      id: 'changedAt',
      header: t('system.changedFrom'),
      cell: (c) => when(c.changedAt),
      csv: (c) => c.changedAt,
      filter: { param: 'from', type: 'date' },
    },
    // the upper end of the time filter (its column, hidden at first, repeats the time)
    {
      id: 'until',
      header: t('system.changedUntil'),
      cell: (c) => when(c.changedAt),
      csv: (c) => c.changedAt,
      filter: { param: 'to', type: 'date' },
      hidden: true,
    },
    {
      id: 'who',
      header: t('system.config.who'),
      cell: (c) => c.actorUsername ?? t(`system.principals.${c.actorKind}`, { defaultValue: c.actorKind }),
    },
    { id: 'scope', header: t('system.config.scope'), cell: scopeOf },
    {
      id: 'path',
      header: t('system.config.path'),
      cell: (c) => <code>{c.path}</code>,
      csv: (c) => c.path,
      filter: { param: 'path', type: 'text' },
    },
    {
      id: 'oldValue',
      header: t('system.config.oldValue'),
      cell: (c) => c.oldValue ?? t('system.config.unset'),
      csv: (c) => c.oldValue ?? '',
    },
    {
      id: 'newValue',
      header: t('system.config.newValue'),
      cell: (c) => c.newValue ?? t('system.config.unset'),
      csv: (c) => c.newValue ?? '',
    },
  ];
  return (
    <>
      <PageHeader
        title={t('system.config.historyTitle')}
        actions={
          <Link to="/configuration" search={{}}>
            {t('system.config.backToConfiguration')}
          </Link>
        }
      />
      <DataGrid<Change>
        id="configuration-history"
        label={t('system.config.historyTitle')}
        columns={columns}
        rowKey={(c) => c.id}
        exportName="configuration-history"
        fetchPage={async (q) =>
          collection<Change>(
            await unwrap(
              api.GET('/api/rest/v2/configuration/history', {
                params: { query: { page: q.page, itemsPerPage: q.pageSize, path: q.filters.path, from: q.filters.from, to: q.filters.to } },
              }),
            ),
          )
        }
      />
    </>
  );
}
