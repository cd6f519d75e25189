import { createFileRoute } from '@tanstack/react-router';
import { RoleForm } from '../../../screens/system/RoleForm';

export const Route = createFileRoute('/_app/admin-roles/$roleId')({
  component: function StaffRoleRoute() {
    const { roleId } = Route.useParams();
    return <RoleForm key={roleId} kind="staff" roleId={roleId} />;
  },
});
