/** The categories a product is in: the tree with a checkbox per category, saved as the product's categoryIds. */
import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../../api/client';
import { useSession } from '../../../auth/session';
import { ErrorNote, Notice, Spinner, useUnsavedChanges } from '../../../components/ui';
import { flatten, useCategoryTree } from '../categoryTree';
import type { Product } from './fields';

export function CategoriesSection({ product }: { product: Product }) {
  const { t } = useTranslation();
  const { can } = useSession();
  const qc = useQueryClient();
  const tree = useCategoryTree();
  const initial = [...product.categoryIds].sort((a, b) => a - b);
  const key = JSON.stringify(initial);
  const [chosen, setChosen] = useState<number[]>(initial);
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState(false);
  useEffect(() => setChosen(JSON.parse(key) as number[]), [key]);
  const dirty = JSON.stringify([...chosen].sort((a, b) => a - b)) !== key;
  useUnsavedChanges(dirty);
  const writable = can('products', 'write');

  async function save() {
    setError(undefined);
    setSaved(false);
    try {
      await unwrap(api.PUT('/api/rest/v2/products/{id}', { params: { path: { id: product.id } }, body: { categoryIds: chosen } }));
      await qc.invalidateQueries({ queryKey: ['catalog', 'product', product.id] });
      setSaved(true);
    } catch (err) {
      setError(err);
    }
  }
  if (tree.isPending) return <Spinner />;
  return (
    <fieldset className="panel">
      <legend>{t('catalog.product.categories')}</legend>
      <ErrorNote error={tree.error ?? error} />
      <ul className="category-checks">
        {flatten(tree.data ?? []).map(({ node, depth }) => (
          <li key={node.category.id} style={{ paddingInlineStart: `${depth * 18}px` }}>
            <label className="checkbox">
              <input
                type="checkbox"
                disabled={!writable || node.category.level < 1}
                checked={chosen.includes(node.category.id)}
                onChange={(e) =>
                  setChosen((c) => (e.target.checked ? [...c, node.category.id] : c.filter((id) => id !== node.category.id)))
                }
              />
              {node.category.name}
            </label>
          </li>
        ))}
      </ul>
      {saved && !dirty && <Notice>{t('common.saved')}</Notice>}
      {writable && (
        <div className="form-actions">
          <button type="button" className="primary" disabled={!dirty} onClick={save}>
            {t('catalog.product.saveCategories')}
          </button>
        </div>
      )}
    </fieldset>
  );
}
