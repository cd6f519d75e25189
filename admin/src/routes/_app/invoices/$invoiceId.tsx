import { createFileRoute } from '@tanstack/react-router';
import { InvoicePage } from '../../../screens/sales/InvoicePage';

export const Route = createFileRoute('/_app/invoices/$invoiceId')({
  component: function InvoiceRoute() {
    const { invoiceId } = Route.useParams();
    return <InvoicePage key={invoiceId} invoiceId={invoiceId} />;
  },
});
