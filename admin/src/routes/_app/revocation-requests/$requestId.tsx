import { createFileRoute } from '@tanstack/react-router';
import { RevocationPage } from '../../../screens/content/RevocationPage';

export const Route = createFileRoute('/_app/revocation-requests/$requestId')({
  component: Screen,
});

function Screen() {
  const { requestId } = Route.useParams();
  return <RevocationPage key={requestId} requestId={Number(requestId)} />;
}
