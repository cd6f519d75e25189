/**
 * One attribute set: its name and groups, each group's attributes in order (drag and drop, or the move buttons),
 * an attribute moved to another group with its group control, attributes added from those not in the set.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { useSession } from '../../auth/session';
import { ErrorNote, Notice, PageHeader, Spinner, TextField, useUnsavedChanges } from '../../components/ui';
import { SortableList, useAttributes } from './shared';
import './catalog.css';

interface Group {
  key: string;
  name: string;
  attributes: string[];
}

export function AttributeSetPage({ setId }: { setId: number }) {
  const { t } = useTranslation();
  const { can } = useSession();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const attributes = useAttributes();
  const read = useQuery({
    queryKey: ['catalog', 'attribute-set', setId],
    queryFn: () => unwrap(api.GET('/api/rest/v2/attribute-sets/{id}', { params: { path: { id: setId } } })),
  });
  const [name, setName] = useState('');
  const [groups, setGroups] = useState<Group[]>([]);
  const [initial, setInitial] = useState('');
  const [newGroup, setNewGroup] = useState('');
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (!read.data) return;
    const g = read.data.groups.map((x) => ({ key: x.name, name: x.name, attributes: x.attributes.map((a) => a.code) }));
    setName(read.data.attributeSetName);
    setGroups(g);
    setInitial(JSON.stringify({ name: read.data.attributeSetName, g }));
  }, [read.data]);
  const dirty = !!read.data && JSON.stringify({ name, g: groups }) !== initial;
  useUnsavedChanges(dirty);
  if (read.error) return <ErrorNote error={read.error} />;
  if (!read.data || !attributes.data) return <Spinner />;
  const writable = can('attribute-sets', 'write');
  const inSet = new Set(groups.flatMap((g) => g.attributes));
  const unassigned = [...attributes.data.keys()].filter((c) => !inSet.has(c)).sort();
  const labelOf = (code: string) => attributes.data.get(code)?.frontendLabel ?? code;
  const moveTo = (code: string, target: string) =>
    setGroups((gs) =>
      gs.map((g) =>
        g.key === target
          ? { ...g, attributes: [...g.attributes.filter((c) => c !== code), code] }
          : { ...g, attributes: g.attributes.filter((c) => c !== code) },
      ),
    );

  async function save(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    setSaved(false);
    try {
      await unwrap(
        api.PUT('/api/rest/v2/attribute-sets/{id}', {
          params: { path: { id: setId } },
          body: { attributeSetName: name, groups: groups.map((g) => ({ name: g.name, attributes: g.attributes })) },
        }),
      );
      await qc.invalidateQueries({ queryKey: ['catalog', 'attribute-set', setId] });
      await qc.invalidateQueries({ queryKey: ['catalog', 'attribute-sets'] });
      setSaved(true);
    } catch (err) {
      setError(err);
    }
  }
  async function remove() {
    if (!window.confirm(t('catalog.sets.confirmDelete', { name: read.data?.attributeSetName }))) return;
    try {
      await unwrap(api.DELETE('/api/rest/v2/attribute-sets/{id}', { params: { path: { id: setId } } }));
      await qc.invalidateQueries({ queryKey: ['catalog', 'attribute-sets'] });
      await navigate({ to: '/attribute-sets' });
    } catch (err) {
      setError(err);
    }
  }
  return (
    <>
      <PageHeader
        title={read.data.attributeSetName}
        actions={
          <>
            <Link to="/attribute-sets" className="button">
              {t('catalog.sets.back')}
            </Link>
            {can('attribute-sets', 'delete') && (
              <button type="button" className="danger" onClick={remove}>
                {t('catalog.sets.delete')}
              </button>
            )}
          </>
        }
      />
      <form onSubmit={save} aria-label={t('catalog.sets.edit')}>
        <div className="panel">
          <TextField
            label={t('catalog.sets.name')}
            name="attributeSetName"
            operationId="attributeSets.update"
            error={error}
            disabled={!writable}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <ErrorNote error={error} />
        <div className="panels">
          {groups.map((g) => (
            <fieldset key={g.key} className="panel">
              <legend>{g.name}</legend>
              <label className="inline-label">
                {t('catalog.sets.groupName')}
                <input
                  value={g.name}
                  disabled={!writable}
                  required
                  onChange={(e) => setGroups((gs) => gs.map((x) => (x.key === g.key ? { ...x, name: e.target.value } : x)))}
                />
              </label>
              <SortableList
                label={t('catalog.sets.attributesOf', { group: g.name })}
                items={g.attributes}
                disabled={!writable}
                itemKey={(c) => c}
                itemName={labelOf}
                onReorder={(list) => setGroups((gs) => gs.map((x) => (x.key === g.key ? { ...x, attributes: list } : x)))}
                render={(code) => (
                  <span className="linked">
                    {labelOf(code)} <small>({code})</small>
                    {writable && (
                      <select
                        aria-label={t('catalog.sets.groupOf', { name: labelOf(code) })}
                        value={g.key}
                        onChange={(e) =>
                          e.target.value === ''
                            ? setGroups((gs) => gs.map((x) => ({ ...x, attributes: x.attributes.filter((c) => c !== code) })))
                            : moveTo(code, e.target.value)
                        }
                      >
                        {groups.map((x) => (
                          <option key={x.key} value={x.key}>
                            {x.name}
                          </option>
                        ))}
                        <option value="">{t('catalog.sets.notInSet')}</option>
                      </select>
                    )}
                  </span>
                )}
              />
              {writable && g.attributes.length === 0 && (
                <button type="button" className="link" onClick={() => setGroups((gs) => gs.filter((x) => x.key !== g.key))}>
                  {t('catalog.sets.removeGroup', { name: g.name })}
                </button>
              )}
            </fieldset>
          ))}
          <section className="panel" aria-label={t('catalog.sets.unassigned')}>
            <h2>{t('catalog.sets.unassigned')}</h2>
            <ul className="plain-list">
              {unassigned.map((code) => (
                <li key={code}>
                  {labelOf(code)} <small>({code})</small>
                  {writable && groups.length > 0 && (
                    <select
                      aria-label={t('catalog.sets.addTo', { name: labelOf(code) })}
                      value=""
                      onChange={(e) => e.target.value && moveTo(code, e.target.value)}
                    >
                      <option value="">{t('catalog.sets.chooseGroup')}</option>
                      {groups.map((x) => (
                        <option key={x.key} value={x.key}>
                          {x.name}
                        </option>
                      ))}
                    </select>
                  )}
                </li>
              ))}
            </ul>
          </section>
        </div>
        {writable && (
          <div className="picker-row">
            <label>
              {t('catalog.sets.newGroup')}
              <input value={newGroup} onChange={(e) => setNewGroup(e.target.value)} />
            </label>
            <button
              type="button"
              onClick={() => {
                const n = newGroup.trim();
                if (n && !groups.some((g) => g.name.toLowerCase() === n.toLowerCase()))
                  setGroups((gs) => [...gs, { key: `new-${Date.now()}`, name: n, attributes: [] }]);
                setNewGroup('');
              }}
            >
              {t('catalog.sets.addGroup')}
            </button>
          </div>
        )}
        {saved && !dirty && <Notice>{t('common.saved')}</Notice>}
        {writable && (
          <div className="form-actions">
            <button type="submit" className="primary" disabled={!dirty}>
              {t('catalog.sets.save')}
            </button>
          </div>
        )}
      </form>
    </>
  );
}
