/**
 * One category: its fields in the default scope or a store view (where name, description, URL key, status and meta
 * may be the store view's own, or the default kept), and its removal with its subtree.
 */
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Answer } from '../../api/client';
import { useSession } from '../../auth/session';
import {
  CheckboxField,
  ErrorNote,
  Notice,
  PageHeader,
  SelectField,
  Spinner,
  StoreScopeSwitch,
  TextArea,
  TextField,
  useUnsavedChanges,
} from '../../components/ui';
import { inStore } from './shared';
import './catalog.css';

type Category = Answer<'/api/rest/v2/categories/{id}', 'get'>;
const STORE_FIELDS = ['name', 'description', 'urlKey', 'isActive', 'metaTitle', 'metaKeywords', 'metaDescription'] as const;
const TEXT_FIELDS = ['name', 'urlKey', 'metaTitle', 'metaKeywords', 'metaDescription', 'description', 'pageLayout'] as const;
type Values = Record<string, string | boolean>;

function valuesOf(c: Category): Values {
  return {
    name: c.name,
    urlKey: c.urlKey ?? '',
    description: c.description ?? '',
    metaTitle: c.metaTitle ?? '',
    metaKeywords: c.metaKeywords ?? '',
    metaDescription: c.metaDescription ?? '',
    pageLayout: c.pageLayout ?? '',
    displayMode: c.displayMode ?? 'PRODUCTS',
    isActive: c.isActive,
    includeInMenu: c.includeInMenu,
    isAnchor: c.isAnchor,
  };
}

