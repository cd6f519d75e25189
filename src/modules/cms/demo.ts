/** Demo CMS content: the home, about-us and no-route pages and the footer-links block, in every store view. */
import type { Ctx } from '../../platform/context.js';
import { createBlock } from './blocks.js';
import { createPage } from './pages.js';

export async function seedDemo(ctx: Ctx): Promise<void> {
  await createPage(ctx, {
    identifier: 'home',
    title: 'Home',
    contentHeading: 'Welcome',
    content: '<p>Welcome to our store.</p>',
    pageLayout: 'one_column',
  });
  await createPage(ctx, {
    identifier: 'about-us',
    title: 'About Us',
    contentHeading: 'About Us',
    content: '<p>We are a small shop that cares about good products and happy customers.</p>',
    pageLayout: 'one_column',
  });
  await createPage(ctx, {
    identifier: 'no-route',
    title: '404 Not Found',
    contentHeading: 'Whoops, our bad...',
    content: '<p>The page you requested was not found.</p>',
    metaRobots: 'NOINDEX,FOLLOW',
    pageLayout: 'one_column',
  });
  await createBlock(ctx, {
    identifier: 'footer-links',
    title: 'Footer Links',
    content: '<ul><li><a href="/about-us">About Us</a></li><li><a href="/customer-service">Customer Service</a></li></ul>',
  });
}
