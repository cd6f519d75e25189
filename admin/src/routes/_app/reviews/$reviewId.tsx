import { createFileRoute } from '@tanstack/react-router';
import { ReviewPage } from '../../../screens/catalog/ReviewPage';

export const Route = createFileRoute('/_app/reviews/$reviewId')({
  component: Screen,
});

function Screen() {
  const { reviewId } = Route.useParams();
  return <ReviewPage key={reviewId} reviewId={Number(reviewId)} />;
}
