import { createFileRoute } from '@tanstack/react-router';
import { BlogCategoryForm } from '../../../screens/content/BlogCategoryForm';

export const Route = createFileRoute('/_app/blog-categories/new')({
  component: () => <BlogCategoryForm />,
});
