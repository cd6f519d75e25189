import { createFileRoute } from '@tanstack/react-router';
import { NewsletterGrid } from '../../../screens/marketing/NewsletterGrid';

export const Route = createFileRoute('/_app/newsletter/')({
  component: NewsletterGrid,
});
