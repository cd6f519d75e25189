import { createFileRoute } from '@tanstack/react-router';
import { CmsBlockForm } from '../../../screens/content/CmsBlockForm';

export const Route = createFileRoute('/_app/cms-blocks/$blockId')({
  component: Screen,
});

function Screen() {
  const { blockId } = Route.useParams();
  return <CmsBlockForm key={blockId} blockId={Number(blockId)} />;
}
