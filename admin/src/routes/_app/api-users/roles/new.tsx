import { createFileRoute } from '@tanstack/react-router';
import { RoleForm } from '../../../../screens/system/RoleForm';

export const Route = createFileRoute('/_app/api-users/roles/new')({
  component: () => <RoleForm kind="api" />,
});
