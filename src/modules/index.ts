/** Every module, in install order (a module's install data may refer to an earlier module's). */
import type { AppModule } from '../platform/module.js';
import type { Operation } from '../platform/operations.js';
import type { GraphqlContribution } from '../platform/graphql.js';
import { deriveGraphql } from '../platform/graphql-derive.js';
import { pageSizesOf } from '../platform/graphql-limits.js';
import { authModule } from './auth/index.js';
import { catalogModule } from './catalog/index.js';
import { blogModule } from './blog/index.js';
import { cartsModule } from './carts/index.js';
import { checkoutModule } from './checkout/index.js';
import { cmsModule } from './cms/index.js';
import { contactModule } from './contact/index.js';
import { couponsModule } from './coupons/index.js';
import { creditMemosModule } from './credit-memos/index.js';
import { customersModule } from './customers/index.js';
import { directoryModule } from './directory/index.js';
import { giftcardsModule } from './giftcards/index.js';
import { inventoryModule } from './inventory/index.js';
import { invoicesModule } from './invoices/index.js';
import { mediaModule } from './media/index.js';
import { newsletterModule } from './newsletter/index.js';
import { ordersModule } from './orders/index.js';
import { paymentModule } from './payment/index.js';
import { reviewsModule } from './reviews/index.js';
import { revocationModule } from './revocation/index.js';
import { shipmentsModule } from './shipments/index.js';
import { shippingModule } from './shipping/index.js';
import { soapModule } from './soap/index.js';
import { storesModule } from './stores/index.js';
import { tagsModule } from './tags/index.js';
import { taxModule } from './tax/index.js';
import { urlResolverModule } from './url-resolver/index.js';
import { webhooksModule } from './webhooks/index.js';
import { wishlistModule } from './wishlist/index.js';

export const modules: AppModule[] = [
  directoryModule,
  storesModule,
  taxModule,
  customersModule,
  authModule,
  urlResolverModule,
  catalogModule,
  inventoryModule,
  reviewsModule,
  tagsModule,
  shippingModule,
  paymentModule,
  couponsModule,
  giftcardsModule,
  cartsModule,
  ordersModule,
  invoicesModule,
  shipmentsModule,
  creditMemosModule,
  checkoutModule,
  cmsModule,
  newsletterModule,
  blogModule,
  contactModule,
  wishlistModule,
  mediaModule,
  revocationModule,
  soapModule,
  webhooksModule,
];

/** Every declared operation: the registry REST, GraphQL and later protocols are served from. */
export function allOperations(): Operation[] {
  return modules.flatMap((m) => m.operations ?? []);
}

/** The GraphQL schema's parts: what the declarations derive (every field is an operation's). */
export function graphqlParts(apiPrefix: string): GraphqlContribution[] {
  const { fields, ...derived } = deriveGraphql(allOperations(), { apiPrefix });
  return [{ ...derived, pageSizes: pageSizesOf(fields) }];
}
