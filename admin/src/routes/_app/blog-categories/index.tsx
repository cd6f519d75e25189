import { createFileRoute } from '@tanstack/react-router';
import { BlogCategoriesGrid } from '../../../screens/content/BlogCategoriesGrid';

export const Route = createFileRoute('/_app/blog-categories/')({
  component: BlogCategoriesGrid,
});
