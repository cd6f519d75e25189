import { createFileRoute } from '@tanstack/react-router';
import { ShipmentPage } from '../../../screens/sales/ShipmentPage';

export const Route = createFileRoute('/_app/shipments/$shipmentId')({
  component: function ShipmentRoute() {
    const { shipmentId } = Route.useParams();
    return <ShipmentPage key={shipmentId} shipmentId={shipmentId} />;
  },
});
