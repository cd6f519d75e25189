import { createFileRoute } from '@tanstack/react-router';
import { WebhookForm } from '../../../../screens/system/WebhookForm';

export const Route = createFileRoute('/_app/webhooks/$webhookId/')({
  component: function WebhookRoute() {
    const { webhookId } = Route.useParams();
    return <WebhookForm key={webhookId} webhookId={webhookId} />;
  },
});
