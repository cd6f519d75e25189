/** Product tags, Magento's Mage_Tag: customers tag products, staff moderate the tags; the storefront shows the approved ones. */
import type { AppModule } from '../../platform/module.js';
import { operations } from './rest.js';

export const tagsModule: AppModule = {
  name: 'tags',
  operations,
};
