import { createFileRoute } from '@tanstack/react-router';
import { OrderPage } from '../../../screens/orders/OrderPage';

export const Route = createFileRoute('/_app/orders/$orderId')({
  component: function OrderRoute() {
    const { orderId } = Route.useParams();
    return <OrderPage key={orderId} orderId={orderId} />;
  },
});
