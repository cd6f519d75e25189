import { createFileRoute } from '@tanstack/react-router';
import { Dashboard } from '../../screens/dashboard/Dashboard';

export const Route = createFileRoute('/_app/')({
  component: Dashboard,
});
