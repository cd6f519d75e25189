import { createFileRoute } from '@tanstack/react-router';
import { DeliveryPage } from '../../../../../screens/system/DeliveryPage';

export const Route = createFileRoute('/_app/webhooks/$webhookId/deliveries/$deliveryId')({
  component: function DeliveryRoute() {
    const { webhookId, deliveryId } = Route.useParams();
    return <DeliveryPage key={deliveryId} webhookId={webhookId} deliveryId={deliveryId} />;
  },
});
