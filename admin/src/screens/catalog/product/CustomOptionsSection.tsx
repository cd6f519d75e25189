/** A product's custom options: listed with their values, added (select types with one value a line), removed. */
import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Row } from '../../../api/client';
import { collection } from '../../../api/lists';
import { useSession } from '../../../auth/session';
import { CheckboxField, ErrorNote, SelectField, TextArea, TextField } from '../../../components/ui';
import { formatMoney } from '../../../i18n';

type Option = Row<'/api/rest/v2/products/{productId}/custom-options'>;
const TYPES = ['field', 'area', 'file', 'drop_down', 'radio', 'checkbox', 'multiple', 'date', 'date_time', 'time'] as const;
const WITH_VALUES = new Set(['drop_down', 'radio', 'checkbox', 'multiple']);

export function CustomOptionsSection({ productId }: { productId: number }) {
  const { t } = useTranslation();
  const { can } = useSession();
  const qc = useQueryClient();
  const key = ['catalog', 'product', productId, 'custom-options'];
  const read = useQuery({
    queryKey: key,
    queryFn: async () =>
      collection<Option>(await unwrap(api.GET('/api/rest/v2/products/{productId}/custom-options', { params: { path: { productId } } })))
        .items,
  });
  const [form, setForm] = useState({ title: '', type: 'field' as (typeof TYPES)[number], required: false, price: '', values: '' });
  const [error, setError] = useState<unknown>();
  const writable = can('products', 'write');

  async function add(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    const values = WITH_VALUES.has(form.type)
      ? form.values
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean)
          .map((l, i) => {
            const [title, price] = l.split('|').map((s) => s.trim());
            return { title, price: price ? Number(price) : 0, sortOrder: i + 1 };
          })
      : undefined;
    try {
      await unwrap(
        api.POST('/api/rest/v2/products/{productId}/custom-options', {
          params: { path: { productId } },
          body: {
            title: form.title,
            type: form.type,
            required: form.required,
            ...(values ? { values } : form.price ? { price: Number(form.price) } : {}),
          },
        }),
      );
      setForm({ title: '', type: 'field', required: false, price: '', values: '' });
      await qc.invalidateQueries({ queryKey: key });
    } catch (err) {
      setError(err);
    }
  }
  async function remove(o: Option) {
    if (!window.confirm(t('catalog.options.confirmRemove', { name: o.title }))) return;
    try {
      await unwrap(api.DELETE('/api/rest/v2/products/{productId}/custom-options/{id}', { params: { path: { productId, id: o.id } } }));
      await qc.invalidateQueries({ queryKey: key });
    } catch (err) {
      setError(err);
    }
  }
  return (
    <section className="panel" aria-label={t('catalog.options.title')}>
      <h2>{t('catalog.options.title')}</h2>
      <ErrorNote error={read.error} />
      {(read.data ?? []).length === 0 && !read.isPending && <p>{t('catalog.options.none')}</p>}
      <ul className="option-list">
        {(read.data ?? []).map((o) => (
          <li key={o.id}>
            <strong>{o.title}</strong> · {t(`catalog.options.type.${o.type}`, { defaultValue: o.type })}
            {o.required ? ` · ${t('catalog.options.required')}` : ''}
            {o.price !== undefined ? ` · ${formatMoney(o.price)}` : ''}
            {o.values.length > 0 && <span> · {o.values.map((v) => `${v.title} (${formatMoney(v.price)})`).join(', ')}</span>}
            {writable && (
              <button type="button" className="link" aria-label={t('catalog.removeOne', { name: o.title })} onClick={() => remove(o)}>
                {t('catalog.remove')}
              </button>
            )}
          </li>
        ))}
      </ul>
      {writable && (
        <form onSubmit={add} aria-label={t('catalog.options.add')}>
          <h3>{t('catalog.options.add')}</h3>
          <div className="form-grid">
            <TextField
              label={t('catalog.options.optionTitle')}
              name="title"
              operationId="products.customOptions.create"
              error={error}
              value={form.title}
              onChange={(e) => setForm((f) => ({ ...f, title: e.target.value }))}
            />
            <SelectField
              label={t('catalog.options.optionType')}
              name="type"
              error={error}
              value={form.type}
              onChange={(e) => setForm((f) => ({ ...f, type: e.target.value as (typeof TYPES)[number] }))}
              options={TYPES.map((v) => ({ value: v, label: t(`catalog.options.type.${v}`) }))}
            />
            {WITH_VALUES.has(form.type) ? (
              <TextArea
                label={t('catalog.options.values')}
                hint={t('catalog.options.valuesHint')}
                name="values"
                error={error}
                value={form.values}
                onChange={(e) => setForm((f) => ({ ...f, values: e.target.value }))}
              />
            ) : (
              <TextField
                label={t('catalog.options.price')}
                name="price"
                type="number"
                min={0}
                step="0.01"
                error={error}
                value={form.price}
                onChange={(e) => setForm((f) => ({ ...f, price: e.target.value }))}
              />
            )}
            <CheckboxField
              label={t('catalog.options.required')}
              name="required"
              checked={form.required}
              onChange={(e) => setForm((f) => ({ ...f, required: e.target.checked }))}
            />
          </div>
          <ErrorNote error={error} />
          <div className="form-actions">
            <button type="submit" className="primary">
              {t('catalog.options.addButton')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
