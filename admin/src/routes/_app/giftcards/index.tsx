import { createFileRoute } from '@tanstack/react-router';
import { GiftCardsGrid } from '../../../screens/marketing/GiftCardsGrid';

export const Route = createFileRoute('/_app/giftcards/')({
  component: GiftCardsGrid,
});
