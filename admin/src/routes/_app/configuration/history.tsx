import { createFileRoute } from '@tanstack/react-router';
import { ConfigHistory } from '../../../screens/system/ConfigHistory';

export const Route = createFileRoute('/_app/configuration/history')({
  component: ConfigHistory,
});
