import type { AppModule } from '../../platform/module.js';
import { setDiscountPreviewProvider } from '../coupons/service.js';
import { operations } from './rest.js';
import { previewCoupon } from './service.js';

// POST /coupons/validate with a cartId previews the discount on that cart
setDiscountPreviewProvider(previewCoupon);

export const cartsModule: AppModule = {
  name: 'carts',
  operations,
};
