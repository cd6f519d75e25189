/** Every module, in install order (a module's install data may refer to an earlier module's). */
import type { AppModule } from '../platform/module.js';
import { authModule } from './auth/index.js';
import { catalogModule } from './catalog/index.js';
import { cartsModule } from './carts/index.js';
import { couponsModule } from './coupons/index.js';
import { customersModule } from './customers/index.js';
import { directoryModule } from './directory/index.js';
import { giftcardsModule } from './giftcards/index.js';
import { inventoryModule } from './inventory/index.js';
import { paymentModule } from './payment/index.js';
import { reviewsModule } from './reviews/index.js';
import { shippingModule } from './shipping/index.js';
import { storesModule } from './stores/index.js';
import { taxModule } from './tax/index.js';
import { urlResolverModule } from './url-resolver/index.js';

export const modules: AppModule[] = [
  storesModule,
  directoryModule,
  taxModule,
  authModule,
  customersModule,
  urlResolverModule,
  catalogModule,
  inventoryModule,
  reviewsModule,
  shippingModule,
  paymentModule,
  couponsModule,
  giftcardsModule,
  cartsModule,
];
