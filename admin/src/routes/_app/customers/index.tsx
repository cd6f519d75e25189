import { createFileRoute } from '@tanstack/react-router';
import { CustomersGrid } from '../../../screens/customers/CustomersGrid';

export const Route = createFileRoute('/_app/customers/')({
  component: CustomersGrid,
});
