import { createFileRoute } from '@tanstack/react-router';
import { ActivityLogGrid } from '../../../screens/system/ActivityLog';

export const Route = createFileRoute('/_app/activity-log/')({
  component: ActivityLogGrid,
});
