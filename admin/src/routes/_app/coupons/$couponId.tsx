import { createFileRoute } from '@tanstack/react-router';
import { CouponForm } from '../../../screens/marketing/CouponForm';

export const Route = createFileRoute('/_app/coupons/$couponId')({
  component: Screen,
});

function Screen() {
  const { couponId } = Route.useParams();
  return <CouponForm key={couponId} couponId={Number(couponId)} />;
}
