import { createFileRoute } from '@tanstack/react-router';
import { CustomerCreate } from '../../../screens/customers/CustomerCreate';

export const Route = createFileRoute('/_app/customers/new')({
  component: () => <CustomerCreate />,
});
