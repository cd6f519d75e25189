import { createFileRoute } from '@tanstack/react-router';
import { CreditMemosGrid } from '../../../screens/sales/CreditMemosGrid';

export const Route = createFileRoute('/_app/credit-memos/')({
  component: CreditMemosGrid,
});
