import { createFileRoute } from '@tanstack/react-router';
import { AttributesGrid } from '../../../screens/catalog/AttributesGrid';

export const Route = createFileRoute('/_app/attributes/')({
  component: AttributesGrid,
});
