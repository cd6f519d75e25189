import { createFileRoute } from '@tanstack/react-router';
import { ReviewsGrid } from '../../../screens/catalog/ReviewsGrid';

export const Route = createFileRoute('/_app/reviews/')({
  component: ReviewsGrid,
});
