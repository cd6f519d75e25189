import { createFileRoute } from '@tanstack/react-router';
import { InvoicesGrid } from '../../../screens/sales/InvoicesGrid';

export const Route = createFileRoute('/_app/invoices/')({
  component: InvoicesGrid,
});
