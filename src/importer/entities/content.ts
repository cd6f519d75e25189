import type { EntityImporter } from '../context.js';
import { BLOG_IMPORTERS } from './content-blog.js';
import { cmsBlocksImporter, cmsPagesImporter } from './content-cms.js';
import { GIFTCARD_IMPORTERS } from './content-giftcards.js';
import { newsletterImporter } from './content-newsletter.js';
import { PROMOTION_IMPORTERS } from './content-promotions.js';
import { revocationImporter } from './content-revocation.js';
import { REVIEW_IMPORTERS } from './content-reviews.js';
import { TAG_IMPORTERS } from './tags.js';
import { wishlistItemsImporter } from './content-wishlists.js';

/** CMS, promotions, newsletter, reviews, product tags, wishlists, gift cards, blog and revocation, in dependency order. */
export const CONTENT_IMPORTERS: EntityImporter[] = [
  cmsPagesImporter,
  cmsBlocksImporter,
  ...PROMOTION_IMPORTERS,
  newsletterImporter,
  ...REVIEW_IMPORTERS,
  ...TAG_IMPORTERS,
  wishlistItemsImporter,
  ...GIFTCARD_IMPORTERS,
  ...BLOG_IMPORTERS,
  revocationImporter,
];
