import { createFileRoute } from '@tanstack/react-router';
import { CmsBlockForm } from '../../../screens/content/CmsBlockForm';

export const Route = createFileRoute('/_app/cms-blocks/new')({
  component: () => <CmsBlockForm />,
});
