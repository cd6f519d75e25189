import { createFileRoute } from '@tanstack/react-router';
import { CreditMemoPage } from '../../../screens/sales/CreditMemoPage';

export const Route = createFileRoute('/_app/credit-memos/$creditMemoId')({
  component: function CreditMemoRoute() {
    const { creditMemoId } = Route.useParams();
    return <CreditMemoPage key={creditMemoId} creditMemoId={creditMemoId} />;
  },
});
