import { createFileRoute } from '@tanstack/react-router';
import { GiftCardPage } from '../../../screens/marketing/GiftCardPage';

export const Route = createFileRoute('/_app/giftcards/$giftcardId')({
  component: Screen,
});

function Screen() {
  const { giftcardId } = Route.useParams();
  return <GiftCardPage key={giftcardId} giftcardId={Number(giftcardId)} />;
}
