/**
 * A product's images: upload, order (drag an image onto another, or its move buttons), roles (drag an image onto
 * a role, or tick the role on the image), label, hide on the storefront, remove. Every change is saved at once.
 */
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Row } from '../../../api/client';
import { collection } from '../../../api/lists';
import { useSession } from '../../../auth/session';
import { ErrorNote, Notice } from '../../../components/ui';
import { SortableList, fileToBase64, mediaPath } from '../shared';

type Media = Row<'/api/rest/v2/products/{productId}/media'>;
const ROLES = ['image', 'small_image', 'thumbnail'] as const;
type Role = (typeof ROLES)[number];

export function ImagesSection({ productId }: { productId: number }) {
  const { t } = useTranslation();
  const { can } = useSession();
  const qc = useQueryClient();
  const key = ['catalog', 'product', productId, 'media'];
  const media = useQuery({
    queryKey: key,
    queryFn: async () =>
      collection<Media>(await unwrap(api.GET('/api/rest/v2/products/{productId}/media', { params: { path: { productId } } }))).items,
  });
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState('');
  const [dropRole, setDropRole] = useState<Role>();
  const writable = can('products', 'write');
  const items = media.data ?? [];

  async function run(fn: () => Promise<unknown>, done?: string) {
    setError(undefined);
    setBusy(true);
    try {
      await fn();
      await qc.invalidateQueries({ queryKey: ['catalog', 'product', productId] });
      if (done) setSaid(done);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  const update = (valueId: number, body: { label?: string | null; position?: number; disabled?: boolean; types?: Role[] }) =>
    unwrap(api.PUT('/api/rest/v2/products/{productId}/media', { params: { path: { productId } }, body: { valueId, ...body } }));

  function reorder(next: Media[]) {
    qc.setQueryData(key, next);
    void run(async () => {
      for (const [i, m] of next.entries()) if (m.position !== i + 1) await update(m.id, { position: i + 1 });
    }, t('catalog.images.orderSaved'));
  }
  function giveRole(m: Media, role: Role, on: boolean) {
    const types = on ? [...new Set([...(m.types as Role[]), role])] : (m.types as Role[]).filter((r) => r !== role);
    void run(() => update(m.id, { types }), t('catalog.images.roleSaved', { role: t(`catalog.images.role.${role}`) }));
  }
  async function upload(files: FileList | null) {
    if (!files?.length) return;
    await run(async () => {
      for (const [i, f] of Array.from(files).entries()) {
        await unwrap(
          api.POST('/api/rest/v2/products/{productId}/media', {
            params: { path: { productId } },
            body: { base64: await fileToBase64(f), filename: f.name, ...(items.length === 0 && i === 0 ? { types: [...ROLES] } : {}) },
          }),
        );
      }
    }, t('catalog.images.uploaded'));
  }

  return (
    <section className="panel" aria-label={t('catalog.images.title')}>
      <h2>{t('catalog.images.title')}</h2>
      <ErrorNote error={media.error ?? error} />
      {writable && (
        <div className="field">
          <label htmlFor="product-image-upload">{t('catalog.images.upload')}</label>
          <input
            id="product-image-upload"
            type="file"
            accept="image/*"
            multiple
            disabled={busy}
            onChange={(e) => void upload(e.target.files)}
          />
        </div>
      )}
      {writable && items.length > 0 && (
        <div className="role-slots" role="group" aria-label={t('catalog.images.rolesHint')}>
          {ROLES.map((role) => {
            const holder = items.find((m) => m.types.includes(role));
            return (
              <div
                key={role}
                className="role-slot"
                data-over={dropRole === role || undefined}
                onDragOver={(e) => {
                  e.preventDefault();
                  setDropRole(role);
                }}
                onDragLeave={() => setDropRole(undefined)}
                onDrop={(e) => {
                  e.preventDefault();
                  setDropRole(undefined);
                  const m = items[Number(e.dataTransfer.getData('text/plain'))];
                  if (m) giveRole(m, role, true);
                }}
              >
                <strong>{t(`catalog.images.role.${role}`)}</strong>
                {holder ? <img src={mediaPath(holder.file)} alt={holder.label ?? ''} /> : <span>{t('catalog.images.noRole')}</span>}
              </div>
            );
          })}
        </div>
      )}
      {items.length === 0 && !media.isPending && <p>{t('catalog.images.none')}</p>}
      <SortableList
        label={t('catalog.images.order')}
        className="image-list"
        items={items}
        disabled={!writable || busy}
        itemKey={(m) => m.id}
        itemName={(m) => m.label || m.file.split('/').pop() || String(m.id)}
        onReorder={reorder}
        render={(m) => (
          <div className="image-item">
            <img src={mediaPath(m.file)} alt={m.label ?? ''} width={72} height={72} />
            <div className="image-meta">
              <label>
                {t('catalog.images.label')}
                <input
                  defaultValue={m.label ?? ''}
                  disabled={!writable}
                  onBlur={(e) => e.target.value !== (m.label ?? '') && void run(() => update(m.id, { label: e.target.value || null }))}
                />
              </label>
              <fieldset className="roles">
                <legend>{t('catalog.images.roles')}</legend>
                {ROLES.map((role) => (
                  <label key={role} className="checkbox">
                    <input
                      type="checkbox"
                      disabled={!writable || busy}
                      checked={m.types.includes(role)}
                      onChange={(e) => giveRole(m, role, e.target.checked)}
                    />
                    {t(`catalog.images.role.${role}`)}
                  </label>
                ))}
                <label className="checkbox">
                  <input
                    type="checkbox"
                    disabled={!writable || busy}
                    checked={m.disabled}
                    onChange={(e) => void run(() => update(m.id, { disabled: e.target.checked }))}
                  />
                  {t('catalog.images.hidden')}
                </label>
              </fieldset>
            </div>
            {writable && (
              <button
                type="button"
                className="danger"
                disabled={busy}
                aria-label={t('catalog.images.removeOne', { name: m.label || m.file })}
                onClick={() =>
                  window.confirm(t('catalog.images.confirmRemove')) &&
                  void run(() =>
                    unwrap(
                      api.DELETE('/api/rest/v2/products/{productId}/media', { params: { path: { productId } }, body: { valueId: m.id } }),
                    ),
                  )
                }
              >
                {t('catalog.remove')}
              </button>
            )}
          </div>
        )}
      />
      {said && <Notice>{said}</Notice>}
    </section>
  );
}
