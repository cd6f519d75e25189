import { createFileRoute } from '@tanstack/react-router';
import { CategoryPage } from '../../../screens/catalog/CategoryPage';

export const Route = createFileRoute('/_app/categories/$categoryId')({
  component: Screen,
});

function Screen() {
  const { categoryId } = Route.useParams();
  return <CategoryPage key={categoryId} categoryId={Number(categoryId)} />;
}
