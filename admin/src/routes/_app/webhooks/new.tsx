import { createFileRoute } from '@tanstack/react-router';
import { WebhookForm } from '../../../screens/system/WebhookForm';

export const Route = createFileRoute('/_app/webhooks/new')({
  component: () => <WebhookForm />,
});
