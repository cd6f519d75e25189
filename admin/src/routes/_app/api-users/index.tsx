import { createFileRoute } from '@tanstack/react-router';
import { ApiUsersGrid } from '../../../screens/system/ApiUsersGrid';

export const Route = createFileRoute('/_app/api-users/')({
  component: ApiUsersGrid,
});
