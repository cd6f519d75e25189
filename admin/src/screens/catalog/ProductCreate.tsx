/** A new product: its type, attribute set, SKU, name, price and status; the rest is filled in on its page. */
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { ErrorNote, PageHeader, SelectField, Spinner, TextField, useUnsavedChanges } from '../../components/ui';
import { PRODUCT_TYPES, VISIBILITIES, useAttributeSets } from './shared';
import './catalog.css';

export function ProductCreate({ type: initialType }: { type?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const sets = useAttributeSets();
  const [form, setForm] = useState({
    type: initialType && (PRODUCT_TYPES as readonly string[]).includes(initialType) ? initialType : 'simple',
    attributeSetId: '',
    sku: '',
    name: '',
    price: '',
    status: 'enabled',
    visibility: 'catalog_search',
    qty: '',
  });
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [createdId, setCreatedId] = useState<number>();
  useUnsavedChanges(createdId === undefined && (form.sku !== '' || form.name !== ''));
  // leaves once the form no longer counts as unsaved
  useEffect(() => {
    if (createdId !== undefined) void navigate({ to: '/products/$productId', params: { productId: String(createdId) } });
  }, [createdId, navigate]);
  if (!sets.data) return sets.error ? <ErrorNote error={sets.error} /> : <Spinner />;
  const setId = form.attributeSetId || String(sets.data.find((s) => s.attributeSetName === 'Default')?.id ?? sets.data[0]?.id ?? '');
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }));
  const priced = form.type !== 'grouped';

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    setBusy(true);
    try {
      const created = await unwrap(
        api.POST('/api/rest/v2/products', {
          body: {
            type: form.type,
            attributeSetId: Number(setId),
            sku: form.sku,
            name: form.name,
            status: form.status,
            visibility: form.visibility,
            ...(form.price !== '' ? { price: Number(form.price) } : {}),
            ...(form.qty !== '' ? { stockData: { qty: Math.trunc(Number(form.qty)), isInStock: Number(form.qty) > 0 } } : {}),
          },
        }),
      );
      setCreatedId(created.id);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  return (
    <>
      <PageHeader
        title={t('catalog.create.title')}
        actions={
          <Link to="/products" className="button">
            {t('catalog.product.back')}
          </Link>
        }
      />
      <form className="panel" onSubmit={submit} aria-label={t('catalog.create.title')}>
        <div className="form-grid">
          <SelectField
            label={t('catalog.products.type')}
            name="type"
            error={error}
            value={form.type}
            onChange={set('type')}
            options={PRODUCT_TYPES.map((v) => ({ value: v, label: t(`catalog.type.${v}`) }))}
          />
          <SelectField
            label={t('catalog.create.attributeSet')}
            name="attributeSetId"
            error={error}
            value={setId}
            onChange={set('attributeSetId')}
            options={sets.data.map((s) => ({ value: String(s.id), label: s.attributeSetName }))}
          />
          <TextField
            label={t('catalog.products.sku')}
            name="sku"
            operationId="products.create"
            required
            error={error}
            value={form.sku}
            onChange={set('sku')}
          />
          <TextField
            label={t('catalog.products.name')}
            name="name"
            operationId="products.create"
            required
            error={error}
            value={form.name}
            onChange={set('name')}
          />
          {priced && (
            <TextField
              label={t('catalog.products.price')}
              name="price"
              type="number"
              min={0}
              step="0.01"
              error={error}
              value={form.price}
              onChange={set('price')}
            />
          )}
          <TextField
            label={t('catalog.stock.qty')}
            name="stockData"
            type="number"
            min={0}
            step={1}
            error={error}
            value={form.qty}
            onChange={set('qty')}
          />
          <SelectField
            label={t('catalog.products.status')}
            name="status"
            error={error}
            value={form.status}
            onChange={set('status')}
            options={['enabled', 'disabled'].map((v) => ({ value: v, label: t(`catalog.status.${v}`) }))}
          />
          <SelectField
            label={t('catalog.products.visibility')}
            name="visibility"
            error={error}
            value={form.visibility}
            onChange={set('visibility')}
            options={VISIBILITIES.map((v) => ({ value: v, label: t(`catalog.visibility.${v}`) }))}
          />
        </div>
        <ErrorNote error={error} />
        <div className="form-actions">
          <button type="submit" className="primary" disabled={busy}>
            {t('catalog.create.submit')}
          </button>
        </div>
      </form>
    </>
  );
}
