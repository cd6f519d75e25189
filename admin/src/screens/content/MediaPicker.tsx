/** Choosing an image of the media library (for the editor and for a post's image), with its alternative text. */
import { useId, useState } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { useTranslation } from 'react-i18next';
import { MediaBrowser, type MediaItem } from './MediaBrowser';

export function MediaPickerDialog(props: { onPick: (item: MediaItem, alt: string) => void; onClose: () => void; withAlt?: boolean }) {
  const { t } = useTranslation();
  const altId = useId();
  const [alt, setAlt] = useState('');
  const withAlt = props.withAlt ?? true;
  return (
    <Dialog.Root open onOpenChange={(open) => !open && props.onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog media-dialog">
          <Dialog.Title>{t('content.media.pickTitle')}</Dialog.Title>
          <Dialog.Description>{t('content.media.pickNote')}</Dialog.Description>
          {withAlt && (
            <div className="field">
              <label htmlFor={altId}>{t('content.media.alt')}</label>
              <input id={altId} value={alt} onChange={(e) => setAlt(e.target.value)} maxLength={255} />
            </div>
          )}
          <MediaBrowser onPick={(item) => props.onPick(item, alt.trim())} />
          <div className="form-actions">
            <Dialog.Close asChild>
              <button type="button">{t('common.cancel')}</button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
