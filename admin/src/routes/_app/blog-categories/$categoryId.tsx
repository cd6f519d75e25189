import { createFileRoute } from '@tanstack/react-router';
import { BlogCategoryForm } from '../../../screens/content/BlogCategoryForm';

export const Route = createFileRoute('/_app/blog-categories/$categoryId')({
  component: Screen,
});

function Screen() {
  const { categoryId } = Route.useParams();
  return <BlogCategoryForm key={categoryId} categoryId={Number(categoryId)} />;
}
