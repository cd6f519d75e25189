/**
 * The catalog: attributes and attribute sets, products with their sub-resources, categories and layered
 * navigation. Each area has its own files (`<area>-service.ts`, `<area>-rest.ts`, ...); the operations are
 * declared once and served by REST and GraphQL.
 */
import type { AppModule } from '../../platform/module.js';
import { attributeOperations } from './attributes-rest.js';
import { installAttributes } from './attributes-install.js';
import { categoryOperations } from './categories-rest.js';
import { registerCategoryResolverCheck } from './categories-service.js';
import { installCategories } from './categories-install.js';
import { catalogGraphql } from './graphql.js';
import { productOperations } from './products-rest.js';
import { registerProductResolverCheck } from './products-resolver.js';
import { mediaOperations, mediaRoutes } from './media-rest.js';
import { customOptionOperations, customOptionRoutes } from './custom-options-rest.js';
import { tierPriceOperations, tierPriceRoutes } from './tier-prices-rest.js';
import { bundleOperations } from './bundle-rest.js';
import { configurableOperations } from './configurable-rest.js';
import { groupedOperations } from './grouped-rest.js';
import { linkOperations } from './links-rest.js';
import { downloadableOperations, downloadableRoutes } from './downloadable-rest.js';
import { seedCatalogDemo } from './demo.js';
import { layeredFilterOperations } from './layered-rest.js';

export const catalogModule: AppModule = {
  name: 'catalog',
  operations: [
    ...attributeOperations,
    ...productOperations,
    ...mediaOperations,
    ...customOptionOperations,
    ...tierPriceOperations,
    ...bundleOperations,
    ...configurableOperations,
    ...groupedOperations,
    ...linkOperations,
    ...downloadableOperations,
    ...categoryOperations,
    ...layeredFilterOperations,
  ],
  // what cannot be a declaration: uploads needing a larger body limit, a file download, a 201 collection
  routes: (app) => {
    registerProductResolverCheck();
    registerCategoryResolverCheck();
    mediaRoutes(app);
    customOptionRoutes(app);
    tierPriceRoutes(app);
    downloadableRoutes(app);
  },
  graphql: [catalogGraphql],
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
