import { createFileRoute } from '@tanstack/react-router';
import { CustomerPage } from '../../../screens/customers/CustomerPage';

export const Route = createFileRoute('/_app/customers/$customerId')({
  component: Screen,
});

function Screen() {
  const { customerId } = Route.useParams();
  return <CustomerPage key={customerId} customerId={Number(customerId)} />;
}
