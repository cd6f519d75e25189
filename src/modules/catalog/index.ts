/**
 * The catalog: attributes and attribute sets, products with their sub-resources, categories and layered
 * navigation. Each area has its own folder: `attributes/`, `categories/`, `products/` (reads, writes, prices,
 * URLs, and what the sub-resources share), `product-types/` (bundle, configurable, grouped, downloadable),
 * `product-extras/` (custom options, links, media, tier prices) and `layered/`, with `<area>-service.ts` /
 * `<area>-rest.ts` (or `service.ts`, `rest.ts`, ...) in each. The operations are declared once and served by
 * REST, GraphQL and MCP; `tables.ts`, `sale.ts` (what carts and orders need of products), `demo.ts`,
 * `generate.ts` and the test `fixtures.ts` stay here.
 */
import type { AppModule } from '../../platform/module.js';
import { attributeOperations } from './attributes/rest.js';
import { installAttributes } from './attributes/install.js';
import { categoryOperations } from './categories/rest.js';
import { categoryResolvable } from './categories/service.js';
import { installCategories } from './categories/install.js';
import { categoryProducts } from './products/category-products-ops.js';
import { productOperations } from './products/rest.js';
import { productResolution } from './products/resolver.js';
import { mediaOperations } from './product-extras/media-rest.js';
import { customOptionOperations, customOptionRoutes } from './product-extras/custom-options-rest.js';
import { tierPriceOperations } from './product-extras/tier-prices-rest.js';
import { groupPriceOperations } from './product-extras/group-prices-rest.js';
import { bundleOperations } from './product-types/bundle-rest.js';
import { configurableOperations } from './product-types/configurable-rest.js';
import { groupedOperations } from './product-types/grouped-rest.js';
import { linkOperations } from './product-extras/links-rest.js';
import { downloadableOperations } from './product-types/downloadable-rest.js';
import { seedCatalogDemo } from './demo.js';
import { layeredFilterOperations } from './layered/rest.js';
import { productEvents } from './events.js';
import { searchTermRecorder, searchTermsReportOperation } from './search-terms.js';

export const catalogModule: AppModule = {
  name: 'catalog',
  events: productEvents.declarations,
  operations: [
    ...attributeOperations,
    ...productOperations,
    categoryProducts,
    ...mediaOperations,
    ...customOptionOperations,
    ...tierPriceOperations,
    ...groupPriceOperations,
    ...bundleOperations,
    ...configurableOperations,
    ...groupedOperations,
    ...linkOperations,
    ...downloadableOperations,
    ...categoryOperations,
    ...layeredFilterOperations,
    searchTermsReportOperation,
  ],
  background: [searchTermRecorder],
  // what cannot be a declaration: a multipart upload, a file download
  routes: (app) => {
    customOptionRoutes(app);
  },
  urlResolverChecks: { product: productResolution, category: categoryResolvable },
  demo: async (ctx) => {
    if (ctx.app.config.demoCatalog) await seedCatalogDemo(ctx);
  },
  install: {
    version: 1,
    async run(db) {
      await installAttributes(db);
      await installCategories(db);
    },
  },
};
