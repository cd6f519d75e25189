import type { AppModule } from '../../platform/module.js';
import { previewCoupon } from './reductions.js';
import { operations } from './rest.js';
import { abandonedCartsReportOperation } from './reports-ops.js';

export const cartsModule: AppModule = {
  name: 'carts',
  operations: [...operations, abandonedCartsReportOperation],
  // POST /coupons/validate with a cartId previews the discount on that cart
  discountPreview: previewCoupon,
};
