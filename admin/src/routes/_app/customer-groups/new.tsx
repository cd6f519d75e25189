import { createFileRoute } from '@tanstack/react-router';
import { CustomerGroupForm } from '../../../screens/customers/CustomerGroupForm';

export const Route = createFileRoute('/_app/customer-groups/new')({
  component: () => <CustomerGroupForm />,
});
