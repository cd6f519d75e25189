/** Demo blog content: the category "News" and one published post in it, in every store view. */
import type { Ctx } from '../../platform/context.js';
import { createCategory } from './categories.js';
import { createPost } from './posts.js';

export async function seedDemo(ctx: Ctx): Promise<void> {
  const news = await createCategory(ctx, { name: 'News', urlKey: 'news', position: 1 });
  await createPost(ctx, {
    title: 'Welcome to our blog',
    urlKey: 'welcome-to-our-blog',
    shortContent: '<p>News, tips and stories from our shop.</p>',
    content: '<p>Welcome to our new blog! Here we share news about our products, tips for using them and stories from our team.</p>',
    publishDate: ctx.now.toISOString().slice(0, 10),
    categoryIds: [news.id],
    metaTitle: 'Welcome to our blog',
  });
}
