import { createFileRoute } from '@tanstack/react-router';
import { ShipmentsGrid } from '../../../screens/sales/ShipmentsGrid';

export const Route = createFileRoute('/_app/shipments/')({
  component: ShipmentsGrid,
});
