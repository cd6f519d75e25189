import { createFileRoute } from '@tanstack/react-router';
import { CouponsGrid } from '../../../screens/marketing/CouponsGrid';

export const Route = createFileRoute('/_app/coupons/')({
  component: CouponsGrid,
});
