/** Related products, up-sells and cross-sells: picked by SKU or name, ordered by drag and drop or by keyboard, saved per list. */
import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../../api/client';
import { collection } from '../../../api/lists';
import { useSession } from '../../../auth/session';
import { ErrorNote, Notice, useUnsavedChanges } from '../../../components/ui';
import { ProductPicker, SortableList } from '../shared';

const KINDS = ['related', 'up-sell', 'cross-sell'] as const;
type Kind = (typeof KINDS)[number];
interface Linked {
  linkedProductId: number;
  linkedProductSku: string;
  linkedProductName: string;
}

export function LinksSection({ productId }: { productId: number }) {
  return (
    <>
      {KINDS.map((k) => (
        <LinkList key={k} productId={productId} kind={k} />
      ))}
    </>
  );
}

function LinkList({ productId, kind }: { productId: number; kind: Kind }) {
  const { t } = useTranslation();
  const { can } = useSession();
  const qc = useQueryClient();
  const key = ['catalog', 'product', productId, 'links', kind];
  const path = `/api/rest/v2/products/{productId}/links/${kind}` as '/api/rest/v2/products/{productId}/links/related';
  const read = useQuery({
    queryKey: key,
    queryFn: async () => collection<Linked>(await unwrap(api.GET(path, { params: { path: { productId } } }))).items,
  });
  const [list, setList] = useState<Linked[]>([]);
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (read.data) setList(read.data);
  }, [read.data]);
  const dirty =
    !!read.data && JSON.stringify(list.map((l) => l.linkedProductId)) !== JSON.stringify(read.data.map((l) => l.linkedProductId));
  useUnsavedChanges(dirty);
  const title = t(`catalog.links.${kind}`);
  const writable = can('products', 'write');

  async function save() {
    setError(undefined);
    setSaved(false);
    try {
      await unwrap(
        api.PUT(path, {
          params: { path: { productId } },
          body: list.map((l, i) => ({ linkedProductId: l.linkedProductId, position: i + 1 })),
        }),
      );
      await qc.invalidateQueries({ queryKey: key });
      setSaved(true);
    } catch (err) {
      setError(err);
    }
  }
  return (
    <section className="panel" aria-label={title}>
      <h2>{title}</h2>
      <ErrorNote error={read.error ?? error} />
      <SortableList
        label={title}
        items={list}
        disabled={!writable}
        itemKey={(l) => l.linkedProductId}
        itemName={(l) => l.linkedProductName}
        onReorder={setList}
        render={(l) => (
          <span className="linked">
            {l.linkedProductName} <small>({l.linkedProductSku})</small>
            {writable && (
              <button
                type="button"
                className="link"
                aria-label={t('catalog.removeOne', { name: l.linkedProductName })}
                onClick={() => setList((ls) => ls.filter((x) => x.linkedProductId !== l.linkedProductId))}
              >
                {t('catalog.remove')}
              </button>
            )}
          </span>
        )}
      />
      {writable && (
        <>
          <ProductPicker
            label={t('catalog.links.add', { list: title })}
            exclude={[productId, ...list.map((l) => l.linkedProductId)]}
            onPick={(p) => setList((ls) => [...ls, { linkedProductId: p.id, linkedProductSku: p.sku, linkedProductName: p.name }])}
          />
          <div className="form-actions">
            <button type="button" className="primary" disabled={!dirty} onClick={save}>
              {t('catalog.links.save', { list: title })}
            </button>
          </div>
        </>
      )}
      {saved && !dirty && <Notice>{t('common.saved')}</Notice>}
    </section>
  );
}
