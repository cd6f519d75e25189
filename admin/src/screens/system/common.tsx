/** Pieces the system screens share: a secret shown once, the store-view limit of an account, status badges, confirmations. */
import { useState, type ReactNode } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { useTranslation } from 'react-i18next';
import { useStoreViews } from '../../components/ui';
import { formatDate } from '../../i18n';
import './system.css';

/** A credential the API answers once (an API key, a signing secret, recovery codes): shown until closed. */
export function ShownOnce(props: { title: string; note: string; values: string[]; onClose: () => void }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  return (
    <Dialog.Root open onOpenChange={(open) => !open && props.onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title>{props.title}</Dialog.Title>
          <Dialog.Description>{props.note}</Dialog.Description>
          <ul className="secret-values" aria-label={props.title}>
            {props.values.map((v) => (
              <li key={v}>
                <code>{v}</code>
              </li>
            ))}
          </ul>
          <div className="form-actions">
            <button
              type="button"
              onClick={() =>
                void navigator.clipboard
                  ?.writeText(props.values.join('\n'))
                  .then(() => setCopied(true))
                  .catch(() => undefined)
              }
            >
              {t('system.copy')}
            </button>
            <Dialog.Close asChild>
              <button type="button" className="primary">
                {t('system.secretStored')}
              </button>
            </Dialog.Close>
            <span role="status">{copied ? t('system.copied') : ''}</span>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The store views an account is limited to: none chosen (null) is every store view. */
export function StoreViewsField(props: { value: number[] | null; onChange: (ids: number[] | null) => void; error?: string }) {
  const { t } = useTranslation();
  const stores = useStoreViews();
  const every = props.value === null;
  return (
    <fieldset className="store-views-field" aria-describedby={props.error ? 'store-views-error' : undefined}>
      <legend>{t('system.storeViews')}</legend>
      <label className="checkbox">
        <input type="checkbox" checked={every} onChange={(e) => props.onChange(e.target.checked ? null : [])} />
        {t('system.everyStoreView')}
      </label>
      {!every &&
        stores.map((s) => (
          <label key={s.id} className="checkbox">
            <input
              type="checkbox"
              checked={props.value!.includes(s.id)}
              onChange={(e) => props.onChange(e.target.checked ? [...props.value!, s.id] : props.value!.filter((id) => id !== s.id))}
            />
            {s.name}
          </label>
        ))}
      {props.error && (
        <small id="store-views-error" className="field-error">
          {props.error}
        </small>
      )}
    </fieldset>
  );
}

export function Badge(props: { tone?: 'ok' | 'warn' | 'muted'; children: ReactNode }) {
  return <span className={`badge${props.tone ? ` badge-${props.tone}` : ''}`}>{props.children}</span>;
}

export function ActiveBadge({ active }: { active: boolean }) {
  const { t } = useTranslation();
  return <Badge tone={active ? 'ok' : 'muted'}>{active ? t('system.active') : t('system.inactive')}</Badge>;
}

/** The names of store views by id, for cells and labels. */
export function useStoreNames(): (ids: number[] | null | undefined) => string {
  const { t } = useTranslation();
  const stores = useStoreViews();
  return (ids) =>
    ids?.length ? ids.map((id) => stores.find((s) => s.id === id)?.name ?? String(id)).join(', ') : t('system.everyStoreView');
}

/** Asks before a destructive action; true when confirmed. */
export function confirmed(question: string): boolean {
  return window.confirm(question);
}

/** The languages a staff user may choose for the back office (its catalogs are English and German). */
export const LOCALES = ['en_US', 'en_GB', 'de_DE', 'de_AT', 'de_CH'];

export function useLocaleOptions(): { value: string; label: string }[] {
  const { t } = useTranslation();
  return LOCALES.map((l) => ({ value: l, label: t(`system.locales.${l}`) }));
}

/** A wire time (`YYYY-MM-DD HH:MM:SS`, UTC, or ISO 8601) in the interface language; empty when absent. */
export function when(wire: string | null | undefined): string {
  if (!wire) return '';
  return formatDate(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(wire) ? `${wire.replace(' ', 'T')}Z` : wire);
}

/**
 * Secrets handed from one screen to the next (a create answers the key, the new item's page shows it), kept in
 * memory only until the page that shows them lets them go.
 */
const handed = new Map<string, string[]>();
export function handOver(key: string, values: string[]): void {
  handed.set(key, values);
}
export function handedOver(key: string): string[] | undefined {
  return handed.get(key);
}
export function letGo(key: string): void {
  handed.delete(key);
}
