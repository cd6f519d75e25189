import { createFileRoute } from '@tanstack/react-router';
import { ApiUserForm } from '../../../screens/system/ApiUserForm';

export const Route = createFileRoute('/_app/api-users/$apiUserId')({
  component: function ApiUserRoute() {
    const { apiUserId } = Route.useParams();
    return <ApiUserForm key={apiUserId} apiUserId={apiUserId} />;
  },
});
