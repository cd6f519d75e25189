import { createFileRoute } from '@tanstack/react-router';
import { StaffUserForm } from '../../../screens/system/StaffUserForm';

export const Route = createFileRoute('/_app/admin-users/$userId')({
  component: function StaffUserRoute() {
    const { userId } = Route.useParams();
    return <StaffUserForm key={userId} userId={userId} />;
  },
});
