import { createFileRoute } from '@tanstack/react-router';
import { RevocationsGrid } from '../../../screens/content/RevocationsGrid';

export const Route = createFileRoute('/_app/revocation-requests/')({
  component: RevocationsGrid,
});
