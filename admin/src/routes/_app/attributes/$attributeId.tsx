import { createFileRoute } from '@tanstack/react-router';
import { AttributePage } from '../../../screens/catalog/AttributePage';

export const Route = createFileRoute('/_app/attributes/$attributeId')({
  component: Screen,
});

function Screen() {
  const { attributeId } = Route.useParams();
  return <AttributePage key={attributeId} attributeId={attributeId} />;
}
