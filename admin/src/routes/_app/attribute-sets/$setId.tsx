import { createFileRoute } from '@tanstack/react-router';
import { AttributeSetPage } from '../../../screens/catalog/AttributeSetPage';

export const Route = createFileRoute('/_app/attribute-sets/$setId')({
  component: Screen,
});

function Screen() {
  const { setId } = Route.useParams();
  return <AttributeSetPage key={setId} setId={Number(setId)} />;
}
