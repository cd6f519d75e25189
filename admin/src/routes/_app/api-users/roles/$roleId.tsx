import { createFileRoute } from '@tanstack/react-router';
import { RoleForm } from '../../../../screens/system/RoleForm';

export const Route = createFileRoute('/_app/api-users/roles/$roleId')({
  component: function ApiRoleRoute() {
    const { roleId } = Route.useParams();
    return <RoleForm key={roleId} kind="api" roleId={roleId} />;
  },
});
