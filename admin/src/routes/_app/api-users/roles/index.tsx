import { createFileRoute } from '@tanstack/react-router';
import { RolesGrid } from '../../../../screens/system/RolesGrid';

export const Route = createFileRoute('/_app/api-users/roles/')({
  component: () => <RolesGrid kind="api" />,
});
