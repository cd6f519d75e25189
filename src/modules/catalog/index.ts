/**
 * The catalog: attributes and attribute sets, products with their sub-resources, categories and layered
 * navigation. Each area has its own files (`<area>-service.ts`, `<area>-rest.ts`, ...).
 */
import type { AppModule } from '../../platform/module.js';
import { attributeRoutes } from './attributes-rest.js';
import { attributesGraphql } from './attributes-graphql.js';
import { installAttributes } from './attributes-install.js';
import { categoryRoutes } from './categories-rest.js';
import { installCategories } from './categories-install.js';
import { productRoutes } from './products-rest.js';
import { registerProductResolverCheck } from './products-resolver.js';
import { mediaRoutes } from './media-rest.js';
import { customOptionRoutes } from './custom-options-rest.js';
import { tierPriceRoutes } from './tier-prices-rest.js';
import { bundleRoutes } from './bundle-rest.js';
import { configurableRoutes } from './configurable-rest.js';
import { groupedRoutes } from './grouped-rest.js';
import { linkRoutes } from './links-rest.js';
import { downloadableRoutes } from './downloadable-rest.js';
import { seedCatalogDemo } from './demo.js';
import { layeredFilterRoutes } from './layered-rest.js';

export const catalogModule: AppModule = {
  name: 'catalog',
  routes: (app) => {
    attributeRoutes(app);
    productRoutes(app);
    registerProductResolverCheck();
    mediaRoutes(app);
    customOptionRoutes(app);
    tierPriceRoutes(app);
    bundleRoutes(app);
    configurableRoutes(app);
    groupedRoutes(app);
    linkRoutes(app);
    downloadableRoutes(app);
    categoryRoutes(app);
    layeredFilterRoutes(app);
  },
  graphql: [attributesGraphql],
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
