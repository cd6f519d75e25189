import { createFileRoute } from '@tanstack/react-router';
import { AttributeSetsGrid } from '../../../screens/catalog/AttributeSetsGrid';

export const Route = createFileRoute('/_app/attribute-sets/')({
  component: AttributeSetsGrid,
});
