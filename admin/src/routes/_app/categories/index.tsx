import { createFileRoute } from '@tanstack/react-router';
import { CategoriesTree } from '../../../screens/catalog/CategoriesTree';

export const Route = createFileRoute('/_app/categories/')({
  component: CategoriesTree,
});
