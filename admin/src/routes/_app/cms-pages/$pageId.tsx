import { createFileRoute } from '@tanstack/react-router';
import { CmsPageForm } from '../../../screens/content/CmsPageForm';

export const Route = createFileRoute('/_app/cms-pages/$pageId')({
  component: Screen,
});

function Screen() {
  const { pageId } = Route.useParams();
  return <CmsPageForm key={pageId} pageId={Number(pageId)} />;
}
