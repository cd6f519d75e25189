import { createFileRoute } from '@tanstack/react-router';
import { CmsBlocksGrid } from '../../../screens/content/CmsBlocksGrid';

export const Route = createFileRoute('/_app/cms-blocks/')({
  component: CmsBlocksGrid,
});
