/** A product's stock: quantity, in stock, managed, and the sale limits, written through the product's stockData. */
import { useEffect, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../../api/client';
import { useSession } from '../../../auth/session';
import { CheckboxField, ErrorNote, Notice, SelectField, TextField, useUnsavedChanges } from '../../../components/ui';
import type { Product } from './fields';

interface Stock {
  qty: string;
  isInStock: boolean;
  manageStock: boolean;
  minQty: string;
  minSaleQty: string;
  maxSaleQty: string;
  backorders: string;
  notifyStockQty: string;
  qtyIncrements: string;
}

function fromProduct(p: Product): Stock {
  const s = p.stockItem;
  const n = (v: number | undefined) => (v === undefined ? '' : String(v));
  return {
    qty: n(s?.qty ?? p.stockQty),
    isInStock: s?.isInStock ?? p.stockStatus === 'in_stock',
    manageStock: s?.manageStock ?? true,
    minQty: n(s?.minQty),
    minSaleQty: n(s?.minSaleQty),
    maxSaleQty: n(s?.maxSaleQty),
    backorders: String(s?.backorders ?? 0),
    notifyStockQty: n(s?.notifyStockQty),
    qtyIncrements: n(s?.qtyIncrements),
  };
}

export function StockSection({ product }: { product: Product }) {
  const { t } = useTranslation();
  const { can } = useSession();
  const qc = useQueryClient();
  const initial = fromProduct(product);
  const [stock, setStock] = useState(initial);
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState(false);
  const key = JSON.stringify(initial);
  useEffect(() => setStock(JSON.parse(key) as Stock), [key]);
  const dirty = JSON.stringify(stock) !== key;
  useUnsavedChanges(dirty);
  const writable = can('products', 'write');

  async function save(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    setSaved(false);
    const int = (v: string) => (v === '' ? undefined : Math.trunc(Number(v)));
    const nullable = (v: string) => (v === '' ? null : Math.trunc(Number(v)));
    try {
      await unwrap(
        api.PUT('/api/rest/v2/products/{id}', {
          params: { path: { id: product.id } },
          body: {
            stockData: {
              qty: int(stock.qty),
              isInStock: stock.isInStock,
              manageStock: stock.manageStock,
              minQty: int(stock.minQty),
              minSaleQty: int(stock.minSaleQty),
              maxSaleQty: nullable(stock.maxSaleQty),
              backorders: Number(stock.backorders),
              notifyStockQty: nullable(stock.notifyStockQty),
              qtyIncrements: nullable(stock.qtyIncrements),
            },
          },
        }),
      );
      await qc.invalidateQueries({ queryKey: ['catalog', 'product', product.id] });
      setSaved(true);
    } catch (err) {
      setError(err);
    }
  }
  const text = (k: keyof Stock, label: string) => (
    <TextField
      label={label}
      name={`stockData.${k}`}
      type="number"
      min={0}
      step={1}
      value={String(stock[k])}
      error={error}
      disabled={!writable}
      onChange={(e) => setStock((s) => ({ ...s, [k]: e.target.value }))}
    />
  );
  return (
    <form className="panel" onSubmit={save} aria-label={t('catalog.stock.title')}>
      <h2>{t('catalog.stock.title')}</h2>
      <div className="form-grid">
        {text('qty', t('catalog.stock.qty'))}
        <div className="field">
          <CheckboxField
            label={t('catalog.stock.isInStock')}
            name="isInStock"
            checked={stock.isInStock}
            disabled={!writable}
            onChange={(e) => setStock((s) => ({ ...s, isInStock: e.target.checked }))}
          />
          <CheckboxField
            label={t('catalog.stock.manageStock')}
            name="manageStock"
            checked={stock.manageStock}
            disabled={!writable}
            onChange={(e) => setStock((s) => ({ ...s, manageStock: e.target.checked }))}
          />
        </div>
        {text('minQty', t('catalog.stock.minQty'))}
        {text('minSaleQty', t('catalog.stock.minSaleQty'))}
        {text('maxSaleQty', t('catalog.stock.maxSaleQty'))}
        {text('notifyStockQty', t('catalog.stock.notifyStockQty'))}
        {text('qtyIncrements', t('catalog.stock.qtyIncrements'))}
        <SelectField
          label={t('catalog.stock.backorders')}
          name="stockData.backorders"
          value={stock.backorders}
          disabled={!writable}
          onChange={(e) => setStock((s) => ({ ...s, backorders: e.target.value }))}
          options={['0', '1', '2'].map((v) => ({ value: v, label: t(`catalog.stock.backorders${v}`) }))}
        />
      </div>
      <ErrorNote error={error} />
      {saved && !dirty && <Notice>{t('common.saved')}</Notice>}
      {writable && (
        <div className="form-actions">
          <button type="submit" className="primary" disabled={!dirty}>
            {t('catalog.stock.save')}
          </button>
        </div>
      )}
    </form>
  );
}
