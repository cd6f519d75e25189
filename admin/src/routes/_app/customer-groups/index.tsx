import { createFileRoute } from '@tanstack/react-router';
import { CustomerGroupsGrid } from '../../../screens/customers/CustomerGroupsGrid';

export const Route = createFileRoute('/_app/customer-groups/')({
  component: CustomerGroupsGrid,
});
