import { createFileRoute } from '@tanstack/react-router';
import { StaffUsersGrid } from '../../../screens/system/StaffUsersGrid';

export const Route = createFileRoute('/_app/admin-users/')({
  component: StaffUsersGrid,
});
