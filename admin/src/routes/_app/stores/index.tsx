import { createFileRoute } from '@tanstack/react-router';
import { StoresGrid } from '../../../screens/system/Stores';

export const Route = createFileRoute('/_app/stores/')({
  component: StoresGrid,
});
