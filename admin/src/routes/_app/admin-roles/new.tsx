import { createFileRoute } from '@tanstack/react-router';
import { RoleForm } from '../../../screens/system/RoleForm';

export const Route = createFileRoute('/_app/admin-roles/new')({
  component: () => <RoleForm kind="staff" />,
});
