import { createFileRoute } from '@tanstack/react-router';
import { BlogPostForm } from '../../../screens/content/BlogPostForm';

export const Route = createFileRoute('/_app/blog-posts/$postId')({
  component: Screen,
});

function Screen() {
  const { postId } = Route.useParams();
  return <BlogPostForm key={postId} postId={Number(postId)} />;
}
