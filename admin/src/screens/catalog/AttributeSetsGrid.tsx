/** Attribute sets: each opens its groups; a new one starts from the groups of another. */
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { collection } from '../../api/lists';
import { useSession } from '../../auth/session';
import { DataGrid, type GridColumn } from '../../components/DataGrid';
import { ErrorNote, PageHeader, SelectField, TextField } from '../../components/ui';
import { useAttributeSets, type AttributeSet } from './shared';
import './catalog.css';

export function AttributeSetsGrid() {
  const { t } = useTranslation();
  const { can } = useSession();
  const columns: GridColumn<AttributeSet>[] = [
    { id: 'name', header: t('catalog.sets.name'), cell: (s) => s.attributeSetName },
    { id: 'id', header: t('catalog.sets.id'), cell: (s) => String(s.id), align: 'end' },
    { id: 'groups', header: t('catalog.sets.groups'), cell: (s) => String(s.groups.length), align: 'end' },
    { id: 'attributes', header: t('catalog.sets.attributeCount'), cell: (s) => String(s.attributeCodes.length), align: 'end' },
  ];
  return (
    <>
      <PageHeader title={t('catalog.sets.title')} />
      {can('attribute-sets', 'create') && <NewSet />}
      <DataGrid<AttributeSet>
        id="attribute-sets"
        label={t('catalog.sets.title')}
        columns={columns}
        rowKey={(s) => s.id}
        rowLink={(s) => (
          <Link to="/attribute-sets/$setId" params={{ setId: String(s.id) }}>
            {s.attributeSetName}
          </Link>
        )}
        exportName="attribute-sets"
        fetchPage={async (q) =>
          collection<AttributeSet>(
            await unwrap(api.GET('/api/rest/v2/attribute-sets', { params: { query: { page: q.page, itemsPerPage: q.pageSize } } })),
          )
        }
      />
    </>
  );
}

function NewSet() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const sets = useAttributeSets();
  const [name, setName] = useState('');
  const [skeleton, setSkeleton] = useState('');
  const [error, setError] = useState<unknown>();
  async function create(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    try {
      const created = await unwrap(
        api.POST('/api/rest/v2/attribute-sets', {
          body: { attributeSetName: name, ...(skeleton ? { skeletonSetId: Number(skeleton) } : {}) },
        }),
      );
      await navigate({ to: '/attribute-sets/$setId', params: { setId: String(created.id) } });
    } catch (err) {
      setError(err);
    }
  }
  return (
    <form className="panel inline-form" onSubmit={create} aria-label={t('catalog.sets.add')}>
      <TextField
        label={t('catalog.sets.name')}
        name="attributeSetName"
        operationId="attributeSets.create"
        error={error}
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      <SelectField
        label={t('catalog.sets.basedOn')}
        name="skeletonSetId"
        error={error}
        value={skeleton}
        onChange={(e) => setSkeleton(e.target.value)}
        options={[
          { value: '', label: t('catalog.sets.basedOnDefault') },
          ...(sets.data ?? []).map((s) => ({ value: String(s.id), label: s.attributeSetName })),
        ]}
      />
      <button type="submit" className="primary">
        {t('catalog.sets.add')}
      </button>
      <ErrorNote error={error} />
    </form>
  );
}
