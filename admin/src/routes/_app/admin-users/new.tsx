import { createFileRoute } from '@tanstack/react-router';
import { StaffUserForm } from '../../../screens/system/StaffUserForm';

export const Route = createFileRoute('/_app/admin-users/new')({
  component: () => <StaffUserForm />,
});
