import { createFileRoute } from '@tanstack/react-router';
import { BlogPostsGrid } from '../../../screens/content/BlogPostsGrid';

export const Route = createFileRoute('/_app/blog-posts/')({
  component: BlogPostsGrid,
});
