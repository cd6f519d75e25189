import { createFileRoute } from '@tanstack/react-router';
import { CmsPageForm } from '../../../screens/content/CmsPageForm';

export const Route = createFileRoute('/_app/cms-pages/new')({
  component: () => <CmsPageForm />,
});
