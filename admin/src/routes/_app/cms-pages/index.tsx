import { createFileRoute } from '@tanstack/react-router';
import { CmsPagesGrid } from '../../../screens/content/CmsPagesGrid';

export const Route = createFileRoute('/_app/cms-pages/')({
  component: CmsPagesGrid,
});
