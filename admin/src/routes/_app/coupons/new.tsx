import { createFileRoute } from '@tanstack/react-router';
import { CouponForm } from '../../../screens/marketing/CouponForm';

export const Route = createFileRoute('/_app/coupons/new')({
  component: () => <CouponForm />,
});
