import { createFileRoute } from '@tanstack/react-router';
import { MediaLibrary } from '../../../screens/content/MediaLibrary';

export const Route = createFileRoute('/_app/media/')({
  component: MediaLibrary,
});
