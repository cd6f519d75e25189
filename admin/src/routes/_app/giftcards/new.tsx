import { createFileRoute } from '@tanstack/react-router';
import { GiftCardCreate } from '../../../screens/marketing/GiftCardPage';

export const Route = createFileRoute('/_app/giftcards/new')({
  component: GiftCardCreate,
});
