import { createFileRoute } from '@tanstack/react-router';
import { CustomerGroupForm } from '../../../screens/customers/CustomerGroupForm';

export const Route = createFileRoute('/_app/customer-groups/$groupId')({
  component: Screen,
});

function Screen() {
  const { groupId } = Route.useParams();
  return <CustomerGroupForm key={groupId} groupId={Number(groupId)} />;
}
