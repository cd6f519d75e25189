/**
 * A product's attributes, grouped as its attribute set groups them, in the chosen scope: the default values, or
 * one store view's, where a store-view field either keeps the default ("use default value") or has its own.
 * Only what changed is sent; a store view's values go with X-Store-Code.
 */
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../../api/client';
import { collection } from '../../../api/lists';
import { useSession } from '../../../auth/session';
import { ErrorNote, Notice, constraints, fieldError, useUnsavedChanges } from '../../../components/ui';
import { inStore, type Attribute, type AttributeSet } from '../shared';
import { NOT_IN_FORM, STORE_VIEW_FIELDS, appliesTo, fieldOf, put, readValue, same, toApi, type FormValue, type Product } from './fields';

interface Props {
  product: Product;
  /** the product read in the store view of `scope` (undefined in the default scope) */
  scoped?: Product;
  scope: string;
  attributes: Map<string, Attribute>;
  set?: AttributeSet;
}

type Values = Record<string, FormValue>;

export function AttributesForm({ product, scoped, scope, attributes, set }: Props) {
  const { t } = useTranslation();
  const { can } = useSession();
  const qc = useQueryClient();
  const shown = scoped ?? product;
  const groups = useMemo(() => {
    const list = set?.groups ?? [];
    return list
      .map((g) => ({
        name: g.name,
        attrs: g.attributes
          .map((a) => attributes.get(a.code))
          .filter((a): a is Attribute => !!a && !NOT_IN_FORM.has(a.attributeCode) && appliesTo(a, product.type)),
      }))
      .filter((g) => g.attrs.length);
  }, [set, attributes, product.type]);
  const codes = useMemo(() => groups.flatMap((g) => g.attrs.map((a) => a.attributeCode)), [groups]);

  const initial = useMemo(() => Object.fromEntries(codes.map((c) => [c, readValue(shown, c)])) as Values, [codes, shown]);
  // a store-view field keeps the default while the store view reads what the default scope reads
  const initialDefaults = useMemo(
    () =>
      new Set(scoped ? codes.filter((c) => STORE_VIEW_FIELDS.has(fieldOf(c)) && same(readValue(scoped, c), readValue(product, c))) : []),
    [codes, scoped, product],
  );
  const [values, setValues] = useState<Values>(initial);
  const [useDefault, setUseDefault] = useState<Set<string>>(initialDefaults);
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => setValues(initial), [initial]);
  useEffect(() => setUseDefault(initialDefaults), [initialDefaults]);

  const changed = codes.filter((c) => !useDefault.has(c) && !same(values[c], initial[c]));
  const dropped = [...useDefault].filter((c) => !initialDefaults.has(c));
  const unDropped = [...initialDefaults].filter((c) => !useDefault.has(c));
  const dirty = changed.length > 0 || dropped.length > 0 || unDropped.length > 0;
  useUnsavedChanges(dirty);

  const taxClasses = useQuery({
    queryKey: ['catalog', 'tax-classes'],
    staleTime: 300_000,
    retry: false,
    queryFn: async () =>
      collection<{ id: number; className: string; classType: string }>(
        await unwrap(api.GET('/api/rest/v2/tax-classes', { params: { query: { itemsPerPage: 100 } } })),
      ).items,
  });

  async function save(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    setSaved(false);
    const body: Record<string, unknown> = {};
    for (const c of [...changed, ...unDropped]) put(body, fieldOf(c), toApi(attributes.get(c)!, values[c]));
    if (dropped.length) body.useDefault = dropped;
    setBusy(true);
    try {
      await unwrap(api.PUT('/api/rest/v2/products/{id}', { params: { path: { id: product.id } }, body, ...inStore(scope) }));
      await qc.invalidateQueries({ queryKey: ['catalog', 'product', product.id] });
      setSaved(true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  const writable = can('products', 'write');
  return (
    <form onSubmit={save} noValidate={false} aria-label={t('catalog.product.attributes')}>
      {scope && <Notice>{t('catalog.product.scopeNote')}</Notice>}
      {groups.map((g) => (
        <fieldset key={g.name} className="panel attr-group">
          <legend>{g.name}</legend>
          <div className="form-grid">
            {g.attrs.map((a) => (
              <AttributeField
                key={a.attributeCode}
                attr={a}
                value={values[a.attributeCode] ?? ''}
                defaultValue={readValue(product, a.attributeCode)}
                storeView={!!scope && STORE_VIEW_FIELDS.has(fieldOf(a.attributeCode))}
                scoped={!!scope}
                useDefault={useDefault.has(a.attributeCode)}
                onUseDefault={(on) =>
                  setUseDefault((s) => {
                    const next = new Set(s);
                    if (on) next.add(a.attributeCode);
                    else next.delete(a.attributeCode);
                    return next;
                  })
                }
                onChange={(v) => setValues((old) => ({ ...old, [a.attributeCode]: v }))}
                error={error}
                disabled={!writable}
                taxClasses={taxClasses.data?.filter((c) => c.classType.toLowerCase() === 'product')}
              />
            ))}
          </div>
        </fieldset>
      ))}
      <ErrorNote error={error} />
      {saved && !dirty && <Notice>{t('common.saved')}</Notice>}
      {writable && (
        <div className="form-actions sticky-actions">
          <button type="submit" className="primary" disabled={busy || !dirty}>
            {t('catalog.product.save')}
          </button>
          <button
            type="button"
            disabled={busy || !dirty}
            onClick={() => {
              setValues(initial);
              setUseDefault(initialDefaults);
            }}
          >
            {t('catalog.product.reset')}
          </button>
        </div>
      )}
    </form>
  );
}

function AttributeField(props: {
  attr: Attribute;
  value: FormValue;
  defaultValue: FormValue;
  storeView: boolean;
  scoped: boolean;
  useDefault: boolean;
  onUseDefault: (on: boolean) => void;
  onChange: (v: FormValue) => void;
  error: unknown;
  disabled: boolean;
  taxClasses?: { id: number; className: string }[];
}) {
  const { t } = useTranslation();
  const id = useId();
  const { attr } = props;
  const field = fieldOf(attr.attributeCode);
  const message = fieldError(props.error, field) ?? fieldError(props.error, attr.attributeCode);
  const disabled = props.disabled || (props.storeView && props.useDefault);
  const value = props.storeView && props.useDefault ? props.defaultValue : props.value;
  const described = [message && `${id}-error`, `${id}-scope`].filter(Boolean).join(' ');
  const common = {
    id,
    name: field,
    disabled,
    'aria-invalid': message ? true : undefined,
    'aria-describedby': described,
    required: attr.isRequired && attr.attributeCode !== 'price' ? true : undefined,
  } as const;
  const str = typeof value === 'string' ? value : '';
  let control;
  const input = attr.frontendInput;
  if (attr.attributeCode === 'tax_class_id' && props.taxClasses) {
    control = (
      <select {...common} value={str} onChange={(e) => props.onChange(e.target.value)}>
        <option value="0">{t('catalog.product.none')}</option>
        {props.taxClasses.map((c) => (
          <option key={c.id} value={String(c.id)}>
            {c.className}
          </option>
        ))}
      </select>
    );
  } else if (input === 'select' && attr.options.length) {
    control = (
      <select {...common} value={str} onChange={(e) => props.onChange(e.target.value)}>
        {!attr.isRequired && <option value="">{t('catalog.product.none')}</option>}
        {attr.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    );
  } else if (input === 'multiselect') {
    control = (
      <select
        {...common}
        multiple
        value={Array.isArray(value) ? value : value ? [value] : []}
        onChange={(e) => props.onChange([...e.target.selectedOptions].map((o) => o.value))}
      >
        {attr.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    );
  } else if (input === 'boolean') {
    control = (
      <select {...common} value={str} onChange={(e) => props.onChange(e.target.value)}>
        <option value="">{t('catalog.product.none')}</option>
        <option value="1">{t('common.yes')}</option>
        <option value="0">{t('common.no')}</option>
      </select>
    );
  } else if (input === 'textarea') {
    control = <textarea {...common} rows={attr.isWysiwygEnabled ? 6 : 3} value={str} onChange={(e) => props.onChange(e.target.value)} />;
  } else {
    const type = input === 'date' ? 'date' : input === 'price' || input === 'weight' ? 'number' : 'text';
    control = (
      <input
        {...constraints('products.update', field)}
        {...common}
        type={type}
        step={input === 'price' ? '0.01' : input === 'weight' ? '0.0001' : undefined}
        min={type === 'number' ? 0 : undefined}
        value={type === 'date' ? str.slice(0, 10) : str}
        onChange={(e) => props.onChange(e.target.value)}
      />
    );
  }
  return (
    <div className={`field${input === 'textarea' ? ' wide' : ''}`}>
      <label htmlFor={id}>{attr.frontendLabel}</label>
      {control}
      <small id={`${id}-scope`} className="hint">
        {props.scoped ? (props.storeView ? t('catalog.product.scopeStoreView') : t('catalog.product.scopeGlobal')) : (attr.note ?? '')}
      </small>
      {props.storeView && (
        <label className="checkbox use-default">
          <input
            type="checkbox"
            aria-label={t('catalog.product.useDefaultFor', { label: attr.frontendLabel })}
            checked={props.useDefault}
            disabled={props.disabled}
            onChange={(e) => props.onUseDefault(e.target.checked)}
          />
          {t('catalog.product.useDefault')}
        </label>
      )}
      {message && (
        <small id={`${id}-error`} className="field-error">
          {message}
        </small>
      )}
    </div>
  );
}