export function CategoryPage({ categoryId }: { categoryId: number }) {
  const { t } = useTranslation();
  const { can } = useSession();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [scope, setScope] = useState('');
  const read = (store: string) => () =>
    unwrap(api.GET('/api/rest/v2/categories/{id}', { params: { path: { id: categoryId } }, ...inStore(store) }));
  const base = useQuery({ queryKey: ['catalog', 'category', categoryId, ''], queryFn: read('') });
  const scoped = useQuery({ queryKey: ['catalog', 'category', categoryId, scope], queryFn: read(scope), enabled: scope !== '' });
  const shown = scope ? scoped.data : base.data;
  const initial = useMemo(() => (shown ? valuesOf(shown) : undefined), [shown]);
  const initialDefaults = useMemo(() => {
    if (!scope || !scoped.data || !base.data) return new Set<string>();
    const a = valuesOf(scoped.data);
    const b = valuesOf(base.data);
    return new Set(STORE_FIELDS.filter((f) => a[f] === b[f]));
  }, [scope, scoped.data, base.data]);
  const [values, setValues] = useState<Values>({});
  const [useDefault, setUseDefault] = useState<Set<string>>(new Set());
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (initial) setValues(initial);
  }, [initial]);
  useEffect(() => setUseDefault(initialDefaults), [initialDefaults]);
  const keys = initial ? Object.keys(initial) : [];
  const storeField = (k: string) => (STORE_FIELDS as readonly string[]).includes(k);
  const changed = keys.filter((k) => !(scope && useDefault.has(k)) && values[k] !== initial?.[k]);
  const dropped = [...useDefault].filter((k) => !initialDefaults.has(k));
  const kept = [...initialDefaults].filter((k) => !useDefault.has(k));
  const dirty = changed.length + dropped.length + kept.length > 0;
  useUnsavedChanges(dirty);
  const writable = can('categories', 'write');

  if (base.error) return <ErrorNote error={base.error} />;
  if (!base.data || !initial || (scope && !scoped.data)) return <Spinner />;
  const c = base.data;

  async function save(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    setSaved(false);
    const body: Record<string, unknown> = {};
    for (const k of [...changed, ...kept]) body[k] = typeof values[k] === 'string' && values[k] === '' && k !== 'name' ? null : values[k];
    if (dropped.length) body.useDefault = dropped;
    try {
      await unwrap(api.PUT('/api/rest/v2/categories/{id}', { params: { path: { id: categoryId } }, body, ...inStore(scope) }));
      await qc.invalidateQueries({ queryKey: ['catalog', 'category', categoryId] });
      await qc.invalidateQueries({ queryKey: ['catalog', 'category-tree'] });
      setSaved(true);
    } catch (err) {
      setError(err);
    }
  }
  async function remove() {
    if (!window.confirm(t('catalog.categories.confirmDelete', { name: c.name }))) return;
    try {
      await unwrap(api.DELETE('/api/rest/v2/categories/{id}', { params: { path: { id: categoryId } } }));
      await qc.invalidateQueries({ queryKey: ['catalog', 'category-tree'] });
      await navigate({ to: '/categories' });
    } catch (err) {
      setError(err);
    }
  }
  const disabledFor = (k: string) => !writable || (!!scope && storeField(k) && useDefault.has(k));
  const shownValue = (k: string) => (scope && storeField(k) && useDefault.has(k) ? valuesOf(c)[k] : values[k]);
  const defaultToggle = (k: string, label: string) =>
    scope && storeField(k) ? (
      <CheckboxField
        label={t('catalog.product.useDefaultFor', { label })}
        name={`useDefault-${k}`}
        checked={useDefault.has(k)}
        disabled={!writable}
        onChange={(e) =>
          setUseDefault((s) => {
            const next = new Set(s);
            if (e.target.checked) next.add(k);
            else next.delete(k);
            return next;
          })
        }
      />
    ) : null;
  const label = (k: string) => t(`catalog.categories.field.${k}`);

  return (
    <>
      <PageHeader
        title={(scoped.data ?? c).name}
        actions={
          <>
            <Link to="/categories" className="button">
              {t('catalog.categories.back')}
            </Link>
            {can('categories', 'delete') && c.level > 1 && (
              <button type="button" className="danger" onClick={remove}>
                {t('catalog.categories.delete')}
              </button>
            )}
          </>
        }
      />
      <StoreScopeSwitch value={scope} onChange={setScope} />
      <form className="panel" onSubmit={save} aria-label={t('catalog.categories.edit')}>
        {scope && <Notice>{t('catalog.product.scopeNote')}</Notice>}
        <div className="form-grid">
          {TEXT_FIELDS.map((k) =>
            k === 'description' ? (
              <div key={k} className="wide">
                <TextArea
                  label={label(k)}
                  name={k}
                  error={error}
                  rows={5}
                  disabled={disabledFor(k)}
                  value={String(shownValue(k) ?? '')}
                  onChange={(e) => setValues((v) => ({ ...v, [k]: e.target.value }))}
                />
                {defaultToggle(k, label(k))}
              </div>
            ) : (
              <div key={k}>
                <TextField
                  label={label(k)}
                  name={k}
                  operationId="categories.update"
                  error={error}
                  required={k === 'name'}
                  disabled={disabledFor(k)}
                  value={String(shownValue(k) ?? '')}
                  onChange={(e) => setValues((v) => ({ ...v, [k]: e.target.value }))}
                />
                {defaultToggle(k, label(k))}
              </div>
            ),
          )}
          <SelectField
            label={label('displayMode')}
            name="displayMode"
            error={error}
            disabled={!writable}
            value={String(values.displayMode)}
            onChange={(e) => setValues((v) => ({ ...v, displayMode: e.target.value }))}
            options={['PRODUCTS', 'PAGE', 'PRODUCTS_AND_PAGE'].map((m) => ({ value: m, label: t(`catalog.categories.mode.${m}`) }))}
          />
          <div className="field">
            {(['isActive', 'includeInMenu', 'isAnchor'] as const).map((k) => (
              <div key={k}>
                <CheckboxField
                  label={label(k)}
                  name={k}
                  disabled={disabledFor(k)}
                  checked={Boolean(shownValue(k))}
                  onChange={(e) => setValues((v) => ({ ...v, [k]: e.target.checked }))}
                />
                {defaultToggle(k, label(k))}
              </div>
            ))}
          </div>
        </div>
        <ErrorNote error={error} />
        {saved && !dirty && <Notice>{t('common.saved')}</Notice>}
        {writable && (
          <div className="form-actions">
            <button type="submit" className="primary" disabled={!dirty}>
              {t('catalog.categories.save')}
            </button>
          </div>
        )}
      </form>
    </>
  );
}
