/**
 * One attribute, or a new one: its label, input, scope and use in the storefront, and for select and multiselect
 * inputs its options (added, renamed, ordered by drag and drop or by keyboard, removed while no product holds them).
 */
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { useSession } from '../../auth/session';
import { CheckboxField, ErrorNote, Notice, PageHeader, SelectField, Spinner, TextField, useUnsavedChanges } from '../../components/ui';
import { PRODUCT_TYPES, SortableList, type Attribute } from './shared';
import './catalog.css';

const INPUTS = ['text', 'textarea', 'select', 'multiselect', 'boolean', 'date', 'price', 'weight'] as const;
const FLAGS = [
  'isRequired',
  'isUnique',
  'isSearchable',
  'isFilterableInSearch',
  'isComparable',
  'isVisibleOnFront',
  'isHtmlAllowedOnFront',
  'usedInProductListing',
  'usedForSortBy',
  'isVisibleInAdvancedSearch',
  'isUsedForPriceRules',
  'isWysiwygEnabled',
  'isConfigurable',
] as const;
/** Select attributes whose choices are fixed by the product model, not options of their own. */
const BUILT_IN_LISTS = new Set([
  'status',
  'visibility',
  'tax_class_id',
  'sku_type',
  'weight_type',
  'price_type',
  'price_view',
  'shipment_type',
  'msrp_enabled',
  'msrp_display_actual_price_type',
  'meta_robots',
  'page_layout',
  'options_container',
]);

interface OptionDraft {
  key: string;
  value?: string;
  label: string;
}
interface Draft {
  attributeCode: string;
  frontendLabel: string;
  frontendInput: string;
  scope: string;
  isFilterable: string;
  defaultValue: string;
  note: string;
  position: string;
  applyTo: string[];
  flags: Record<string, boolean>;
  options: OptionDraft[];
}

function draftOf(a?: Attribute): Draft {
  return {
    attributeCode: a?.attributeCode ?? '',
    frontendLabel: a?.frontendLabel ?? '',
    frontendInput: a?.frontendInput ?? 'text',
    scope: a?.scope ?? 'global',
    isFilterable: String(a?.isFilterable ?? 0),
    defaultValue: a?.defaultValue ?? '',
    note: a?.note ?? '',
    position: String(a?.position ?? 0),
    applyTo: a?.applyTo ?? [],
    flags: Object.fromEntries(FLAGS.map((f) => [f, a ? Boolean(a[f]) : false])),
    options: (a?.options ?? []).map((o) => ({ key: o.value, value: o.value, label: o.label })),
  };
}

