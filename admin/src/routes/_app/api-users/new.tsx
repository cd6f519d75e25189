import { createFileRoute } from '@tanstack/react-router';
import { ApiUserForm } from '../../../screens/system/ApiUserForm';

export const Route = createFileRoute('/_app/api-users/new')({
  component: () => <ApiUserForm />,
});
