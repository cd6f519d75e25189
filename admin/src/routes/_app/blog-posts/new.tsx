import { createFileRoute } from '@tanstack/react-router';
import { BlogPostForm } from '../../../screens/content/BlogPostForm';

export const Route = createFileRoute('/_app/blog-posts/new')({
  component: () => <BlogPostForm />,
});