export function AttributePage({ attributeId }: { attributeId: string }) {
  const { t } = useTranslation();
  const { can } = useSession();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const isNew = attributeId === 'new';
  const read = useQuery({
    queryKey: ['catalog', 'attribute', attributeId],
    enabled: !isNew,
    queryFn: () => unwrap(api.GET('/api/rest/v2/product-attributes/{id}', { params: { path: { id: Number(attributeId) } } })),
  });
  const [draft, setDraft] = useState<Draft>(() => draftOf());
  const [initial, setInitial] = useState(() => JSON.stringify(draftOf()));
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState(false);
  const [newOption, setNewOption] = useState('');
  const [createdId, setCreatedId] = useState<number>();
  // leaves once the form no longer counts as unsaved
  useEffect(() => {
    if (createdId !== undefined) void navigate({ to: '/attributes/$attributeId', params: { attributeId: String(createdId) } });
  }, [createdId, navigate]);
  useEffect(() => {
    if (read.data) {
      const d = draftOf(read.data);
      setDraft(d);
      setInitial(JSON.stringify(d));
    }
  }, [read.data]);
  const dirty = JSON.stringify(draft) !== initial;
  useUnsavedChanges(dirty);
  if (read.error) return <ErrorNote error={read.error} />;
  if (!isNew && !read.data) return <Spinner />;
  const a = read.data;
  const writable = isNew ? can('product-attributes', 'create') : can('product-attributes', 'write');
  const hasOptions =
    (draft.frontendInput === 'select' || draft.frontendInput === 'multiselect') && !BUILT_IN_LISTS.has(draft.attributeCode);
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setDraft((d) => ({ ...d, [k]: v }));

  async function save(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    setSaved(false);
    const common = {
      frontendLabel: draft.frontendLabel,
      scope: draft.scope as 'global',
      isFilterable: Number(draft.isFilterable),
      defaultValue: draft.defaultValue || null,
      note: draft.note || null,
      position: Number(draft.position || 0),
      applyTo: draft.applyTo as (typeof PRODUCT_TYPES)[number][],
      ...draft.flags,
      ...(hasOptions ? { options: draft.options.map((o) => ({ ...(o.value ? { value: o.value } : {}), label: o.label })) } : {}),
    };
    try {
      if (isNew) {
        const created = await unwrap(
          api.POST('/api/rest/v2/product-attributes', {
            body: { ...common, attributeCode: draft.attributeCode, frontendInput: draft.frontendInput as 'text' },
          }),
        );
        setInitial(JSON.stringify(draft));
        setCreatedId(created.id);
      } else {
        await unwrap(api.PUT('/api/rest/v2/product-attributes/{id}', { params: { path: { id: Number(attributeId) } }, body: common }));
        await qc.invalidateQueries({ queryKey: ['catalog', 'attribute', attributeId] });
        await qc.invalidateQueries({ queryKey: ['catalog', 'attributes'] });
        setSaved(true);
      }
    } catch (err) {
      setError(err);
    }
  }
  async function remove() {
    if (!a || !window.confirm(t('catalog.attributes.confirmDelete', { name: a.attributeCode }))) return;
    try {
      await unwrap(api.DELETE('/api/rest/v2/product-attributes/{id}', { params: { path: { id: a.id } } }));
      await qc.invalidateQueries({ queryKey: ['catalog', 'attributes'] });
      await navigate({ to: '/attributes' });
    } catch (err) {
      setError(err);
    }
  }
  return (
    <>
      <PageHeader
        title={isNew ? t('catalog.attributes.new') : t('catalog.attributes.editTitle', { code: a?.attributeCode })}
        actions={
          <>
            <Link to="/attributes" className="button">
              {t('catalog.attributes.back')}
            </Link>
            {a?.isUserDefined && can('product-attributes', 'delete') && (
              <button type="button" className="danger" onClick={remove}>
                {t('catalog.attributes.delete')}
              </button>
            )}
          </>
        }
      />
      <form onSubmit={save} aria-label={t('catalog.attributes.properties')}>
        <fieldset className="panel">
          <legend>{t('catalog.attributes.properties')}</legend>
          <div className="form-grid">
            <TextField
              label={t('catalog.attributes.code')}
              name="attributeCode"
              operationId="productAttributes.create"
              error={error}
              disabled={!isNew}
              value={draft.attributeCode}
              onChange={(e) => set('attributeCode', e.target.value)}
            />
            <TextField
              label={t('catalog.attributes.label')}
              name="frontendLabel"
              operationId="productAttributes.create"
              error={error}
              disabled={!writable}
              value={draft.frontendLabel}
              onChange={(e) => set('frontendLabel', e.target.value)}
            />
            <SelectField
              label={t('catalog.attributes.input')}
              name="frontendInput"
              error={error}
              disabled={!isNew}
              value={draft.frontendInput}
              onChange={(e) => set('frontendInput', e.target.value)}
              options={(isNew ? INPUTS : [draft.frontendInput]).map((v) => ({
                value: v,
                label: t(`catalog.attributes.inputs.${v}`, { defaultValue: v }),
              }))}
            />
            <SelectField
              label={t('catalog.attributes.scope')}
              name="scope"
              error={error}
              disabled={!writable}
              value={draft.scope}
              onChange={(e) => set('scope', e.target.value)}
              options={['global', 'website', 'store'].map((v) => ({ value: v, label: t(`catalog.attributes.scopes.${v}`) }))}
            />
            <SelectField
              label={t('catalog.attributes.isFilterable')}
              name="isFilterable"
              error={error}
              disabled={!writable}
              value={draft.isFilterable}
              onChange={(e) => set('isFilterable', e.target.value)}
              options={['0', '1', '2'].map((v) => ({ value: v, label: t(`catalog.attributes.filterable${v}`) }))}
            />
            <TextField
              label={t('catalog.attributes.defaultValue')}
              name="defaultValue"
              error={error}
              disabled={!writable}
              value={draft.defaultValue}
              onChange={(e) => set('defaultValue', e.target.value)}
            />
            <TextField
              label={t('catalog.attributes.position')}
              name="position"
              type="number"
              min={0}
              error={error}
              disabled={!writable}
              value={draft.position}
              onChange={(e) => set('position', e.target.value)}
            />
            <TextField
              label={t('catalog.attributes.note')}
              name="note"
              error={error}
              disabled={!writable}
              value={draft.note}
              onChange={(e) => set('note', e.target.value)}
            />
          </div>
          <fieldset className="flags">
            <legend>{t('catalog.attributes.usage')}</legend>
            {FLAGS.map((f) => (
              <CheckboxField
                key={f}
                label={t(`catalog.attributes.${f}`)}
                name={f}
                disabled={!writable}
                checked={draft.flags[f]}
                onChange={(e) => set('flags', { ...draft.flags, [f]: e.target.checked })}
              />
            ))}
          </fieldset>
          <fieldset className="flags">
            <legend>{t('catalog.attributes.applyTo')}</legend>
            {PRODUCT_TYPES.map((ty) => (
              <CheckboxField
                key={ty}
                label={t(`catalog.type.${ty}`)}
                name={`applyTo-${ty}`}
                disabled={!writable}
                checked={draft.applyTo.includes(ty)}
                onChange={(e) => set('applyTo', e.target.checked ? [...draft.applyTo, ty] : draft.applyTo.filter((x) => x !== ty))}
              />
            ))}
          </fieldset>
        </fieldset>
        {hasOptions && (
          <fieldset className="panel">
            <legend>{t('catalog.attributes.options')}</legend>
            <SortableList
              label={t('catalog.attributes.options')}
              items={draft.options}
              disabled={!writable}
              itemKey={(o) => o.key}
              itemName={(o) => o.label}
              onReorder={(l) => set('options', l)}
              render={(o, i) => (
                <span className="linked">
                  <input
                    aria-label={t('catalog.attributes.optionLabel', { n: i + 1 })}
                    value={o.label}
                    disabled={!writable}
                    required
                    onChange={(e) =>
                      set(
                        'options',
                        draft.options.map((x) => (x.key === o.key ? { ...x, label: e.target.value } : x)),
                      )
                    }
                  />
                  {writable && (
                    <button
                      type="button"
                      className="link"
                      aria-label={t('catalog.removeOne', { name: o.label })}
                      onClick={() =>
                        set(
                          'options',
                          draft.options.filter((x) => x.key !== o.key),
                        )
                      }
                    >
                      {t('catalog.remove')}
                    </button>
                  )}
                </span>
              )}
            />
            {writable && (
              <div className="picker-row">
                <label>
                  {t('catalog.attributes.newOption')}
                  <input
                    value={newOption}
                    onChange={(e) => setNewOption(e.target.value)}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter') {
                        e.preventDefault();
                        if (newOption.trim()) set('options', [...draft.options, { key: `new-${Date.now()}`, label: newOption.trim() }]);
                        setNewOption('');
                      }
                    }}
                  />
                </label>
                <button
                  type="button"
                  onClick={() => {
                    if (newOption.trim()) set('options', [...draft.options, { key: `new-${Date.now()}`, label: newOption.trim() }]);
                    setNewOption('');
                  }}
                >
                  {t('catalog.attributes.addOption')}
                </button>
              </div>
            )}
          </fieldset>
        )}
        <ErrorNote error={error} />
        {saved && !dirty && <Notice>{t('common.saved')}</Notice>}
        {writable && (
          <div className="form-actions">
            <button type="submit" className="primary" disabled={!dirty}>
              {isNew ? t('catalog.attributes.create') : t('catalog.attributes.save')}
            </button>
          </div>
        )}
      </form>
    </>
  );
}
