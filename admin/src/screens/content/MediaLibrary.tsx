/** The media library screen: the images content links to, by folder, uploaded and deleted here. */
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/ui';
import { MediaBrowser } from './MediaBrowser';
import './content.css';

export function MediaLibrary() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('content.media.title')} />
      <MediaBrowser />
    </>
  );
}
