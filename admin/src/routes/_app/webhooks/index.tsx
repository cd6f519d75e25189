import { createFileRoute } from '@tanstack/react-router';
import { WebhooksGrid } from '../../../screens/system/WebhooksGrid';

export const Route = createFileRoute('/_app/webhooks/')({
  component: WebhooksGrid,
});
