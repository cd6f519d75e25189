import { createFileRoute } from '@tanstack/react-router';
import { OrdersGrid } from '../../../screens/orders/OrdersGrid';

export const Route = createFileRoute('/_app/orders/')({
  component: OrdersGrid,
});
