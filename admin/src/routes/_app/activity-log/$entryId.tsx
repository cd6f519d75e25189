import { createFileRoute } from '@tanstack/react-router';
import { ActivityEntry } from '../../../screens/system/ActivityLog';

export const Route = createFileRoute('/_app/activity-log/$entryId')({
  component: function ActivityEntryRoute() {
    const { entryId } = Route.useParams();
    return <ActivityEntry key={entryId} entryId={entryId} />;
  },
});
